// core/text_format.cpp: see text_format.hpp.
#include "core/text_format.hpp"

#include <fmt/format.h>

namespace jview {

std::string vformat_text(fmt::string_view format, fmt::format_args args) { return fmt::vformat(format, args); }

}  // namespace jview
