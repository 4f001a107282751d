// core/filter/value.cpp: value boxes, copy-on-write mutation, jq's total order, and compact JSON text
// (tojson, error-message dumps). The JSON text here must match core/writer's compact output byte for byte.
#include "core/filter/value.hpp"

#include <algorithm>
#include <cstring>

#include "core/dtoa.hpp"
#include "core/number.hpp"

namespace jview::filter {
namespace detail {

// One document box kept for the next view (an NDJSON stream makes one per input): no allocation per input.
static doc_box* g_spare_doc = nullptr;

void release(box* b) noexcept {
  switch (b->type) {
    case box_type::doc: {
      auto* d = static_cast<doc_box*>(b);
      if (g_spare_doc != nullptr) {
        delete d;
        break;
      }
      d->doc.reset();  // the document is released now, as by delete
      d->element_cache.clear();
      d->streamed = false;
      g_spare_doc = d;
      break;
    }
    case box_type::literal: delete static_cast<lit_box*>(b); break;
    case box_type::string: delete static_cast<str_box*>(b); break;
    case box_type::array: delete static_cast<arr_box*>(b); break;
    case box_type::object: delete static_cast<obj_box*>(b); break;
  }
}

}  // namespace detail

value value::number_literal(double d, std::string text) {
  return value(kind::number, rep_literal, 0, new detail::lit_box(d, std::move(text)));
}

value value::string(std::string s) { return value(kind::string, rep_string, 0, new detail::str_box(std::move(s))); }

value value::view(std::shared_ptr<const document> doc, std::uint32_t index) {
  const node& n = (*doc)[index];
  detail::doc_box* b = detail::g_spare_doc;
  if (b != nullptr) {
    detail::g_spare_doc = nullptr;
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

value value::member(std::string_view key, bool* found) const {
  if (rep_ == rep_view) {
    // A view object has distinct keys (one that repeats a key is an owned object, see sibling_view): the first
    // match is the member. Plain keys are told apart by length before their bytes are compared.
    const document& d = doc();
    const char* src = d.source();
    const std::uint32_t end = d[idx_].next;
    for (std::uint32_t i = idx_ + 1; i < end;) {
      const node& kn = d[i];
      const char* k = src + kn.offset;
      const bool hit = (kn.flags & (node_flag::escapes | node_flag::bad_utf8)) == 0
                           ? kn.len == key.size() && (key.empty() || (k[0] == key[0] &&
                                                                      std::memcmp(k, key.data(), key.size()) == 0))
                           : d.string_equals(i, key);
      if (hit) {
        if (found) *found = true;
        return sibling_view(i + 1);
      }
      i = d[i + 1].next;
    }
    if (found) *found = false;
    return value();
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

inline std::uint64_t hash_key(std::string_view s) noexcept {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h ^ (h >> 29);
}

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

// ---- order ----

namespace {

// A number literal as sign, significant digits (no leading/trailing zeros) and the decimal exponent of the
// first digit, for exact comparison of literals that round to the same double.
struct decimal {
  bool neg = false;
  std::string digits;
  long exp = 0;
};

bool parse_decimal(std::string_view s, decimal& d) {
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) d.neg = s[i++] == '-';
  long point = -1;
  long ndig = 0;
  std::string digs;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c >= '0' && c <= '9') {
      digs.push_back(c);
      ++ndig;
    } else if (c == '.') {
      point = ndig;
    } else {
      break;
    }
  }
  if (point < 0) point = ndig;
  long e = 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool eneg = false;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) eneg = s[i++] == '-';
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i)
      if (e < 100000000) e = e * 10 + (s[i] - '0');
    if (eneg) e = -e;
  }
  std::size_t lead = 0;
  while (lead < digs.size() && digs[lead] == '0') ++lead;
  std::size_t end = digs.size();
  while (end > lead && digs[end - 1] == '0') --end;
  d.digits = digs.substr(lead, end - lead);
  d.exp = point - static_cast<long>(lead) + e;
  return true;
}

int compare_literals(std::string_view a, std::string_view b) {
  decimal x, y;
  parse_decimal(a, x);
  parse_decimal(b, y);
  const bool xz = x.digits.empty(), yz = y.digits.empty();
  if (xz && yz) return 0;
  const int sx = xz ? 0 : (x.neg ? -1 : 1);
  const int sy = yz ? 0 : (y.neg ? -1 : 1);
  if (sx != sy) return sx < sy ? -1 : 1;
  int mag;
  if (x.exp != y.exp) {
    mag = x.exp < y.exp ? -1 : 1;
  } else {
    const int c = x.digits.compare(y.digits);
    mag = c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  return sx < 0 ? -mag : mag;
}

int compare_numbers(const value& a, const value& b) {
  const double x = a.number(), y = b.number();
  if (x < y) return -1;
  if (x > y) return 1;
  if (x == y) {
    // Rounding is monotonic, so only literals that meet in one double need the exact decimal comparison (jq 1.8
    // compares two literals as decimals, anything else as doubles).
    std::string_view la = a.literal(), lb = b.literal();
    if (la.empty() && lb.empty()) return 0;
    std::string ta, tb;
    if (la.empty()) {
      if (!a.is_exact_literal()) return 0;
      append_double(ta, x);
      la = ta;
    }
    if (lb.empty()) {
      if (!b.is_exact_literal()) return 0;
      append_double(tb, y);
      lb = tb;
    }
    if (la != lb) return compare_literals(la, lb);
    return 0;
  }
  // NaN sorts below every number (jq: nan < anything numeric).
  const bool an = x != x, bn = y != y;
  if (an && bn) return -1;
  return an ? -1 : 1;
}

int compare_strings(std::string_view a, std::string_view b) {
  const int r = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
  if (r != 0) return r < 0 ? -1 : 1;
  if (a.size() == b.size()) return 0;
  return a.size() < b.size() ? -1 : 1;
}

}  // namespace

std::vector<std::string> sorted_keys(const value& obj) {
  std::vector<std::string> keys;
  keys.reserve(obj.length());
  obj.for_each_member([&](std::string_view k, const value&) { keys.emplace_back(k); });
  std::sort(keys.begin(), keys.end(), [](const std::string& a, const std::string& b) { return compare_strings(a, b) < 0; });
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

namespace {

[[noreturn]] void too_deep(const char* message) { throw comparison_too_deep{message}; }

// Whether comparing v with itself at nesting `depth` stays within jq's limit (jq's jv_cmp has no identity test,
// so two references to one deep value fail as two copies would).
bool compare_fits(const value& v, int depth) {
  if (depth > k_max_compare_depth) return false;
  bool ok = true;
  if (v.is_array()) {
    v.for_each_element([&](const value& x) {
      if (ok) ok = compare_fits(x, depth + 1);
    });
  } else if (v.is_object()) {
    if (depth + 1 > k_max_compare_depth || (v.length() > 0 && depth + 2 > k_max_compare_depth)) return false;
    v.for_each_member([&](std::string_view, const value& x) {
      if (ok) ok = compare_fits(x, depth + 1);
    });
  }
  return ok;
}

void elements(const value& v, std::vector<value>& out) {
  out.reserve(v.length());
  v.for_each_element([&](const value& x) { out.push_back(x); });
}

}  // namespace

int compare(const value& a, const value& b, int depth) {
  if (depth > k_max_compare_depth) too_deep("Comparison too deep");
  const kind ka = a.type(), kb = b.type();
  if (ka != kb) return ka < kb ? -1 : 1;
  switch (ka) {
    case kind::null_:
    case kind::false_:
    case kind::true_: return 0;
    case kind::number: return compare_numbers(a, b);
    case kind::string: {
      std::string ta, tb;
      return compare_strings(a.str(ta), b.str(tb));
    }
    case kind::array: {
      if (a.same_storage(b) && compare_fits(a, depth)) return 0;
      const std::uint32_t na = a.length(), nb = b.length();
      const std::uint32_t n = std::min(na, nb);
      if (a.is_owned_array() && b.is_owned_array()) {
        const auto& x = a.array_items();
        const auto& y = b.array_items();
        for (std::uint32_t i = 0; i < n; ++i) {
          const int c = compare(x[i], y[i], depth + 1);
          if (c != 0) return c;
        }
      } else {
        std::vector<value> x, y;
        elements(a, x);
        elements(b, y);
        for (std::uint32_t i = 0; i < n; ++i) {
          const int c = compare(x[i], y[i], depth + 1);
          if (c != 0) return c;
        }
      }
      if (na == nb) return 0;
      return na < nb ? -1 : 1;
    }
    case kind::object: {
      if (a.same_storage(b) && compare_fits(a, depth)) return 0;
      // jq compares the arrays of sorted keys first, one level down (their strings two levels down).
      if (depth + 1 > k_max_compare_depth) too_deep("Comparison too deep");
      const std::vector<std::string> ka_ = sorted_keys(a), kb_ = sorted_keys(b);
      if (!ka_.empty() && !kb_.empty() && depth + 2 > k_max_compare_depth) too_deep("Comparison too deep");
      const std::size_t n = std::min(ka_.size(), kb_.size());
      for (std::size_t i = 0; i < n; ++i) {
        const int c = compare_strings(ka_[i], kb_[i]);
        if (c != 0) return c;
      }
      if (ka_.size() != kb_.size()) return ka_.size() < kb_.size() ? -1 : 1;
      for (const std::string& k : ka_) {
        const int c = compare(a.member(k), b.member(k), depth + 1);
        if (c != 0) return c;
      }
      return 0;
    }
  }
  return 0;
}

bool equals(const value& a, const value& b, int depth) {
  if (depth > k_max_compare_depth) too_deep("Equality check too deep");
  const kind ka = a.type();
  if (ka != b.type()) return false;
  switch (ka) {
    case kind::null_:
    case kind::false_:
    case kind::true_: return true;
    case kind::number: return compare_numbers(a, b) == 0;
    case kind::string: {
      if (a.same_storage(b)) return true;
      std::string ta;
      return b.string_equals(a.str(ta));
    }
    case kind::array: {
      if (a.same_storage(b)) return true;
      const std::uint32_t n = a.length();
      if (n != b.length()) return false;
      if (a.is_owned_array() && b.is_owned_array()) {
        const auto& x = a.array_items();
        const auto& y = b.array_items();
        for (std::uint32_t i = 0; i < n; ++i)
          if (!equals(x[i], y[i], depth + 1)) return false;
        return true;
      }
      std::vector<value> x, y;
      elements(a, x);
      elements(b, y);
      for (std::uint32_t i = 0; i < n; ++i)
        if (!equals(x[i], y[i], depth + 1)) return false;
      return true;
    }
    case kind::object: {
      if (a.same_storage(b)) return true;
      if (a.length() != b.length()) return false;
      bool eq = true;
      a.for_each_member([&](std::string_view k, const value& v) {
        if (!eq) return;
        bool found = false;
        value w = b.member(k, &found);
        if (!found || !equals(v, w, depth + 1)) eq = false;
      });
      // Views may hold duplicate keys (length counts them): fall back to the full order then.
      if (eq) return true;
      if (a.is_view() || b.is_view()) {
        try {
          return compare(a, b, depth) == 0;
        } catch (const comparison_too_deep&) {
          too_deep("Equality check too deep");
        }
      }
      return false;
    }
  }
  return false;
}

// ---- JSON text ----

namespace {

// True when a literal is already in canonical form: an integer without leading zeros (the common case).
bool plain_integer(std::string_view s) {
  std::size_t i = (!s.empty() && s[0] == '-') ? 1 : 0;
  if (i >= s.size()) return false;
  if (s[i] == '0') return i + 1 == s.size();
  for (; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}


constexpr char k_hex[] = "0123456789abcdef";

void append_escaped(std::string& out, std::string_view s) {
  out.push_back('"');
  const char* p = s.data();
  const char* end = p + s.size();
  while (p < end) {
    const char* run = p;
    while (p < end) {
      const unsigned char c = static_cast<unsigned char>(*p);
      if (c < 0x20 || c == '"' || c == '\\' || c == 0x7f) break;
      ++p;
    }
    out.append(run, static_cast<std::size_t>(p - run));
    if (p == end) break;
    const unsigned char c = static_cast<unsigned char>(*p++);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default: {
        char u[6] = {'\\', 'u', '0', '0', k_hex[c >> 4], k_hex[c & 15]};
        out.append(u, 6);
      }
    }
  }
  out.push_back('"');
}

void append_view(std::string& out, const document& d, std::uint32_t i);

void append_view_string(std::string& out, const document& d, std::uint32_t i) {
  const node& n = d[i];
  if ((n.flags & (node_flag::escapes | node_flag::bad_utf8)) == 0) {
    out.push_back('"');
    out.append(d.source() + n.offset, n.len);
    out.push_back('"');
  } else {
    std::string tmp;
    d.append_string(i, tmp);
    append_escaped(out, tmp);
  }
}

void append_view(std::string& out, const document& d, std::uint32_t i) {
  const node& n = d[i];
  switch (n.k) {
    case kind::null_: out += "null"; break;
    case kind::false_: out += "false"; break;
    case kind::true_: out += "true"; break;
    case kind::number: {
      std::string_view raw = d.raw(i);
      if (plain_integer(raw))
        out.append(raw);
      else
        out += canonical_number(raw);
      break;
    }
    case kind::string: append_view_string(out, d, i); break;
    case kind::array: {
      out.push_back('[');
      bool first = true;
      for (std::uint32_t c = i + 1; c < n.next; c = d[c].next) {
        if (!first) out.push_back(',');
        first = false;
        append_view(out, d, c);
      }
      out.push_back(']');
      break;
    }
    case kind::object: {
      out.push_back('{');
      const auto member = [&](std::uint32_t c, bool first) {
        if (!first) out.push_back(',');
        append_view_string(out, d, c);
        out.push_back(':');
        append_view(out, d, c + 1);
      };
      if ((n.flags & node_flag::duplicate_keys) != 0) [[unlikely]] {
        std::vector<std::uint32_t> keys;
        d.unique_member_keys(i, keys);
        for (std::size_t k = 0; k < keys.size(); ++k) member(keys[k], k == 0);
      } else {
        for (std::uint32_t c = i + 1; c < n.next; c = d[c + 1].next) member(c, c == i + 1);
      }
      out.push_back('}');
      break;
    }
  }
}

}  // namespace

std::string canonical_number(std::string_view s) {
  std::size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  std::string digits;
  long frac = 0;
  bool in_frac = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c >= '0' && c <= '9') {
      digits.push_back(c);
      if (in_frac) ++frac;
    } else if (c == '.' && !in_frac) {
      in_frac = true;
    } else {
      break;
    }
  }
  long exp = 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool eneg = false;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) eneg = s[i++] == '-';
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i)
      if (exp < 1000000000L) exp = exp * 10 + (s[i] - '0');
    if (eneg) exp = -exp;
  }
  std::size_t lead = 0;
  while (lead + 1 < digits.size() && digits[lead] == '0') ++lead;
  if (digits.empty()) digits.push_back('0');
  const std::string coeff = digits.substr(lead);
  const long e = exp - frac;
  const long nd = static_cast<long>(coeff.size());
  const long adjusted = e + nd - 1;
  std::string out;
  if (neg) out.push_back('-');
  if (e <= 0 && adjusted >= -6) {
    if (e == 0) {
      out += coeff;
    } else {
      const long point = nd + e;
      if (point > 0) {
        out.append(coeff, 0, static_cast<std::size_t>(point));
        out.push_back('.');
        out.append(coeff, static_cast<std::size_t>(point), std::string::npos);
      } else {
        out += "0.";
        out.append(static_cast<std::size_t>(-point), '0');
        out += coeff;
      }
    }
  } else {
    out.push_back(coeff[0]);
    if (nd > 1) {
      out.push_back('.');
      out.append(coeff, 1, std::string::npos);
    }
    out.push_back('E');
    out.push_back(adjusted < 0 ? '-' : '+');
    out += std::to_string(adjusted < 0 ? -adjusted : adjusted);
  }
  return out;
}

void append_double(std::string& out, double d) {
  char buf[k_max_double_chars + 8];
  char* e = write_double_shortest(d, buf);
  out.append(buf, static_cast<std::size_t>(e - buf));
}


void append_number(std::string& out, const value& v) {
  std::string_view lit = v.literal();
  if (lit.empty()) {
    append_double(out, v.number());
  } else if (!v.is_view() || plain_integer(lit)) {
    out.append(lit);  // program literals are canonical already
  } else {
    out += canonical_number(lit);  // jq 1.8 prints input literals in decNumber's form (1e2 -> 1E+2)
  }
}

namespace {
void append_json_depth(std::string& out, const value& v, int depth);
}

void append_json(std::string& out, const value& v) { append_json_depth(out, v, 0); }

namespace {

// jq stops printing below 10000 levels of nesting.
constexpr int k_max_print_depth = 10000;

void append_json_depth(std::string& out, const value& v, int depth) {
  if (depth > k_max_print_depth) {
    out += "<skipped: too deep>";
    return;
  }
  if (v.is_view()) {
    append_view(out, v.doc(), v.node_index());
    return;
  }
  switch (v.type()) {
    case kind::null_: out += "null"; break;
    case kind::false_: out += "false"; break;
    case kind::true_: out += "true"; break;
    case kind::number: append_number(out, v); break;
    case kind::string: {
      std::string tmp;
      append_escaped(out, v.str(tmp));
      break;
    }
    case kind::array: {
      out.push_back('[');
      bool first = true;
      for (const value& e : v.array_items()) {
        if (!first) out.push_back(',');
        first = false;
        append_json_depth(out, e, depth + 1);
      }
      out.push_back(']');
      break;
    }
    case kind::object: {
      out.push_back('{');
      bool first = true;
      for (const auto& e : v.object_data_ref().entries) {
        if (!first) out.push_back(',');
        first = false;
        append_escaped(out, e.key);
        out.push_back(':');
        append_json_depth(out, e.val, depth + 1);
      }
      out.push_back('}');
      break;
    }
  }
}

}  // namespace

std::string to_json(const value& v) {
  std::string s;
  if (v.is_view() && (v.is_array() || v.is_object())) {
    // Reserve about the source size of the subtree (up to its last node): growing a large string step by step
    // costs more in copies and page faults than the writing itself.
    const document& d = v.doc();
    const std::uint32_t i = v.node_index();
    const jview::node& last = d[d[i].next - 1];
    if (d[i].next - 1 > i) s.reserve(static_cast<std::size_t>(last.offset) + last.len - d[i].offset + 16);
  }
  append_json(s, v);
  return s;
}

std::string to_string(const value& v) {
  if (v.is_string()) return v.string_copy();
  return to_json(v);
}

std::string dump_trunc(const value& v) {
  std::string s = to_json(v);
  constexpr std::size_t k_max = 29;
  if (s.size() <= k_max) return s;
  // jq 1.8 keeps the closing quote or bracket of strings and containers after the "...".
  const bool closer = v.is_string() || v.is_array() || v.is_object();
  std::size_t cut = closer ? 25 : 26;
  // Never split a UTF-8 sequence: back up to the start of the character at the cut.
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xc0) == 0x80) --cut;
  const char last = s.back();
  s.resize(cut);
  s += "...";
  if (closer) s.push_back(last);
  return s;
}

}  // namespace jview::filter
