// core/filter/local_scope.hpp: the compiler's local scope: the variables, closure parameters, local definitions and
// labels a node sees, innermost last (an entry's distance from the top is the number of environment frames between
// the node and its binding). Names are looked up from the top. A small scope is scanned; past k_indexed entries a
// name's entries are also indexed, so that a program of 10^4 definitions and 10^5 calls (or `as` bindings and
// variable references) resolves in time linear in its size, not in the product of the two.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace jview::filter {
struct node;
}  // namespace jview::filter

namespace jview::filter::detail {

struct scope_entry {
  enum kind_t : std::uint8_t { var, closure, func, label } k;
  std::string name;
  std::uint32_t arity = 0;
  node* def = nullptr;  // func: the op::funcdef node
};

class local_scope {
 public:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  std::size_t size() const noexcept { return entries_.size(); }
  const std::vector<scope_entry>& entries() const noexcept { return entries_; }
  const scope_entry& operator[](std::size_t i) const noexcept { return entries_[i]; }

  void push(scope_entry e) {
    entries_.push_back(std::move(e));
    try {
      if (indexed_)
        by_name_[entries_.back().name].push_back(static_cast<std::uint32_t>(entries_.size() - 1));
      else if (entries_.size() > k_indexed)
        build_index();
    } catch (...) {  // (out of memory: the entry goes too, so the two stay in step)
      entries_.pop_back();
      throw;
    }
  }
  // Drops the entries from `mark` on (a scope's end).
  void truncate(std::size_t mark) {
    if (indexed_)
      for (std::size_t i = entries_.size(); i-- > mark;) by_name_[entries_[i].name].pop_back();
    entries_.resize(mark);
  }
  void pop() { truncate(entries_.size() - 1); }

  // The innermost entry named `name` that `match` accepts, or npos.
  template <class Match>
  std::size_t find(const std::string& name, Match match) const {
    if (!indexed_) {
      for (std::size_t i = entries_.size(); i-- > 0;)
        if (entries_[i].name == name && match(entries_[i])) return i;
      return npos;
    }
    const auto it = by_name_.find(name);
    if (it == by_name_.end()) return npos;
    for (std::size_t j = it->second.size(); j-- > 0;)
      if (match(entries_[it->second[j]])) return it->second[j];
    return npos;
  }

 private:
  static constexpr std::size_t k_indexed = 64;

  void build_index() {
    try {
      for (std::size_t i = 0; i < entries_.size(); ++i)
        by_name_[entries_[i].name].push_back(static_cast<std::uint32_t>(i));
    } catch (...) {
      by_name_.clear();
      throw;
    }
    indexed_ = true;
  }

  std::vector<scope_entry> entries_;
  std::unordered_map<std::string, std::vector<std::uint32_t>> by_name_;  // each name's entries, innermost last
  bool indexed_ = false;
};

}  // namespace jview::filter::detail
