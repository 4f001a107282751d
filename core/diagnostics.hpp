// core/diagnostics.hpp: formats parse errors as `FILE:LINE:COLUMN: message` with an excerpt and a caret.
// Formats only; cli/ decides where the text goes.
#pragma once
#include <string>
#include <string_view>

#include "core/value_reader.hpp"

namespace jview {

// One line: "FILE:LINE:COLUMN: message" (no newline).
std::string format_location_line(std::string_view file, const source_location& loc, std::string_view message);

// The excerpt: the line's text (control characters shown as spaces) and a caret under the column, each line
// indented by two spaces and ending in '\n'. Empty when the line is empty.
std::string format_excerpt(const source_location& loc);

}  // namespace jview
