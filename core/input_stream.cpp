// core/input_stream.cpp: see input_stream.hpp.
#include "core/input_stream.hpp"

#include <cctype>
#include <cstring>
#include <utility>

#include "core/diagnostics.hpp"
#include "core/filter/eval.hpp"
#include "core/jq_stream_error.hpp"
#include "core/text_format.hpp"
#include "core/utf8.hpp"

namespace jview {

input_stream::input_stream(input_options opts, reporter& rep) : o_(std::move(opts)), rep_(rep), events_(o_.parse) {
  if (o_.files.empty()) o_.files.push_back("-");
}

input_stream::~input_stream() = default;

std::shared_ptr<doc_holder> input_stream::next_doc() {
  for (;;) {
    if (!reader_ && !open_next()) return nullptr;
    // The last value still in use (`[inputs]`, -s, `input`): parse into the scratch document, whose arena is reused,
    // and hand out a compact copy in a new holder (and so on while the holder is such a copy, which has no arena:
    // into the same holder once nobody else holds it); otherwise parse into the holder's own document again. A copy
    // has its own bytes: it does not hold the reader's buffer.
    const bool shared = holder_ && holder_.use_count() > 1;
    if (holder_ && !shared) holder_->keep.reset();  // the previous value is gone: let the reader reuse its buffer
    const bool copy = shared || (holder_ && holder_->doc.capacity() == 0);
    if (!holder_) holder_ = std::make_shared<doc_holder>();
    const value_reader::status got = reader_->next(copy ? scratch_ : holder_->doc);
    if (o_.record_separators) {
      std::vector<std::string> warnings = reader_->take_warnings();
      if (in_program_ && !warnings.empty()) {
        // Read by `input` / `inputs`: jq 1.8 makes the first one an error of the program.
        pending_error_ = std::move(warnings.front());
        return nullptr;
      }
      for (const std::string& w : warnings) {
        rep_.flush();
        rep_.parse_ignored(w);
      }
    }
    switch (got) {
      case value_reader::status::value:
        if (copy) {
          if (shared) holder_ = std::make_shared<doc_holder>();
          holder_->doc.copy_from(scratch_);
        } else {
          holder_->keep = reader_->source_keepalive();
        }
        if (o_.progress.consumed != nullptr) o_.progress.consumed(reader_->bytes_consumed());
        return holder_;
      case value_reader::status::end:
        close_reader();
        continue;
      case value_reader::status::error: {
        if (reader_->error().code == error_code::io_error)
          report_read_error();
        else
          report_parse_error();
        close_reader();
        if (!pending_error_.empty()) return nullptr;  // the program's error now (see report_parse_error)
        continue;
      }
    }
  }
}

bool input_stream::next_line(std::string& line) {
  for (;;) {
    if (!reader_ && !open_next()) return false;
    bool nl = false;
    if (reader_->read_line(line, nl)) {
      if (o_.progress.consumed != nullptr) o_.progress.consumed(reader_->bytes_consumed());
      return true;
    }
    if (!reader_->io_error().empty()) report_read_error();
    close_reader();
  }
}

std::string input_stream::read_everything() {
  std::string all;
  while (reader_ || open_next()) {
    if (!reader_->read_all(all)) report_read_error();
    close_reader();
  }
  return utf8::valid_or_replaced(std::move(all));  // -R -s: invalid UTF-8 as jq, U+FFFD
}

bool input_stream::next(filter::value& out) {
  if (o_.slurp && o_.raw) {  // -n -R -s: the whole text as one string
    if (slurped_) return false;
    slurped_ = true;
    out = filter::value::string(read_everything());
    return true;
  }
  if (o_.slurp && !o_.raw) {
    if (slurped_) return false;
    slurped_ = true;
    o_.slurp = false;
    std::vector<filter::value> all;
    filter::value v;
    while (next(v)) all.push_back(std::move(v));
    o_.slurp = true;
    if (!pending_error_.empty()) return false;
    out = filter::value::array(std::move(all));
    return true;
  }
  if (o_.lenient && !o_.raw) return next_lenient(out);
  if (o_.raw) {
    std::string line;
    if (!next_line(line)) return false;
    out = filter::value::string(utf8::valid_or_replaced(std::move(line)));  // -R: invalid UTF-8 as jq, U+FFFD
    return true;
  }
  if (o_.stream) return next_event(out);
  std::shared_ptr<doc_holder> h = next_doc();
  if (!h) return false;
  out = filter::value::view(std::shared_ptr<const document>(h, &h->doc), 0);
  return true;
}

bool input_stream::next_event(filter::value& out) {
  for (;;) {
    if (o_.record_separators) {
      // --seq: each record is parsed whole (value_reader_seq.cpp has jq's rules for its separators), its events
      // made from its text.
      if (seq_doc_) {
        std::size_t used = 0;
        const stream_events::result r = events_.next(seq_doc_->doc.text().substr(seq_at_), true, used, out);
        seq_at_ += used;
        if (r == stream_events::result::event) return true;
        seq_doc_.reset();  // (the end: a record that parsed has no error)
      }
      seq_doc_ = next_doc();
      if (!seq_doc_) return false;
      events_.reset();
      seq_at_ = 0;
      continue;
    }
    if (!reader_ && !open_next()) return false;
    // While a read error is pending, the bytes before it are read as if more could follow: a token it cut short
    // is reported as the read error, not as a parse error.
    const bool last = reader_->at_input_end() && reader_->io_error().empty();
    std::size_t used = 0;
    const stream_events::result r = events_.next(reader_->window(), last, used, out);
    reader_->consume(used);
    switch (r) {
      case stream_events::result::event:
        if (o_.progress.consumed != nullptr) o_.progress.consumed(reader_->bytes_consumed());
        return true;
      case stream_events::result::more:
        if (!reader_->read_more() && !reader_->io_error().empty()) {
          report_read_error();
          close_reader();
        }
        continue;
      case stream_events::result::end:
        close_reader();
        continue;
      case stream_events::result::error:
        if (o_.stream_errors) {
          out = stream_error_event();
          return true;
        }
        reader_->read_line_after(events_.error().offset);  // (the excerpt and the message show its line)
        reader_->fail(events_.error(), events_.error().code == error_code::empty_input);
        report_parse_error();
        close_reader();
        if (!pending_error_.empty()) return false;  // the program's error now (see report_parse_error)
        continue;
    }
  }
}

filter::value input_stream::stream_error_event() {
  // jview's own words, at the byte it failed at (jq's line and column: bytes, the byte itself counted; a newline
  // starts the next line at column 0; at the end, the bytes of the last line), for what jq would accept.
  const parse_error e = events_.error();  // from the start of the window: the token it failed in
  const std::string_view w = reader_->window();
  const source_location start = reader_->location_at(0);  // (lines are counted forward: this one first)
  const source_location at = reader_->location_at(e.offset);
  std::uint64_t line = at.line, column = at.byte_column;
  if (e.offset >= w.size())
    --column;
  else if (w[e.offset] == '\n')
    ++line, column = 0;
  std::string message = format_text("{} at line {}, column {}", error_message(e.code), line, column);
  filter::value path = events_.path();
  // jq's words: its streaming parser, set to its state before the token, reads on from the token until it fails,
  // or takes a value or a structural character at or after that byte (then jq reads on: jview's words stand).
  jq_stream_error jq(events_.jq_state(), start.line, start.byte_column - 1);
  std::uint64_t fed = 0;
  bool failed = false, decided = false, ended = false;
  char last = '\n';
  while (!failed && !decided) {
    const std::string_view bytes = reader_->window();
    std::size_t i = 0;
    while (i < bytes.size() && !failed && !decided) {
      last = bytes[i];
      const std::uint64_t taken = jq.accepted();
      failed = jq.feed(last);
      decided = !failed && fed + i >= e.offset && jq.accepted() != taken;
      ++i;
    }
    reader_->consume(i);
    fed += i;
    if (!failed && !decided && !reader_->read_more()) {
      failed = reader_->io_error().empty() && jq.at_eof();
      ended = true;
      break;
    }
  }
  if (failed) {
    message = jq.message();
    path = jq.path();
  }
  // As jq, reading goes on afresh after the line of the error (jq drops the rest of the line it has read).
  while (!ended && last != '\n') {
    const std::string_view bytes = reader_->window();
    const void* nl = std::memchr(bytes.data(), '\n', bytes.size());
    if (nl != nullptr) {
      reader_->consume(static_cast<std::size_t>(static_cast<const char*>(nl) - bytes.data()) + 1);
      break;
    }
    reader_->consume(bytes.size());
    if (!reader_->read_more()) break;
  }
  events_.reset();
  return filter::value::array({filter::value::string(std::move(message)), std::move(path)});
}

bool input_stream::next_lenient(filter::value& out) {
  for (;;) {
    if (lenient_next_ < lenient_values_.size()) {
      out = std::move(lenient_values_[lenient_next_++]);
      return true;
    }
    if (!lenient_error_.empty()) {
      rep_.flush();
      std::string line = std::exchange(lenient_error_, std::string());
      if (in_program_) {
        pending_error_ = std::move(line);
        return false;
      }
      source_location none;  // (jq's message carries the line and column; no excerpt)
      rep_.parse_failed(line, none);
      continue;
    }
    if (!reader_ && !open_next()) return false;
    std::string all;
    if (!reader_->read_all(all)) {
      report_read_error();
      close_reader();
      continue;
    }
    lenient_values_.clear();
    lenient_next_ = 0;
    std::string err;
    std::string_view text = all;
    if (text.substr(0, 3) == "\xef\xbb\xbf") text.remove_prefix(3);  // a byte order mark, as jq skips it
    if (!filter::detail::parse_json_jq_stream(text, lenient_values_, err)) lenient_error_ = reader_->name() + ": " + err;
    close_reader();
  }
}

std::string input_stream::where() const {
  if (!opened_) return "<unknown>";
  return format_text("{}:{}", name_, current_line());
}

std::uint64_t input_stream::current_line() const {
  if (!reader_) return finished_ ? finished_->current_line() - 1 : 0;
  return o_.raw ? reader_->current_line() - 1 : reader_->lines_read();
}

std::string input_stream::take_error() { return std::exchange(pending_error_, std::string()); }

bool input_stream::open_next() {
  while (next_file_ < o_.files.size()) {
    const std::string& f = o_.files[next_file_++];
    auto r = std::make_unique<value_reader>(o_.parse);
    r->set_before_block([](void* ctx) { static_cast<reporter*>(ctx)->flush(); }, &rep_);
    std::string why;
    if (!r->open(f, why)) {
      rep_.flush();
      rep_.open_failed(f, why);
      continue;
    }
    r->set_record_separators(o_.record_separators);
    r->set_read_counter(o_.progress.read_counter);
    name_ = r->name();
    opened_ = true;
    finished_.reset();
    reader_ = std::move(r);
    if (o_.stream && !o_.record_separators) {  // --stream: token by token (next_event)
      reader_->begin_tokens();
      events_.reset();
    }
    return true;
  }
  return false;
}

void input_stream::close_reader() {
  // Kept, not counted: only an error or input_line_number after the last input asks for its lines.
  if (o_.progress.input_done != nullptr) o_.progress.input_done(reader_->bytes_consumed());
  finished_ = std::move(reader_);
}

void input_stream::report_read_error() {
  rep_.flush();
  rep_.read_failed(reader_->name(), reader_->io_error());
}

// The token is found around the error's column.
std::string strict_message(const source_location& loc, error_code code) {
  const std::string plain(error_message(code));
  if (code == error_code::invalid_utf8) return plain + " (--lenient reads it as jq does)";
  if (code != error_code::unexpected_char && code != error_code::bad_literal && code != error_code::bad_number &&
      code != error_code::leading_zero)
    return plain;
  const std::string_view text = loc.line_text;
  std::size_t at = 0;  // the caret counts characters: to a byte index
  for (std::uint64_t chars = 0; at < text.size() && chars < loc.caret; ++at)
    if ((static_cast<unsigned char>(text[at]) & 0xc0) != 0x80) ++chars;
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '+' || c == '-'; };
  std::size_t b = at, e = at;
  while (b > 0 && word(text[b - 1])) --b;
  while (e < text.size() && word(text[e])) ++e;
  // Only a whole token counts: between structural characters or spaces (or the line's ends).
  auto delim = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == ',' || c == ':' || c == '[' ||
                                   c == ']' || c == '{' || c == '}'; };
  if ((b > 0 && !delim(text[b - 1])) || (e < text.size() && !delim(text[e]))) return plain;
  const std::string_view tok = text.substr(b, e - b);
  std::string_view body = tok;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) body.remove_prefix(1);
  std::string lower(body);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  bool lenient = lower == "nan" || lower == "infinity";
  if (!lenient && !body.empty()) {  // a number jq reads: digits with a leading zero, a bare point, a plus sign
    std::size_t i = 0, digits = 0;
    while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) ++i, ++digits;
    const bool lead_zero = i > 1 && body[0] == '0';
    bool point = false, frac_digits = false;
    if (i < body.size() && body[i] == '.') {
      point = true;
      for (++i; i < body.size() && std::isdigit(static_cast<unsigned char>(body[i])); ++i) frac_digits = true, ++digits;
    }
    if (i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
      ++i;
      if (i < body.size() && (body[i] == '+' || body[i] == '-')) ++i;
      const std::size_t s = i;
      while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) ++i;
      if (i == s) digits = 0;
    }
    lenient = i == body.size() && digits > 0 &&
              (lead_zero || tok[0] == '+' || (point && (!frac_digits || body[0] == '.')));
  }
  if (!lenient) return plain;
  return std::string(tok) + " is not JSON (--lenient reads it as jq does)";
}

void input_stream::report_parse_error() {
  // Values before the error are already written: flush them first so the order on a terminal is right.
  rep_.flush();
  const source_location loc = reader_->location();
  std::string line = format_location_line(reader_->name(), loc, strict_message(loc, reader_->error().code));
  if (in_program_) {
    // Read by `input` / `inputs`: an error of the program, which `try` can catch (jq 1.8), not a report here.
    pending_error_ = std::move(line);
    return;
  }
  rep_.parse_failed(line, loc);
}

}  // namespace jview
