// core/jq_stream_error.hpp: a --stream-errors event's text as jq 1.8 words it. jq's streaming parser reads a byte
// at a time and finds some errors later than a strict parser does (`[1 2]`: at the `]`, "Expected separator
// between values"), with messages of its own ("Unmatched ']' at the top-level") and positions that count bytes.
// When the --stream producer (core/stream_events.hpp) fails in a token, jq's parser is set to the state it would
// have before that token (both accept the same text up to there) and fed the bytes from the token on, until it
// fails too, or takes a value or a structural character at or after the byte the producer failed at (then jq
// reads what jview does not: nan, 01, invalid UTF-8, `[] []`... and jview's own message stands). Implemented
// with jq's other rules in core/filter/jq_json.cpp.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/filter/value.hpp"

namespace jview {

namespace filter::detail {
class jq_reader;
}

// jq's streaming parser's state (jv_parse.c: path, last_seen, next) before a token.
struct jq_stream_state {
  enum class last_seen : std::uint8_t { none, open_array, open_object, colon, comma, value };
  std::vector<filter::value> path;  // per open container: the member's index, its key, or null (no key yet)
  last_seen last = last_seen::none;
  bool has_next = false;            // a value read but not yet placed (a member before its ',', or a key)
  filter::value next;
};

class jq_stream_error {
 public:
  // jq's line and column before the first byte fed: the line's number and the bytes of it before that byte.
  jq_stream_error(jq_stream_state state, std::uint64_t line, std::uint64_t column);
  ~jq_stream_error();
  jq_stream_error(const jq_stream_error&) = delete;
  jq_stream_error& operator=(const jq_stream_error&) = delete;

  // The next byte; true when jq fails at it (message(), path()).
  bool feed(char c);
  // The input has ended; true when jq fails there.
  bool at_eof();
  // How many values and structural characters jq has taken so far (it took the byte just fed when this grew).
  std::uint64_t accepted() const noexcept;
  // "Invalid literal at line 1, column 9" ("... at EOF at line ..."), and jq's path then.
  std::string message() const;
  filter::value path() const;

 private:
  std::unique_ptr<filter::detail::jq_reader> r_;
};

}  // namespace jview
