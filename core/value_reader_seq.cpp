// core/value_reader_seq.cpp: --seq input (RFC 7464) as jq 1.8 reads it (its parser's JV_PARSE_SEQ mode): jq starts
// waiting for a record separator (RS, 0x1E), so text before the first one is abandoned; a text that fails to parse
// is reported ("ignoring parse error: ... (need RS to resync)") and jq reads on after the byte where it found it,
// with a fresh parser (it does not wait for the RS its message names); an RS inside a value
// truncates it ("Truncated value", or nothing when the value's last byte was whitespace); a top-level number that
// runs into an RS or the end may have been cut short and is dropped. The values themselves are parsed by the
// ordinary parser over one record at a time; the messages and positions are jq's own (jq_diagnose).
#include <cstring>

#include "core/value_reader.hpp"

namespace jview {

void value_reader::seq_count_to(std::size_t at) noexcept {
  for (std::size_t i = pos_; i < at; ++i) {
    if (buf_[i] == '\n') {
      ++seq_line_;
      seq_column_ = 0;
    } else {
      ++seq_column_;
    }
  }
  pos_ = at;
}

void value_reader::seq_warn(const std::string& what, int line, int column, const char* tail) {
  warnings_.push_back(what + " at line " + std::to_string(line) + ", column " + std::to_string(column) + tail);
}

value_reader::status value_reader::next_seq(document& doc) {
  const auto is_ws = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  for (;;) {
    const char* p = buf_ + pos_;
    const char* end = buf_ + len_;
    if (seq_waiting_) {
      const char* rs = static_cast<const char*>(p < end ? std::memchr(p, 0x1e, static_cast<std::size_t>(end - p)) : nullptr);
      if (rs == nullptr) {
        seq_count_to(len_);
        if (!eof_) {
          if (!fill() && !eof_) return fail_io();
          continue;
        }
        if (read_error_ended()) return fail_io();
        if (!seq_ended_) seq_warn("Unfinished abandoned text at EOF", seq_line_, seq_column_);
        seq_ended_ = true;
        return status::end;
      }
      seq_count_to(static_cast<std::size_t>(rs + 1 - buf_));
      seq_waiting_ = false;
      continue;
    }
    while (p < end && (is_ws(*p) || *p == 0x1e)) ++p;
    seq_count_to(static_cast<std::size_t>(p - buf_));
    if (p == end) {
      if (!eof_) {
        if (!fill() && !eof_) return fail_io();
        continue;
      }
      if (read_error_ended()) return fail_io();
      seq_ended_ = true;
      return status::end;
    }
    // The record: up to the next RS, or to the end of the input (read that far first).
    const char* rs = static_cast<const char*>(std::memchr(p, 0x1e, static_cast<std::size_t>(end - p)));
    if (rs == nullptr && !eof_) {
      if (!fill() && !eof_) return fail_io();
      continue;
    }
    const char* r = rs != nullptr ? rs : end;
    // jq's position of the RS (counted as a byte of its line), or of the end.
    int r_line = seq_line_, r_column = seq_column_;
    for (const char* q = p; q < r; ++q) {
      if (*q == '\n') {
        ++r_line;
        r_column = 0;
      } else {
        ++r_column;
      }
    }
    if (rs != nullptr) ++r_column;
    const char* stop = nullptr;
    parse_error e = parser_.parse(p, r, doc, stop);
    // jq takes a top-level number or literal at the byte after it, and then reads that byte: a ']', '}', ',' or
    // ':' there is an error that drops the value too (jq's message, below); '[', '{' or '"' starts the next one.
    const bool scalar = !e && doc[0].k != kind::string && doc[0].k != kind::array && doc[0].k != kind::object;
    if (scalar && stop < r && std::strchr("]},:", *stop) != nullptr)
      e = {error_code::unexpected_char, static_cast<std::size_t>(stop - p)};
    if (!e) {
      const kind k = doc[0].k;
      if (stop == r && k != kind::string && k != kind::array && k != kind::object) {
        // A number or literal that runs into the RS (or a number into the end) may be cut short: jq drops it.
        if (rs != nullptr) {
          seq_warn(k == kind::number ? "Potentially truncated top-level numeric value" : "Truncated value", r_line,
                   r_column);
          seq_count_to(static_cast<std::size_t>(rs + 1 - buf_));
          continue;
        }
        if (k == kind::number) {
          seq_count_to(len_);
          seq_warn("Potentially truncated top-level numeric value at EOF", seq_line_, seq_column_);
          continue;
        }
      }
      seq_count_to(static_cast<std::size_t>(stop - buf_));
      ++values_;
      return status::value;
    }
    if (e.code == error_code::out_of_memory) {
      io_error_ = error_message(e.code);
      error_ = {error_code::io_error, e.offset};
      error_pos_ = pos_ + e.offset;
      return status::error;
    }
    jq_text_error j;
    const bool jq_fails = jq_diagnose(std::string_view(p, static_cast<std::size_t>(r - p)), j);
    if (jq_fails && j.at_eof) {
      if (rs == nullptr) {  // the end of the input: jq's message as it is
        seq_count_to(len_);
        seq_warn(j.what + " at EOF", seq_line_, seq_column_);
        continue;
      }
      // Cut by the RS: truncated, unless the value's last byte was whitespace outside a string (jq drops it then).
      if (j.what == "Unfinished string" || !is_ws(r[-1])) seq_warn("Truncated value", r_line, r_column);
      seq_count_to(static_cast<std::size_t>(rs + 1 - buf_));
      continue;
    }
    if (jq_fails) {
      // A syntax error: jq says so ("... (need RS to resync)", although it does not wait for one) and reads on,
      // afresh, after the byte it found the error at.
      seq_warn(j.what, j.line == 1 ? seq_line_ : seq_line_ + j.line - 1, j.line == 1 ? seq_column_ + j.column : j.column,
               " (need RS to resync)");
      seq_count_to(static_cast<std::size_t>(p - buf_) + j.offset + 1);
      continue;
    }
    // Where jq would accept the text (nan, leading zeros): jview's own message, and on at the next RS.
    seq_warn(error_message(e.code), seq_line_, seq_column_ + 1, " (need RS to resync)");
    seq_waiting_ = true;
  }
}

}  // namespace jview
