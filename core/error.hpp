// core/error.hpp: error codes of the parser and input layer, and their static messages (one table).
// core/ never prints: it returns a code and a byte offset; cli/ turns them into file:line:column diagnostics.
#pragma once
#include <cstddef>
#include <cstdint>

namespace jview {

#define JVIEW_ERROR_CODES(X)                                              \
  X(ok, "no error")                                                       \
  X(empty_input, "no JSON value")                                         \
  X(extra_value, "unexpected data after the JSON value")                  \
  X(unexpected_end, "unexpected end of input")                            \
  X(unexpected_char, "unexpected character")                              \
  X(expected_value, "expected a value")                                   \
  X(expected_key, "expected a string key")                                \
  X(expected_colon, "expected ':' after object key")                      \
  X(expected_comma_or_close_object, "expected ',' or '}' in object")      \
  X(expected_comma_or_close_array, "expected ',' or ']' in array")        \
  X(trailing_comma, "trailing comma")                                     \
  X(bad_literal, "invalid literal")                                       \
  X(bad_number, "invalid number")                                         \
  X(leading_zero, "invalid number: leading zero")                         \
  X(unterminated_string, "unterminated string")                           \
  X(control_in_string, "unescaped control character in string")           \
  X(bad_escape, "invalid escape in string")                               \
  X(bad_unicode_escape, "invalid \\u escape in string")                   \
  X(lone_surrogate, "lone surrogate in \\u escape")                       \
  X(invalid_utf8, "invalid UTF-8")                                        \
  X(too_deep, "exceeds maximum nesting depth")                            \
  X(value_too_large, "value too large (over 4 GiB)")                      \
  X(out_of_memory, "out of memory")                                       \
  X(io_error, "I/O error")

enum class error_code : std::uint8_t {
#define JVIEW_X(name, msg) name,
  JVIEW_ERROR_CODES(JVIEW_X)
#undef JVIEW_X
};

// The static message of a code.
const char* error_message(error_code c) noexcept;

// A parse failure: what and where (byte offset from the start of the buffer handed to the parser).
struct parse_error {
  error_code code = error_code::ok;
  std::size_t offset = 0;
  explicit operator bool() const noexcept { return code != error_code::ok; }
};

}  // namespace jview
