// core/filter/fast_paths.cpp: every shortcut the evaluator takes instead of the general evaluation, in one place.
// The compiler chooses them (choose_fast_path marks a node's `fast` field when it has the shape) unless
// compile_options::fast_paths is off; the evaluator then runs the marked node here, and each fast path falls back to
// the general way when the values do not fit. Each one gives exactly the general evaluation's outputs and errors:
// the test suite runs every tests/filter/*.test case both ways (tests/unit/filter/cases_test.cpp).
//   count_outputs         `[f] | length` counts f's outputs without building the array (with `length` the native
//                         one): `[inputs | select(.status >= 500)] | length` keeps no input.
//   reduce_in_place       reduce's update `. + E`, `.[p] = E`, `.[p] |= f`, `.[p] op= E`, `.[p] //= E` modifies the
//                         state the loop owns instead of copying it at every step (quadratic otherwise).
//   object_in_one_step    `{a, b: .x.y, c: 1}`: literal keys whose values are literals or member paths, built in one
//                         step on an object or null input, without a generator per member.
//   update_each_in_place  `.[] |= f` (map_values, walk) on an array or object: each member updated in place, in
//                         iteration order, without a path array and a getpath and setpath from the root per member.
//   identity              program::is_identity: the program `.` lets the CLI write each input from its view.
// Not fast paths in this sense: a construct that takes a literal operand's value without a generator call (`.a`,
// `. + 1`, `f("x")`, `{a: 1}` member values): the same evaluation, with one call fewer. Natives written for speed
// where jq has a jq definition are checked against that definition instead (reference.jq).
#include "core/filter/eval.hpp"

namespace jview::filter::detail {

namespace {

bool is_native_call(const node* n, const char* name, std::size_t arity) {
  return n->o == op::call && n->ck == call_kind::native && n->args.size() == arity && n->name == name;
}

bool is_assignment(op o) { return o == op::assign || o == op::update || o == op::update_op || o == op::alt_assign; }

// The member values object_in_one_step takes: `.`, a literal, or `.a.b` with literal string keys, not optional.
bool simple_member_shape(const node* vn) {
  for (;; vn = vn->a) {
    switch (vn->o) {
      case op::identity:
      case op::literal: return true;
      case op::index:
        if (vn->opt || vn->b->o != op::literal || !vn->b->v.is_string()) return false;
        continue;
      default: return false;
    }
  }
}

}  // namespace

void choose_fast_path(node* n) {
  switch (n->o) {
    case op::pipe:
      if (n->a->o == op::array && n->a->a != nullptr && is_native_call(n->b, "length", 0))
        n->fast = fast_path::count_outputs;
      return;
    case op::reduce: {
      const node* u = n->c;
      if ((u->o == op::arith && u->sub == '+' && u->a->o == op::identity) || is_assignment(u->o))
        n->fast = fast_path::reduce_in_place;
      return;
    }
    case op::object: {
      for (std::size_t j = 0; j + 1 < n->args.size(); j += 2) {
        const node* kn = n->args[j];
        if (kn->o != op::literal || !kn->v.is_string() || !simple_member_shape(n->args[j + 1])) return;
      }
      n->fast = fast_path::object_in_one_step;
      return;
    }
    case op::update:
    case op::update_op:
    case op::alt_assign: {
      const node* lhs = n->a;
      if (lhs->o == op::iterate && !lhs->opt && lhs->a != nullptr && lhs->a->o == op::identity)
        n->fast = fast_path::update_each_in_place;
      return;
    }
    default: return;
  }
}

// ---- count_outputs ----

st interp::count_outputs(const node* n, const value& in, const env* e, sink k) {
  double count = 0;
  auto one = [&](const value&) -> st {
    ++count;
    return st::ok;
  };
  const st s = eval(n->a->a, in, e, make_sink(one));
  if (s != st::ok) return s;
  return k(value::number(count));
}

// ---- object_in_one_step ----

namespace {

// The value of a member in the one-step construction below: a literal, or a path of literal string keys
// (`.a`, `.a.b`, what `{a}` means) on an object or null. False for anything else (the general way decides).
bool simple_member_value(const node* vn, const value& in, value& out, int depth = 0) {
  if (depth > 64) return false;  // a long path: the general way (it runs long chains in a loop)
  switch (vn->o) {
    case op::identity: out = in; return true;
    case op::literal: out = vn->v; return true;
    case op::index: {
      if (vn->opt || vn->b->o != op::literal || !vn->b->v.is_string()) return false;
      value t;
      if (!simple_member_value(vn->a, in, t, depth + 1)) return false;
      if (t.is_object()) {
        std::string tmp;
        out = t.member(vn->b->v.str(tmp));
        return true;
      }
      if (t.is_null()) {
        out = value();
        return true;
      }
      return false;  // an error: let the general way raise it in jq's order
    }
    default: return false;
  }
}

}  // namespace

bool object_in_one_step(const node* n, const value& in, value& out) {
  value o = value::empty_object();
  auto& od = o.object_mut();
  od.entries.reserve(n->args.size() / 2);
  for (std::size_t j = 0; j < n->args.size(); j += 2) {
    value v;
    if (!simple_member_value(n->args[j + 1], in, v)) return false;
    std::string tmp;
    const std::string_view key = n->args[j]->v.str(tmp);
    // A new key of a small object is appended directly (object_data indexes only objects past 8 members).
    if (od.entries.size() < 8 && od.find(key) < 0)
      od.entries.push_back({std::string(key), std::move(v)});
    else
      od.set(key, std::move(v));
  }
  out = std::move(o);
  return true;
}

// ---- update_each_in_place ----

bool update_each_in_place(interp& I, const value& in, value& result, std::vector<value>& deletions, updater update,
                          st& status) {
  (void)I;
  if (!in.is_array() && !in.is_object()) return false;
  auto each = [&](value& slot, auto&& deletion_key) -> st {
    const value cur = slot;
    value out;
    bool got = false;
    const st s = update(cur, out, got);
    if (s != st::ok) return s;
    if (got)
      slot = std::move(out);
    else
      deletions.push_back(value::array({deletion_key()}));
    return st::ok;
  };
  status = st::ok;
  if (in.is_array()) {
    std::vector<value>& items = result.array_mut();
    for (std::size_t i = 0; i < items.size(); ++i) {
      status = each(items[i], [i] { return value::number(static_cast<double>(i)); });
      if (status != st::ok) return true;
    }
  } else {
    for (auto& en : result.object_mut().entries) {
      status = each(en.val, [&en] { return value::string(en.key); });
      if (status != st::ok) return true;
    }
  }
  return true;
}

// ---- reduce_in_place ----

namespace {

// `.a.b[$k]`: a path whose keys are literals or variables, so it is known without looking at the value.
bool simple_path(const node* n, std::vector<const node*>& keys) {
  if (n->o == op::identity) return true;
  if (n->o != op::index || n->opt) return false;
  if (n->b->o != op::literal && n->b->o != op::var) return false;
  if (!simple_path(n->a, keys)) return false;
  keys.push_back(n->b);
  return true;
}

}  // namespace

// One reduce step with the state owned by the loop. jq's reduce idioms (`. + [$x]`, `.[$k] = $v`, `.[$k] += [$x]`,
// `.[$k] |= . + 1`) would copy the whole state at every step and turn quadratic; for these shapes the state is
// modified in place. Anything else (handled = false) takes the general path.
st interp::reduce_step(const node* u, value& state, const env* e, bool& handled) {
  handled = true;
  if (u->o == op::arith && u->sub == '+' && u->a->o == op::identity) {
    std::vector<value> rs;
    st s = collect(u->b, state, e, rs);
    if (s != st::ok) return s;
    if (rs.empty()) {
      state = value();
      return st::ok;
    }
    for (std::size_t i = 0; i + 1 < rs.size(); ++i) {
      value tmp;
      s = arith(*this, '+', state, rs[i], tmp);  // only its error matters: reduce keeps the last output
      if (s != st::ok) return s;
    }
    return arith_inplace(*this, '+', state, rs.back());
  }
  if (u->o != op::assign && u->o != op::update && u->o != op::update_op && u->o != op::alt_assign) {
    handled = false;
    return st::ok;
  }
  // The paths of the left side, computed on the state before any change (as jq does).
  std::vector<std::vector<value>> paths;
  std::vector<const node*> kn;
  if (simple_path(u->a, kn)) {
    std::vector<value> keys;
    keys.reserve(kn.size());
    for (const node* k : kn) {
      if (k->o == op::literal)
        keys.push_back(k->v);
      else if (k->vk == var_kind::global)
        keys.push_back(prog.globals[k->index]);
      else
        keys.push_back(env_up(e, k->hops)->v);
    }
    paths.push_back(std::move(keys));
  } else {
    auto per_path = [&](const path_link* p, const value& v) -> st {
      if (p == &k_invalid_path) return fail("Invalid path expression with result " + dump_trunc(v));
      paths.emplace_back();
      path_keys(p, paths.back());
      return st::ok;
    };
    const st s = eval_path(u->a, nullptr, state, e, make_psink(per_path));
    if (s != st::ok) return s;
  }
  std::vector<value> rs;
  if (u->o != op::update) {
    const st s = collect(u->b, state, e, rs);  // the right side sees the state before the change
    if (s != st::ok) return s;
    if (rs.empty()) {
      state = value();
      return st::ok;
    }
  }
  if (u->o == op::assign) {
    for (std::size_t i = 0; i < rs.size(); ++i) {
      const bool last = i + 1 == rs.size();
      value tmp;
      if (!last) tmp = state;  // earlier outputs only matter for their errors: reduce keeps the last one
      value& target = last ? state : tmp;
      for (const auto& keys : paths) {
        const st s = setpath(*this, target, keys.data(), keys.size(), rs[i]);
        if (s != st::ok) return s;
      }
    }
    return st::ok;
  }
  // |=, op=, //=: read the value at the path, take it out of the state so it is owned alone, put back the result
  // (no output: the path is deleted once all paths are done, as jq 1.8 does).
  std::vector<value> deletions;
  auto modify = [&](value& target, const std::vector<value>& keys, bool in_place, auto&& f) -> st {
    value child;
    {
      value cur = target;
      for (const value& k : keys) {
        if (cur.is_null()) break;
        value next;
        const st s = index_value(*this, cur, k, next);
        if (s != st::ok) return s;
        cur = std::move(next);
      }
      child = std::move(cur);
    }
    if (in_place && (child.is_array() || child.is_object() || child.is_string()) && !child.is_view()) {
      const st s = setpath(*this, target, keys.data(), keys.size(), value());
      if (s != st::ok) return s;
    }
    value out;
    bool got = false;
    const st s = f(child, out, got);
    if (s != st::ok) return s;
    if (got) return setpath(*this, target, keys.data(), keys.size(), std::move(out));
    deletions.push_back(value::array(keys));
    return st::ok;
  };
  auto finish = [&](value& target) -> st {
    if (deletions.empty()) return st::ok;
    std::vector<value> d;
    d.swap(deletions);
    return delpaths(*this, target, std::move(d));
  };
  if (u->o == op::update) {
    auto f_update = [&](value& child, value& out, bool& got) -> st {
      const node* f = u->b;
      if (f->o == op::arith && f->a->o == op::identity) {
        // `. op E`: E on the old value, then the operation in place.
        std::vector<value> r;
        st s = collect(f->b, child, e, r);
        if (s != st::ok) return s;
        if (r.empty()) return st::ok;
        s = arith_inplace(*this, f->sub, child, r.front());
        if (s != st::ok) return s;
        out = std::move(child);
        got = true;
        return st::ok;
      }
      const std::uint64_t id = next_label++;
      auto first = [&](const value& r) -> st {
        out = r;
        got = true;
        brk_label = id;
        return st::brk;
      };
      const st s = eval(f, child, e, make_sink(first));
      if (s == st::brk && brk_label == id) return st::ok;
      return s;
    };
    for (const auto& keys : paths) {
      const st s = modify(state, keys, true, f_update);
      if (s != st::ok) return s;
    }
    return finish(state);
  }
  for (std::size_t i = 0; i < rs.size(); ++i) {
    const bool last = i + 1 == rs.size();
    value tmp;
    if (!last) tmp = state;
    value& target = last ? state : tmp;
    const value& rv = rs[i];
    auto f_op = [&](value& child, value& out, bool& got) -> st {
      got = true;
      if (u->o == op::alt_assign) {
        out = child.truthy() ? std::move(child) : rv;
        return st::ok;
      }
      const st s = arith_inplace(*this, u->sub, child, rv);
      if (s != st::ok) return s;
      out = std::move(child);
      return st::ok;
    };
    for (const auto& keys : paths) {
      const st s = modify(target, keys, last, f_op);
      if (s != st::ok) return s;
    }
  }
  return st::ok;
}

}  // namespace jview::filter::detail
