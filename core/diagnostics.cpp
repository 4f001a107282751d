// core/diagnostics.cpp: parse error text, compile error text, and the lines of the validation modes' problems.
#include "core/diagnostics.hpp"

#include <algorithm>

#include "core/filter/program.hpp"
#include "core/text_format.hpp"
#include "core/utf8.hpp"

namespace jview {

std::string format_location_line(std::string_view file, const source_location& loc, std::string_view message) {
  return format_text("{}:{}:{}: {}", file, loc.line, loc.column, message);
}

std::string format_excerpt(const source_location& loc) {
  if (loc.line_text.empty()) return {};
  std::string text = loc.line_text;
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  std::string out = "  " + text + "\n  ";
  out.append(loc.caret, ' ');
  out += "^\n";
  return out;
}

namespace {

std::string format_one_compile_error(const filter::compile_error& e, std::string_view program, bool last) {
  std::string msg = format_text("{}: error: {}", program, e.message);
  if (e.length > 0 && e.line > 0) {
    msg += format_text(" at {}, line {}, column {}:\n    {}\n    ", e.file.empty() ? "<top-level>" : e.file, e.line,
                       e.column, e.source_line);
    msg.append(static_cast<std::size_t>(std::max(e.column - 1, 0)), ' ');
    msg.append(static_cast<std::size_t>(e.length), '^');
  } else if (e.message.rfind("module not found", 0) == 0 || e.message.rfind("Relative paths to modules", 0) == 0 ||
             e.message.rfind("Modules must be named", 0) == 0 || e.message.rfind("module names must not", 0) == 0) {
    msg += "\n";  // jq's messages for a missing or misnamed module end in a newline of their own
  }
  msg += "\n";
  if (!e.suggestion.empty()) msg += "did you mean " + e.suggestion + "?\n";  // jview's line after jq's text
  for (const filter::compile_error& m : e.more) msg += format_one_compile_error(m, program, false);  // jq's further
  if (last) {
    msg += e.more.empty() ? format_text("{}: 1 compile error\n", program)
                          : format_text("{}: {} compile errors\n", program, e.more.size() + 1);
  }
  return msg;
}

std::string github_escape(std::string_view s, bool property) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      case ':':
        if (property) out += "%3A"; else out += c;
        break;
      case ',':
        if (property) out += "%2C"; else out += c;
        break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string format_compile_error(const filter::compile_error& e, std::string_view program) {
  return format_one_compile_error(e, program, true);
}

std::string github_escape_data(std::string_view s) { return github_escape(s, false); }
std::string github_escape_property(std::string_view s) { return github_escape(s, true); }

std::string json_quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  while (p < end) {
    const unsigned char c = *p;
    if (c >= 0x80) {
      const std::size_t n = utf8::sequence_length(p, end);
      if (n == 0) {
        out += "\xef\xbf\xbd";  // U+FFFD for the byte that starts no valid sequence
        ++p;
      } else {
        out.append(reinterpret_cast<const char*>(p), n);
        p += n;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20)
          out += format_text("\\u{:04x}", c);
        else
          out += static_cast<char>(c);
    }
    ++p;
  }
  out += '"';
  return out;
}

std::string format_problem(report_format f, const problem& p) {
  switch (f) {
    case report_format::github:
      if (!p.has_position)
        return format_text("::error file={}::{}\n", github_escape_property(p.file), github_escape_data(p.message));
      return format_text("::error file={},line={},col={}::{}\n", github_escape_property(p.file), p.line, p.column,
                         github_escape_data(p.message));
    case report_format::json:
      if (!p.has_position)
        return format_text("{{\"file\":{},\"line\":null,\"column\":null,\"byte_offset\":null,\"message\":{}}}\n",
                           json_quote(p.file), json_quote(p.message));
      return format_text("{{\"file\":{},\"line\":{},\"column\":{},\"byte_offset\":{},\"message\":{}}}\n",
                         json_quote(p.file), p.line, p.column, p.byte_offset, json_quote(p.message));
    case report_format::plain:
      break;
  }
  if (!p.has_position) return format_text("{}:1:1: error: {}\n", p.file, p.message);
  return format_text("{}:{}:{}: error: {}\n", p.file, p.line, p.column, p.message);
}

}  // namespace jview
