// core/filter/value.cpp: values themselves: boxes and their release, construction, access (numbers, strings,
// elements, members), copy-on-write mutation, detaching from streamed inputs, and owned objects' member index.
// jq's order on values is in value_order.cpp, their JSON text in value_json.cpp.
#include "core/filter/value.hpp"

#include <algorithm>
#include <cstring>
#include <deque>
#include <new>
#include <vector>

#include "core/key_index.hpp"
#include "core/number.hpp"

namespace jview::filter {
namespace detail {

// One document box kept for the next view (an NDJSON stream makes one per input): no allocation per input. One per
// thread (a parallel run's workers each make views of their own documents); a worker's is freed when it ends.
struct spare_doc_slot {
  doc_box* box = nullptr;
  ~spare_doc_slot() { delete box; }
};
thread_local spare_doc_slot g_spare_doc_slot;

namespace {

// Releasing a container releases its elements in turn, so a value nested 10^6 deep (`reduce range(1e6) as $i (0;
// [.])`) would be freed by a recursion 10^6 deep: the evaluation's own large stack holds that, but not the caller's,
// where such a value can end (an error carried out of the run: `error`). Past k_release_depth nested releases, a
// container is queued instead and freed by the outermost release, so the recursion stays that shallow.
constexpr int k_release_depth = 256;
thread_local int g_release_depth = 0;
thread_local std::vector<box*>* g_release_queue = nullptr;  // (allocated when first needed, freed when drained)

void destroy(box* b) noexcept;

[[gnu::noinline]] bool queue_release(box* b) noexcept {
  try {
    if (g_release_queue == nullptr) g_release_queue = new std::vector<box*>();
    g_release_queue->push_back(b);
    return true;
  } catch (const std::bad_alloc&) {
    return false;  // (out of memory: freed at once, by recursion)
  }
}

// Frees the queued containers (which may queue more), one level deep so that their releases do not drain again.
[[gnu::noinline]] void drain_release_queue() noexcept {
  ++g_release_depth;
  while (!g_release_queue->empty()) {
    box* q = g_release_queue->back();
    g_release_queue->pop_back();
    destroy(q);
  }
  delete g_release_queue;
  g_release_queue = nullptr;
  --g_release_depth;
}

}  // namespace

void release(box* b) noexcept {
  if (b->type != box_type::array && b->type != box_type::object) return destroy(b);  // holds no values
  if (g_release_depth >= k_release_depth && queue_release(b)) [[unlikely]]
    return;
  ++g_release_depth;
  destroy(b);
  if (--g_release_depth == 0 && g_release_queue != nullptr) [[unlikely]]
    drain_release_queue();
}

namespace {

void destroy(box* b) noexcept {
  switch (b->type) {
    case box_type::doc: {
      auto* d = static_cast<doc_box*>(b);
      if (g_spare_doc_slot.box != nullptr) {
        delete d;
        break;
      }
      d->doc.reset();  // the document is released now, as by delete
      d->element_cache.clear();
      d->member_cache.clear();
      d->streamed = false;
      g_spare_doc_slot.box = d;
      break;
    }
    case box_type::literal: delete static_cast<lit_box*>(b); break;
    case box_type::string: delete static_cast<str_box*>(b); break;
    case box_type::array: delete static_cast<arr_box*>(b); break;
    case box_type::object: delete static_cast<obj_box*>(b); break;
  }
}

}  // namespace

}  // namespace detail

value value::number_literal(double d, std::string text) {
  return value(kind::number, rep_literal, 0, new detail::lit_box(d, std::move(text)));
}

value value::input_number(double d, std::string text) {
  auto* b = new detail::lit_box(d, std::move(text));
  b->as_read = true;
  return value(kind::number, rep_literal, 0, b);
}

bool value::literal_as_read() const noexcept {
  return rep_ == rep_literal && static_cast<detail::lit_box*>(box_)->as_read;
}

value value::string(std::string s) { return value(kind::string, rep_string, 0, new detail::str_box(std::move(s))); }

value value::view(std::shared_ptr<const document> doc, std::uint32_t index) {
  const node& n = (*doc)[index];
  detail::doc_box* b = detail::g_spare_doc_slot.box;
  if (b != nullptr) {
    detail::g_spare_doc_slot.box = nullptr;
    b->refs = 1;
    b->doc = std::move(doc);
  } else {
    b = new detail::doc_box(std::move(doc));
  }
  value v(n.k, rep_view, index, b);
  if ((n.flags & node_flag::duplicate_keys) != 0) [[unlikely]]
    v.object_mut();
  return v;
}

value value::unique_keys_object(std::uint32_t index) const {
  value v(kind::object, rep_view, index, box_);
  ++box_->refs;
  v.object_mut();  // one member per key, first position, last value (object_data::set)
  return v;
}

value value::array(std::vector<value> items) {
  return value(kind::array, rep_array, 0, new detail::arr_box(std::move(items)));
}

value value::empty_array() { return value(kind::array, rep_array, 0, new detail::arr_box()); }
value value::empty_object() { return value(kind::object, rep_object, 0, new detail::obj_box()); }

const char* value::type_name() const noexcept {
  switch (k_) {
    case kind::null_: return "null";
    case kind::false_:
    case kind::true_: return "boolean";
    case kind::number: return "number";
    case kind::string: return "string";
    case kind::array: return "array";
    case kind::object: return "object";
  }
  return "null";
}

double value::number() const noexcept {
  switch (rep_) {
    case rep_inline: return num_;
    case rep_view: {
      // Integers of up to 15 digits (counts, ids, status codes) are exact in a double: read them directly.
      const document& d = doc();
      const node& n = d[idx_];
      if ((n.flags & node_flag::integer) != 0 && n.len <= 16) {
        const char* p = d.source() + n.offset;
        const char* end = p + n.len;
        const bool neg = *p == '-';
        p += neg;
        if (end - p <= 15) {
          std::int64_t x = 0;
          for (; p < end; ++p) x = x * 10 + (*p - '0');
          return neg ? -static_cast<double>(x) : static_cast<double>(x);
        }
      }
      return number_to_double(d.raw(idx_));
    }
    case rep_literal: return static_cast<detail::lit_box*>(box_)->d;
    default: return 0;
  }
}

std::string_view value::literal() const noexcept {
  if (k_ != kind::number) return {};
  if (rep_ == rep_view) return doc().raw(idx_);
  if (rep_ == rep_literal) return static_cast<detail::lit_box*>(box_)->text;
  return {};
}

std::string_view value::str(std::string& tmp) const {
  if (rep_ == rep_string) return static_cast<detail::str_box*>(box_)->s;
  if (rep_ == rep_view && k_ == kind::string) {
    const document& d = doc();
    const node& n = d[idx_];
    if ((n.flags & (node_flag::escapes | node_flag::bad_utf8)) == 0) return {d.source() + n.offset, n.len};
    tmp.clear();
    d.append_string(idx_, tmp);
    return tmp;
  }
  return {};
}

std::string value::string_copy() const {
  std::string tmp;
  std::string_view s = str(tmp);
  if (s.data() == tmp.data()) return tmp;
  return std::string(s);
}

bool value::string_equals(std::string_view s) const {
  if (rep_ == rep_string) return static_cast<detail::str_box*>(box_)->s == s;
  if (rep_ == rep_view && k_ == kind::string) return doc().string_equals(idx_, s);
  return false;
}

std::uint32_t value::length() const noexcept {
  switch (rep_) {
    case rep_view: return (k_ == kind::array || k_ == kind::object) ? doc()[idx_].len : 0;
    case rep_array: return static_cast<std::uint32_t>(array_items().size());
    case rep_object: return static_cast<std::uint32_t>(object_data_ref().entries.size());
    default: return 0;
  }
}

value value::element(std::uint32_t i) const {
  if (rep_ == rep_array) return array_items()[i];
  const document& d = doc();
  if (i < 16) {
    std::uint32_t n = idx_ + 1;
    while (i-- > 0) n = d[n].next;
    return sibling_view(n);
  }
  // A far element of a view array: index the array's children once per document, so loops like
  // `range(length) as $i | .[$i]` stay linear.
  auto& cache = static_cast<detail::doc_box*>(box_)->element_cache;
  for (auto& [arr, items] : cache)
    if (arr == idx_) return sibling_view(items[i]);
  std::vector<std::uint32_t> items;
  items.reserve(d[idx_].len);
  const std::uint32_t end = d[idx_].next;
  for (std::uint32_t n = idx_ + 1; n < end; n = d[n].next) items.push_back(n);
  const std::uint32_t node_i = items[i];
  if (cache.size() >= 8) cache.erase(cache.begin());
  cache.emplace_back(idx_, std::move(items));
  return sibling_view(node_i);
}

namespace detail {

struct member_index {
  jview::detail::string_index keys;  // the object's keys, in member order
  std::vector<std::uint32_t> nodes;  // their key nodes
  std::deque<std::string> decoded;   // escaped keys, decoded (stable addresses)
};

void member_index_deleter::operator()(member_index* m) const noexcept { delete m; }

}  // namespace detail

namespace {

constexpr std::uint32_t k_member_index_min = 32;  // members scanned at every lookup below this size
constexpr std::size_t k_member_cache_max = 8;     // big objects with a key index per document box

// The key node of `key` in view object obj of d, or document::npos: a scan, the first match (a view object's keys
// are distinct: one that repeats a key is an owned object, see sibling_view). Plain keys are told apart by length
// before their bytes are compared.
std::uint32_t scan_members(const document& d, std::uint32_t obj, std::string_view key) noexcept {
  const char* src = d.source();
  const std::uint32_t end = d[obj].next;
  for (std::uint32_t i = obj + 1; i < end;) {
    const node& kn = d[i];
    const char* k = src + kn.offset;
    const bool hit = (kn.flags & (node_flag::escapes | node_flag::bad_utf8)) == 0
                         ? kn.len == key.size() && (key.empty() || (k[0] == key[0] &&
                                                                    std::memcmp(k, key.data(), key.size()) == 0))
                         : d.string_equals(i, key);
    if (hit) return i;
    i = d[i + 1].next;
  }
  return document::npos;
}

std::unique_ptr<detail::member_index, detail::member_index_deleter> index_members(const document& d,
                                                                                  std::uint32_t obj) {
  std::unique_ptr<detail::member_index, detail::member_index_deleter> m(new detail::member_index);
  std::vector<std::string_view> texts;
  texts.reserve(d[obj].len);
  m->nodes.reserve(d[obj].len);
  const std::uint32_t end = d[obj].next;
  for (std::uint32_t i = obj + 1; i < end; i = d[i + 1].next) {
    if ((d[i].flags & (node_flag::escapes | node_flag::bad_utf8)) != 0) {
      m->decoded.emplace_back();
      d.append_string(i, m->decoded.back());
      texts.emplace_back(m->decoded.back());
    } else {
      texts.push_back(d.raw(i));
    }
    m->nodes.push_back(i);
  }
  m->keys.build(std::move(texts));
  return m;
}

}  // namespace

value value::member(std::string_view key, bool* found) const {
  if (rep_ == rep_view) {
    const document& d = doc();
    std::uint32_t k = document::npos;
    if (d[idx_].len < k_member_index_min) {
      k = scan_members(d, idx_, key);
    } else {
      // A big object: its first lookup scans (one lookup costs no more than before); the second builds a key
      // index, kept with the document box for the lookups after it (expected O(1) each, whatever the keys).
      auto& cache = doc_box_ptr()->member_cache;
      auto it = std::find_if(cache.begin(), cache.end(), [&](const auto& e) { return e.first == idx_; });
      if (it == cache.end()) {
        if (cache.size() >= k_member_cache_max) cache.erase(cache.begin());
        cache.emplace_back(idx_, nullptr);
        k = scan_members(d, idx_, key);
      } else {
        if (!it->second) it->second = index_members(d, idx_);
        const std::uint32_t j = it->second->keys.find(key);
        if (j != jview::detail::string_index::npos) k = it->second->nodes[j];
      }
    }
    if (found) *found = k != document::npos;
    return k != document::npos ? sibling_view(k + 1) : value();
  }
  if (rep_ == rep_object) {
    const auto& o = object_data_ref();
    const std::int64_t p = o.find(key);
    if (found) *found = p >= 0;
    if (p < 0) return value();
    return o.entries[static_cast<std::size_t>(p)].val;
  }
  if (found) *found = false;
  return value();
}

bool value::has_member(std::string_view key) const {
  bool f = false;
  member(key, &f);
  return f;
}

std::vector<value>& value::array_mut() {
  if (rep_ == rep_array) {
    auto* b = static_cast<detail::arr_box*>(box_);
    if (b->refs == 1) return b->items;
    auto* c = new detail::arr_box(b->items);
    --b->refs;
    box_ = c;
    return c->items;
  }
  auto* c = new detail::arr_box();
  if (rep_ == rep_view && k_ == kind::array) {
    c->items.reserve(length());
    for_each_element([&](const value& v) { c->items.push_back(v); });
  }
  drop();
  k_ = kind::array;
  rep_ = rep_array;
  idx_ = 0;
  box_ = c;
  return c->items;
}

std::string& value::string_mut() {
  if (rep_ == rep_string) {
    auto* b = static_cast<detail::str_box*>(box_);
    if (b->refs == 1) return b->s;
    auto* c = new detail::str_box(b->s);
    --b->refs;
    box_ = c;
    return c->s;
  }
  std::string s = string_copy();
  auto* c = new detail::str_box(std::move(s));
  drop();
  k_ = kind::string;
  rep_ = rep_string;
  idx_ = 0;
  box_ = c;
  return c->s;
}

value::object_data& value::object_mut() {
  if (rep_ == rep_object) {
    auto* b = static_cast<detail::obj_box*>(box_);
    if (b->refs == 1) return b->obj;
    auto* c = new detail::obj_box();
    c->obj.entries = b->obj.entries;
    --b->refs;
    box_ = c;
    return c->obj;
  }
  auto* c = new detail::obj_box();
  if (rep_ == rep_view && k_ == kind::object) {
    c->obj.entries.reserve(length());
    for_each_member([&](std::string_view k, const value& v) { c->obj.set(k, v); });
  }
  drop();
  k_ = kind::object;
  rep_ = rep_object;
  idx_ = 0;
  box_ = c;
  return c->obj;
}

// ---- detaching from streamed inputs ----

namespace {
constexpr std::uint32_t k_detach_nodes = 12;    // view containers up to this many nodes are copied out
constexpr std::uint32_t k_detach_members = 16;  // owned containers up to this size are looked into
constexpr int k_detach_depth = 4;               // ... this deep
}  // namespace

// Strings copied out of streamed inputs repeat (a log's levels, services, hosts): the last one seen per hash slot
// is shared instead of copied again. A shared string is copied on write like any other. The slots keep their
// strings to the end of the process (a few KB at most; no global constructor or destructor).
namespace {
constexpr std::size_t k_intern_slots = 256;
constexpr std::size_t k_intern_max = 32;  // longer strings are rarely repeated
detail::str_box* g_interned[k_intern_slots] = {};

std::size_t intern_slot(std::string_view s) noexcept {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return static_cast<std::size_t>(h ^ (h >> 32)) & (k_intern_slots - 1);
}
}  // namespace

value value::interned_string(std::string_view s) {
  if (s.size() > k_intern_max) return string(s);
  detail::str_box*& slot = g_interned[intern_slot(s)];
  if (slot != nullptr && slot->s == s) {
    ++slot->refs;
    return value(kind::string, rep_string, 0, slot);
  }
  value v = string(s);
  if (slot != nullptr && --slot->refs == 0) detail::release(slot);
  slot = static_cast<detail::str_box*>(v.box_);
  ++slot->refs;
  return v;
}

bool value::needs_detach(int depth) const noexcept {
  switch (rep_) {
    case rep_view: {
      if (!doc_box_ptr()->streamed) return false;
      if (k_ == kind::array || k_ == kind::object) return doc()[idx_].next - idx_ <= k_detach_nodes;
      return true;
    }
    case rep_array: {
      if (depth == 0 || array_items().size() > k_detach_members) return false;
      for (const value& v : array_items())
        if (v.needs_detach(depth - 1)) return true;
      return false;
    }
    case rep_object: {
      if (depth == 0 || object_data_ref().entries.size() > k_detach_members) return false;
      for (const auto& e : object_data_ref().entries)
        if (e.val.needs_detach(depth - 1)) return true;
      return false;
    }
    default: return false;
  }
}

void value::detach(int depth) {
  if (!needs_detach(depth)) return;
  switch (rep_) {
    case rep_view:
      switch (k_) {
        case kind::null_: *this = value(); return;
        case kind::false_:
        case kind::true_: *this = boolean(k_ == kind::true_); return;
        case kind::number: {
          // Only a number written in its shortest form prints the same from a double.
          const double d = number();
          std::string shortest;
          append_double(shortest, d);
          if (shortest == doc().raw(idx_)) *this = number_exact(d);
          return;
        }
        case kind::string: {
          std::string tmp;
          *this = interned_string(str(tmp));
          return;
        }
        case kind::array:
          for (value& v : array_mut()) v.detach(depth);
          return;
        case kind::object:
          for (auto& e : object_mut().entries) e.val.detach(depth);
          return;
      }
      return;
    // An owned container is changed in place even when shared: what changes is invisible (the same JSON, order
    // and comparisons), and a copy would cost more than the detaching saves.
    case rep_array:
      for (value& v : static_cast<detail::arr_box*>(box_)->items) v.detach(depth - 1);
      return;
    case rep_object:
      for (auto& e : static_cast<detail::obj_box*>(box_)->obj.entries) e.val.detach(depth - 1);
      return;
    default: return;
  }
}

void value::detach_streamed() { detach(k_detach_depth); }

// ---- objects ----

namespace {

// Seeded (core/key_index.hpp): keys built from the input cannot be made to collide.
inline std::uint64_t hash_key(std::string_view s) noexcept { return jview::detail::key_hash(s); }

constexpr std::size_t k_linear_max = 8;  // members searched linearly before an index is worth building

}  // namespace

void value::object_data::rebuild() const {
  std::size_t cap = 16;
  while (cap < entries.size() * 2) cap <<= 1;
  table_.assign(cap, 0);
  for (std::uint32_t i = 0; i < entries.size(); ++i) index_insert(i);
}

void value::object_data::index_insert(std::uint32_t pos) const {
  const std::size_t mask = table_.size() - 1;
  std::size_t h = hash_key(entries[pos].key) & mask;
  while (table_[h] != 0) h = (h + 1) & mask;
  table_[h] = pos + 1;
}

std::int64_t value::object_data::find(std::string_view key) const {
  if (entries.size() <= k_linear_max) {
    for (std::size_t i = 0; i < entries.size(); ++i)
      if (entries[i].key == key) return static_cast<std::int64_t>(i);
    return -1;
  }
  if (table_.empty()) rebuild();
  const std::size_t mask = table_.size() - 1;
  for (std::size_t h = hash_key(key) & mask;; h = (h + 1) & mask) {
    const std::uint32_t t = table_[h];
    if (t == 0) return -1;
    if (entries[t - 1].key == key) return t - 1;
  }
}

value& value::object_data::slot(std::string_view key) {
  const std::int64_t p = find(key);
  if (p >= 0) return entries[static_cast<std::size_t>(p)].val;
  entries.push_back(entry{std::string(key), value()});
  if (!table_.empty()) {
    if (entries.size() * 2 > table_.size())
      rebuild();
    else
      index_insert(static_cast<std::uint32_t>(entries.size() - 1));
  }
  return entries.back().val;
}

void value::object_data::set(std::string_view key, value v) { slot(key) = std::move(v); }

void value::object_data::set(std::string&& key, value v) {
  const std::int64_t p = find(key);
  if (p >= 0) {
    entries[static_cast<std::size_t>(p)].val = std::move(v);
    return;
  }
  entries.push_back(entry{std::move(key), std::move(v)});
  if (!table_.empty()) {
    if (entries.size() * 2 > table_.size())
      rebuild();
    else
      index_insert(static_cast<std::uint32_t>(entries.size() - 1));
  }
}

bool value::object_data::erase(std::string_view key) {
  const std::int64_t p = find(key);
  if (p < 0) return false;
  entries.erase(entries.begin() + p);
  table_.clear();
  return true;
}

}  // namespace jview::filter
