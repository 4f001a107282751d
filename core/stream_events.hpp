// core/stream_events.hpp: --stream. jq's stream events made from an input's bytes as they arrive: [path, leaf] for
// each scalar and empty container in document order, and [path] after the last member of each non-empty
// container (the path of that member). One producer for good and bad input alike: it reads token by token with the
// parser's own lexical rules (core/json_lexer.hpp), so it accepts and rejects exactly what core/parser does, with
// the same error code at the same byte; it holds no more than the current token and the path, so a value of any
// size streams in memory bounded by its largest leaf.
//
// The events are those jq 1.8's streaming parser emits, at the same points: a scalar member at the ',' or closing
// bracket after it (so a member followed by garbage gives no event), an empty container at its closing bracket,
// a closing event at each ']' / '}', a top-level string at its closing quote and a top-level number or literal at
// the byte after it (none when that byte is ']', '}', ',' or ':', which jq reports as the error instead).
//
// The producer works on a window of bytes the caller owns (core/input_stream.cpp over a value_reader): each call
// says how many bytes it is done with; the next call's window starts after them, with any new bytes appended.
// A token cut by the window's end is read again from its start once more bytes are there (the search for its end
// goes on where it stopped, so a long string arriving in small pieces is not rescanned).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/filter/value.hpp"
#include "core/jq_stream_error.hpp"
#include "core/parser.hpp"

namespace jview {

class stream_events {
 public:
  explicit stream_events(const parse_options& opts);
  ~stream_events();
  stream_events(const stream_events&) = delete;
  stream_events& operator=(const stream_events&) = delete;

  // The next bytes begin a new input (or, after an error, a fresh start as jq's parser makes one).
  void reset();

  enum class result : std::uint8_t {
    event,  // `out` is the next event
    more,   // nothing more can be told without more bytes (never when `last`)
    end,    // `last`, and only whitespace was left
    error,  // error(): the bytes are not JSON (the events before the error are out)
  };
  // Reads on in `in` (`last`: no bytes follow them). `used`: how many of them the producer is done with; the next
  // call's `in` must start right after them. On error, `used` is where the token it failed in begins, and
  // error().offset is counted from there.
  result next(std::string_view in, bool last, std::size_t& used, filter::value& out);
  parse_error error() const noexcept { return error_; }
  // After an error: jq's state before the failed token, and the path where the producer stood (an array's current
  // index, an object's key once its ':' was read, null before).
  jq_stream_state jq_state() const;
  filter::value path() const { return filter::value::array(path_); }

 private:
  enum class state : std::uint8_t {
    top,          // between top-level values
    first_value,  // after '['
    array_value,  // after ',' in an array
    member_value, // after ':'
    first_key,    // after '{'
    key,          // after ',' in an object
    colon,        // after a key
    after_value,  // after a member: ',' or the closing bracket
  };
  struct level {
    bool object;
    std::uint32_t index;  // members so far (arrays: the current index)
  };
  enum class step : std::uint8_t { done, more, fail };
  template <class K>
  result run(std::string_view in, bool last, std::size_t& used, filter::value& out);
  template <class K>
  step string_token(const char* t, const char* end, bool last, const char*& stop, std::string& text);
  step scalar_token(const char* t, const char* end, bool last, const char*& stop, filter::value& leaf,
                    error_code& code);
  void leaf_event(filter::value leaf);
  void close_event();
  void push(filter::value v) { queue_[queued_++] = std::move(v); }

  parse_options opts_;
  bool vector_;  // the vector string and whitespace scanners
  std::size_t (*validate_)(const char*, std::size_t) noexcept;
  state state_ = state::top;
  std::vector<level> levels_;
  std::vector<filter::value> path_;
  filter::value pending_;  // a scalar member, for the ',' or bracket after it
  bool has_pending_ = false;
  std::string key_;        // a key read, for its ':'
  std::uint64_t values_ = 0;  // top-level values so far (--strict: one)
  std::size_t resume_ = 0;    // the search for the end of the token the window starts with goes on from here
  filter::value queue_[2];    // events made by one token (a member's leaf, then its container's closing event)
  std::uint8_t queued_ = 0, popped_ = 0;
  parse_error error_;
};

}  // namespace jview
