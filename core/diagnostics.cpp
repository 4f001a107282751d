// core/diagnostics.cpp: parse error text.
#include "core/diagnostics.hpp"

#include <fmt/format.h>

namespace jview {

std::string format_location_line(std::string_view file, const source_location& loc, std::string_view message) {
  return fmt::format("{}:{}:{}: {}", file, loc.line, loc.column, message);
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

}  // namespace jview
