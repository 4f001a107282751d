// core/filter/builtins_generators.cpp: natives that generate or stop outputs: range, limit, skip, first, last,
// isempty, any, all, repeat, while, until, map. Loops that jq writes as tail recursion run as loops here.
#include "core/filter/builtins.hpp"

namespace jview::filter::detail {

namespace {

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
        if (from.is_number() && upto.is_number() && by.is_number())
          return range_impl(I, from.number(), upto.number(), by.number(), k);
        // Other types: jq 1.8's definition, with its ordering and its `+` (reference.jq's range/3).
        const int dir = compare(by, value::number(0));
        if (dir == 0) return st::ok;
        value cur = from;
        while (dir > 0 ? compare(cur, upto) < 0 : compare(cur, upto) > 0) {
          const st s = k(cur);
          if (s != st::ok) return s;
          value next;
          const st a = arith(I, '+', cur, by, next);
          if (a != st::ok) return a;
          cur = std::move(next);
        }
        return st::ok;
      };
      return I.eval_arg(call, 2, in, e, make_sink(fb));
    };
    return I.eval_arg(call, 1, in, e, make_sink(fu));
  };
  return I.eval_arg(call, 0, in, e, make_sink(ff));
}

// limit($n; f) and first(f) stop f early with a private label. Output i (from 1) is followed by the stop when
// i >= $n, as jq's countdown `$n - i <= 0`.
template <class Eval>
st limit_outputs(interp& I, const node* call, const value& in, const env* e, Eval&& eval_f) {
  auto per_n = [&](const value& nv) -> st {
    double n;
    const value* bad;
    if (!read_count(nv, n, bad)) return I.fail("limit doesn't support negative count");
    if (bad == nullptr && n == 0) return st::ok;
    const std::uint64_t id = I.next_label++;
    const st s = eval_f(n, bad, id);
    if (s == st::brk && I.brk_label == id) return st::ok;
    return s;
  };
  return I.eval_arg(call, 0, in, e, make_sink(per_n));
}

st g_limit(interp& I, const node* call, const value& in, const env* e, sink k) {
  return limit_outputs(I, call, in, e, [&](double n, const value* bad, std::uint64_t id) {
    double count = 0;
    auto f = [&](const value& v) -> st {
      if (bad != nullptr) return count_down_error(I, *bad);
      const st s = k(v);
      if (s != st::ok) return s;
      if (++count >= n) {
        I.brk_label = id;
        return st::brk;
      }
      return st::ok;
    };
    return I.eval_arg(call, 1, in, e, make_sink(f));
  });
}

st p_limit(interp& I, const node* call, const path_link* p, const value& in, const env* e, psink k) {
  return limit_outputs(I, call, in, e, [&](double n, const value* bad, std::uint64_t id) {
    double count = 0;
    auto f = [&](const path_link* q, const value& v) -> st {
      if (bad != nullptr) return count_down_error(I, *bad);
      const st s = k(q, v);
      if (s != st::ok) return s;
      if (++count >= n) {
        I.brk_label = id;
        return st::brk;
      }
      return st::ok;
    };
    return I.eval_arg_path(call, 1, p, in, e, make_psink(f));
  });
}

// skip($n; f) in value and path mode: f's outputs after the first $n (jq 1.8 defines it with foreach, whose source
// keeps its paths, so nth($n; f) is a path expression when f is).
template <class Eval>
st skip_outputs(interp& I, const node* call, const value& in, const env* e, Eval&& eval_f) {
  auto per_n = [&](const value& nv) -> st {
    double n;
    const value* bad;
    if (!read_count(nv, n, bad)) return I.fail("skip doesn't support negative count");
    return eval_f(n, bad);
  };
  return I.eval_arg(call, 0, in, e, make_sink(per_n));
}

st g_skip(interp& I, const node* call, const value& in, const env* e, sink k) {
  return skip_outputs(I, call, in, e, [&](double n, const value* bad) {
    double count = 0;
    auto f = [&](const value& v) -> st {
      if (bad != nullptr) return count_down_error(I, *bad);
      return ++count > n ? k(v) : st::ok;  // item i (from 1) when i > n, as jq's `$n - i < 0`
    };
    return I.eval_arg(call, 1, in, e, make_sink(f));
  });
}

st p_skip(interp& I, const node* call, const path_link* p, const value& in, const env* e, psink k) {
  return skip_outputs(I, call, in, e, [&](double n, const value* bad) {
    double count = 0;
    auto f = [&](const path_link* q, const value& v) -> st {
      if (bad != nullptr) return count_down_error(I, *bad);
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

// walk(f), jq's `def walk(f): def w: if type == "object" then map_values(w) elif type == "array" then map(w) else
// . end | f; w;` without its recursion: the value is walked depth first with an explicit stack (a value 10^6 deep is
// walked as jq walks it, not bounded by the C++ stack), each container rebuilt from its children's results: for an
// array every output of w on each element (map), for an object the first output of w on each member, the member
// dropped when there is none (`.[] |= w`). f runs on each rebuilt node in jq's order (children first, in order);
// the outputs of f on the input itself are the results.
struct walk_frame {
  value node;
  std::vector<value> children;    // array elements or member values, in order
  std::vector<std::string> keys;  // object: the members' keys
  std::size_t next = 0;           // the next child to walk
  std::vector<value> items;       // array: the outputs so far; object: the value kept per member (got[i])
  std::vector<bool> got;
};

walk_frame walk_open(const value& v) {
  walk_frame f;
  f.node = v;
  if (v.is_array()) {
    f.children.reserve(v.length());
    v.for_each_element([&](const value& c) { f.children.push_back(c); });
  } else {
    v.for_each_member([&](std::string_view key, const value& c) {
      f.keys.emplace_back(key);
      f.children.push_back(c);
    });
    f.items.resize(f.children.size());
    f.got.resize(f.children.size());
  }
  return f;
}

value walk_close(walk_frame& f) {
  if (f.node.is_array()) return value::array(std::move(f.items));
  value o = value::empty_object();
  auto& od = o.object_mut();
  for (std::size_t i = 0; i < f.keys.size(); ++i)
    if (f.got[i]) od.set(std::string_view(f.keys[i]), f.items[i]);
  return o;
}

st g_walk(interp& I, const node* call, const value& in, const env* e, sink k) {
  if (!in.is_array() && !in.is_object()) return I.eval_arg(call, 0, in, e, k);
  std::vector<walk_frame> stack;
  stack.push_back(walk_open(in));
  // f's outputs on a child's result `v` into the frame of its parent: all of them (array), the first (object).
  auto deliver = [&](walk_frame& parent, std::size_t i, const value& v) -> st {
    if (parent.node.is_array()) {
      auto all = [&](const value& out) -> st {
        parent.items.push_back(out);
        return st::ok;
      };
      return I.eval_arg(call, 0, v, e, make_sink(all));
    }
    const std::uint64_t id = I.next_label++;
    auto first = [&](const value& out) -> st {
      parent.items[i] = out;
      parent.got[i] = true;
      I.brk_label = id;
      return st::brk;
    };
    const st s = I.eval_arg(call, 0, v, e, make_sink(first));
    return s == st::brk && I.brk_label == id ? st::ok : s;
  };
  for (;;) {
    walk_frame& top = stack.back();
    if (top.next < top.children.size()) {
      const std::size_t i = top.next++;
      const value& c = top.children[i];
      if (c.is_array() || c.is_object()) {
        walk_frame child = walk_open(c);
        stack.push_back(std::move(child));
        continue;
      }
      const value leaf = c;
      const st s = deliver(top, i, leaf);
      if (s != st::ok) return s;
      continue;
    }
    value rebuilt = walk_close(top);
    stack.pop_back();
    if (stack.empty()) return I.eval_arg(call, 0, rebuilt, e, k);
    walk_frame& parent = stack.back();
    const st s = deliver(parent, parent.next - 1, rebuilt);
    if (s != st::ok) return s;
  }
}

constexpr auto k_part = sorted_natives(std::to_array<native_def>({
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
    {"walk", 1, nullptr, g_walk, nullptr},
}));

}  // namespace

native_span generator_natives() { return {k_part.data(), k_part.size()}; }

}  // namespace jview::filter::detail
