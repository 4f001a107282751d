// cli/run.cpp: the default mode: read values from the files (or stdin), run the filter on each, write the results.
// Inputs are documents over mapped or chunked bytes; a document is reused for the next value unless the filter kept
// a view of it. The identity filter writes each input straight from its view.
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "cli/exit_code.hpp"
#include "cli/progress.hpp"
#include "cli/run.hpp"
#include "cli/sink.hpp"
#include "cli/stream_events.hpp"
#include "core/diagnostics.hpp"
#include "core/input.hpp"
#include "core/output.hpp"
#include "core/sanitizer.hpp"
#include "core/filter/program.hpp"
#include "core/filter/value.hpp"

extern char** environ;

namespace jview::cli {
namespace {

// A document and the bytes it points into, shared by every value that views it.
struct doc_holder {
  document doc;
  std::shared_ptr<source_bytes> keep;
};

// All inputs in order, value by value: the main loop and the `input`/`inputs` builtins draw from the same stream.
class input_stream final : public filter::input_provider {
 public:
  input_stream(const options& o, output_buffer& out) : o_(o), out_(out) {
    files_ = o.files;
    if (files_.empty()) files_.push_back("-");
  }

  // The next input document, or nullptr at the end. Open and parse errors are reported here.
  std::shared_ptr<doc_holder> next_doc() {
    for (;;) {
      if (!reader_ && !open_next()) return nullptr;
      // The last value still in use (`[inputs]`, -s, `input`): parse into the scratch document, whose arena is
      // reused, and hand out a compact copy in a new holder (and so on while the holder is such a copy, which has
      // no arena: into the same holder once nobody else holds it); otherwise parse into the holder's own document
      // again. A copy has its own bytes: it does not hold the reader's buffer.
      const bool shared = holder_ && holder_.use_count() > 1;
      if (holder_ && !shared) holder_->keep.reset();  // the previous value is gone: let the reader reuse its buffer
      const bool copy = shared || (holder_ && holder_->doc.capacity() == 0);
      if (!holder_) holder_ = std::make_shared<doc_holder>();
      switch (reader_->next(copy ? scratch_ : holder_->doc)) {
        case value_reader::status::value:
          if (copy) {
            if (shared) holder_ = std::make_shared<doc_holder>();
            holder_->doc.copy_from(scratch_);
          } else {
            holder_->keep = reader_->source_keepalive();
          }
          progress_bytes(reader_->bytes_consumed());
          return holder_;
        case value_reader::status::end:
          close_reader();
          continue;
        case value_reader::status::error:
          // --stream: first the events of the value's bytes before the error (next() takes them; the reader stays
          // at the error, so this case comes again after them), then the error; --stream-errors: it was the last event.
          if (o_.stream && !failed_events_) {
            const bool as_event = o_.stream_errors && reader_->error().code != error_code::io_error;
            failed_events_ = events_.start_failed(
                *reader_, o_.parse,
                as_event ? format_location_line(reader_->name(), reader_->location(), error_message(reader_->error().code))
                         : std::string());
            if (failed_events_) return nullptr;
          }
          failed_events_ = false;
          if (o_.stream_errors && reader_->error().code != error_code::io_error) {
            close_reader();
            continue;
          }
          report_parse_error();
          close_reader();
          if (!pending_error_.empty()) return nullptr;  // the program's error now (see report_parse_error)
          continue;
      }
    }
  }

  // Raw input (-R): the next line as a string; false at the end.
  bool next_line(std::string& line) {
    for (;;) {
      if (!reader_ && !open_next()) return false;
      bool nl = false;
      if (reader_->read_line(line, nl)) {
        progress_bytes(reader_->bytes_consumed());
        return true;
      }
      close_reader();
    }
  }
  // Raw slurp (-R -s): everything as one string.
  std::string read_everything() {
    std::string all;
    while (reader_ || open_next()) {
      if (!reader_->read_all(all)) io_failed();
      close_reader();
    }
    return all;
  }

  bool next(filter::value& out) override {
    if (o_.raw_input) {
      std::string line;
      if (!next_line(line)) return false;
      out = filter::value::string(std::move(line));
      return true;
    }
    if (o_.stream) {
      while (!events_.next(out)) {
        std::shared_ptr<doc_holder> h = next_doc();
        if (!h && failed_events_) continue;
        if (!h) return false;
        const document* d = &h->doc;
        events_.start(std::shared_ptr<const document>(std::move(h), d));
      }
      return true;
    }
    std::shared_ptr<doc_holder> h = next_doc();
    if (!h) return false;
    out = filter::value::view(std::shared_ptr<const document>(h, &h->doc), 0);
    return true;
  }
  // jq's input_filename: "<stdin>" for standard input, null (empty here) before any input was opened.
  std::string current_filename() const override { return opened_ ? name_ : std::string(); }
  // jq's "FILE:LINE" of an error: the lines read so far in the current file (jq reads whole lines, so a JSON
  // value counts its own line; a raw line counts once read). "<unknown>" before any input was opened (-n).
  std::string where() const {
    if (!opened_) return "<unknown>";
    return fmt::format("{}:{}", name_, current_line());
  }
  std::uint64_t current_line() const override {
    if (!reader_) return finished_ ? finished_->current_line() - 1 : 0;
    return o_.raw_input ? reader_->current_line() - 1 : reader_->lines_read();
  }

  int status() const { return status_; }
  // While the program runs, parse errors become its errors (see report_parse_error and take_error).
  void set_in_program(bool on) { in_program_ = on; }
  std::string take_error() override { return std::exchange(pending_error_, std::string()); }

 private:
  bool open_next() {
    while (next_file_ < files_.size()) {
      const std::string& f = files_[next_file_++];
      auto r = std::make_unique<value_reader>(o_.parse);
      std::string why;
      if (!r->open(f, why)) {
        out_.flush();
        eprint("jview: error: Could not open file {}: {}\n", f, why);
        status_ = std::max(status_, static_cast<int>(exit_usage));
        continue;
      }
      r->set_before_block([](void* ctx) { static_cast<output_buffer*>(ctx)->flush(); }, &out_);
      r->set_record_separators(o_.seq);
      r->set_read_counter(progress_read_counter());
      name_ = r->name();
      opened_ = true;
      finished_.reset();
      reader_ = std::move(r);
      return true;
    }
    return false;
  }
  void close_reader() {
    // Kept, not counted: only an error or input_line_number after the last input asks for its lines.
    progress_file_done(reader_->bytes_consumed());
    finished_ = std::move(reader_);
  }
  void io_failed() {
    out_.flush();
    eprint("jview: error: {}: {}\n", reader_->name(), reader_->io_error());
    status_ = std::max(status_, static_cast<int>(exit_usage));
  }
  void report_parse_error() {
    if (reader_->error().code == error_code::io_error) {
      io_failed();
      return;
    }
    // Values before the error are already written: flush them first so the order on a terminal is right.
    out_.flush();
    source_location loc = reader_->location();
    if (in_program_) {
      // Read by `input` / `inputs`: an error of the program, which `try` can catch (jq 1.8), not a report here.
      pending_error_ = format_location_line(reader_->name(), loc, error_message(reader_->error().code));
      return;
    }
    std::string msg = "jview: error: " +
                      format_location_line(reader_->name(), loc, error_message(reader_->error().code)) + "\n" +
                      format_excerpt(loc);
    write_stderr(msg);
    status_ = std::max(status_, static_cast<int>(exit_runtime));
  }

  const options& o_;
  output_buffer& out_;
  std::vector<std::string> files_;
  std::size_t next_file_ = 0;
  std::unique_ptr<value_reader> reader_;
  std::shared_ptr<doc_holder> holder_;
  document scratch_;  // kept values are parsed here first (see next_doc)
  stream_events events_;  // --stream: the current input's events
  bool failed_events_ = false;  // --stream: events_ holds those of a value that failed to parse
  bool in_program_ = false;
  std::string pending_error_;  // a parse error met by `input` / `inputs`, for take_error
  std::string name_ = "<stdin>";
  std::unique_ptr<value_reader> finished_;  // the last input read to its end (its lines, for errors after it)
  bool opened_ = false;
  int status_ = exit_ok;
};

// The start of jq's report of a --rawfile / --slurpfile that cannot be used ("Bad JSON" even for --rawfile).
std::string bad_file_arg(const char* option, const std::string& name, const std::string& path) {
  return fmt::format("jview: Bad JSON in --{} {} {}: ", option, name, path);
}

// The end of a successful run: what is buffered is flushed and the process exits here, instead of returning
// through the destructors of the last input's buffer, document and arenas. Unmapping those one at a time cost 0.1-0.25
// ms of a 3 ms run on the VMs we measure (each munmap flushes the TLB of the other CPU too); the exit frees the whole
// address space at once. A sanitizer build returns, so that LeakSanitizer still sees everything freed.
int end_process(int status) {
#if JVIEW_ASAN
  return status;
#else
  std::fflush(nullptr);
  ::_exit(status);
#endif
}

// Reads a whole file for --rawfile (option "rawfile", variable `name`) or -f (name empty); false (reported) when
// it cannot be read.
bool read_file_text(const std::string& path, std::string& out, const std::string& name = {}) {
  value_reader r(parse_options{});
  std::string why;
  if (!r.open(path, why) || !r.read_all(out)) {
    if (why.empty()) why = r.io_error();
    if (name.empty())
      eprint("jview: error: Could not open file {}: {}\n", path, why);
    else
      eprint("{}Could not open {}: {}\n", bad_file_arg("rawfile", name, path), path, why);
    return false;
  }
  return true;
}

// --slurpfile: the file's values as the JSON text of one array; false (reported) on an error.
bool slurp_file_json(const std::string& name, const std::string& path, const parse_options& popts,
                     std::string& json) {
  value_reader r(popts);
  std::string why;
  if (!r.open(path, why)) {
    eprint("{}Could not open {}: {}\n", bad_file_arg("slurpfile", name, path), path, why);
    return false;
  }
  output_buffer buf(&output_buffer::to_string, &json);
  write_options compact;
  compact.pretty = false;
  writer w(buf, compact);
  document doc;
  buf.put('[');
  bool first = true;
  value_reader::status s;
  while ((s = r.next(doc)) == value_reader::status::value) {
    if (!first) buf.put(',');
    first = false;
    w.value(doc, 0);
  }
  buf.put(']');
  buf.flush();
  if (s == value_reader::status::error) {
    source_location loc = r.location();
    eprint("{}{}\n", bad_file_arg("slurpfile", name, path),
           format_location_line(path, loc, error_message(r.error().code)));
    return false;
  }
  return true;
}

// jq 1.8's report of a compile error: the message, then where it is ("at <top-level>, line L, column C:" or the
// module's path), the line and carets under the offending token (columns count bytes, as jq's do).
std::string format_compile_error(const filter::compile_error& e, bool last = true) {
  std::string msg = "jview: error: " + e.message;
  if (e.length > 0 && e.line > 0) {
    msg += fmt::format(" at {}, line {}, column {}:\n    {}\n    ", e.file.empty() ? "<top-level>" : e.file, e.line,
                       e.column, e.source_line);
    msg.append(static_cast<std::size_t>(std::max(e.column - 1, 0)), ' ');
    msg.append(static_cast<std::size_t>(e.length), '^');
  } else if (e.message.rfind("module not found", 0) == 0) {
    msg += "\n";  // jq's message for a missing module ends in a newline of its own
  }
  msg += "\n";
  for (const filter::compile_error& m : e.more) msg += format_compile_error(m, false);  // jq's further messages
  if (last) msg += e.more.empty() ? "jview: 1 compile error\n" : fmt::format("jview: {} compile errors\n", e.more.size() + 1);
  return msg;
}

}  // namespace

std::unique_ptr<filter::program> compile_program(const options& o, int& status) {
  filter::compile_options copts;
  copts.string_args = o.string_args;
  copts.json_args = o.json_args;
  copts.positional_strings = o.positional_strings;
  copts.positional_json = o.positional_json;
  copts.library_paths = o.library_paths;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const char* eq = std::strchr(*e, '=');
    if (eq != nullptr) copts.environment.emplace_back(std::string(*e, static_cast<std::size_t>(eq - *e)), std::string(eq + 1));
  }
  status = exit_usage;
  for (const auto& [name, path] : o.raw_files) {
    std::string text;
    if (!read_file_text(path, text, name)) return nullptr;
    copts.string_args.emplace_back(name, std::move(text));
  }
  for (const auto& [name, path] : o.slurp_files) {
    std::string json;
    if (!slurp_file_json(name, path, o.parse, json)) return nullptr;
    copts.json_args.emplace_back(name, std::move(json));
  }
  std::string source = o.filter;
  if (!o.from_file.empty()) {
    source.clear();
    if (!read_file_text(o.from_file, source)) return nullptr;
  }
  std::unique_ptr<filter::program> prog;
  try {
    prog = filter::program::compile(source, copts);
  } catch (const filter::compile_error& e) {
    // A bad --argjson / --jsonargs text is a usage error for jq (exit 2), found before the program is compiled.
    if (!e.bad_json_option.empty()) {
      eprint("jview: invalid JSON text passed to --{}\nUse jview --help for help with command-line options.\n",
             e.bad_json_option);
      return nullptr;
    }
    write_stderr(format_compile_error(e));
    status = exit_compile;
    return nullptr;
  }
  status = exit_ok;
  return prog;
}

int run_jq(const options& o) {
  // Compile first: a compile error must not consume input.
  int compiled = exit_ok;
  const std::unique_ptr<filter::program> prog = compile_program(o, compiled);
  if (!prog) return compiled;

  fd_sink sink;
  output_buffer out(&fd_sink::write, &sink);
  const output_guard guard(out, sink);  // out of memory or SIGBUS: the whole values buffered are still written
  write_options wo = o.write;
  wo.color = o.color == 1 || (o.color == -1 && isatty(1) && std::getenv("NO_COLOR") == nullptr);
  if (wo.color) {
    if (const char* jc = std::getenv("JQ_COLORS"); jc != nullptr && !wo.colors.apply(jc))
      eprint("Failed to set $JQ_COLORS\n");
  }
  writer w(out, wo);
  input_stream inputs(o, out);
  progress_meter meter(o, o.files, progress_unit::bytes);  // (stopped before the end: end_process exits)

  bool any_output = false, last_truthy = true;
  int status = exit_ok;
  const char* terminator = o.raw_output0 ? std::string_view("\0", 1).data() : "\n";
  const std::size_t term_len = o.join_output ? 0 : 1;

  auto after_output = [&]() {
    out.append(terminator, term_len);
    if (o.unbuffered) out.flush();
    out.maybe_flush();
  };
  bool nul_in_raw0 = false;  // --raw-output0 met a string holding NUL: nothing more is written for this input
  auto emit = [&](const filter::value& v) {
    if (nul_in_raw0) return;
    if (o.seq) out.put('\x1e');
    if (o.raw_output && v.is_string()) {
      std::string tmp;
      const std::string_view text = v.str(tmp);
      if (o.raw_output0 && text.find('\0') != std::string_view::npos) {
        nul_in_raw0 = true;  // jq 1.8: an error that ends this input's outputs (see run_one)
        return;
      }
      out.append(text);
    } else {
      filter::write_value(w, v);
    }
    any_output = true;
    last_truthy = v.truthy();
    after_output();
  };
  filter::run_callbacks cb;
  cb.emit = emit;
  cb.debug = [&](std::string_view msg) {
    out.flush();
    eprint("{}\n", msg);  // the builtin's whole line: ["DEBUG:",<value>]
  };
  cb.stderr_out = [&](std::string_view text) {
    out.flush();
    write_stderr(text);
  };

  auto run_one = [&](const filter::value& input) -> bool {
    std::string error;
    int halt = -1;
    nul_in_raw0 = false;
    inputs.set_in_program(true);
    bool ok = prog->run(input, &inputs, cb, error, halt);
    inputs.set_in_program(false);
    if (nul_in_raw0 && halt < 0) {
      ok = false;
      error = "Cannot dump a string containing NUL with --raw-output0 option";
    }
    if (!ok) {
      out.flush();
      if (halt >= 0)
        write_stderr(error);  // halt_error: its text exactly as jq writes it
      else if (!nul_in_raw0 && prog->last_error_not_string())
        eprint("jview: error (at {}) (not a string): {}\n", inputs.where(), error);
      else
        eprint("jview: error (at {}): {}\n", inputs.where(), error);
      status = exit_runtime;
    } else {
      status = exit_ok;  // jq's status is that of the last input: an error in an earlier one does not count
    }
    if (halt >= 0) {
      status = halt;
      return false;
    }
    return !sink.broken_pipe && sink.error.empty();
  };

  const bool direct = prog->is_identity() && !o.slurp && !o.raw_input && !o.null_input && !o.stream;
  if (o.null_input) {
    run_one(filter::value());
  } else if (o.slurp) {
    if (o.raw_input) {
      run_one(filter::value::string(inputs.read_everything()));
    } else {
      std::vector<filter::value> all;
      filter::value v;
      while (inputs.next(v)) all.push_back(std::move(v));
      if (inputs.status() != exit_runtime) run_one(filter::value::array(std::move(all)));  // jq: not after a parse error
    }
  } else if (direct) {
    // `.`: each input is written from its view, nothing is built.
    while (std::shared_ptr<doc_holder> h = inputs.next_doc()) {
      const document& d = h->doc;
      if (o.seq) out.put('\x1e');
      if (o.raw_output && d[0].k == kind::string) {
        std::string s;
        d.append_string(0, s);
        out.append(s);
      } else {
        w.value(d, 0);
      }
      any_output = true;
      last_truthy = d[0].k != kind::null_ && d[0].k != kind::false_;
      after_output();
      if (sink.broken_pipe || !sink.error.empty()) break;
    }
  } else {
    filter::value v;
    while (inputs.next(v)) {
      if (!run_one(v)) break;
      v = filter::value();
    }
  }
  meter.stop();
  out.flush();
  if (!sink.error.empty()) {
    eprint("jview: error: writing output: {}\n", sink.error);
    return exit_usage;
  }
  if (sink.broken_pipe) return exit_ok;
  status = std::max(status, inputs.status());
  if (status == exit_ok && o.exit_status) {
    if (!any_output) return end_process(exit_no_output);
    if (!last_truthy) return end_process(exit_false);
  }
  return end_process(status);
}

}  // namespace jview::cli
