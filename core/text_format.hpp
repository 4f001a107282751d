// core/text_format.hpp: format_text, fmt::format with fmt's formatting engine compiled once (core/text_format.cpp).
// fmt is used header-only: Debian ships no static libfmt, and libfmt.so would load the shared libstdc++ that jview
// links statically for start-up (docs/PERFORMANCE.md). So every file that called fmt::format compiled and optimised
// that engine again: about 3 s of such a file's release build and 9 s of its ASan build. Here a call only packs its
// arguments; the format string is still checked at compile time.
#pragma once
#include <fmt/core.h>

#include <string>

namespace jview {

// fmt::vformat, out of line.
std::string vformat_text(fmt::string_view format, fmt::format_args args);

// As fmt::format(format, args...).
template <class... Args>
std::string format_text(fmt::format_string<Args...> format, Args&&... args) {
  return vformat_text(format, fmt::make_format_args(args...));
}

}  // namespace jview
