// tests/fuzz/stream_check.hpp: the differential check of --stream's event producer (core/stream_events.hpp), shared
// by the unit tests (tests/unit/core/stream_events_test.cpp) and the fuzz target fuzz_stream. Both sides write one
// line per event (compact JSON) and end with "<end>" or the error "<error MESSAGE at byte N line L column C>".
// - reference(): each value parsed whole by core/parser (a value_reader over the bytes in memory) and its document
//   walked; the error as the reader reports it. (A top-level number or literal whose error follows right after
//   it gives no event: jq reads that byte before it hands the scalar out; see stream_events.hpp.)
// - piped(): the real thing, core/input_stream's --stream over a pipe fed in pieces of random size, each written
//   only when the reader would wait (its reporter's flush), so every read returns one piece.
// A line "-" follows the last event of each top-level value. For a value that fails, the reference has no events
// (the parser builds none): compare without them (without_failed_value); the events of a failed value before its
// error are compared between piece sizes (and with jq 1.8's in tests/cli/stream_difftest.py).
#pragma once
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/byte_source.hpp"
#include "core/document.hpp"
#include "core/filter/value.hpp"
#include "core/input_stream.hpp"
#include "core/value_reader.hpp"

namespace jview::stream_check {

// The events of a parsed value, in document order (the walk --stream made before it was incremental).
inline void walk(const std::shared_ptr<const document>& d, std::uint32_t i, std::vector<filter::value>& path,
                 std::string& out) {
  const node& n = (*d)[i];
  const auto event = [&](std::vector<filter::value> items) {
    out += filter::to_json(filter::value::array(std::move(items)));
    out += '\n';
  };
  if ((n.k != kind::array && n.k != kind::object) || n.len == 0) {
    event({filter::value::array(path), filter::value::view(d, i)});
    return;
  }
  std::uint32_t c = i + 1, index = 0;
  path.emplace_back();
  while (c < n.next) {
    std::uint32_t v = c;
    if (n.k == kind::object) {
      path.back() = filter::value::string(d->string_value(c));
      v = c + 1;
    } else {
      path.back() = filter::value::number(index++);
    }
    walk(d, v, path, out);
    c = (*d)[v].next;
  }
  event({filter::value::array(path)});
  path.pop_back();
}

inline std::string error_line(const std::string& message, const source_location& loc) {
  return "<error " + message + " at byte " + std::to_string(loc.byte_offset) + " line " + std::to_string(loc.line) +
         " column " + std::to_string(loc.column) + ">";
}

inline std::string reference(const std::string& bytes, const parse_options& opts) {
  value_reader r(opts);
  r.open(memory_source(bytes, "<test>"));
  std::string out;
  std::size_t last_event = 0;  // where the last value's events begin in out
  std::uint64_t last_end = ~std::uint64_t{0};
  bool last_scalar = false;
  for (;;) {
    auto doc = std::make_shared<document>();
    const value_reader::status s = r.next(*doc);
    if (s == value_reader::status::end) return out + "<end>";
    if (s == value_reader::status::error) {
      const source_location loc = r.location();
      if (last_scalar && loc.byte_offset == last_end) {
        const char c = bytes[loc.byte_offset];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '"' && c != '[' && c != '{')
          out.resize(last_event);
      }
      return out + error_line(strict_message(loc, r.error().code), loc);
    }
    last_event = out.size();
    last_end = r.bytes_consumed();
    const kind k = (*doc)[0].k;
    last_scalar = k != kind::string && k != kind::array && k != kind::object;
    std::vector<filter::value> path;
    walk(doc, 0, path, out);
    out += "-\n";
  }
}

// Where the error line starts, or npos. Only at a line's start: event lines are JSON arrays (they start with '['),
// and a string in the input may hold "<error" itself.
inline std::string::size_type error_line(const std::string& s) {
  if (s.compare(0, 6, "<error") == 0) return 0;
  const std::string::size_type at = s.rfind("\n<error");
  return at == std::string::npos ? at : at + 1;
}

// The events of the value an error cut short (after the last "-" line, before the error) taken out.
inline std::string without_failed_value(const std::string& s) {
  const std::string::size_type err = error_line(s);
  if (err == std::string::npos) return s;
  const std::string::size_type last = s.rfind("-\n", err);
  const std::string::size_type from = last == std::string::npos ? 0 : last + 2;
  return s.substr(0, from) + s.substr(err);
}

// Writes the next piece into the pipe whenever the reader is about to wait for it.
class piece_feeder final : public input_stream::reporter {
 public:
  piece_feeder(const std::string& bytes, int fd, std::uint64_t seed, unsigned max_piece)
      : bytes_(bytes), fd_(fd), rng_(seed), max_piece_(std::max(1u, max_piece)) {}
  ~piece_feeder() override {
    if (fd_ >= 0) ::close(fd_);
  }
  void flush() override {
    if (fd_ < 0) return;
    if (pos_ == bytes_.size()) {
      ::close(fd_);
      fd_ = -1;
      return;
    }
    rng_ += 0x9e3779b97f4a7c15ull;  // splitmix64
    std::uint64_t z = rng_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    const std::size_t n = std::min<std::size_t>(1 + z % max_piece_, bytes_.size() - pos_);
    const ssize_t w = ::write(fd_, bytes_.data() + pos_, n);  // the pipe is empty: never blocks (pieces < 64 KiB)
    if (w > 0) pos_ += static_cast<std::size_t>(w);
  }
  void open_failed(const std::string& file, const std::string& why) override { out += "<open " + file + why + ">"; }
  void read_failed(const std::string& file, const std::string& why) override { out += "<read " + file + why + ">"; }
  void parse_failed(const std::string& where_and_what, const source_location& loc) override {
    const std::string::size_type at = where_and_what.find(": ");  // "FILE:LINE:COLUMN: message"
    out += error_line(where_and_what.substr(at + 2), loc);
  }
  void parse_ignored(const std::string& what) override { out += "<ignored " + what + ">"; }
  std::string out;

 private:
  const std::string& bytes_;
  int fd_;
  std::uint64_t rng_;
  unsigned max_piece_;
  std::size_t pos_ = 0;
};

// max_piece: the largest piece (at most 60000 bytes); each piece a pseudo-random size up to it.
inline std::string piped(const std::string& bytes, const parse_options& opts, std::uint64_t seed, unsigned max_piece) {
  int fds[2];
  if (::pipe(fds) != 0) return "<no pipe>";
  piece_feeder feeder(bytes, fds[1], seed, std::min(max_piece, 60000u));
  {
    input_options io;
    io.files = {"/proc/self/fd/" + std::to_string(fds[0])};
    io.parse = opts;
    io.stream = true;
    input_stream in(io, feeder);
    filter::value ev;
    while (in.next(ev)) {
      feeder.out += filter::to_json(ev);
      feeder.out += '\n';
      // The last event of a top-level value: a top-level leaf [[], x], or the closing [[k]] of its container.
      if ((ev.length() == 2 && ev.element(0).length() == 0) || (ev.length() == 1 && ev.element(0).length() == 1))
        feeder.out += "-\n";
    }
  }
  ::close(fds[0]);
  return error_line(feeder.out) == std::string::npos ? feeder.out + "<end>" : feeder.out;
}

}  // namespace jview::stream_check
