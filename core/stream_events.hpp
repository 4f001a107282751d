// core/stream_events.hpp: --stream. A parsed input as jq's stream events, one at a time: [path, leaf] for each
// scalar and empty container in document order, and [path] after the last member of each non-empty container
// (the path of that member). Leaves stay views of the document; only the events and their paths are built.
//
// A value that fails to parse still gives the events jq's streaming parser emits before it meets the error
// (start_failed): jq emits a scalar leaf at the ',' or closing bracket after it, an empty container at its closing
// bracket, and a closing event at each ']' / '}'. With --stream-errors the error itself follows as the event
// [message, path] (jq 1.8), path being where the parser stood: an array's current index, an object's key once its
// ':' was read (null before).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/document.hpp"
#include "core/filter/value.hpp"
#include "core/value_reader.hpp"

namespace jview {

class stream_events {
 public:
  stream_events();
  ~stream_events();
  stream_events(const stream_events&) = delete;
  stream_events& operator=(const stream_events&) = delete;

  // Begins the events of doc's value (node 0). Drops the previous document.
  void start(std::shared_ptr<const document> doc);
  // Begins the events of the value reader `r` failed on (r.next() returned error): those of its bytes before the
  // error (value_reader::failed_text), then, when error_text is not empty, [error_text, path]. False when there can
  // be no event.
  bool start_failed(value_reader& r, const parse_options& opts, std::string error_text);
  // The next event; false when the value has no more (the document is then released).
  bool next(filter::value& out);

 private:
  struct frame {
    std::uint32_t child;  // next member's node (an object's: its key)
    std::uint32_t end;    // one past the container's subtree
    std::uint32_t pos;    // members so far (array index)
    bool object;
  };
  class failed_walk;  // the events of a failed value (stream_events.cpp)
  std::shared_ptr<const document> doc_;
  std::vector<frame> stack_;
  std::vector<filter::value> path_;  // one component per open container: the key of its current member
  bool root_pending_ = false;
  std::unique_ptr<failed_walk> failed_;
};

}  // namespace jview
