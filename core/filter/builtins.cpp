// core/filter/builtins.cpp: the natives table and the core natives: types and selection, paths (path, getpath,
// setpath, delpaths, del, paths, to_entries...), collections (keys, has, contains, add, sort*, group_by, min/max,
// unique*, flatten, range...), control (empty, error, limit, first, until, while, repeat, input, halt...).
// Generators with filter arguments take the call node and evaluate their arguments in the caller's environment.
#include "core/filter/builtins.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "core/filter/sort.hpp"

namespace jview::filter::detail {

st collect_arg(interp& I, const node* call, std::size_t i, const value& in, const env* e, std::vector<value>& out) {
  auto f = [&](const value& v) -> st {
    out.push_back(v);
    return st::ok;
  };
  return I.eval_arg(call, i, in, e, make_sink(f));
}

namespace {

// ---- types and selection ----

st f_not(interp&, const value& in, const value*, value& out) {
  out = value::boolean(!in.truthy());
  return st::ok;
}

st f_type(interp&, const value& in, const value*, value& out) {
  out = value::string(in.type_name());
  return st::ok;
}

st f_length(interp& I, const value& in, const value*, value& out) { return length_of(I, in, out); }

st f_utf8bytelength(interp& I, const value& in, const value*, value& out) {
  if (!in.is_string()) return type_error(I, in, "only strings have UTF-8 byte length");
  std::string tmp;
  out = value::number(static_cast<double>(in.str(tmp).size()));
  return st::ok;
}

// Type selectors (arrays, objects, ...): select(type == X) without building strings.
template <int Which>
bool type_matches(const value& v) {
  const kind k = v.type();
  switch (Which) {
    case 0: return k == kind::array;
    case 1: return k == kind::object;
    case 2: return k == kind::array || k == kind::object;
    case 3: return k == kind::false_ || k == kind::true_;
    case 4: return k == kind::number;
    case 5: return k == kind::string;
    case 6: return k == kind::null_;
    case 7: return k != kind::null_;
    case 8: return k != kind::array && k != kind::object;
    case 9: return k == kind::number && std::isfinite(v.number());
    case 10: {
      if (k != kind::number) return false;
      return std::isnormal(v.number());
    }
  }
  return false;
}
template <int Which>
st g_type_select(interp&, const node*, const value& in, const env*, sink k) {
  return type_matches<Which>(in) ? k(in) : st::ok;
}
template <int Which>
st p_type_select(interp&, const node*, const path_link* p, const value& in, const env*, psink k) {
  return type_matches<Which>(in) ? k(p, in) : st::ok;
}

st g_select(interp& I, const node* call, const value& in, const env* e, sink k) {
  auto f = [&](const value& c) -> st { return c.truthy() ? k(in) : st::ok; };
  return I.eval_arg(call, 0, in, e, make_sink(f));
}
st p_select(interp& I, const node* call, const path_link* p, const value& in, const env* e, psink k) {
  auto f = [&](const value& c) -> st { return c.truthy() ? k(p, in) : st::ok; };
  return I.eval_arg(call, 0, in, e, make_sink(f));
}

st g_empty(interp&, const node*, const value&, const env*, sink) { return st::ok; }
st p_empty(interp&, const node*, const path_link*, const value&, const env*, psink) { return st::ok; }

st f_error0(interp& I, const value& in, const value*, value&) { return I.fail(in); }
st g_error1(interp& I, const node* call, const value& in, const env* e, sink) {
  auto f = [&](const value& m) -> st { return I.fail(m); };
  return I.eval_arg(call, 0, in, e, make_sink(f));
}
st p_error1(interp& I, const node* call, const path_link*, const value& in, const env* e, psink) {
  return g_error1(I, call, in, e, sink{nullptr, nullptr});
}

// ---- recursion ----

st g_recurse0(interp& I, const node* call, const value& in, const env* e, sink k) {
  (void)call;
  node n;
  n.o = op::recurse;
  return I.eval(&n, in, e, k);
}
st p_recurse0(interp& I, const node* call, const path_link* p, const value& in, const env* e, psink k) {
  (void)call;
  node n;
  n.o = op::recurse;
  return I.eval_path(&n, p, in, e, k);
}

// ---- paths ----

st g_path(interp& I, const node* call, const value& in, const env* e, sink k) {
  auto f = [&](const path_link* p, const value& v) -> st {
    if (p == &k_invalid_path) return I.fail("Invalid path expression with result " + dump_trunc(v));
    return k(path_to_array(p));
  };
  return I.eval_arg_path(call, 0, nullptr, in, e, make_psink(f));
}

st g_paths0(interp& I, const node*, const value& in, const env* e, sink k) {
  node n;
  n.o = op::recurse;
  auto f = [&](const path_link* p, const value&) -> st {
    if (p == nullptr) return st::ok;
    return k(path_to_array(p));
  };
  return I.eval_path(&n, nullptr, in, e, make_psink(f));
}

st g_paths1(interp& I, const node* call, const value& in, const env* e, sink k) {
  node n;
  n.o = op::recurse;
  auto f = [&](const path_link* p, const value& v) -> st {
    // jq 1.8: paths(f) is path(.. | select(f)) | select(length > 0): f runs on the root too (its errors show),
    // one output per true result of f.
    std::vector<value> outs;
    st s = collect_arg(I, call, 0, v, e, outs);
    if (s != st::ok || p == nullptr) return s;
    value pa;
    bool made = false;
    for (const value& r : outs) {
      if (!r.truthy()) continue;
      if (!made) pa = path_to_array(p);
      made = true;
      s = k(pa);
      if (s != st::ok) return s;
    }
    return st::ok;
  };
  return I.eval_path(&n, nullptr, in, e, make_psink(f));
}

st f_getpath(interp& I, const value& in, const value* args, value& out) {
  if (!args[0].is_array()) return I.fail("Path must be specified as an array");
  if (args[0].length() > 10000) return I.fail("Path too deep");
  const st s = getpath(I, in, args[0], out);
  if (s == st::err && in.is_null()) {
    out = value();
    return st::ok;
  }
  return s;
}

st p_getpath(interp& I, const node* call, const path_link* p, const value& in, const env* e, psink k) {
  auto f = [&](const value& path) -> st {
    if (!path.is_array()) return I.fail("Path must be specified as an array");
    value out;
    st s = getpath(I, in, path, out);
    if (s != st::ok) return s;
    std::vector<value> keys;
    path.for_each_element([&](const value& x) { keys.push_back(x); });
    std::vector<path_link> links(keys.size());
    const path_link* cur = p;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      links[i].parent = cur;
      links[i].key = keys[i];
      cur = &links[i];
    }
    return k(cur, out);
  };
  return I.eval_arg(call, 0, in, e, make_sink(f));
}

st f_setpath(interp& I, const value& in, const value* args, value& out) {
  if (!args[0].is_array()) return I.fail("Path must be specified as an array");
  std::vector<value> keys;
  args[0].for_each_element([&](const value& x) { keys.push_back(x); });
  out = in;
  return setpath(I, out, keys.data(), keys.size(), args[1]);
}

// jq deletes from a copy of its (shared) input even when no path matched: the result is never the input itself, so
// under path() `del(.missing)` is no path expression either ("Invalid path expression with result {...}").
void unshare(value& v) {
  if (v.is_object())
    v.object_mut();
  else if (v.is_array())
    v.array_mut();
}

st f_delpaths(interp& I, const value& in, const value* args, value& out) {
  if (!args[0].is_array()) return I.fail("Paths must be specified as an array");
  std::vector<value> paths;
  args[0].for_each_element([&](const value& x) { paths.push_back(x); });
  out = in;
  const bool some = !paths.empty();
  const st s = delpaths(I, out, std::move(paths));
  if (s == st::ok && some) unshare(out);
  return s;
}

st g_del(interp& I, const node* call, const value& in, const env* e, sink k) {
  std::vector<value> paths;
  auto f = [&](const path_link* p, const value& v) -> st {
    if (p == &k_invalid_path) return I.fail("Invalid path expression with result " + dump_trunc(v));
    paths.push_back(path_to_array(p));
    return st::ok;
  };
  st s = I.eval_arg_path(call, 0, nullptr, in, e, make_psink(f));
  if (s != st::ok) return s;
  value out = in;
  const bool some = !paths.empty();
  s = delpaths(I, out, std::move(paths));
  if (s != st::ok) return s;
  if (some) unshare(out);
  return k(out);
}

st f_to_entries(interp& I, const value& in, const value*, value& out) {
  std::vector<value> items;
  if (in.is_object()) {
    const std::vector<std::string> keys = [&] {
      std::vector<std::string> ks;
      in.for_each_member([&](std::string_view kk, const value&) { ks.emplace_back(kk); });
      return ks;
    }();
    items.reserve(keys.size());
    for (const std::string& kk : keys) {
      value o = value::empty_object();
      auto& od = o.object_mut();
      od.entries.reserve(2);
      od.set(std::string_view("key"), value::string(kk));
      od.set(std::string_view("value"), in.member(kk));
      items.push_back(std::move(o));
    }
  } else if (in.is_array()) {
    std::uint32_t i = 0;
    in.for_each_element([&](const value& v) {
      value o = value::empty_object();
      auto& od = o.object_mut();
      od.set(std::string_view("key"), value::number(i++));
      od.set(std::string_view("value"), v);
      items.push_back(std::move(o));
    });
  } else {
    return type_error(I, in, "has no keys");
  }
  out = value::array(std::move(items));
  return st::ok;
}

st f_from_entries(interp& I, const value& in, const value*, value& out) {
  out = value::empty_object();
  st s = st::ok;
  auto each = [&](const value& x) -> st {
    value key;
    if (x.is_object() || x.is_null()) {
      for (const char* nm : {"key", "Key", "name", "Name"}) {
        value kv;
        st r = index_value(I, x, value::string(nm), kv);
        if (r != st::ok) return r;
        if (kv.truthy()) {
          key = kv;
          break;
        }
      }
    } else {
      value kv;
      return index_value(I, x, value::string("key"), kv);
    }
    value val;
    if (x.has_member("value"))
      val = x.member("value");
    else
      val = x.member("Value");
    if (!key.is_string())
      return I.fail(std::string("Cannot use ") + key.type_name() + " (" + dump_trunc(key) + ") as object key");
    std::string tmp;
    out.object_mut().set(key.str(tmp), val);
    return st::ok;
  };
  if (in.is_array()) {
    std::vector<value> xs;
    in.for_each_element([&](const value& v) { xs.push_back(v); });
    for (const value& x : xs) {
      s = each(x);
      if (s != st::ok) return s;
    }
    return st::ok;
  }
  if (in.is_object()) {
    std::vector<value> xs;
    in.for_each_member([&](std::string_view, const value& v) { xs.push_back(v); });
    for (const value& x : xs) {
      s = each(x);
      if (s != st::ok) return s;
    }
    return st::ok;
  }
  return I.fail(std::string("Cannot iterate over ") + in.type_name() +
                (in.is_null() ? std::string(" (null)") : " (" + dump_trunc(in) + ")"));
}

// ---- collections ----

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

st flatten_impl(interp& I, const value& in, double depth, value& out) {
  if (depth < 0) return I.fail("flatten depth must not be negative");
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
  if (!args[0].is_number()) return I.fail("flatten depth must not be negative");
  return flatten_impl(I, in, args[0].number(), out);
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
  std::uint32_t width = 0;
  for (const value& r : rows) {
    value len;
    const st s = length_of(I, r, len);
    if (s != st::ok) return s;
    width = std::max(width, static_cast<std::uint32_t>(std::ceil(len.number())));
  }
  std::vector<value> cols;
  for (std::uint32_t i = 0; i < width; ++i) {
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
  if (in.is_null()) {
    out = value();
    return st::ok;
  }
  if (in.is_string() && x.is_string()) return strindices(in, x, out);
  if (in.is_array() && x.is_array()) return index_value(I, in, x, out);
  if (in.is_array()) return index_value(I, in, value::array({x}), out);
  return index_value(I, in, x, out);
}

st f_index(interp& I, const value& in, const value* args, value& out) {
  value idx;
  const st s = f_indices(I, in, args, idx);
  if (s != st::ok) return s;
  if (idx.is_array() && idx.length() > 0)
    out = idx.element(0);
  else
    out = value();
  return st::ok;
}

st f_rindex(interp& I, const value& in, const value* args, value& out) {
  value idx;
  const st s = f_indices(I, in, args, idx);
  if (s != st::ok) return s;
  if (idx.is_array() && idx.length() > 0)
    out = idx.element(idx.length() - 1);
  else
    out = value();
  return st::ok;
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

// ---- generators ----

st range_impl(interp&, double from, double upto, double by, sink k) {
  if (by > 0) {
    for (double x = from; x < upto; x += by) {
      const st s = k(value::number(x));
      if (s != st::ok) return s;
    }
  } else if (by < 0) {
    for (double x = from; x > upto; x += by) {
      const st s = k(value::number(x));
      if (s != st::ok) return s;
    }
  }
  return st::ok;
}

st g_range1(interp& I, const node* call, const value& in, const env* e, sink k) {
  auto f = [&](const value& n) -> st {
    if (!n.is_number()) return I.fail("Range bounds must be numeric");
    return range_impl(I, 0, n.number(), 1, k);
  };
  return I.eval_arg(call, 0, in, e, make_sink(f));
}

st g_range2(interp& I, const node* call, const value& in, const env* e, sink k) {
  auto ff = [&](const value& from) -> st {
    auto fu = [&](const value& upto) -> st {
      if (!from.is_number() || !upto.is_number()) return I.fail("Range bounds must be numeric");
      return range_impl(I, from.number(), upto.number(), 1, k);
    };
    return I.eval_arg(call, 1, in, e, make_sink(fu));
  };
  return I.eval_arg(call, 0, in, e, make_sink(ff));
}

st g_range3(interp& I, const node* call, const value& in, const env* e, sink k) {
  auto ff = [&](const value& from) -> st {
    auto fu = [&](const value& upto) -> st {
      auto fb = [&](const value& by) -> st {
        if (!from.is_number() || !upto.is_number() || !by.is_number())
          return I.fail("Range bounds must be numeric");
        return range_impl(I, from.number(), upto.number(), by.number(), k);
      };
      return I.eval_arg(call, 2, in, e, make_sink(fb));
    };
    return I.eval_arg(call, 1, in, e, make_sink(fu));
  };
  return I.eval_arg(call, 0, in, e, make_sink(ff));
}

// limit($n; f) and first(f) stop f early with a private label.
st g_limit(interp& I, const node* call, const value& in, const env* e, sink k) {
  auto per_n = [&](const value& nv) -> st {
    if (!nv.is_number()) return I.fail("Invalid limit: must be a number");
    const double n = nv.number();
    if (n < 0) return I.fail("limit doesn't support negative count");
    if (n == 0) return st::ok;
    double count = 0;
    const std::uint64_t id = I.next_label++;
    auto f = [&](const value& v) -> st {
      const st s = k(v);
      if (s != st::ok) return s;
      if (++count >= n) {
        I.brk_label = id;
        return st::brk;
      }
      return st::ok;
    };
    const st s = I.eval_arg(call, 1, in, e, make_sink(f));
    if (s == st::brk && I.brk_label == id) return st::ok;
    return s;
  };
  return I.eval_arg(call, 0, in, e, make_sink(per_n));
}

st p_limit(interp& I, const node* call, const path_link* p, const value& in, const env* e, psink k) {
  auto per_n = [&](const value& nv) -> st {
    if (!nv.is_number()) return I.fail("Invalid limit: must be a number");
    const double n = nv.number();
    if (n < 0) return I.fail("limit doesn't support negative count");
    if (n == 0) return st::ok;
    double count = 0;
    const std::uint64_t id = I.next_label++;
    auto f = [&](const path_link* q, const value& v) -> st {
      const st s = k(q, v);
      if (s != st::ok) return s;
      if (++count >= n) {
        I.brk_label = id;
        return st::brk;
      }
      return st::ok;
    };
    const st s = I.eval_arg_path(call, 1, p, in, e, make_psink(f));
    if (s == st::brk && I.brk_label == id) return st::ok;
    return s;
  };
  return I.eval_arg(call, 0, in, e, make_sink(per_n));
}

// skip($n; f) in value and path mode: f's outputs after the first $n (jq 1.8 defines it with foreach, whose source
// keeps its paths, so nth($n; f) is a path expression when f is).
st skip_count_error(interp& I, const value& n) {
  value ignored;
  return arith(I, '-', n, value::number(1), ignored);
}

template <class Sink, class Eval>
st skip_outputs(interp& I, const node* call, const value& in, const env* e, Eval&& eval_f) {
  auto per_n = [&](const value& nv) -> st {
    if (!nv.is_number()) {
      // jq's definition: null and booleans order below 0 (the negative-count error); a string, array or object
      // orders above it, and its first item fails the foreach's `$n - 1`.
      if (nv.is_null() || nv.type() == kind::false_ || nv.type() == kind::true_)
        return I.fail("skip doesn't support negative count");
      return eval_f(-1.0, &nv);
    }
    const double n = nv.number();
    if (n < 0) return I.fail("skip doesn't support negative count");
    return eval_f(n, nullptr);
  };
  return I.eval_arg(call, 0, in, e, make_sink(per_n));
}

st g_skip(interp& I, const node* call, const value& in, const env* e, sink k) {
  return skip_outputs<sink>(I, call, in, e, [&](double n, const value* bad) {
    double count = 0;
    auto f = [&](const value& v) -> st {
      if (bad != nullptr) return skip_count_error(I, *bad);
      return ++count > n ? k(v) : st::ok;  // item i (from 1) when i > n, as jq's `$n - i < 0`
    };
    return I.eval_arg(call, 1, in, e, make_sink(f));
  });
}

st p_skip(interp& I, const node* call, const path_link* p, const value& in, const env* e, psink k) {
  return skip_outputs<psink>(I, call, in, e, [&](double n, const value* bad) {
    double count = 0;
    auto f = [&](const path_link* q, const value& v) -> st {
      if (bad != nullptr) return skip_count_error(I, *bad);
      return ++count > n ? k(q, v) : st::ok;
    };
    return I.eval_arg_path(call, 1, p, in, e, make_psink(f));
  });
}

st g_first(interp& I, const node* call, const value& in, const env* e, sink k) {
  const std::uint64_t id = I.next_label++;
  auto f = [&](const value& v) -> st {
    const st s = k(v);
    if (s != st::ok) return s;
    I.brk_label = id;
    return st::brk;
  };
  const st s = I.eval_arg(call, 0, in, e, make_sink(f));
  if (s == st::brk && I.brk_label == id) return st::ok;
  return s;
}

st p_first(interp& I, const node* call, const path_link* p, const value& in, const env* e, psink k) {
  const std::uint64_t id = I.next_label++;
  auto f = [&](const path_link* q, const value& v) -> st {
    const st s = k(q, v);
    if (s != st::ok) return s;
    I.brk_label = id;
    return st::brk;
  };
  const st s = I.eval_arg_path(call, 0, p, in, e, make_psink(f));
  if (s == st::brk && I.brk_label == id) return st::ok;
  return s;
}

st g_last(interp& I, const node* call, const value& in, const env* e, sink k) {
  value last;
  bool any = false;
  auto f = [&](const value& v) -> st {
    last = v;
    any = true;
    return st::ok;
  };
  const st s = I.eval_arg(call, 0, in, e, make_sink(f));
  if (s != st::ok || !any) return s;  // jq 1.8: last(empty) is empty
  return k(last);
}

st g_isempty(interp& I, const node* call, const value& in, const env* e, sink k) {
  const std::uint64_t id = I.next_label++;
  bool any = false;
  auto f = [&](const value&) -> st {
    any = true;
    I.brk_label = id;
    return st::brk;
  };
  const st s = I.eval_arg(call, 0, in, e, make_sink(f));
  if (s != st::ok && !(s == st::brk && I.brk_label == id)) return s;
  return k(value::boolean(!any));
}

// any(gen; cond) / all(gen; cond) with short-circuit.
template <bool IsAny>
st anyall(interp& I, const node* call, std::size_t gi, int ci, const value& in, const env* e, sink k) {
  const std::uint64_t id = I.next_label++;
  bool result = !IsAny;
  auto per_cond = [&](const value& c) -> st {
    if (c.truthy() == IsAny) {
      result = IsAny;
      I.brk_label = id;
      return st::brk;
    }
    return st::ok;
  };
  auto per_item = [&](const value& v) -> st {
    if (ci < 0) return per_cond(v);
    return I.eval_arg(call, static_cast<std::size_t>(ci), v, e, make_sink(per_cond));
  };
  st s;
  if (gi == static_cast<std::size_t>(-1)) {
    s = iterate_value(I, in, make_sink(per_item));
  } else {
    s = I.eval_arg(call, gi, in, e, make_sink(per_item));
  }
  if (s != st::ok && !(s == st::brk && I.brk_label == id)) return s;
  return k(value::boolean(result));
}
st g_any0(interp& I, const node* c, const value& in, const env* e, sink k) {
  return anyall<true>(I, c, static_cast<std::size_t>(-1), -1, in, e, k);
}
st g_all0(interp& I, const node* c, const value& in, const env* e, sink k) {
  return anyall<false>(I, c, static_cast<std::size_t>(-1), -1, in, e, k);
}
st g_any1(interp& I, const node* c, const value& in, const env* e, sink k) {
  return anyall<true>(I, c, static_cast<std::size_t>(-1), 0, in, e, k);
}
st g_all1(interp& I, const node* c, const value& in, const env* e, sink k) {
  return anyall<false>(I, c, static_cast<std::size_t>(-1), 0, in, e, k);
}
st g_any2(interp& I, const node* c, const value& in, const env* e, sink k) { return anyall<true>(I, c, 0, 1, in, e, k); }
st g_all2(interp& I, const node* c, const value& in, const env* e, sink k) {
  return anyall<false>(I, c, 0, 1, in, e, k);
}

// Loops that jq writes as tail recursion (repeat, while, until) run as loops here, so long loops use constant
// stack; a step with several outputs branches recursively as in jq.
// repeat(f): jq 1.8 emits the outputs of f on the same input, over and over.
st g_repeat(interp& I, const node* call, const value& in, const env* e, sink k) {
  for (;;) {
    bool any = false;
    auto f = [&](const value& v) -> st {
      any = true;
      return k(v);
    };
    const st s = I.eval_arg(call, 0, in, e, make_sink(f));
    if (s != st::ok || !any) return s;
  }
}

st while_from(interp& I, const node* call, const value& start, const env* e, sink k) {
  value cur = start;
  for (;;) {
    if (!I.stack_ok()) return I.stack_overflow();
    std::vector<value> conds;
    st s = collect_arg(I, call, 0, cur, e, conds);
    if (s != st::ok) return s;
    // `if cond then ., (update | _while) else empty end`: one branch per output of cond.
    if (conds.size() != 1) {
      for (const value& c : conds) {
        if (!c.truthy()) continue;
        s = k(cur);
        if (s != st::ok) return s;
        std::vector<value> next;
        s = collect_arg(I, call, 1, cur, e, next);
        if (s != st::ok) return s;
        for (const value& nx : next) {
          s = while_from(I, call, nx, e, k);
          if (s != st::ok) return s;
        }
      }
      return st::ok;
    }
    if (!conds[0].truthy()) return st::ok;
    s = k(cur);
    if (s != st::ok) return s;
    std::vector<value> next;
    s = collect_arg(I, call, 1, cur, e, next);
    if (s != st::ok) return s;
    if (next.empty()) return st::ok;
    for (std::size_t i = 0; i + 1 < next.size(); ++i) {
      s = while_from(I, call, next[i], e, k);
      if (s != st::ok) return s;
    }
    cur = std::move(next.back());
  }
}
st g_while(interp& I, const node* call, const value& in, const env* e, sink k) { return while_from(I, call, in, e, k); }

st until_from(interp& I, const node* call, const value& start, const env* e, sink k) {
  value cur = start;
  for (;;) {
    if (!I.stack_ok()) return I.stack_overflow();
    std::vector<value> conds;
    st s = collect_arg(I, call, 0, cur, e, conds);
    if (s != st::ok) return s;
    if (conds.size() != 1) {
      for (const value& c : conds) {
        if (c.truthy()) {
          s = k(cur);
        } else {
          std::vector<value> next;
          s = collect_arg(I, call, 1, cur, e, next);
          if (s != st::ok) return s;
          for (const value& nx : next) {
            s = until_from(I, call, nx, e, k);
            if (s != st::ok) return s;
          }
        }
        if (s != st::ok) return s;
      }
      return st::ok;
    }
    if (conds[0].truthy()) return k(cur);
    std::vector<value> next;
    s = collect_arg(I, call, 1, cur, e, next);
    if (s != st::ok) return s;
    if (next.empty()) return st::ok;
    for (std::size_t i = 0; i + 1 < next.size(); ++i) {
      s = until_from(I, call, next[i], e, k);
      if (s != st::ok) return s;
    }
    cur = std::move(next.back());
  }
}
st g_until(interp& I, const node* call, const value& in, const env* e, sink k) { return until_from(I, call, in, e, k); }

st g_map(interp& I, const node* call, const value& in, const env* e, sink k) {
  std::vector<value> out;
  out.reserve(in.length());
  auto f = [&](const value& v) -> st {
    auto g = [&](const value& r) -> st {
      out.push_back(r);
      return st::ok;
    };
    return I.eval_arg(call, 0, v, e, make_sink(g));
  };
  const st s = iterate_value(I, in, make_sink(f));
  if (s != st::ok) return s;
  return k(value::array(std::move(out)));
}

// map under path(...): jq's `[.[] | f]` iterates its input first, an error when that input is no path (the output of
// to_entries in with_entries). Otherwise its array is built as usual (no path).
st p_map(interp& I, const node* call, const path_link* p, const value& in, const env* e, psink k) {
  if (p == &k_invalid_path) return I.fail("Invalid path expression near attempt to iterate through " + dump_trunc(in));
  auto f = [&](const value& v) -> st { return k(&k_invalid_path, v); };
  return g_map(I, call, in, e, make_sink(f));
}

// ---- environment, I/O, control ----

st f_env(interp& I, const value&, const value*, value& out) {
  out = I.prog.globals[0];
  return st::ok;
}

st f_builtins(interp&, const value&, const value*, value& out) {
  std::vector<value> names;
  for (auto& n : builtin_names()) names.push_back(value::string(n));
  out = value::array(std::move(names));
  return st::ok;
}

st f_input_line_number(interp& I, const value&, const value*, value& out) {
  out = value::number(I.inputs == nullptr ? 0.0 : static_cast<double>(I.inputs->current_line()));
  return st::ok;
}

st f_input_filename(interp& I, const value&, const value*, value& out) {
  if (I.inputs == nullptr) {
    out = value();
    return st::ok;
  }
  std::string name = I.inputs->current_filename();
  out = name.empty() ? value() : value::string(std::move(name));
  return st::ok;
}

st f_input(interp& I, const value&, const value*, value& out) {
  if (I.inputs == nullptr) return I.fail("break");
  if (!I.inputs->next(out)) {
    std::string why = I.inputs->take_error();  // a parse error is the program's error (try can catch it)
    return I.fail(why.empty() ? std::string("break") : std::move(why));  // "break": jq 1.8's word for no more
  }
  if (out.is_view()) out.doc_box_ptr()->streamed = true;
  return st::ok;
}

st g_inputs(interp& I, const node*, const value&, const env*, sink k) {
  if (I.inputs == nullptr) return st::ok;
  for (;;) {
    value v;
    if (!I.inputs->next(v)) {
      std::string why = I.inputs->take_error();
      return why.empty() ? st::ok : I.fail(std::move(why));
    }
    if (v.is_view()) v.doc_box_ptr()->streamed = true;
    const st s = k(v);
    if (s != st::ok) return s;
  }
}

st f_debug(interp& I, const value& in, const value*, value& out) {
  if (I.cb.debug) {
    std::string msg = "[\"DEBUG:\",";
    append_json(msg, in);
    msg.push_back(']');
    I.cb.debug(msg);
  }
  out = in;
  return st::ok;
}

st f_stderr(interp& I, const value& in, const value*, value& out) {
  if (I.cb.stderr_out) {
    if (in.is_string()) {
      std::string tmp;
      I.cb.stderr_out(in.str(tmp));
    } else {
      I.cb.stderr_out(to_json(in));
    }
  }
  out = in;
  return st::ok;
}

st halt_with(interp& I, int code, const value& msg) {
  I.halt_code = code;
  if (msg.is_string()) {
    I.halt_message = msg.string_copy();
  } else if (msg.is_null()) {
    I.halt_message.clear();  // jq 1.8 writes nothing for null
  } else {
    I.halt_message = to_json(msg);
    I.halt_message.push_back('\n');
  }
  return st::halt;
}

st f_halt(interp& I, const value&, const value*, value&) {
  I.halt_code = 0;
  I.halt_message.clear();
  return st::halt;
}
st f_halt_error0(interp& I, const value& in, const value*, value&) { return halt_with(I, 5, in); }
st f_halt_error1(interp& I, const value& in, const value* args, value&) {
  if (!args[0].is_number()) return I.fail("halt_error/1: number required");
  return halt_with(I, static_cast<int>(args[0].number()), in);
}

st f_true(interp&, const value&, const value*, value& out) {
  out = value::boolean(true);
  return st::ok;
}
st f_null(interp&, const value&, const value*, value& out) {
  out = value();
  return st::ok;
}

// modulemeta: the metadata of the module named by the input, with its "deps" and "defs".
st f_modulemeta(interp& I, const value& in, const value*, value& out) {
  if (!in.is_string()) return I.fail("modulemeta input module not found");
  module_info* m = nullptr;
  try {
    m = I.prog.load_module(in.string_copy(), value(), ".");
  } catch (const compile_error& e) {
    return I.fail(e.message);
  }
  out = value::empty_object();
  m->meta.for_each_member([&](std::string_view k, const value& v) { out.object_mut().set(k, v); });
  out.object_mut().set(std::string_view("deps"), m->deps.is_null() ? value::empty_array() : m->deps);
  std::vector<value> defs;
  for (const funcdef* f : m->defs) defs.push_back(value::string(f->name + "/" + std::to_string(f->params.size())));
  out.object_mut().set(std::string_view("defs"), value::array(std::move(defs)));
  return st::ok;
}

st f_search_list(interp& I, const value&, const value*, value& out) {
  // jq's list: the -L paths (resolved to real paths where they exist), or its defaults unexpanded.
  std::vector<value> dirs;
  if (I.prog.library_paths.empty()) {
    for (const char* d : {"~/.jq", "$ORIGIN/../lib/jq", "$ORIGIN/../lib"}) dirs.push_back(value::string(d));
  }
  for (const std::string& p : I.prog.library_paths) {
    char* r = p.empty() || p[0] == '~' || p[0] == '$' ? nullptr : ::realpath(p.c_str(), nullptr);
    dirs.push_back(value::string(r != nullptr ? std::string(r) : p));
    std::free(r);
  }
  out = value::array(std::move(dirs));
  return st::ok;
}

constexpr auto k_core = sorted_natives(std::to_array<native_def>({
    {"not", 0, f_not, nullptr, nullptr},
    {"type", 0, f_type, nullptr, nullptr},
    {"length", 0, f_length, nullptr, nullptr},
    {"utf8bytelength", 0, f_utf8bytelength, nullptr, nullptr},
    {"arrays", 0, nullptr, g_type_select<0>, p_type_select<0>},
    {"objects", 0, nullptr, g_type_select<1>, p_type_select<1>},
    {"iterables", 0, nullptr, g_type_select<2>, p_type_select<2>},
    {"booleans", 0, nullptr, g_type_select<3>, p_type_select<3>},
    {"numbers", 0, nullptr, g_type_select<4>, p_type_select<4>},
    {"strings", 0, nullptr, g_type_select<5>, p_type_select<5>},
    {"nulls", 0, nullptr, g_type_select<6>, p_type_select<6>},
    {"values", 0, nullptr, g_type_select<7>, p_type_select<7>},
    {"scalars", 0, nullptr, g_type_select<8>, p_type_select<8>},
    {"finites", 0, nullptr, g_type_select<9>, p_type_select<9>},
    {"normals", 0, nullptr, g_type_select<10>, p_type_select<10>},
    {"select", 1, nullptr, g_select, p_select},
    {"empty", 0, nullptr, g_empty, p_empty},
    {"error", 0, f_error0, nullptr, nullptr},
    {"error", 1, nullptr, g_error1, p_error1},
    {"recurse", 0, nullptr, g_recurse0, p_recurse0},
    {"path", 1, nullptr, g_path, nullptr},
    {"paths", 0, nullptr, g_paths0, nullptr},
    {"paths", 1, nullptr, g_paths1, nullptr},
    {"getpath", 1, f_getpath, nullptr, p_getpath},
    {"setpath", 2, f_setpath, nullptr, nullptr},
    {"delpaths", 1, f_delpaths, nullptr, nullptr},
    {"del", 1, nullptr, g_del, nullptr},
    {"to_entries", 0, f_to_entries, nullptr, nullptr},
    {"from_entries", 0, f_from_entries, nullptr, nullptr},
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
    {"range", 1, nullptr, g_range1, nullptr},
    {"range", 2, nullptr, g_range2, nullptr},
    {"range", 3, nullptr, g_range3, nullptr},
    {"limit", 2, nullptr, g_limit, p_limit},
    {"skip", 2, nullptr, g_skip, p_skip},
    {"first", 1, nullptr, g_first, p_first},
    {"last", 1, nullptr, g_last, nullptr},
    {"isempty", 1, nullptr, g_isempty, nullptr},
    {"any", 0, nullptr, g_any0, nullptr},
    {"all", 0, nullptr, g_all0, nullptr},
    {"any", 1, nullptr, g_any1, nullptr},
    {"all", 1, nullptr, g_all1, nullptr},
    {"any", 2, nullptr, g_any2, nullptr},
    {"all", 2, nullptr, g_all2, nullptr},
    {"repeat", 1, nullptr, g_repeat, nullptr},
    {"while", 2, nullptr, g_while, nullptr},
    {"until", 2, nullptr, g_until, nullptr},
    {"map", 1, nullptr, g_map, p_map},
    {"env", 0, f_env, nullptr, nullptr},
    {"builtins", 0, f_builtins, nullptr, nullptr},
    {"input_filename", 0, f_input_filename, nullptr, nullptr},
    {"input_line_number", 0, f_input_line_number, nullptr, nullptr},
    {"input", 0, f_input, nullptr, nullptr},
    {"inputs", 0, nullptr, g_inputs, nullptr},
    {"debug", 0, f_debug, nullptr, nullptr},
    {"stderr", 0, f_stderr, nullptr, nullptr},
    {"halt", 0, f_halt, nullptr, nullptr},
    {"halt_error", 0, f_halt_error0, nullptr, nullptr},
    {"halt_error", 1, f_halt_error1, nullptr, nullptr},
    {"have_literal_numbers", 0, f_true, nullptr, nullptr},
    {"have_decnum", 0, f_true, nullptr, nullptr},
    {"get_search_list", 0, f_search_list, nullptr, nullptr},
    {"get_prog_origin", 0, f_null, nullptr, nullptr},
    {"get_jq_origin", 0, f_null, nullptr, nullptr},
    {"modulemeta", 0, f_modulemeta, nullptr, nullptr},
}));

}  // namespace

native_span core_natives() { return {k_core.data(), k_core.size()}; }

namespace {

// The parts, each sorted (sorted_natives); a native's index is its part's base plus its place in the part.
struct native_table {
  static constexpr std::size_t k_parts = 4;
  native_span part[k_parts];
  std::uint32_t base[k_parts];
};

const native_table& table() {
  static const native_table t = [] {
    native_table r{{core_natives(), string_natives(), math_time_natives(), regex_natives()}, {}};
    std::uint32_t base = 0;
    for (std::size_t k = 0; k < native_table::k_parts; ++k) {
      r.base[k] = base;
      base += static_cast<std::uint32_t>(r.part[k].count);
    }
    return r;
  }();
  return t;
}

}  // namespace

int find_native(std::string_view name, int arity) {
  const native_table& t = table();
  const std::pair<std::string_view, int> key(name, arity);
  for (std::size_t k = 0; k < native_table::k_parts; ++k) {
    const native_def* first = t.part[k].defs;
    const native_def* last = first + t.part[k].count;
    const native_def* it = std::lower_bound(first, last, key, [](const native_def& d, const auto& want) {
      const int c = std::string_view(d.name).compare(want.first);
      return c != 0 ? c < 0 : d.arity < want.second;
    });
    if (it != last && it->name == name && it->arity == arity) return static_cast<int>(t.base[k] + (it - first));
  }
  return -1;
}

const native_def& native_at(std::uint32_t i) {
  const native_table& t = table();
  std::size_t k = native_table::k_parts - 1;
  while (i < t.base[k]) --k;
  return t.part[k].defs[i - t.base[k]];
}

std::vector<std::string> builtin_names() {
  std::vector<std::string> out;
  for (const native_span& s : table().part)
    for (std::size_t i = 0; i < s.count; ++i) {
      const native_def& d = s.defs[i];
      if (d.name[0] == '_') continue;
      out.push_back(std::string(d.name) + "/" + std::to_string(d.arity));
    }
  for (auto& n : prelude_names())
    if (n[0] != '_') out.push_back(n);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace jview::filter::detail
