// cli/stream_events.cpp: --stream events over a parsed document (see stream_events.hpp).
#include "cli/stream_events.hpp"

#include <utility>

namespace jview::cli {
namespace {

bool is_leaf(const node& n) noexcept { return (n.k != kind::array && n.k != kind::object) || n.len == 0; }

// A closing event: [path].
filter::value closing(const std::vector<filter::value>& path) {
  std::vector<filter::value> items;
  items.push_back(filter::value::array(path));
  return filter::value::array(std::move(items));
}

}  // namespace

void stream_events::start(std::shared_ptr<const document> doc) {
  doc_ = std::move(doc);
  stack_.clear();
  path_.clear();
  root_pending_ = true;
}

bool stream_events::next(filter::value& out) {
  if (!doc_) return false;
  const document& d = *doc_;
  if (root_pending_) {
    root_pending_ = false;
    if (is_leaf(d[0])) {  // a scalar or empty value: one event with the empty path
      out = filter::value::array({filter::value::empty_array(), filter::value::view(doc_, 0)});
      return true;
    }
    stack_.push_back(frame{1, d[0].next, 0, d[0].k == kind::object});
  }
  for (;;) {
    if (stack_.empty()) {
      doc_.reset();
      return false;
    }
    frame& f = stack_.back();
    if (f.child == f.end) {
      // The container is done: [path of its last member], then its own component goes.
      out = closing(path_);
      stack_.pop_back();
      path_.pop_back();
      return true;
    }
    std::uint32_t v = f.child;
    filter::value key;
    if (f.object) {
      key = filter::value::string(d.string_value(f.child));
      v = f.child + 1;
    } else {
      key = filter::value::number(static_cast<double>(f.pos));
    }
    ++f.pos;
    f.child = d[v].next;
    if (path_.size() < stack_.size())
      path_.push_back(std::move(key));
    else
      path_.back() = std::move(key);
    const node& n = d[v];
    if (is_leaf(n)) {
      out = filter::value::array({filter::value::array(path_), filter::value::view(doc_, v)});
      return true;
    }
    stack_.push_back(frame{v + 1, n.next, 0, n.k == kind::object});
  }
}

}  // namespace jview::cli
