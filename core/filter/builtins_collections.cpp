// core/filter/builtins_collections.cpp: natives on arrays and objects: keys, has, contains, add, sort, sort_by,
// group_by, unique(_by), min/max(_by), reverse, flatten, transpose, indices, index, rindex, bsearch.
#include "core/filter/builtins.hpp"

#include <algorithm>

#include "core/filter/sort.hpp"

namespace jview::filter::detail {

namespace {

st f_keys(interp& I, const value& in, const value*, value& out) {
  if (in.is_object()) {
    std::vector<value> ks;
    for (auto& s : sorted_keys(in)) ks.push_back(value::string(std::move(s)));
    out = value::array(std::move(ks));
    return st::ok;
  }
  if (in.is_array()) {
    std::vector<value> ks(in.length());
    for (std::uint32_t i = 0; i < ks.size(); ++i) ks[i] = value::number(i);
    out = value::array(std::move(ks));
    return st::ok;
  }
  return type_error(I, in, "has no keys");
}

st f_keys_unsorted(interp& I, const value& in, const value*, value& out) {
  if (in.is_object()) {
    std::vector<value> ks;
    ks.reserve(in.length());
    in.for_each_member([&](std::string_view k, const value&) { ks.push_back(value::string(k)); });
    out = value::array(std::move(ks));
    return st::ok;
  }
  return f_keys(I, in, nullptr, out);
}

st f_has(interp& I, const value& in, const value* args, value& out) {
  const value& k = args[0];
  if (in.is_object() && k.is_string()) {
    std::string tmp;
    out = value::boolean(in.has_member(k.str(tmp)));
    return st::ok;
  }
  if (in.is_array() && k.is_number()) {
    const double d = k.number();
    out = value::boolean(d >= 0 && d < in.length());
    return st::ok;
  }
  if (in.is_null()) {
    out = value::boolean(false);
    return st::ok;
  }
  return I.fail(std::string("Cannot check whether ") + in.type_name() + " has a " + k.type_name() + " key");
}

// 1: contained, 0: not, -1: nested too deep (jq 1.8.2's limit).
int contains_value(const value& a, const value& b, int depth = 1) {
  if (depth > 10000) return -1;
  if (a.type() == kind::object && b.type() == kind::object) {
    int ok = 1;
    b.for_each_member([&](std::string_view k, const value& bv) {
      if (ok != 1) return;
      bool found = false;
      value av = a.member(k, &found);
      if (!found) {
        ok = 0;
        return;
      }
      ok = contains_value(av, bv, depth + 1);
    });
    return ok;
  }
  if (a.type() == kind::array && b.type() == kind::array) {
    std::vector<value> xs;
    a.for_each_element([&](const value& v) { xs.push_back(v); });
    int ok = 1;
    b.for_each_element([&](const value& bv) {
      if (ok != 1) return;
      bool any = false;
      for (const value& av : xs) {
        const int r = contains_value(av, bv, depth + 1);
        if (r < 0) {
          ok = -1;
          return;
        }
        if (r == 1) {
          any = true;
          break;
        }
      }
      if (!any) ok = 0;
    });
    return ok;
  }
  if (a.type() == kind::string && b.type() == kind::string) {
    std::string ta, tb;
    std::string_view sa = a.str(ta), sb = b.str(tb);
    return sa.find(sb) != std::string_view::npos;
  }
  return equals(a, b);
}

st f_contains(interp& I, const value& in, const value* args, value& out) {
  const value& b = args[0];
  if (in.type() != b.type()) {
    return I.fail(std::string(in.type_name()) + " (" + dump_trunc(in) + ") and " + b.type_name() + " (" +
                  dump_trunc(b) + ") cannot have their containment checked");
  }
  const int r = contains_value(in, b);
  if (r < 0) return I.fail("Containment check too deep");
  out = value::boolean(r == 1);
  return st::ok;
}

// Appends x to acc in place where the types allow (the accumulator is uniquely owned), else via `+`.
st add_into(interp& I, value& acc, const value& x) {
  if (acc.is_null()) {
    acc = x;
    return st::ok;
  }
  if (x.is_null()) return st::ok;
  if (acc.is_array() && x.is_array()) {
    auto& items = acc.array_mut();
    x.for_each_element([&](const value& v) { items.push_back(v); });
    return st::ok;
  }
  if (acc.is_object() && x.is_object()) {
    auto& o = acc.object_mut();
    x.for_each_member([&](std::string_view k, const value& v) { o.set(k, v); });
    return st::ok;
  }
  value out;
  const st s = arith(I, '+', acc, x, out);
  if (s != st::ok) return s;
  acc = std::move(out);
  return st::ok;
}

st add_values(interp& I, const std::vector<value>& xs, value& out) {
  // Strings: one buffer (repeated `+` would copy the accumulator every time).
  bool all_strings = !xs.empty();
  for (const value& x : xs)
    if (!x.is_string() && !x.is_null()) all_strings = false;
  if (all_strings) {
    std::string buf;
    bool any = false;
    for (const value& x : xs) {
      if (x.is_null()) continue;
      std::string tmp;
      buf.append(x.str(tmp));
      any = true;
    }
    out = any ? value::string(std::move(buf)) : value();
    return st::ok;
  }
  value acc;
  for (const value& x : xs) {
    const st s = add_into(I, acc, x);
    if (s != st::ok) return s;
  }
  out = std::move(acc);
  return st::ok;
}

st f_add(interp& I, const value& in, const value*, value& out) {
  std::vector<value> xs;
  if (in.is_array()) {
    xs.reserve(in.length());
    in.for_each_element([&](const value& v) { xs.push_back(v); });
  } else if (in.is_object()) {
    in.for_each_member([&](std::string_view, const value& v) { xs.push_back(v); });
  } else {
    return I.fail(std::string("Cannot iterate over ") + in.type_name() +
                  (in.is_null() ? std::string(" (null)") : " (" + dump_trunc(in) + ")"));
  }
  return add_values(I, xs, out);
}

st g_add1(interp& I, const node* call, const value& in, const env* e, sink k) {
  std::vector<value> xs;
  const st s = collect_arg(I, call, 0, in, e, xs);
  if (s != st::ok) return s;
  value out;
  const st r = add_values(I, xs, out);
  if (r != st::ok) return r;
  return k(out);
}

st elements_of(interp& I, const value& in, std::vector<value>& xs) {
  if (in.is_array()) {
    xs.reserve(in.length());
    in.for_each_element([&](const value& v) { xs.push_back(v); });
    return st::ok;
  }
  return type_error(I, in, "cannot be sorted, as it is not an array");
}

st f_sort(interp& I, const value& in, const value*, value& out) {
  std::vector<value> xs;
  const st s = elements_of(I, in, xs);
  if (s != st::ok) return s;
  sort_keys order(xs.data(), nullptr, xs.size());
  order.sort();
  std::vector<value> res;
  res.reserve(xs.size());
  for (std::size_t p = 0; p < order.size(); ++p) res.push_back(std::move(xs[order.index_at(p)]));
  out = value::array(std::move(res));
  return st::ok;
}

st iterate_error(interp& I, const value& v) {
  return I.fail(std::string("Cannot iterate over ") + v.type_name() +
                (v.is_null() ? std::string(" (null)") : " (" + dump_trunc(v) + ")"));
}

// The elements and, for each, the outputs of f (jq sorts by the array of f's outputs: `_sort_by_impl(map([f]))`,
// so non-iterables fail in map and objects fail in the implementation with both values named). Element i's key
// is keys[offsets[i], offsets[i+1]); no array is built per element.
struct keyed_elements {
  std::vector<value> xs;
  std::vector<value> keys;
  std::vector<std::uint32_t> offsets;
};

st keyed(interp& I, const node* call, const value& in, const env* e, keyed_elements& out, const char* what) {
  if (in.is_array()) {
    out.xs.reserve(in.length());
    in.for_each_element([&](const value& v) { out.xs.push_back(v); });
  } else if (in.is_object()) {
    in.for_each_member([&](std::string_view, const value& v) { out.xs.push_back(v); });
  } else {
    return iterate_error(I, in);
  }
  out.keys.reserve(out.xs.size());
  out.offsets.reserve(out.xs.size() + 1);
  out.offsets.push_back(0);
  for (const value& x : out.xs) {
    const st s = collect_arg(I, call, 0, x, e, out.keys);
    if (s != st::ok) return s;
    out.offsets.push_back(static_cast<std::uint32_t>(out.keys.size()));
  }
  if (!in.is_array()) {
    std::vector<value> lists;
    for (std::size_t i = 0; i + 1 < out.offsets.size(); ++i)
      lists.push_back(value::array(
          std::vector<value>(out.keys.begin() + out.offsets[i], out.keys.begin() + out.offsets[i + 1])));
    value ka = value::array(std::move(lists));
    return I.fail(std::string(in.type_name()) + " (" + dump_trunc(in) + ") and array (" + dump_trunc(ka) + ") " + what);
  }
  return st::ok;
}

constexpr const char* k_not_both_arrays = "cannot be sorted, as they are not both arrays";

st g_sort_by(interp& I, const node* call, const value& in, const env* e, sink k) {
  keyed_elements ke;
  const st s = keyed(I, call, in, e, ke, k_not_both_arrays);
  if (s != st::ok) return s;
  std::vector<value> out;
  try {
    sort_keys order(ke.keys.data(), ke.offsets.data(), ke.xs.size());
    order.sort();
    out.reserve(ke.xs.size());
    for (std::size_t p = 0; p < order.size(); ++p) out.push_back(std::move(ke.xs[order.index_at(p)]));
  } catch (const comparison_too_deep& x) {
    return I.fail(x.message);
  }
  return k(value::array(std::move(out)));
}

st g_group_by(interp& I, const node* call, const value& in, const env* e, sink k) {
  keyed_elements ke;
  const st s = keyed(I, call, in, e, ke, k_not_both_arrays);
  if (s != st::ok) return s;
  std::vector<value> groups;
  try {
    sort_keys order(ke.keys.data(), ke.offsets.data(), ke.xs.size());
    order.sort();
    std::vector<value> cur;
    for (std::size_t p = 0; p < order.size(); ++p) {
      if (p > 0 && order.compare_at(p - 1, p) != 0) {
        groups.push_back(value::array(std::move(cur)));
        cur = {};
      }
      cur.push_back(std::move(ke.xs[order.index_at(p)]));
    }
    if (!cur.empty()) groups.push_back(value::array(std::move(cur)));
  } catch (const comparison_too_deep& x) {
    return I.fail(x.message);
  }
  return k(value::array(std::move(groups)));
}

st g_unique_by(interp& I, const node* call, const value& in, const env* e, sink k) {
  keyed_elements ke;
  const st s = keyed(I, call, in, e, ke, k_not_both_arrays);
  if (s != st::ok) return s;
  std::vector<value> out;
  try {
    sort_keys order(ke.keys.data(), ke.offsets.data(), ke.xs.size());
    order.sort();
    for (std::size_t p = 0; p < order.size(); ++p)
      if (p == 0 || order.compare_at(p - 1, p) != 0) out.push_back(std::move(ke.xs[order.index_at(p)]));
  } catch (const comparison_too_deep& x) {
    return I.fail(x.message);
  }
  return k(value::array(std::move(out)));
}

st f_unique(interp& I, const value& in, const value*, value& out) {
  std::vector<value> xs;
  if (!in.is_array()) return type_error(I, in, "cannot be sorted, as it is not an array");
  xs.reserve(in.length());
  in.for_each_element([&](const value& v) { xs.push_back(v); });
  sort_keys order(xs.data(), nullptr, xs.size());
  order.sort();
  std::vector<value> res;
  for (std::size_t p = 0; p < order.size(); ++p)
    if (p == 0 || order.compare_at(p - 1, p) != 0) res.push_back(xs[order.index_at(p)]);  // xs are the keys
  out = value::array(std::move(res));
  return st::ok;
}

// min_by keeps the first of equal minima, max_by the last of equal maxima (jq's comparison rule).
value minmax(std::vector<value>& xs, const sort_keys& keys, bool is_min) {
  if (xs.empty()) return value();
  std::size_t best = 0;
  for (std::size_t i = 1; i < xs.size(); ++i) {
    const int c = keys.compare_at(i, best);
    if (is_min ? c < 0 : c >= 0) best = i;
  }
  return std::move(xs[best]);
}

template <bool IsMin>
st f_minmax(interp& I, const value& in, const value*, value& out) {
  if (!in.is_array()) {
    const std::string d = std::string(in.type_name()) + " (" + dump_trunc(in) + ")";
    return I.fail(d + " and " + d + " cannot be iterated over");
  }
  std::vector<value> xs;
  xs.reserve(in.length());
  in.for_each_element([&](const value& v) { xs.push_back(v); });
  const sort_keys keys(xs.data(), nullptr, xs.size());
  out = minmax(xs, keys, IsMin);
  return st::ok;
}

template <bool IsMin>
st g_minmax_by(interp& I, const node* call, const value& in, const env* e, sink k) {
  keyed_elements ke;
  const st s = keyed(I, call, in, e, ke, "cannot be iterated over");
  if (s != st::ok) return s;
  value out;
  try {
    const sort_keys keys(ke.keys.data(), ke.offsets.data(), ke.xs.size());
    out = minmax(ke.xs, keys, IsMin);
  } catch (const comparison_too_deep& x) {
    return I.fail(x.message);
  }
  return k(out);
}

st f_reverse(interp& I, const value& in, const value*, value& out) {
  if (in.is_array()) {
    std::vector<value> xs;
    in.for_each_element([&](const value& v) { xs.push_back(v); });
    std::reverse(xs.begin(), xs.end());
    out = value::array(std::move(xs));
    return st::ok;
  }
  // jq 1.8 defines reverse as [.[length - 1 - range(0; length)]]: anything else of nonzero length fails to index.
  value len;
  const st s = length_of(I, in, len);
  if (s != st::ok) return s;
  if (len.number() <= 0 || in.is_null()) {
    out = value::empty_array();
    return st::ok;
  }
  value elem;
  const st r = index_value(I, in, value::number(len.number() - 1), elem);
  if (r != st::ok) return r;
  out = value::empty_array();
  return st::ok;
}

void flatten_into(const value& v, double depth, std::vector<value>& out) {
  v.for_each_element([&](const value& x) {
    if (x.is_array() && depth != 0)
      flatten_into(x, depth - 1, out);
    else
      out.push_back(x);
  });
}

// depth: at least 0 (f_flatten1 reports the others, as jq's `$x < 0` does).
st flatten_impl(interp& I, const value& in, double depth, value& out) {
  std::vector<value> xs;
  if (in.is_object()) {
    in.for_each_member([&](std::string_view, const value& v) {
      if (v.is_array() && depth != 0)
        flatten_into(v, depth - 1, xs);
      else
        xs.push_back(v);
    });
    out = value::array(std::move(xs));
    return st::ok;
  }
  if (!in.is_array()) return iterate_error(I, in);
  flatten_into(in, depth, xs);
  out = value::array(std::move(xs));
  return st::ok;
}
st f_flatten0(interp& I, const value& in, const value*, value& out) { return flatten_impl(I, in, 1e18, out); }
st f_flatten1(interp& I, const value& in, const value* args, value& out) {
  // jq 1.8.2: `if $x < 0 then error(...) else _flatten($x)`; a depth that is a string, array or object fails
  // _flatten's `$x - 1` at the first element that is an array.
  double depth;
  const value* bad;
  if (!read_count(args[0], depth, bad)) return I.fail("flatten depth must not be negative");
  if (bad == nullptr) return flatten_impl(I, in, depth, out);
  if (!in.is_array() && !in.is_object()) return iterate_error(I, in);
  std::vector<value> xs;
  bool nested = false;
  const auto take = [&](const value& v) {
    nested = nested || v.is_array();
    if (!nested) xs.push_back(v);
  };
  if (in.is_array())
    in.for_each_element(take);
  else
    in.for_each_member([&](std::string_view, const value& v) { take(v); });
  if (nested) return count_down_error(I, *bad);
  out = value::array(std::move(xs));
  return st::ok;
}

st f_transpose(interp& I, const value& in, const value*, value& out) {
  // jq: [range(0; map(length) | max // 0) as $i | [.[][$i]]]: the rows of an object are its values.
  std::vector<value> rows;
  if (in.is_array())
    in.for_each_element([&](const value& v) { rows.push_back(v); });
  else if (in.is_object())
    in.for_each_member([&](std::string_view, const value& v) { rows.push_back(v); });
  else
    return I.fail(std::string("Cannot iterate over ") + in.type_name() + " (" + dump_trunc(in) + ")");
  // As a double, as jq's range(0; $max) runs: a number's length is its magnitude (`[1e19] | transpose` fails at
  // its first index, as in jq; a cast to an integer width overflowed), and 1.5 gives the rows 0 and 1.
  double width = 0;
  for (const value& r : rows) {
    value len;
    const st s = length_of(I, r, len);
    if (s != st::ok) return s;
    width = std::max(width, len.number());
  }
  std::vector<value> cols;
  for (double i = 0; i < width; ++i) {
    std::vector<value> col;
    for (const value& r : rows) {
      value x;
      const st s = index_value(I, r, value::number(i), x);
      if (s != st::ok) return s;
      col.push_back(x);
    }
    cols.push_back(value::array(std::move(col)));
  }
  out = value::array(std::move(cols));
  return st::ok;
}

// Code point offsets of every occurrence of x in s (jq 1.8's _strindices).
st strindices(const value& s_, const value& x, value& out) {
  std::string ta, tb;
  std::string_view s = s_.str(ta), sub = x.str(tb);
  std::vector<value> r;
  if (!sub.empty()) {
    std::size_t cp = 0, counted = 0;
    for (std::size_t p = s.find(sub); p != std::string_view::npos; p = s.find(sub, p + 1)) {
      cp += utf8_length(s.substr(counted, p - counted));
      counted = p;
      r.push_back(value::number(static_cast<double>(cp)));
    }
  }
  out = value::array(std::move(r));
  return st::ok;
}

st f_strindices(interp& I, const value& in, const value* args, value& out) {
  if (!in.is_string()) return type_error(I, in, "cannot be searched, as it is not a string");
  if (!args[0].is_string()) return type_error(I, args[0], "is not a string");
  return strindices(in, args[0], out);
}

st f_indices(interp& I, const value& in, const value* args, value& out) {
  const value& x = args[0];
  if (in.is_string() && x.is_string()) return strindices(in, x, out);
  if (in.is_array() && x.is_array()) return index_value(I, in, x, out);
  if (in.is_array()) return index_value(I, in, value::array({x}), out);
  return index_value(I, in, x, out);
}

// jq 1.8: `indices($i) | .[0]` and `indices($i) | .[-1:][0]`, with .[0] and the slice as jq applies them to
// whatever indices gave (an object's member, for instance: `{"a":1} | index("a")` is an error, not null).
st f_index(interp& I, const value& in, const value* args, value& out) {
  value idx;
  const st s = f_indices(I, in, args, idx);
  if (s != st::ok) return s;
  return index_value(I, idx, value::number(0), out);
}

st f_rindex(interp& I, const value& in, const value* args, value& out) {
  value idx;
  st s = f_indices(I, in, args, idx);
  if (s != st::ok) return s;
  value last;
  s = slice_value(I, idx, value::number(-1), value(), last);
  if (s != st::ok) return s;
  return index_value(I, last, value::number(0), out);
}

st f_bsearch(interp& I, const value& in, const value* args, value& out) {
  if (!in.is_array()) return type_error(I, in, "cannot be searched from");
  std::vector<value> xs;
  in.for_each_element([&](const value& v) { xs.push_back(v); });
  std::size_t lo = 0, hi = xs.size();
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    const int c = compare(xs[mid], args[0]);
    if (c == 0) {
      out = value::number(static_cast<double>(mid));
      return st::ok;
    }
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  out = value::number(-1.0 - static_cast<double>(lo));
  return st::ok;
}

constexpr auto k_part = sorted_natives(std::to_array<native_def>({
    {"keys", 0, f_keys, nullptr, nullptr},
    {"keys_unsorted", 0, f_keys_unsorted, nullptr, nullptr},
    {"has", 1, f_has, nullptr, nullptr},
    {"contains", 1, f_contains, nullptr, nullptr},
    {"add", 0, f_add, nullptr, nullptr},
    {"add", 1, nullptr, g_add1, nullptr},
    {"sort", 0, f_sort, nullptr, nullptr},
    {"sort_by", 1, nullptr, g_sort_by, nullptr},
    {"group_by", 1, nullptr, g_group_by, nullptr},
    {"unique", 0, f_unique, nullptr, nullptr},
    {"unique_by", 1, nullptr, g_unique_by, nullptr},
    {"min", 0, f_minmax<true>, nullptr, nullptr},
    {"max", 0, f_minmax<false>, nullptr, nullptr},
    {"min_by", 1, nullptr, g_minmax_by<true>, nullptr},
    {"max_by", 1, nullptr, g_minmax_by<false>, nullptr},
    {"reverse", 0, f_reverse, nullptr, nullptr},
    {"flatten", 0, f_flatten0, nullptr, nullptr},
    {"flatten", 1, f_flatten1, nullptr, nullptr},
    {"transpose", 0, f_transpose, nullptr, nullptr},
    {"indices", 1, f_indices, nullptr, nullptr},
    {"_strindices", 1, f_strindices, nullptr, nullptr},
    {"index", 1, f_index, nullptr, nullptr},
    {"rindex", 1, f_rindex, nullptr, nullptr},
    {"bsearch", 1, f_bsearch, nullptr, nullptr},
}));

}  // namespace

native_span collection_natives() { return {k_part.data(), k_part.size()}; }

}  // namespace jview::filter::detail
