// core/filter/builtins_paths.cpp: natives on paths (path, paths, getpath, setpath, delpaths, del) and on entries
// (to_entries, from_entries).
#include "core/filter/builtins.hpp"

namespace jview::filter::detail {

namespace {

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
  return getpath(I, in, args[0], out);
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
    // jq: [keys_unsorted[] as $k | {key: $k, value: .[$k]}], the members in order: one pass, no lookups.
    items.reserve(in.length());
    in.for_each_member([&](std::string_view kk, const value& v) {
      value o = value::empty_object();
      auto& od = o.object_mut();
      od.entries.reserve(2);
      od.set(std::string_view("key"), value::string(kk));
      od.set(std::string_view("value"), v);
      items.push_back(std::move(o));
    });
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

constexpr auto k_part = sorted_natives(std::to_array<native_def>({
    {"path", 1, nullptr, g_path, nullptr},
    {"paths", 0, nullptr, g_paths0, nullptr},
    {"paths", 1, nullptr, g_paths1, nullptr},
    {"getpath", 1, f_getpath, nullptr, p_getpath},
    {"setpath", 2, f_setpath, nullptr, nullptr},
    {"delpaths", 1, f_delpaths, nullptr, nullptr},
    {"del", 1, nullptr, g_del, nullptr},
    {"to_entries", 0, f_to_entries, nullptr, nullptr},
    {"from_entries", 0, f_from_entries, nullptr, nullptr},
}));

}  // namespace

native_span path_natives() { return {k_part.data(), k_part.size()}; }

}  // namespace jview::filter::detail
