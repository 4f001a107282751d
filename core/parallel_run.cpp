// core/parallel_run.cpp: see parallel_run.hpp. Three kinds of thread: the producer (opens the inputs in order, cuts
// each into pieces: views of a whole source's bytes, or buffers it reads into and reuses), the workers (each runs its
// copy of the program on one piece at a time and logs what it writes) and the caller's (replays the logs in order,
// and does the rare pieces whose start was wrong, or whose output outgrew a log, itself, straight to the output).
#include "core/parallel_run.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>

#include "core/byte_source.hpp"
#include "core/chunk_cut.hpp"
#include "core/decompress_source.hpp"
#include "core/diagnostics.hpp"
#include "core/filter/value.hpp"
#include "core/input_stream.hpp"
#include "core/line_counter.hpp"
#include "core/program_runner.hpp"
#include "core/text_format.hpp"
#include "core/value_boundary.hpp"
#include "simd/kernels.hpp"
#include "simd/pages.hpp"

namespace jview {
namespace {

constexpr std::size_t k_none = ~std::size_t{0};
// A worker's log of one piece holds at most this much output; past it the caller's thread runs the rest of the
// piece itself, writing as it goes (`range(1e9)` per input keeps memory bounded).
constexpr std::size_t k_log_limit = std::size_t{4} << 20;
// A log's output this long goes out from the log itself, not through the output buffer.
constexpr std::size_t k_write_through = std::size_t{64} << 10;
// An error this close to a piece's end may be the cut's doing (as value_reader's k_cut_margin).
constexpr std::size_t k_cut_margin = 64;

// What one thread would have written for a piece: stdout bytes, and the messages among them.
struct piece_log {
  enum class kind { debug, stderr_text, halt_text, runtime_error, parse_error, read_error };
  struct entry {
    kind k;
    std::size_t at;  // stdout bytes before it
    std::string text;
    bool not_string = false;
    std::uint64_t line = 0;  // runtime_error: lines read in the piece
    source_location loc;     // parse_error: in the piece
    error_code code = error_code::ok;
  };
  std::string out;
  std::vector<entry> entries;
  // The state one thread would be in after the piece.
  bool ran = false, last_failed = false, any_output = false, last_truthy = true;
  bool halted = false, parse_failed = false, overflow = false;
  int halt_code = -1;
  int halt_code_raw = 0;  // the halt's code itself (program_runner::halt_code_raw, for -e)
  int last_result = -1;   // the last input that ended well with outputs: 1 its last output truthy, 0 not; -1 none
  std::uint64_t newlines = 0;   // in the piece
  std::size_t cut_at = k_none;  // the value there goes on past the piece (or, with overflow, outgrew the log)
  void clear() {
    out.clear();
    entries.clear();
    ran = last_failed = any_output = halted = parse_failed = overflow = false;
    last_truthy = true;
    halt_code = -1;
    halt_code_raw = 0;
    last_result = -1;
    newlines = 0;
    cut_at = k_none;
  }
};

// A buffer the producer reads into, used again once the writer is done with its piece.
struct piece_buffer final : source_bytes {
  char* data = nullptr;
  std::size_t cap = 0;
  ~piece_buffer() override { simd::unmap_pages(data, cap); }
};

struct task {
  enum class type { piece, open_failed, read_failed };
  type t = type::piece;
  std::shared_ptr<const std::string> name;
  std::shared_ptr<std::atomic<bool>> stop;  // set by the writer when the input stopped (the producer moves on)
  std::string why;  // open_failed, read_failed
  std::string_view bytes;
  std::shared_ptr<source_bytes> keep;
  bool first = false;  // its input's first piece (a byte order mark may begin it)
  bool last = false;   // its input's last piece
  bool taken = false, done = false;
  piece_log log;
};

// Bytes to run the program on: [start, size) of `bytes`, whose first byte begins a line of the input.
struct region {
  std::string_view bytes;
  std::size_t start = 0;
  bool first = false;
  bool last = false;
  const std::string* name = nullptr;
};

// Where a piece's output and messages go: a log (a worker) or the output itself (the caller's thread).
class piece_sink : public run_messages {
 public:
  virtual output_buffer& out() = 0;
  virtual void parse_error(const source_location& loc, error_code code) = 0;
  virtual void read_error(const std::string& why) = 0;
  const value_reader* reader = nullptr;  // the piece's (runtime errors name its line)
};

class log_sink final : public piece_sink {
 public:
  explicit log_sink(piece_log& log) : log_(log), out_(&log_sink::append, this) {}
  output_buffer& out() override { return out_; }
  void debug(std::string_view line) override { add(piece_log::kind::debug, line); }
  void stderr_text(std::string_view text) override { add(piece_log::kind::stderr_text, text); }
  void halt_text(std::string_view text) override { add(piece_log::kind::halt_text, text); }
  void runtime_error(std::string_view message, bool not_string) override {
    piece_log::entry& e = add(piece_log::kind::runtime_error, message);
    e.not_string = not_string;
    e.line = reader->lines_read();
  }
  void parse_error(const source_location& loc, error_code code) override {
    piece_log::entry& e = add(piece_log::kind::parse_error, {});
    e.loc = loc;
    e.code = code;
  }
  void read_error(const std::string& why) override { add(piece_log::kind::read_error, why); }
  // The log's length as it stands (buffered bytes included), and back to such a length.
  std::size_t mark() const noexcept { return log_.out.size() + out_.buffered(); }
  bool overflowed() const noexcept { return overflow_; }

 private:
  static bool append(void* ctx, const char* data, std::size_t len) {
    auto* self = static_cast<log_sink*>(ctx);
    if (self->log_.out.size() + len > k_log_limit) {
      self->overflow_ = true;
      return false;
    }
    self->log_.out.append(data, len);
    return true;
  }
  piece_log::entry& add(piece_log::kind k, std::string_view text) {
    out_.flush();
    piece_log::entry& e = log_.entries.emplace_back();
    e.k = k;
    e.at = log_.out.size();
    e.text = text;
    return e;
  }
  piece_log& log_;
  output_buffer out_;
  bool overflow_ = false;
};

// One thread's means to run pieces: its program, reader and document, kept from piece to piece.
struct runner_ctx {
  runner_ctx(std::unique_ptr<filter::program> p, const parallel_options& o)
      : prog(std::move(p)),
        opts(o),
        reader(o.parse),
        lines((o.parse.kernels != nullptr ? *o.parse.kernels : simd::active_kernels()).vector_scanners()) {}
  std::unique_ptr<filter::program> prog;
  const parallel_options& opts;
  value_reader reader;
  std::shared_ptr<doc_holder> holder;
  line_counter lines;
};

// The program's inputs as a piece's run sees them: only its file's name (the caller runs programs that read more
// inputs on one thread).
class piece_inputs final : public filter::input_provider {
 public:
  piece_inputs(const std::string& name, const value_reader& r) : name_(name), reader_(r) {}
  bool next(filter::value&) override { return false; }
  std::string current_filename() const override { return name_; }
  std::uint64_t current_line() const override { return reader_.lines_read(); }

 private:
  const std::string& name_;
  const value_reader& reader_;
};

std::uint64_t count_newlines(line_counter& lc, std::string_view b) {
  lc.reset();
  lc.count(b.data(), b.data() + b.size());
  return lc.newlines();
}

// Runs the program on each value of r, as input_stream and the CLI's loop would, into sink; the summary (and, for a
// log, the overflow point) in log.
void run_region(runner_ctx& c, const region& r, piece_sink& sink, piece_log& log, const std::atomic<bool>& cancel,
                log_sink* logged) {
  value_reader& reader = c.reader;
  reader.restart(memory_source(r.bytes, *r.name));
  if (!r.first || r.start != 0) reader.start_at(r.start);
  sink.reader = &reader;
  result_writer results(sink.out(), c.opts.format);
  program_runner runner(*c.prog, results, sink);
  piece_inputs inputs(*r.name, reader);
  const bool identity = c.prog->is_identity();
  for (;;) {
    if (cancel.load(std::memory_order_relaxed)) break;
    const std::size_t before = static_cast<std::size_t>(reader.bytes_consumed());
    if (!c.holder || c.holder.use_count() > 1) c.holder = std::make_shared<doc_holder>();
    const value_reader::status s = reader.next(c.holder->doc);
    if (s == value_reader::status::end) break;
    if (s == value_reader::status::error) {
      const parse_error e = reader.error();
      if (e.code == error_code::io_error) {  // out of memory
        sink.read_error(reader.io_error());
        log.parse_failed = true;
        break;
      }
      const source_location loc = reader.location();
      if (!r.last && (e.code == error_code::unexpected_end || e.code == error_code::unterminated_string ||
                      loc.byte_offset + k_cut_margin > r.bytes.size())) {
        log.cut_at = static_cast<std::size_t>(reader.bytes_consumed());
        break;
      }
      sink.parse_error(loc, e.code);
      log.parse_failed = true;
      break;
    }
    // A value that ends exactly at a piece's end could go on (a number), or the input ended in a read error after
    // it: one thread decides with the bytes that follow.
    if (!r.last && reader.bytes_consumed() == r.bytes.size()) {
      log.cut_at = before;
      break;
    }
    const std::size_t mark = logged != nullptr ? logged->mark() : 0;
    const std::size_t entries = log.entries.size();
    const bool any = results.any_output(), truthy = results.last_truthy(), ran = log.ran, failed = log.last_failed;
    const int last_result = log.last_result;
    const std::uint64_t outputs_before = results.outputs();
    log.ran = true;
    bool halted = false;
    if (identity) {
      results.start_input();
      results.document_value(c.holder->doc);
      log.last_failed = results.nul_met();
      if (log.last_failed) sink.runtime_error(result_writer::k_nul_error, false);
    } else {
      const filter::value v = filter::value::view(std::shared_ptr<const document>(c.holder, &c.holder->doc), 0);
      const program_runner::outcome o = runner.run(v, &inputs);
      log.last_failed = o == program_runner::outcome::error;
      if (o == program_runner::outcome::halted) {
        halted = true;
        log.halted = true;
        log.halt_code = runner.halt_code();
        log.halt_code_raw = runner.halt_code_raw();
      }
    }
    if (!halted && !log.last_failed && results.outputs() > outputs_before) log.last_result = results.last_truthy() ? 1 : 0;
    if (logged != nullptr && logged->overflowed()) {
      // Undone: the caller's thread runs this value and the rest of the piece, writing as it goes.
      log.out.resize(std::min(log.out.size(), mark));
      log.entries.resize(entries);
      log.ran = ran;
      log.last_failed = failed;
      log.halted = false;
      log.halt_code = -1;
      log.last_result = last_result;
      log.overflow = true;
      log.cut_at = before;
      log.any_output = any;
      log.last_truthy = truthy;
      log.newlines = count_newlines(c.lines, r.bytes);
      return;
    }
    if (halted) break;
  }
  sink.out().flush();
  log.any_output = results.any_output();
  log.last_truthy = results.last_truthy();
  log.newlines = count_newlines(c.lines, r.bytes);
}

struct shared_state {
  std::mutex m;
  std::condition_variable work_cv, done_cv, room_cv;
  std::deque<std::unique_ptr<task>> q;  // in input order: the front is the writer's next
  std::size_t next_take = 0;            // index in q of the first piece no worker has taken
  std::size_t max_in_flight = 4;
  bool producer_done = false;
  std::atomic<bool> cancel{false};
  std::vector<std::shared_ptr<piece_buffer>> buffers;  // the producer's, free when only this holds one
  std::vector<std::string> spare_logs;                 // log texts kept for their capacity
};

// ---- the producer ----

class producer {
 public:
  producer(std::shared_ptr<shared_state> s, const parallel_options& o)
      : s_(std::move(s)),
        files_(o.files.empty() ? std::vector<std::string>{"-"} : o.files),
        chunk_(o.chunk_size),
        decompress_(o.parse.decompress) {}
  void run() {
    for (const std::string& f : files_) {
      if (s_->cancel) break;
      std::string why;
      std::unique_ptr<byte_source> src = open_source(f, why);
      if (src && decompress_) src = decompressing(std::move(src));  // (its decoder thread runs ahead of this one)
      if (!src) {
        auto t = std::make_unique<task>();
        t->t = task::type::open_failed;
        t->name = std::make_shared<const std::string>(f);
        t->why = why;
        push(std::move(t));
        continue;
      }
      auto name = std::make_shared<const std::string>(src->name());
      stop_ = std::make_shared<std::atomic<bool>>(false);
      if (src->type() == byte_source::kind::whole)
        cut_whole(*src, name);
      else
        read_pieces(*src, name);
    }
    std::lock_guard<std::mutex> lk(s_->m);
    s_->producer_done = true;
    s_->work_cv.notify_all();
    s_->done_cv.notify_all();
  }

 private:
  void push(std::unique_ptr<task> t) {
    std::unique_lock<std::mutex> lk(s_->m);
    s_->room_cv.wait(lk, [&] { return s_->cancel || s_->q.size() < s_->max_in_flight; });
    if (t->t != task::type::piece) t->taken = t->done = true;
    s_->q.push_back(std::move(t));
    s_->work_cv.notify_one();
    s_->done_cv.notify_all();
  }
  void piece(std::shared_ptr<const std::string> name, std::string_view bytes, std::shared_ptr<source_bytes> keep,
             bool first, bool last) {
    auto t = std::make_unique<task>();
    t->name = std::move(name);
    t->stop = stop_;
    t->bytes = bytes;
    t->keep = std::move(keep);
    t->first = first;
    t->last = last;
    push(std::move(t));
  }
  void cut_whole(const byte_source& src, const std::shared_ptr<const std::string>& name) {
    const std::string_view all = src.whole();
    const std::shared_ptr<source_bytes> keep = src.whole_keepalive();
    std::size_t at = 0;
    bool first = true;
    for (;;) {
      if (s_->cancel || *stop_) return;
      std::size_t c = all.size() - at > chunk_ ? cut_forward(all.data(), all.size(), at + chunk_, false) : 0;
      if (c == 0) c = all.size();
      piece(name, all.substr(at, c - at), keep, first, c == all.size());
      if (c == all.size()) return;
      first = false;
      at = c;
    }
  }
  // A piece's buffer: its bytes and the start of the next line (carried over to the next piece).
  std::size_t buffer_size() const noexcept { return chunk_ + chunk_ / 4 + (std::size_t{64} << 10); }
  // A free buffer of at least `cap` bytes (or a new one).
  std::shared_ptr<piece_buffer> buffer(std::size_t cap) {
    {
      std::lock_guard<std::mutex> lk(s_->m);
      auto& all = s_->buffers;
      for (std::size_t i = 0; i < all.size(); ++i) {
        if (all[i].use_count() != 1) continue;
        if (all[i]->cap >= cap && all[i]->cap <= 4 * std::max(cap, buffer_size())) return all[i];
        if (all[i]->cap > 4 * buffer_size()) {  // a large value's: let it go
          all.erase(all.begin() + static_cast<std::ptrdiff_t>(i));
          --i;
        }
      }
    }
    auto b = std::make_shared<piece_buffer>();
    b->data = static_cast<char*>(simd::map_pages(cap));
    if (b->data == nullptr) return nullptr;
    b->cap = cap;
    std::lock_guard<std::mutex> lk(s_->m);
    s_->buffers.push_back(b);
    return b;
  }
  void read_pieces(byte_source& src, const std::shared_ptr<const std::string>& name) {
    const bool stream = src.type() == byte_source::kind::stream;
    std::shared_ptr<piece_buffer> cur = buffer(buffer_size());
    std::size_t len = 0, want = chunk_;
    bool first = true, eof = false;
    std::string error;
    for (;;) {
      if (cur == nullptr) {
        error = "out of memory";
        eof = true;
        len = 0;
      }
      while (!eof && len < want) {
        if (s_->cancel || *stop_) return;
        if (len == cur->cap) {  // a long line: a larger buffer
          std::shared_ptr<piece_buffer> more = buffer(std::max(cur->cap * 2, want));
          if (more == nullptr) {
            error = "out of memory";
            eof = true;
            break;
          }
          std::memcpy(more->data, cur->data, len);
          cur = std::move(more);
        }
        std::size_t n = 0;
        const byte_source::result r = src.read(cur->data + len, cur->cap - len, n);
        len += n;
        if (r != byte_source::result::ok) {
          eof = true;
          if (r == byte_source::result::error) error = src.error_text();
        } else if (stream && src.would_block()) {
          break;  // what has arrived is processed now (`tail -f log | jview -c .` prints each line)
        }
      }
      std::size_t c = eof ? len : cut_backward(cur->data, len, 0, true);
      // No newline to cut at in this much (NUL bytes from /dev/zero, a huge value on one line): cut anyway; the
      // writer joins the value's pieces again, or a worker finds the error.
      if (c == 0 && len >= 4 * chunk_) c = len;
      if (c == 0 && !eof) {
        want = len + 1;
        continue;
      }
      std::shared_ptr<piece_buffer> next;
      if (!eof) {
        next = buffer(std::max(buffer_size(), len - c + chunk_));
        if (next != nullptr) std::memcpy(next->data, cur->data + c, len - c);
      }
      const bool last = eof && error.empty();
      piece(name, std::string_view(cur->data, c), cur, first, last);
      if (eof) {
        if (!error.empty()) {
          auto t = std::make_unique<task>();
          t->t = task::type::read_failed;
          t->name = name;
          t->why = error;
          push(std::move(t));
        }
        return;
      }
      first = false;
      len -= c;
      want = chunk_;
      cur = std::move(next);
    }
  }

  std::shared_ptr<shared_state> s_;
  std::vector<std::string> files_;
  std::size_t chunk_;
  bool decompress_;  // parse_options::decompress: compressed inputs are read decompressed
  std::shared_ptr<std::atomic<bool>> stop_;  // the current input's
};

// ---- the workers ----

void work(shared_state& s, runner_ctx& c) {
  std::unique_lock<std::mutex> lk(s.m);
  for (;;) {
    while (s.next_take < s.q.size() && s.q[s.next_take]->taken) ++s.next_take;
    if (s.cancel) return;
    if (s.next_take >= s.q.size()) {
      if (s.producer_done) return;
      s.work_cv.wait(lk);
      continue;
    }
    task& t = *s.q[s.next_take++];
    t.taken = true;
    if (!s.spare_logs.empty()) {
      t.log.out = std::move(s.spare_logs.back());
      s.spare_logs.pop_back();
    }
    lk.unlock();
    t.log.clear();
    try {
      log_sink sink(t.log);
      const region r{t.bytes, 0, t.first, t.last, t.name.get()};
      run_region(c, r, sink, t.log, s.cancel, &sink);
    } catch (...) {
      // (out of memory): the caller's thread runs the whole piece itself, and meets the fault as one thread would.
      t.log.clear();
      t.log.overflow = true;
      t.log.cut_at = 0;
    }
    lk.lock();
    t.done = true;
    s.done_cv.notify_all();
  }
}

// ---- the caller's thread: replay in order ----

class direct_sink final : public piece_sink {
 public:
  direct_sink(output_buffer& out, parallel_reporter& rep, const std::string& name, std::uint64_t base,
              std::uint64_t offset)
      : out_(out), rep_(rep), name_(name), base_(base), offset_(offset) {}
  output_buffer& out() override { return out_; }
  void debug(std::string_view line) override {
    out_.flush();
    rep_.debug(line);
  }
  void stderr_text(std::string_view text) override {
    out_.flush();
    rep_.stderr_text(text);
  }
  void halt_text(std::string_view text) override {
    out_.flush();
    rep_.halt_text(text);
  }
  void runtime_error(std::string_view message, bool not_string) override {
    out_.flush();
    rep_.runtime_error(format_text("{}:{}", name_, base_ + reader->lines_read()), message, not_string);
  }
  void parse_error(const source_location& loc, error_code code) override {
    out_.flush();
    source_location l = loc;
    l.line += base_;
    l.byte_offset += offset_;
    rep_.parse_failed(format_location_line(name_, l, strict_message(l, code)), l);
  }
  void read_error(const std::string& why) override {
    out_.flush();
    rep_.read_failed(name_, why);
  }

 private:
  output_buffer& out_;
  parallel_reporter& rep_;
  const std::string& name_;
  std::uint64_t base_, offset_;
};

class replayer {
 public:
  replayer(const parallel_options& o, runner_ctx& ctx, output_buffer& out, parallel_reporter& rep,
           const std::atomic<bool>& cancel)
      : o_(o), ctx_(ctx), out_(out), rep_(rep), cancel_(cancel) {}

  // The next task in order; false: stop the run (halt, or the output is gone).
  bool take(task& t) {
    if (t.name.get() != name_.get()) start_input(t.name);
    const bool was_stopped = stopped_;
    switch (t.t) {
      case task::type::open_failed:
        out_.flush();
        rep_.open_failed(*t.name, t.why);
        break;
      case task::type::read_failed:
        // The input ended in a read error (a truncated or corrupt stream) inside a value begun in an earlier piece:
        // its bytes run here first, as one thread reads them: a syntax error well before their end is that error,
        // a value the end cut short gives way to the read error.
        if (tail_ && !stopped_) run_tail(false);
        tail_ = false;
        if (!stopped_ && !result_.halted) {
          out_.flush();
          rep_.read_failed(*t.name, t.why);
        }
        stopped_ = true;
        break;
      case task::type::piece:
        if (!stopped_) piece(t);
        break;
    }
    if (stopped_ && !was_stopped && t.stop) *t.stop = true;  // the rest of this input is not read
    return !result_.halted && !rep_.stopped();
  }
  const parallel_outcome& result() const noexcept { return result_; }

 private:
  void start_input(std::shared_ptr<const std::string> name) {
    name_ = std::move(name);
    base_ = offset_ = 0;
    stopped_ = tail_ = false;
  }
  void piece(task& t) {
    if (!tail_) {
      replay(t.log);
      after(t.log, t.bytes, t.first, t.last);
      return;
    }
    // The piece before ended inside a value: t is not a piece on its own; the value goes on in its bytes.
    tail_bytes_.append(t.bytes);
    if (!t.last) {
      // (from where the last scan stopped: after() leaves it at the value's start, so the first piece's bytes are
      // scanned too; starting at `was` would begin a fresh scan inside the value)
      std::size_t i = scan_at_;
      if (!scan_done_) scan_done_ = scan_.scan(tail_bytes_.data(), i, tail_bytes_.size(), false, vector_scan());
      scan_at_ = i;
      if (!scan_done_) return;  // the value goes on past this piece too
    }
    run_tail(t.last);
  }
  // The kernel choice's boundary family (the parse options' kernels, else the process's).
  bool vector_scan() const noexcept {
    return (o_.parse.kernels != nullptr ? *o_.parse.kernels : simd::active_kernels()).vector_scanners();
  }
  // Runs the tail (from tail_start_ in tail_bytes_) here, straight to the output.
  void run_tail(bool last) {
    tail_ = false;
    std::string bytes = std::move(tail_bytes_);
    base_ = tail_base_;
    offset_ = tail_offset_;
    piece_log log;
    direct_sink sink(out_, rep_, *name_, base_, offset_);
    const region r{bytes, tail_start_, tail_first_, last, name_.get()};
    run_region(ctx_, r, sink, log, cancel_, nullptr);
    apply(log);
    after(log, bytes, tail_first_, last);
  }
  void replay(const piece_log& log) {
    std::size_t at = 0;
    for (const piece_log::entry& e : log.entries) {
      out_.append(log.out.data() + at, e.at - at);
      at = e.at;
      out_.flush();
      switch (e.k) {
        case piece_log::kind::debug: rep_.debug(e.text); break;
        case piece_log::kind::stderr_text: rep_.stderr_text(e.text); break;
        case piece_log::kind::halt_text: rep_.halt_text(e.text); break;
        case piece_log::kind::runtime_error:
          rep_.runtime_error(format_text("{}:{}", *name_, base_ + e.line), e.text, e.not_string);
          break;
        case piece_log::kind::parse_error: {
          source_location l = e.loc;
          l.line += base_;
          l.byte_offset += offset_;
          rep_.parse_failed(format_location_line(*name_, l, strict_message(l, e.code)), l);
          break;
        }
        case piece_log::kind::read_error: rep_.read_failed(*name_, e.text); break;
      }
    }
    const std::size_t rest = log.out.size() - at;
    if (rest >= k_write_through)
      out_.write_through(log.out.data() + at, rest);  // (a memcpy less)
    else
      out_.append(log.out.data() + at, rest);
    out_.maybe_flush();
    apply(log);
  }
  void apply(const piece_log& log) {
    if (log.ran) {
      result_.ran = true;
      result_.last_failed = log.last_failed;
    }
    if (log.any_output) {
      result_.any_output = true;
      result_.last_truthy = log.last_truthy;
    }
    if (log.last_result >= 0) result_.last_result = log.last_result;
    if (log.halted) {
      result_.halted = true;
      result_.halt_code = log.halt_code;
      result_.halt_code_raw = log.halt_code_raw;
    }
  }
  // After a piece's log (or a tail's run) over `bytes`: where the input stands.
  void after(const piece_log& log, std::string_view bytes, bool first, bool last) {
    if (log.halted) return;
    if (log.parse_failed) {
      stopped_ = true;
      return;
    }
    if (log.cut_at == k_none) {
      base_ += log.newlines;
      offset_ += bytes.size();
      return;
    }
    // The rest, from the start of the cut value's line, is a tail: done here once the value's end is known (at
    // once when the log overflowed: the value is whole in these bytes).
    const std::size_t cut = log.cut_at;
    std::size_t ls = cut;
    while (ls > 0 && bytes[ls - 1] != '\n') --ls;
    std::string rest(bytes.substr(ls));
    tail_base_ = base_ + count_newlines(ctx_.lines, bytes.substr(0, ls));
    tail_offset_ = offset_ + ls;
    tail_start_ = cut - ls;
    tail_first_ = first && ls == 0;
    tail_bytes_ = std::move(rest);
    tail_ = true;
    scan_.reset();
    scan_at_ = tail_start_;
    scan_done_ = false;
    if (log.overflow) run_tail(last);
  }

  const parallel_options& o_;
  runner_ctx& ctx_;
  output_buffer& out_;
  parallel_reporter& rep_;
  const std::atomic<bool>& cancel_;
  parallel_outcome result_;
  std::shared_ptr<const std::string> name_;
  std::uint64_t base_ = 0;    // newlines of the input before the next piece
  std::uint64_t offset_ = 0;  // bytes of the input before the next piece
  bool stopped_ = false;      // the input stopped at a parse or read error
  bool tail_ = false;         // the last piece ended inside a value
  std::string tail_bytes_;
  std::size_t tail_start_ = 0;
  std::uint64_t tail_base_ = 0, tail_offset_ = 0;
  bool tail_first_ = false;
  value_boundary scan_;
  std::size_t scan_at_ = 0;
  bool scan_done_ = false;
};

}  // namespace

parallel_outcome run_parallel(const parallel_options& o,
                              const std::function<std::unique_ptr<filter::program>()>& make_program,
                              output_buffer& out, parallel_reporter& rep) {
  const unsigned n = std::max(1u, o.threads);
  auto s = std::make_shared<shared_state>();
  s->max_in_flight = 2 * n + 1;
  std::vector<std::unique_ptr<runner_ctx>> ctxs;
  for (unsigned i = 0; i <= n; ++i) ctxs.push_back(std::make_unique<runner_ctx>(make_program(), o));
  std::vector<std::thread> workers;
  try {
    for (unsigned i = 0; i < n; ++i) workers.emplace_back([&s, &c = *ctxs[i + 1]] { work(*s, c); });
  } catch (const std::system_error&) {  // no threads to be had (an address-space limit): nothing was read
    s->cancel = true;
    s->work_cv.notify_all();
    for (std::thread& t : workers) t.join();
    parallel_outcome none;
    none.started = false;
    return none;
  }
  auto prod = std::make_shared<producer>(s, o);
  std::thread producer_thread;
  try {
    producer_thread = std::thread([prod] { prod->run(); });
  } catch (const std::system_error&) {
    {
      std::lock_guard<std::mutex> lk(s->m);
      s->cancel = true;
      s->work_cv.notify_all();
    }
    for (std::thread& t : workers) t.join();
    parallel_outcome none;
    none.started = false;
    return none;
  }

  replayer w(o, *ctxs[0], out, rep, s->cancel);
  {
    std::unique_lock<std::mutex> lk(s->m);
    for (;;) {
      if (s->q.empty()) {
        if (s->producer_done) break;
        lk.unlock();
        out.flush();  // before waiting for the input: each value is out as soon as it is done
        lk.lock();
        s->done_cv.wait(lk, [&] { return !s->q.empty() || s->producer_done; });
        continue;
      }
      task& t = *s->q.front();
      if (!t.done) {
        lk.unlock();
        out.flush();
        lk.lock();
        s->done_cv.wait(lk, [&] { return t.done; });
      }
      lk.unlock();
      const bool go_on = w.take(t);
      lk.lock();
      s->spare_logs.push_back(std::move(t.log.out));
      s->q.pop_front();
      if (s->next_take > 0) --s->next_take;
      s->room_cv.notify_one();
      if (!go_on) break;
    }
    s->cancel = true;
    s->work_cv.notify_all();
    s->room_cv.notify_all();
  }
  for (std::thread& t : workers) t.join();
  // The producer may wait in a read from a slow pipe: it is left to the process's exit (it holds its own state).
  bool done;
  {
    std::lock_guard<std::mutex> lk(s->m);
    done = s->producer_done;
  }
  if (done)
    producer_thread.join();
  else
    producer_thread.detach();
  return w.result();
}

}  // namespace jview
