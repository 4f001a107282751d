// core/filter/ops.cpp: the value operations under jq's operators: indexing and slicing (views stay views),
// iteration, arithmetic with jq's type rules, comparison, getpath/setpath/delpaths, length. Error texts are
// jq 1.8's ("Cannot index number with string (\"a\")", "... cannot be added", ...).
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>

#include "core/filter/eval.hpp"
#include "core/utf8.hpp"

namespace jview::filter::detail {

std::string index_error(const value& t, const value& k) {
  return std::string("Cannot index ") + t.type_name() + " with " + k.type_name() + " (" + dump_trunc(k) + ")";
}

std::size_t utf8_length(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xc0) != 0x80;
  return n;
}

namespace {

// Byte offset of code point `cp` in s (clamped to the end).
std::size_t utf8_offset(std::string_view s, std::size_t cp) {
  std::size_t i = 0;
  while (i < s.size() && cp > 0) {
    ++i;
    while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xc0) == 0x80) ++i;
    --cp;
  }
  return i;
}

// jq's slice bounds: negative from the end, clamped, start floored and end ceiled.
bool slice_bounds(const value& from, const value& to, double len, std::size_t& start, std::size_t& end) {
  if ((!from.is_null() && !from.is_number()) || (!to.is_null() && !to.is_number())) return false;
  // jq 1.8 rounds first (start down, end up), then counts negatives from the end and clamps.
  double s = from.is_null() ? 0 : std::floor(from.number());
  double e = to.is_null() ? len : std::ceil(to.number());
  if (std::isnan(s)) s = 0;
  if (std::isnan(e)) e = len;
  if (s < 0) s += len;
  if (e < 0) e += len;
  if (s < 0) s = 0;
  if (s > len) s = len;
  if (e < 0) e = 0;
  if (e > len) e = len;
  if (e < s) e = s;
  start = static_cast<std::size_t>(s);
  end = static_cast<std::size_t>(e);
  return true;
}

// The slice keys of a {"start":..,"end":..} index object; false when it is not one.
bool slice_keys(const value& k, value& from, value& to) {
  bool fs = false, fe = false;
  from = k.member("start", &fs);
  to = k.member("end", &fe);
  return fs && fe && k.length() == 2;
}

// An array index (truncated toward zero, negative from the end); false when out of range.
bool array_index(double d, std::uint32_t len, std::uint32_t& out) {
  if (std::isnan(d)) return false;
  if (d >= 2147483647.0 || d <= -2147483648.0) return false;
  long long i = static_cast<long long>(d);
  if (i < 0) i += len;
  if (i < 0 || i >= static_cast<long long>(len)) return false;
  out = static_cast<std::uint32_t>(i);
  return true;
}

// Positions where array `sub` occurs in array `a` (jq's `indices` for arrays).
value array_indices(const value& a, const value& sub) {
  std::vector<value> x, y;
  a.for_each_element([&](const value& v) { x.push_back(v); });
  sub.for_each_element([&](const value& v) { y.push_back(v); });
  std::vector<value> out;
  if (!y.empty() && y.size() <= x.size()) {  // (no element: no position, jq 1.8's [])
    for (std::size_t i = 0; i + y.size() <= x.size(); ++i) {
      bool ok = true;
      for (std::size_t j = 0; j < y.size() && ok; ++j) ok = equals(x[i + j], y[j]);
      if (ok) out.push_back(value::number(static_cast<double>(i)));
    }
  }
  return value::array(std::move(out));
}

}  // namespace

st slice_value(interp& I, const value& t, const value& from, const value& to, value& out) {
  switch (t.type()) {
    case kind::null_: out = value(); return st::ok;
    case kind::array: {
      std::size_t s, e;
      if (!slice_bounds(from, to, t.length(), s, e)) return I.fail("Array/string slice indices must be integers");
      std::vector<value> items;
      items.reserve(e - s);
      if (t.is_owned_array()) {
        const auto& src = t.array_items();
        items.assign(src.begin() + static_cast<std::ptrdiff_t>(s), src.begin() + static_cast<std::ptrdiff_t>(e));
      } else {
        std::size_t i = 0;
        t.for_each_element([&](const value& v) {
          if (i >= s && i < e) items.push_back(v);
          ++i;
        });
      }
      out = value::array(std::move(items));
      return st::ok;
    }
    case kind::string: {
      std::string tmp;
      std::string_view str = t.str(tmp);
      std::size_t s, e;
      if (!slice_bounds(from, to, static_cast<double>(utf8_length(str)), s, e))
        return I.fail("Array/string slice indices must be integers");
      const std::size_t bs = utf8_offset(str, s);
      const std::size_t be = bs + utf8_offset(str.substr(bs), e - s);
      out = value::string(str.substr(bs, be - bs));
      return st::ok;
    }
    default: {
      value k = value::empty_object();
      k.object_mut().set(std::string_view("start"), from);
      k.object_mut().set(std::string_view("end"), to);
      return I.fail(index_error(t, k));
    }
  }
}

st index_value(interp& I, const value& t, const value& k, value& out) {
  const kind tk = t.type();
  const kind kk = k.type();
  if (kk == kind::string) {
    if (tk == kind::object) {
      if (t.is_view()) {
        std::string tmp;
        out = t.member(k.str(tmp));
      } else {
        std::string tmp;
        out = t.member(k.str(tmp));
      }
      return st::ok;
    }
    if (tk == kind::null_) {
      out = value();
      return st::ok;
    }
    return I.fail(index_error(t, k));
  }
  if (kk == kind::number) {
    if (tk == kind::array) {
      std::uint32_t i;
      if (array_index(k.number(), t.length(), i))
        out = t.element(i);
      else
        out = value();
      return st::ok;
    }
    if (tk == kind::null_) {
      out = value();
      return st::ok;
    }
    return I.fail(index_error(t, k));
  }
  if (kk == kind::object) {
    value from, to;
    if (tk == kind::array || tk == kind::string || tk == kind::null_) {
      if (!slice_keys(k, from, to)) {
        if (tk == kind::null_) {
          out = value();
          return st::ok;
        }
        return I.fail("Array/string slice indices must be integers");
      }
      return slice_value(I, t, from, to, out);
    }
    return I.fail(index_error(t, k));
  }
  if (kk == kind::array && tk == kind::array) {
    try {
      out = array_indices(t, k);
    } catch (const comparison_too_deep& x) {
      return I.fail(x.message);
    }
    return st::ok;
  }
  return I.fail(index_error(t, k));  // (null with an array too: jq 1.8's "Cannot index null with array")
}

st iterate_value(interp& I, const value& t, sink k) {
  if (t.is_view()) {
    const document& d = t.doc();
    const std::uint32_t i = t.node_index();
    const jview::node& n = d[i];
    if (n.k == kind::array) {
      for (std::uint32_t c = i + 1; c < n.next; c = d[c].next) {
        const st s = k(t.sibling_view(c));
        if (s != st::ok) return s;
      }
      return st::ok;
    }
    if (n.k == kind::object) {
      for (std::uint32_t c = i + 1; c < n.next; c = d[c + 1].next) {
        const st s = k(t.sibling_view(c + 1));
        if (s != st::ok) return s;
      }
      return st::ok;
    }
  } else if (t.is_owned_array()) {
    value hold = t;  // the sink may drop the last other reference
    for (const value& v : hold.array_items()) {
      const st s = k(v);
      if (s != st::ok) return s;
    }
    return st::ok;
  } else if (t.is_owned_object()) {
    value hold = t;
    for (const auto& e : hold.object_data_ref().entries) {
      const st s = k(e.val);
      if (s != st::ok) return s;
    }
    return st::ok;
  }
  return I.fail(std::string("Cannot iterate over ") + t.type_name() +
                (t.is_null() ? std::string(" (null)") : " (" + dump_trunc(t) + ")"));
}

// ---- arithmetic ----

namespace {

std::string arith_error(const value& a, const value& b, const char* verb) {
  return std::string(a.type_name()) + " (" + dump_trunc(a) + ") and " + b.type_name() + " (" + dump_trunc(b) +
         ") " + verb;
}

// jq 1.8.2 limits the nesting that paths, merges and containment checks may reach.
constexpr int k_max_depth = 10000;

bool merge_deep(value& a, const value& b, int depth) {
  if (depth > k_max_depth) return false;
  auto& o = a.object_mut();
  bool ok = true;
  b.for_each_member([&](std::string_view k, const value& v) {
    if (!ok) return;
    value& slot = o.slot(k);
    if (slot.is_object() && v.is_object())
      ok = merge_deep(slot, v, depth + 1);
    else
      slot = v;
  });
  return ok;
}

std::intmax_t dtoi(double n) {
  if (n < static_cast<double>(INTMAX_MIN)) return INTMAX_MIN;
  if (-n <= static_cast<double>(INTMAX_MIN)) return INTMAX_MAX;  // 2^63 and above (jq 1.8: <=)
  return static_cast<std::intmax_t>(n);
}

}  // namespace

st arith(interp& I, int op, const value& a, const value& b, value& out) {
  const kind ka = a.type(), kb = b.type();
  switch (op) {
    case '+':
      if (ka == kind::number && kb == kind::number) {
        out = value::number(a.number() + b.number());
        return st::ok;
      }
      if (ka == kind::null_) {
        out = b;
        return st::ok;
      }
      if (kb == kind::null_) {
        out = a;
        return st::ok;
      }
      if (ka == kind::string && kb == kind::string) {
        std::string ta, tb;
        std::string_view sa = a.str(ta), sb = b.str(tb);
        std::string r;
        r.reserve(sa.size() + sb.size());
        r.append(sa);
        r.append(sb);
        out = value::string(std::move(r));
        return st::ok;
      }
      // Adding an empty array or object gives the left operand itself, as jq's concat and merge do (so that
      // `path(. + [])` is the input's path).
      if (ka == kind::array && kb == kind::array) {
        out = a;
        if (b.length() == 0) return st::ok;
        auto& items = out.array_mut();
        items.reserve(items.size() + b.length());
        b.for_each_element([&](const value& v) { items.push_back(v); });
        return st::ok;
      }
      if (ka == kind::object && kb == kind::object) {
        out = a;
        if (b.length() == 0) return st::ok;
        auto& o = out.object_mut();
        b.for_each_member([&](std::string_view k, const value& v) { o.set(k, v); });
        return st::ok;
      }
      return I.fail(arith_error(a, b, "cannot be added"));
    case '-':
      if (ka == kind::number && kb == kind::number) {
        out = value::number(a.number() - b.number());
        return st::ok;
      }
      if (ka == kind::array && kb == kind::array) {
        std::vector<value> rm;
        b.for_each_element([&](const value& v) { rm.push_back(v); });
        std::vector<value> items;
        try {
          a.for_each_element([&](const value& v) {
            for (const value& r : rm)
              if (equals(v, r)) return;
            items.push_back(v);
          });
        } catch (const comparison_too_deep& x) {
          return I.fail(x.message);
        }
        out = value::array(std::move(items));
        return st::ok;
      }
      return I.fail(arith_error(a, b, "cannot be subtracted"));
    case '*':
      if (ka == kind::number && kb == kind::number) {
        out = value::number(a.number() * b.number());
        return st::ok;
      }
      if ((ka == kind::string && kb == kind::number) || (ka == kind::number && kb == kind::string)) {
        const value& s = ka == kind::string ? a : b;
        const double d = (ka == kind::number ? a : b).number();
        if (std::isnan(d) || d < 0) {
          out = value();
          return st::ok;
        }
        std::string tmp;
        std::string_view sv = s.str(tmp);
        const double n = std::floor(d);
        if (n * static_cast<double>(sv.size()) > 1e9) return I.fail("Repeat string result too long");
        std::string r;
        const std::size_t count = static_cast<std::size_t>(n);
        r.reserve(sv.size() * count);
        for (std::size_t i = 0; i < count; ++i) r.append(sv);
        out = value::string(std::move(r));
        return st::ok;
      }
      if (ka == kind::object && kb == kind::object) {
        out = a;
        if (b.length() == 0) return st::ok;  // (the left operand itself, as for +)
        if (!merge_deep(out, b, 0)) return I.fail("Object merge too deep");
        return st::ok;
      }
      return I.fail(arith_error(a, b, "cannot be multiplied"));
    case '/':
      if (ka == kind::number && kb == kind::number) {
        if (b.number() == 0) return I.fail(arith_error(a, b, "cannot be divided because the divisor is zero"));
        out = value::number(a.number() / b.number());
        return st::ok;
      }
      if (ka == kind::string && kb == kind::string) {
        std::string ta, tb;
        std::string_view s = a.str(ta), sep = b.str(tb);
        std::vector<value> parts;
        if (s.empty()) {
          out = value::array(std::move(parts));
          return st::ok;
        }
        if (sep.empty()) {
          // Split into characters (code points).
          std::size_t i = 0;
          while (i < s.size()) {
            std::size_t j = i + 1;
            while (j < s.size() && (static_cast<unsigned char>(s[j]) & 0xc0) == 0x80) ++j;
            parts.push_back(value::string(s.substr(i, j - i)));
            i = j;
          }
        } else {
          std::size_t start = 0;
          for (;;) {
            const std::size_t p = s.find(sep, start);
            if (p == std::string_view::npos) {
              parts.push_back(value::string(s.substr(start)));
              break;
            }
            parts.push_back(value::string(s.substr(start, p - start)));
            start = p + sep.size();
          }
        }
        out = value::array(std::move(parts));
        return st::ok;
      }
      return I.fail(arith_error(a, b, "cannot be divided"));
    case '%':
      if (ka == kind::number && kb == kind::number) {
        const double x = a.number(), y = b.number();
        if (std::isnan(x) || std::isnan(y)) {
          out = value::number(std::nan(""));
          return st::ok;
        }
        const std::intmax_t bi = dtoi(y);
        if (bi == 0)
          return I.fail(arith_error(a, b, "cannot be divided (remainder) because the divisor is zero"));
        out = value::number(bi == -1 ? 0.0 : static_cast<double>(dtoi(x) % bi));
        return st::ok;
      }
      return I.fail(arith_error(a, b, "cannot be divided (remainder)"));
  }
  return I.fail("unknown operator");
}

st arith_inplace(interp& I, int op, value& a, const value& b) {
  if (op == '+') {
    const kind ka = a.type(), kb = b.type();
    if (kb == kind::null_) return st::ok;
    if (ka == kind::null_) {
      a = b;
      return st::ok;
    }
    if (ka == kind::array && kb == kind::array) {
      auto& items = a.array_mut();
      b.for_each_element([&](const value& v) { items.push_back(v); });
      return st::ok;
    }
    if (ka == kind::object && kb == kind::object) {
      auto& o = a.object_mut();
      b.for_each_member([&](std::string_view k, const value& v) { o.set(k, v); });
      return st::ok;
    }
    if (ka == kind::string && kb == kind::string) {
      std::string tmp;
      std::string_view sb = b.str(tmp);
      a.string_mut().append(sb);
      return st::ok;
    }
  }
  value out;
  const st s = arith(I, op, a, b, out);
  if (s != st::ok) return s;
  a = std::move(out);
  return st::ok;
}

bool compare_op(int op, const value& a, const value& b) {
  switch (op) {
    case cmp_eq: return equals(a, b);
    case cmp_ne: return !equals(a, b);
    case cmp_lt: return compare(a, b) < 0;
    case cmp_le: return compare(a, b) <= 0;
    case cmp_gt: return compare(a, b) > 0;
    case cmp_ge: return compare(a, b) >= 0;
  }
  return false;
}

value negate(const value& v) {
  std::string_view lit = v.literal();
  if (!lit.empty()) {
    // jq 1.8 negates literals exactly (decNumber): the text keeps its digits; zero stays unsigned.
    const double d = v.number();
    bool zero = true;
    for (char c : lit) {
      if (c >= '1' && c <= '9') {
        zero = false;
        break;
      }
      if (c == 'e' || c == 'E') break;
    }
    if (lit.front() == '-') return value::number_literal(-d, std::string(lit.substr(1)));
    if (zero) return value::number_literal(0.0, std::string(lit));
    return value::number_literal(-d, "-" + std::string(lit));
  }
  if (v.is_exact_literal()) {
    const double d = v.number();
    return value::number_exact(d == 0 ? 0.0 : -d);
  }
  return value::number(-v.number());
}

// ---- paths ----

const path_link k_invalid_path{nullptr, value()};

std::size_t path_length(const path_link* p) {
  std::size_t n = 0;
  for (; p != nullptr; p = p->parent) ++n;
  return n;
}

void path_keys(const path_link* p, std::vector<value>& out) {
  const std::size_t n = path_length(p);
  const std::size_t base = out.size();
  out.resize(base + n);
  for (std::size_t i = n; p != nullptr; p = p->parent) out[base + --i] = p->key;
}

value path_to_array(const path_link* p) {
  std::vector<value> keys;
  path_keys(p, keys);
  return value::array(std::move(keys));
}

st getpath(interp& I, const value& root, const value& path, value& out) {
  if (!path.is_array()) return I.fail("Path must be specified as an array");
  if (path.length() > 10000) return I.fail("Path too deep");
  value cur = root;
  const std::uint32_t n = path.length();
  for (std::uint32_t i = 0; i < n; ++i) {
    const value key = path.element(i);
    // null indexed by a string, number or slice is null (jq's jv_get, slices unchecked); by any other key an
    // error, also past the first null: `null | getpath(["a", null])` is "Cannot index null with null (null)".
    if (cur.is_null() && (key.is_string() || key.is_number() || key.is_object())) continue;
    value next;
    const st s = index_value(I, cur, key, next);
    if (s != st::ok) return s;
    cur = std::move(next);
  }
  out = std::move(cur);
  return st::ok;
}

st setpath(interp& I, value& root, const value* keys, std::size_t n, value v) {
  if (n > 10000) return I.fail("Path too deep");
  if (n == 0) {
    root = std::move(v);
    return st::ok;
  }
  const value& k = keys[0];
  const kind kk = k.type();
  const bool was_null = root.is_null();
  if (root.is_null()) {
    if (kk == kind::string)
      root = value::empty_object();
    else if (kk == kind::number || kk == kind::object)
      root = value::empty_array();
    else
      return I.fail(index_error(root, k));
  }
  const kind rk = root.type();
  if (rk == kind::object) {
    if (kk != kind::string) return I.fail(index_error(root, k));
    std::string tmp;
    std::string_view key = k.str(tmp);
    auto& o = root.object_mut();
    const std::int64_t pos = o.find(key);
    if (pos >= 0) {
      // Take the child out so it is uniquely owned while it is modified.
      value child = std::move(o.entries[static_cast<std::size_t>(pos)].val);
      const st s = setpath(I, child, keys + 1, n - 1, std::move(v));
      root.object_mut().entries[static_cast<std::size_t>(pos)].val = std::move(child);
      return s;
    }
    value child;
    const st s = setpath(I, child, keys + 1, n - 1, std::move(v));
    if (s != st::ok) return s;
    root.object_mut().set(key, std::move(child));
    return st::ok;
  }
  if (rk == kind::array) {
    if (kk == kind::number) {
      const double d = k.number();
      if (std::isnan(d)) return I.fail("Cannot set array element at NaN index");
      long long i = d >= 2147483647.0 ? 2147483647LL : (d <= -2147483648.0 ? -2147483648LL : static_cast<long long>(d));
      auto& items = root.array_mut();
      if (i < 0) {
        i += static_cast<long long>(items.size());
        if (i < 0) return I.fail("Out of bounds negative array index");
      }
      if (i > 100000000) return I.fail("Array index too large");
      if (static_cast<std::size_t>(i) >= items.size()) items.resize(static_cast<std::size_t>(i) + 1);
      value child = std::move(items[static_cast<std::size_t>(i)]);
      const st s = setpath(I, child, keys + 1, n - 1, std::move(v));
      root.array_mut()[static_cast<std::size_t>(i)] = std::move(child);
      return s;
    }
    if (kk == kind::object) {
      value from, to;
      if (!slice_keys(k, from, to)) return I.fail("Array/string slice indices must be integers");
      std::size_t s0, e0;
      if (!slice_bounds(from, to, root.length(), s0, e0)) return I.fail("Array/string slice indices must be integers");
      value cur;
      st s = st::ok;
      if (!was_null) s = slice_value(I, root, from, to, cur);  // a slice of null is null, not []
      if (s != st::ok) return s;
      s = setpath(I, cur, keys + 1, n - 1, std::move(v));
      if (s != st::ok) return s;
      if (!cur.is_array()) return I.fail("A slice of an array can only be assigned another array");
      auto& items = root.array_mut();
      std::vector<value> repl;
      cur.for_each_element([&](const value& x) { repl.push_back(x); });
      items.erase(items.begin() + static_cast<std::ptrdiff_t>(s0), items.begin() + static_cast<std::ptrdiff_t>(e0));
      items.insert(items.begin() + static_cast<std::ptrdiff_t>(s0), repl.begin(), repl.end());
      return st::ok;
    }
    if (kk == kind::array) return I.fail("Cannot update field at array index of array");
    return I.fail(index_error(root, k));
  }
  if (rk == kind::string && kk == kind::object) {
    // jq reads the slice and sets the rest of the path in it before it refuses to set the slice: the errors of
    // a malformed slice and of the rest of the path come first.
    value part;
    st s = index_value(I, root, k, part);
    if (s == st::ok) s = setpath(I, part, keys + 1, n - 1, std::move(v));
    if (s != st::ok) return s;
    return I.fail("Cannot update string slices");
  }
  return I.fail(index_error(root, k));
}

namespace {

st delpath(interp& I, value& root, const value* keys, std::size_t n) {
  if (root.is_null()) return st::ok;
  if (n == 0) {
    root = value();
    return st::ok;
  }
  const value& k = keys[0];
  const kind kk = k.type();
  const kind rk = root.type();
  if (n == 1) {
    if (rk == kind::object) {
      if (kk != kind::string) return I.fail(std::string("Cannot delete ") + k.type_name() + " field of object");
      std::string tmp;
      std::string_view key = k.str(tmp);
      if (root.has_member(key)) root.object_mut().erase(key);
      return st::ok;
    }
    if (rk == kind::array) {
      if (kk == kind::number) {
        std::uint32_t i;
        if (array_index(k.number(), root.length(), i)) {
          auto& items = root.array_mut();
          items.erase(items.begin() + i);
        }
        return st::ok;
      }
      if (kk == kind::object) {
        value from, to;
        if (!slice_keys(k, from, to)) return I.fail("Array/string slice indices must be integers");
        std::size_t s0, e0;
        if (!slice_bounds(from, to, root.length(), s0, e0))
          return I.fail("Array/string slice indices must be integers");
        auto& items = root.array_mut();
        items.erase(items.begin() + static_cast<std::ptrdiff_t>(s0), items.begin() + static_cast<std::ptrdiff_t>(e0));
        return st::ok;
      }
      return I.fail(std::string("Cannot delete ") + k.type_name() + " element of array");
    }
    return I.fail(std::string("Cannot delete fields from ") + root.type_name());
  }
  // Descend: the child must exist for there to be anything to delete.
  value child;
  const st s = index_value(I, root, k, child);
  if (s != st::ok) return s;
  if (child.is_null()) return st::ok;
  if (rk == kind::object) {
    std::string tmp;
    std::string_view key = k.str(tmp);
    auto& o = root.object_mut();
    const std::int64_t pos = o.find(key);
    value c = std::move(o.entries[static_cast<std::size_t>(pos)].val);
    child = value();
    const st r = delpath(I, c, keys + 1, n - 1);
    root.object_mut().entries[static_cast<std::size_t>(pos)].val = std::move(c);
    return r;
  }
  if (rk == kind::array && kk == kind::number) {
    std::uint32_t i;
    if (!array_index(k.number(), root.length(), i)) return st::ok;
    auto& items = root.array_mut();
    value c = std::move(items[i]);
    child = value();
    const st r = delpath(I, c, keys + 1, n - 1);
    root.array_mut()[i] = std::move(c);
    return r;
  }
  if (rk == kind::array && kk == kind::object) {
    // Delete inside a slice: operate on the slice and write it back.
    value from, to;
    slice_keys(k, from, to);
    std::size_t s0, e0;
    slice_bounds(from, to, root.length(), s0, e0);
    const st r = delpath(I, child, keys + 1, n - 1);
    if (r != st::ok) return r;
    auto& items = root.array_mut();
    std::vector<value> repl;
    child.for_each_element([&](const value& x) { repl.push_back(x); });
    items.erase(items.begin() + static_cast<std::ptrdiff_t>(s0), items.begin() + static_cast<std::ptrdiff_t>(e0));
    items.insert(items.begin() + static_cast<std::ptrdiff_t>(s0), repl.begin(), repl.end());
    return st::ok;
  }
  return st::ok;
}

}  // namespace

namespace {

// Resolves negative array indices of a path against the value it addresses, before any deletion moves things:
// jq deletes del(.[1], .[-6]) on the original positions.
value normalize_path(const value& root, const value& path) {
  std::vector<value> keys;
  bool changed = false;
  value cur = root;
  path.for_each_element([&](const value& k) {
    value key = k;
    if (cur.is_array() && k.is_number() && k.number() < 0) {
      // jq truncates a negative index toward zero before counting from the end (del(.[-1.5]) is the last element,
      // del(.[-0.5]) none), where reading one floors it.
      const double d = std::trunc(k.number()) + cur.length();
      if (d >= 0) {
        key = value::number(d);
        changed = true;
      }
    }
    keys.push_back(key);
    if (cur.is_array() && key.is_number()) {
      const double d = key.number();
      cur = (d >= 0 && d < cur.length()) ? cur.element(static_cast<std::uint32_t>(d)) : value();
    } else if (cur.is_object() && key.is_string()) {
      std::string tmp;
      cur = cur.member(key.str(tmp));
    } else {
      cur = value();
    }
  });
  return changed ? value::array(std::move(keys)) : path;
}

// The slot at a path, made writable along the way; null when the path does not lead to an existing value (or
// crosses a type that cannot be indexed that way: the one-by-one deletion reports that).
value* mutable_slot(value& root, const value* keys, std::size_t n) {
  value* cur = &root;
  for (std::size_t i = 0; i < n; ++i) {
    const value& k = keys[i];
    if (cur->is_object() && k.is_string()) {
      std::string tmp;
      std::string_view key = k.str(tmp);
      if (!cur->has_member(key)) return nullptr;
      auto& o = cur->object_mut();
      cur = &o.entries[static_cast<std::size_t>(o.find(key))].val;
    } else if (cur->is_array() && k.is_number()) {
      std::uint32_t idx;
      if (!array_index(k.number(), cur->length(), idx)) return nullptr;
      cur = &cur->array_mut()[idx];
    } else {
      return nullptr;
    }
  }
  return cur;
}

}  // namespace

st delpaths(interp& I, value& root, std::vector<value> paths) {
  for (const value& p : paths)
    if (!p.is_array()) return I.fail(std::string("Path must be specified as array, not ") + p.type_name());
  for (const value& p : paths)
    if (p.length() > 10000) return I.fail("Path too deep");
  for (value& p : paths) p = normalize_path(root, p);
  // Delete the greatest paths first so earlier deletions do not shift the indices of later ones.
  try {
    std::sort(paths.begin(), paths.end(), [](const value& a, const value& b) { return compare(a, b) > 0; });
  } catch (const comparison_too_deep& x) {
    return I.fail(x.message);
  }
  std::vector<std::vector<value>> keys(paths.size());
  for (std::size_t i = 0; i < paths.size(); ++i)
    paths[i].for_each_element([&](const value& k) { keys[i].push_back(k); });
  for (std::size_t i = 0; i < keys.size();) {
    // Paths that differ only in a last numeric index delete from one array: do them in one pass, so
    // `del(.[] | select(f))` stays linear.
    std::size_t j = i + 1;
    const auto& ki = keys[i];
    if (!ki.empty() && ki.back().is_number()) {
      while (j < keys.size() && keys[j].size() == ki.size() && keys[j].back().is_number() &&
             std::equal(ki.begin(), ki.end() - 1, keys[j].begin(),
                        [](const value& a, const value& b) { return equals(a, b); }))
        ++j;
    }
    if (j - i > 1) {
      value* parent = mutable_slot(root, ki.data(), ki.size() - 1);
      if (parent != nullptr && parent->is_array()) {
        const std::uint32_t len = parent->length();
        std::vector<bool> drop(len, false);
        for (std::size_t g = i; g < j; ++g) {
          std::uint32_t idx;
          if (array_index(keys[g].back().number(), len, idx)) drop[idx] = true;
        }
        auto& items = parent->array_mut();
        std::size_t w = 0;
        for (std::size_t r = 0; r < items.size(); ++r)
          if (!drop[r]) items[w++] = std::move(items[r]);
        items.resize(w);
        i = j;
        continue;
      }
    }
    for (; i < j; ++i) {
      const st s = delpath(I, root, keys[i].data(), keys[i].size());
      if (s != st::ok) return s;
    }
  }
  return st::ok;
}

st length_of(interp& I, const value& v, value& out) {
  switch (v.type()) {
    case kind::null_: out = value::number(0); return st::ok;
    case kind::false_:
    case kind::true_: return I.fail(std::string("boolean (") + (v.truthy() ? "true" : "false") + ") has no length");
    case kind::number: {
      std::string_view lit = v.literal();
      if (!lit.empty() && lit.front() == '-') {
        out = value::number_literal(-v.number(), std::string(lit.substr(1)));
        return st::ok;
      }
      if (!lit.empty()) {
        out = v;
        return st::ok;
      }
      out = value::number(std::fabs(v.number()));
      return st::ok;
    }
    case kind::string: {
      std::string tmp;
      out = value::number(static_cast<double>(utf8_length(v.str(tmp))));
      return st::ok;
    }
    case kind::array:
    case kind::object: out = value::number(v.length()); return st::ok;
  }
  return st::ok;
}

}  // namespace jview::filter::detail
