// core/filter/eval_assign.cpp: assignments: `=`, `|=`, `op=` and `//=` in value mode, and `|=`, `op=`, `//=`
// under path(...) (jq 1.8's _modify, which is never a path expression). The paths of the left side are computed
// on the input, then each is set or updated on the result, and paths whose update had no output are deleted at
// the end, as jq 1.8 does.
#include "core/filter/eval.hpp"

namespace jview::filter::detail {

st interp::update_paths(const node* n, const value& in, const env* e, value& result, std::vector<value>& deletions,
                        updater update) {
  if (n->fast == fast_path::update_each_in_place) {
    st s;
    if (update_each_in_place(*this, in, result, deletions, update, s)) return s;
  }
  std::vector<value> keys;
  auto per_path = [&](const path_link* p, const value& cur0) -> st {
    if (p == &k_invalid_path) return fail("Invalid path expression with result " + dump_trunc(cur0));
    keys.clear();
    path_keys(p, keys);
    value cur;
    st s = getpath(*this, result, value::array(keys), cur);
    if (s != st::ok) return s;
    value out;
    bool got = false;
    s = update(cur, out, got);
    if (s != st::ok) return s;
    if (got) return setpath(*this, result, keys.data(), keys.size(), std::move(out));
    deletions.push_back(value::array(keys));
    return st::ok;
  };
  return eval_path(n->a, nullptr, in, e, make_psink(per_path));
}

st interp::eval_assign(const node* n, const value& in, const env* e, sink k) {
  auto check = [&](const path_link* p, const value& v) -> st {
    if (p == &k_invalid_path) return fail("Invalid path expression with result " + dump_trunc(v));
    return st::ok;
  };
  if (n->o == op::assign) {
    // lhs = rhs: for each value of rhs (evaluated on the input), set every path of lhs to it.
    auto per_value = [&](const value& v) -> st {
      value result = in;
      std::vector<value> keys;
      auto per_path = [&](const path_link* p, const value& cur) -> st {
        st s = check(p, cur);
        if (s != st::ok) return s;
        keys.clear();
        path_keys(p, keys);
        return setpath(*this, result, keys.data(), keys.size(), v);
      };
      const st s = eval_path(n->a, nullptr, in, e, make_psink(per_path));
      if (s != st::ok) return s;
      return k(result);
    };
    return eval(n->b, in, e, make_sink(per_value));
  }
  // |=, op=, //=: for each path of lhs, replace the value there with the first output of the update (no output:
  // the path is deleted at the end, as jq 1.8 does).
  auto modify = [&](auto&& update) -> st {
    value result = in;
    std::vector<value> deletions;
    st s = update_paths(n, in, e, result, deletions, make_updater(update));
    if (s != st::ok) return s;
    if (!deletions.empty()) {
      s = delpaths(*this, result, std::move(deletions));
      if (s != st::ok) return s;
    }
    return k(result);
  };
  if (n->o == op::update) {
    return modify([&](const value& cur, value& out, bool& got) -> st {
      const std::uint64_t id = next_label++;
      auto first = [&](const value& r) -> st {
        out = r;
        got = true;
        brk_label = id;
        return st::brk;
      };
      const st s = eval(n->b, cur, e, make_sink(first));
      if (s == st::brk && brk_label == id) return st::ok;
      return s;
    });
  }
  // op= and //=: the right side is evaluated on the original input, once per output.
  auto per_rhs = [&](const value& rv) -> st {
    if (n->o == op::alt_assign) {
      return modify([&](const value& cur, value& out, bool& got) -> st {
        out = cur.truthy() ? cur : rv;
        got = true;
        return st::ok;
      });
    }
    return modify([&](const value& cur, value& out, bool& got) -> st {
      got = true;
      return arith(*this, n->sub, cur, rv, out);
    });
  };
  return eval(n->b, in, e, make_sink(per_rhs));
}

// |=, op= and //= inside path(...). jq 1.8 defines them all with _modify (builtin.jq), whose reduce starts from the
// constructed state [., []] and ends with `. as $dot | $dot[0] | delpaths($dot[1])`: under path tracking the
// update runs on a value that is no path ($$$$v: indexing it is an error), and $dot[0] always fails, naming the
// final [value, deleted paths].
st interp::modify_path(const node* n, const value& in, const env* e) {
  auto run = [&](auto&& update) -> st {
    value result = in;
    std::vector<value> deletions;
    const st s = update_paths(n, in, e, result, deletions, make_updater(update));
    if (s != st::ok) return s;
    const value dot = value::array({std::move(result), value::array(std::move(deletions))});
    return fail("Invalid path expression near attempt to access element 0 of " + dump_trunc(dot));
  };
  if (n->o == op::update) {
    return run([&](const value& cur, value& out, bool& got) -> st {
      const std::uint64_t id = next_label++;
      auto first = [&](const path_link*, const value& r) -> st {
        out = r;
        got = true;
        brk_label = id;
        return st::brk;
      };
      const st s = eval_path(n->b, &k_invalid_path, cur, e, make_psink(first));
      if (s == st::brk && brk_label == id) return st::ok;
      return s;
    });
  }
  // op= and //=: the right side first, on the input; then _modify(lhs; . op $v) / _modify(lhs; . // $v).
  auto per_rhs = [&](const value& rv) -> st {
    return run([&](const value& cur, value& out, bool& got) -> st {
      got = true;
      if (n->o == op::alt_assign) {
        out = cur.truthy() ? cur : rv;
        return st::ok;
      }
      return arith(*this, n->sub, cur, rv, out);
    });
  };
  return eval(n->b, in, e, make_sink(per_rhs));
}

}  // namespace jview::filter::detail
