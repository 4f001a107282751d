// cli/stream_events.hpp: --stream. A parsed input as jq's stream events, one at a time: [path, leaf] for each
// scalar and empty container in document order, and [path] after the last member of each non-empty container
// (the path of that member). Leaves stay views of the document; only the events and their paths are built.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "core/document.hpp"
#include "core/filter/value.hpp"

namespace jview::cli {

class stream_events {
 public:
  // Begins the events of doc's value (node 0). Drops the previous document.
  void start(std::shared_ptr<const document> doc);
  // The next event; false when the value has no more (the document is then released).
  bool next(filter::value& out);

 private:
  struct frame {
    std::uint32_t child;  // next member's node (an object's: its key)
    std::uint32_t end;    // one past the container's subtree
    std::uint32_t pos;    // members so far (array index)
    bool object;
  };
  std::shared_ptr<const document> doc_;
  std::vector<frame> stack_;
  std::vector<filter::value> path_;  // one component per open container: the key of its current member
  bool root_pending_ = false;
};

}  // namespace jview::cli
