// core/filter/eval.cpp: the generator evaluator (value mode and path mode) over the resolved AST, and the run
// entry point. Every construct is a loop that calls its continuation per output; the returned status unwinds
// early on errors, `break` and `halt`. try/catch tells errors raised inside its body from errors raised by its
// continuation (those pass through), as jq does.
#include <pthread.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <exception>

#include "core/filter/eval.hpp"
#include "core/sanitizer.hpp"

namespace jview::filter::detail {

namespace {

// The lowest stack address evaluation may use: the thread's stack bottom plus a margin for natives (regex,
// sorting) and the CLI's own frames. Computed once per thread.
char* stack_floor() {
  static thread_local char* floor = nullptr;
  if (floor != nullptr) return floor;
  char here;
  std::size_t size = 8u << 20;
  if (static_cast<pid_t>(gettid()) == getpid()) {
    // The main thread grows on demand up to RLIMIT_STACK.
    rlimit rl{};
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) size = rl.rlim_cur;
    if (rl.rlim_cur == RLIM_INFINITY) size = 256u << 20;
    const std::size_t margin = 512u << 10;
    floor = &here - (size > 2 * margin ? size - margin : size / 2);
  } else {
    pthread_attr_t attr;
    void* addr = nullptr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      pthread_attr_getstack(&attr, &addr, &size);
      pthread_attr_destroy(&attr);
    }
    const std::size_t margin = size > (1u << 20) ? (256u << 10) : size / 4;
    floor = addr != nullptr ? static_cast<char*>(addr) + margin : &here - size / 2;
  }
  return floor;
}

bool identical(const value& a, const value& b) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case kind::null_:
    case kind::false_:
    case kind::true_: return true;
    default: return a.same_storage(b);
  }
}

}  // namespace

interp::interp(program_impl& p, input_provider* in, const run_callbacks& c, char* stack_limit)
    : prog(p), inputs(in), cb(c), stack_limit_(stack_limit != nullptr ? stack_limit : stack_floor()) {}

st interp::stack_overflow() { return fail("Maximum recursion depth exceeded (stack overflow)"); }

// ---- value mode ----

namespace {

struct recurse_ctx {
  interp& I;
  sink k;
  st run(const value& v) {
    if (!I.stack_ok()) return I.stack_overflow();
    st s = k(v);
    if (s != st::ok) return s;
    if (v.is_view()) {
      const document& d = v.doc();
      const std::uint32_t i = v.node_index();
      const jview::node& n = d[i];
      if (n.k == kind::array) {
        for (std::uint32_t c = i + 1; c < n.next; c = d[c].next) {
          const jview::node& cn = d[c];
          if (cn.k == kind::array || cn.k == kind::object) {
            s = run(v.sibling_view(c));
          } else {
            s = k(v.sibling_view(c));
          }
          if (s != st::ok) return s;
        }
      } else if (n.k == kind::object) {
        for (std::uint32_t c = i + 1; c < n.next; c = d[c + 1].next) {
          const jview::node& cn = d[c + 1];
          if (cn.k == kind::array || cn.k == kind::object) {
            s = run(v.sibling_view(c + 1));
          } else {
            s = k(v.sibling_view(c + 1));
          }
          if (s != st::ok) return s;
        }
      }
      return st::ok;
    }
    if (v.is_owned_array()) {
      value hold = v;
      for (const value& c : hold.array_items()) {
        s = run(c);
        if (s != st::ok) return s;
      }
    } else if (v.is_owned_object()) {
      value hold = v;
      for (const auto& e : hold.object_data_ref().entries) {
        s = run(e.val);
        if (s != st::ok) return s;
      }
    }
    return st::ok;
  }
};

struct recurse_path_ctx {
  interp& I;
  psink k;
  st run(const path_link* p, const value& v) {
    if (!I.stack_ok()) return I.stack_overflow();
    st s = k(p, v);
    if (s != st::ok) return s;
    if (v.type() == kind::array) {
      std::uint32_t i = 0;
      value hold = v;
      const std::uint32_t n = hold.length();
      if (hold.is_owned_array()) {
        for (; i < n; ++i) {
          path_link l{p, value::number(i)};
          s = run(&l, hold.array_items()[i]);
          if (s != st::ok) return s;
        }
      } else {
        const document& d = hold.doc();
        const jview::node& an = d[hold.node_index()];
        for (std::uint32_t c = hold.node_index() + 1; c < an.next; c = d[c].next, ++i) {
          path_link l{p, value::number(i)};
          s = run(&l, hold.sibling_view(c));
          if (s != st::ok) return s;
        }
      }
    } else if (v.type() == kind::object) {
      value hold = v;
      if (hold.is_owned_object()) {
        for (const auto& e : hold.object_data_ref().entries) {
          path_link l{p, value::string(e.key)};
          s = run(&l, e.val);
          if (s != st::ok) return s;
        }
      } else {
        const document& d = hold.doc();
        const jview::node& on = d[hold.node_index()];
        for (std::uint32_t c = hold.node_index() + 1; c < on.next; c = d[c + 1].next) {
          path_link l{p, hold.sibling_view(c)};
          s = run(&l, hold.sibling_view(c + 1));
          if (s != st::ok) return s;
        }
      }
    }
    return st::ok;
  }
};

// Type-erased continuation for destructuring.
struct dk {
  void* obj;
  st (*fn)(void*);
  st operator()() const { return fn(obj); }
};
template <class F>
dk make_dk(F& f) {
  return dk{&f, [](void* o) { return (*static_cast<F*>(o))(); }};
}

}  // namespace

namespace {

st destr(interp& I, const pattern* p, const value& v, const env* e, value* vars, dk k);

st destr_array(interp& I, const pattern* p, std::size_t i, const value& v, const env* e, value* vars, dk k) {
  if (i == p->elems.size()) return k();
  value elem;
  const st s = index_value(I, v, value::number(static_cast<double>(i)), elem);
  if (s != st::ok) return s;
  auto next = [&]() { return destr_array(I, p, i + 1, v, e, vars, k); };
  return destr(I, p->elems[i], elem, e, vars, make_dk(next));
}

st destr_object(interp& I, const pattern* p, std::size_t i, const value& v, const env* e, value* vars, dk k) {
  if (i == p->entries.size()) return k();
  const pattern::entry& ent = p->entries[i];
  auto with_key = [&](const value& key) -> st {
    if (!key.is_string()) return I.fail(index_error(v, key));
    value member;
    const st s = index_value(I, v, key, member);
    if (s != st::ok) return s;
    if (ent.var != nullptr) vars[ent.var->slot] = member;
    auto next = [&]() { return destr_object(I, p, i + 1, v, e, vars, k); };
    if (ent.sub != nullptr) return destr(I, ent.sub, member, e, vars, make_dk(next));
    return next();
  };
  if (ent.key->o == op::literal) return with_key(ent.key->v);
  // Key expressions see the value being destructured as their input.
  return I.eval(ent.key, v, e, make_sink(with_key));
}

st destr(interp& I, const pattern* p, const value& v, const env* e, value* vars, dk k) {
  switch (p->k) {
    case pattern::var: vars[p->slot] = v; return k();
    case pattern::array:
      if (!v.is_array() && !v.is_null()) return I.fail(index_error(v, value::number(0)));
      return destr_array(I, p, 0, v, e, vars, k);
    case pattern::object: return destr_object(I, p, 0, v, e, vars, k);
  }
  return st::ok;
}

// Pushes env nodes for vars[i..n) on the stack, then runs body(chain).
template <class Body>
st push_vars(const value* vars, std::uint32_t i, std::uint32_t n, const env* chain, Body& body) {
  if (i == n) return body(chain);
  env node;
  node.parent = chain;
  node.v = vars[i];
  return push_vars(vars, i + 1, n, &node, body);
}

}  // namespace

// Destructures src by the node's patterns (with ?// alternatives) and runs body(env) for each binding.
template <class Body>
st interp::bind_patterns(const node* n, const value& src, const value& in, const env* e, Body& body) {
  (void)in;
  const std::uint32_t nv = n->n_vars;
  value small[8];
  std::vector<value> big;
  value* vars = small;
  if (nv > 8) {
    big.resize(nv);
    vars = big.data();
  }
  if (n->patterns.size() == 1 && n->patterns[0]->k == pattern::var) {
    env node;
    node.parent = e;
    node.v = src;
    return body(static_cast<const env*>(&node));
  }
  auto run_body = [&]() -> st {
    auto b = [&](const env* chain) { return body(chain); };
    return push_vars(vars, 0, nv, e, b);
  };
  if (n->patterns.size() == 1) return destr(*this, n->patterns[0], src, e, vars, make_dk(run_body));
  // Alternatives: an error in a pattern or in the body moves on to the next pattern; errors raised by the
  // continuation of the whole expression are not the body's (body() marks them in `downstream_`).
  for (std::size_t i = 0; i < n->patterns.size(); ++i) {
    for (std::uint32_t j = 0; j < nv; ++j) vars[j] = value();
    body_downstream_error_ = false;
    const st s = destr(*this, n->patterns[i], src, e, vars, make_dk(run_body));
    if (s != st::err || i + 1 == n->patterns.size()) return s;
    if (body_downstream_error_) return s;
  }
  return st::ok;
}

template <class Body>
st interp::bind_params(const funcdef* f, const node* n, std::size_t i, const value& in, const env* caller,
                       const env* chain, Body& body) {
  const std::size_t np = f->params.size();
  if (i < np) {
    // Closure parameters first (one env node each), in order.
    env node;
    node.parent = chain;
    node.body = n->args[i];
    node.cenv = caller;
    return bind_params(f, n, i + 1, in, caller, &node, body);
  }
  // Then the $parameters: each argument evaluated as a value, the first one outermost.
  const std::size_t vi = i - np;
  std::size_t pi = 0, seen = 0;
  for (; pi < np; ++pi) {
    if (!f->value_param[pi]) continue;
    if (seen == vi) break;
    ++seen;
  }
  if (pi == np) return body(chain);
  auto each = [&](const value& v) -> st {
    env node;
    node.parent = chain;
    node.v = v;
    return bind_params(f, n, i + 1, in, caller, &node, body);
  };
  return eval(n->args[pi], in, caller, make_sink(each));
}

namespace {

st call_value_native(interp& I, const native_def& nd, const node* n, int i, const value& in, const env* e,
                     value* args, sink k) {
  if (i < 0) {
    value out;
    st s;
    try {
      s = nd.vfn(I, in, args, out);
    } catch (const comparison_too_deep& x) {  // sort, unique, min, max, bsearch, indices...
      return I.fail(x.message);
    }
    if (s != st::ok) return s;
    return k(out);
  }
  const node* a = n->args[static_cast<std::size_t>(i)];
  if (a->o == op::literal) {
    args[i] = a->v;
    return call_value_native(I, nd, n, i - 1, in, e, args, k);
  }
  auto each = [&](const value& v) -> st {
    args[i] = v;
    return call_value_native(I, nd, n, i - 1, in, e, args, k);
  };
  return I.eval(a, in, e, make_sink(each));
}

// Kept out of call() so the argument buffer is on the stack only while a value native runs.
[[gnu::noinline]] st call_value_native_args(interp& I, const native_def& nd, const node* n, const value& in,
                                            const env* e, sink k) {
  value args[8];
  return call_value_native(I, nd, n, static_cast<int>(n->args.size()) - 1, in, e, args, k);
}

}  // namespace

st interp::call(const node* n, const value& in, const env* e, sink k) {
  switch (n->ck) {
    case call_kind::closure: {
      if (!stack_ok()) return stack_overflow();
      const env* c = env_up(e, n->hops);
      return eval(c->body, in, c->cenv, k);
    }
    case call_kind::native: {
      const native_def& nd = native_at(n->index);
      if (nd.gen != nullptr) return nd.gen(*this, n, in, e, k);
      return call_value_native_args(*this, nd, n, in, e, k);
    }
    case call_kind::local_def:
    case call_kind::global_def: {
      if (!stack_ok()) return stack_overflow();
      const funcdef* f = n->fn;
      const env* base = n->ck == call_kind::local_def ? env_up(e, n->hops) : nullptr;
      if (f->params.empty()) return eval(f->body, in, base, k);
      auto body = [&](const env* chain) { return eval(f->body, in, chain, k); };
      return bind_params(f, n, 0, in, e, base, body);
    }
    case call_kind::unresolved: break;
  }
  return fail("internal error: unresolved call " + n->name);
}

st interp::eval_interp(const node* n, std::size_t i, const value& in, const env* e, std::vector<value>& parts,
                       sink k) {
  // Parts are evaluated last-first (the last interpolation is the outermost loop, as in jq).
  if (i == 0) {
    std::string out;
    for (const value& p : parts) {
      std::string tmp;
      out.append(p.str(tmp));
    }
    return k(value::string(std::move(out)));
  }
  const node* part = n->args[i - 1];
  if (part->o == op::literal && part->sub == 1) {
    parts[i - 1] = part->v;
    return eval_interp(n, i - 1, in, e, parts, k);
  }
  auto each = [&](const value& v) -> st {
    std::string s;
    const st r = apply_format(*this, n->name, v, s);
    if (r != st::ok) return r;
    parts[i - 1] = value::string(std::move(s));
    return eval_interp(n, i - 1, in, e, parts, k);
  };
  return eval(part, in, e, make_sink(each));
}

namespace {

struct object_builder {
  interp& I;
  const node* n;
  const value& in;
  const env* e;
  sink k;
  std::pair<value, value>* kv;  // the members chosen so far (n->args.size() / 2 slots)
  std::size_t nkv = 0;

  st step(std::size_t i) {
    if (i == n->args.size()) {
      value o = value::empty_object();
      auto& od = o.object_mut();
      od.entries.reserve(nkv);
      for (std::size_t j = 0; j < nkv; ++j) {
        std::string tmp;
        od.set(kv[j].first.str(tmp), kv[j].second);
      }
      return k(o);
    }
    const node* kn = n->args[i];
    const node* vn = n->args[i + 1];
    auto with_key = [&](const value& key) -> st {
      if (!key.is_string())
        return I.fail(std::string("Cannot use ") + key.type_name() + " (" + dump_trunc(key) + ") as object key");
      auto with_val = [&](const value& val) -> st {
        kv[nkv].first = key;
        kv[nkv].second = val;
        ++nkv;
        const st s = step(i + 2);
        --nkv;
        kv[nkv] = {};
        return s;
      };
      if (vn->o == op::literal) return with_val(vn->v);
      return I.eval(vn, in, e, make_sink(with_val));
    };
    if (kn->o == op::literal) return with_key(kn->v);
    return I.eval(kn, in, e, make_sink(with_key));
  }
};

}  // namespace

namespace {

// The value of a member in the one-step construction below: a literal, or a path of literal string keys
// (`.a`, `.a.b`, what `{a}` means) on an object or null. False for anything else (the general way decides).
bool simple_member_value(const node* vn, const value& in, value& out) {
  switch (vn->o) {
    case op::identity: out = in; return true;
    case op::literal: out = vn->v; return true;
    case op::index: {
      if (vn->opt || vn->b->o != op::literal || !vn->b->v.is_string()) return false;
      value t;
      if (!simple_member_value(vn->a, in, t)) return false;
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

st interp::eval_object(const node* n, std::size_t i, const value& in, const env* e, sink k) {
  // `{ts, level}`, `{id: .x.y, kind: "a"}`: literal keys, one value each, built in one step.
  if (i == 0) {
    value o = value::empty_object();
    auto& od = o.object_mut();
    od.entries.reserve(n->args.size() / 2);
    bool simple = true;
    for (std::size_t j = 0; simple && j < n->args.size(); j += 2) {
      const node* kn = n->args[j];
      value v;
      simple = kn->o == op::literal && kn->v.is_string() && simple_member_value(n->args[j + 1], in, v);
      if (simple) {
        std::string tmp;
        const std::string_view key = kn->v.str(tmp);
        // A new key of a small object is appended directly (object_data indexes only objects past 8 members).
        if (od.entries.size() < 8 && od.find(key) < 0)
          od.entries.push_back({std::string(key), std::move(v)});
        else
          od.set(key, std::move(v));
      }
    }
    if (simple) return k(o);
  }
  // Members are kept on the stack for the usual small object constructions ({a, b}, {id: .x, name}).
  constexpr std::size_t k_small = 4;
  const std::size_t members = n->args.size() / 2;
  std::pair<value, value> small[k_small];
  std::vector<std::pair<value, value>> big(members > k_small ? members : 0);
  object_builder b{*this, n, in, e, k, members > k_small ? big.data() : small};
  return b.step(i);
}

st interp::collect(const node* n, const value& in, const env* e, std::vector<value>& out) {
  auto f = [&](const value& v) -> st {
    out.push_back(v);
    return st::ok;
  };
  return eval(n, in, e, make_sink(f));
}

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

// The loop of reduce and foreach: for each output of INIT (n->b) a state; for each output of SOURCE (n->a), bound
// to the patterns, step(state, env); after the source, done(state).
template <class Step, class Done>
st interp::fold(const node* n, const value& in, const env* e, Step&& step, Done&& done) {
  auto per_init = [&](const value& init) -> st {
    value state = init;
    auto per_item = [&](const value& item) -> st {
      auto body = [&](const env* e2) -> st { return step(state, e2); };
      return bind_patterns(n, item, in, e, body);
    };
    const st s = eval(n->a, in, e, make_sink(per_item));
    if (s != st::ok) return s;
    return done(state);
  };
  return eval(n->b, in, e, make_sink(per_init));
}

namespace {

// reduce's update: its last output is the new state (none: null).
template <class Eval>
st reduce_update(value& acc, Eval&& eval_update) {
  value last;
  bool any = false;
  const value cur = std::move(acc);
  const st s = eval_update(cur, [&](const value& r) {
    last = r;
    any = true;
  });
  if (s != st::ok) return s;
  acc = any ? std::move(last) : value();
  return st::ok;
}

}  // namespace

st interp::eval_reduce(const node* n, const value& in, const env* e, sink k) {
  auto step = [&](value& acc, const env* e2) -> st {
    bool handled = false;
    const st fs = reduce_step(n->c, acc, e2, handled);
    if (handled) return fs;
    return reduce_update(acc, [&](const value& cur, auto&& keep) {
      auto upd = [&](const value& r) -> st {
        keep(r);
        return st::ok;
      };
      return eval(n->c, cur, e2, make_sink(upd));
    });
  };
  return fold(n, in, e, step, [&](const value& acc) { return k(acc); });
}

st interp::eval_foreach(const node* n, const value& in, const env* e, sink k) {
  auto step = [&](value& state, const env* e2) -> st {
    const value cur = state;
    auto upd = [&](const value& r) -> st {
      state = r;
      if (n->d == nullptr) return k(r);
      return eval(n->d, r, e2, k);
    };
    return eval(n->c, cur, e2, make_sink(upd));
  };
  return fold(n, in, e, step, [](const value&) { return st::ok; });
}

// reduce and foreach under path(), as jq's bytecode runs them: the state lives in a variable, so UPDATE runs in path
// mode on it with the path tracked so far only while the state is still the input itself (the first update from
// `.`); on any other state a path step fails ("Invalid path expression near attempt to access element ..."). A
// foreach's EXTRACT continues its UPDATE's path; a reduce's result, loaded from the variable, is a path only when
// it is the input itself.
st interp::reduce_path(const node* n, const path_link* p, const value& in, const env* e, psink k) {
  auto step = [&](value& acc, const env* e2) -> st {
    return reduce_update(acc, [&](const value& cur, auto&& keep) {
      auto upd = [&](const path_link*, const value& r) -> st {
        keep(r);
        return st::ok;
      };
      return eval_path(n->c, identical(cur, in) ? p : &k_invalid_path, cur, e2, make_psink(upd));
    });
  };
  auto done = [&](const value& acc) -> st {
    if (p != &k_invalid_path && identical(acc, in)) return k(p, in);
    return k(&k_invalid_path, acc);
  };
  return fold(n, in, e, step, done);
}

st interp::foreach_path(const node* n, const path_link* p, const value& in, const env* e, psink k) {
  auto step = [&](value& state, const env* e2) -> st {
    const value cur = state;
    auto upd = [&](const path_link* up, const value& r) -> st {
      state = r;
      if (n->d == nullptr) return k(up, r);
      return eval_path(n->d, up, r, e2, k);
    };
    return eval_path(n->c, identical(cur, in) ? p : &k_invalid_path, cur, e2, make_psink(upd));
  };
  return fold(n, in, e, step, [](const value&) { return st::ok; });
}

template <class Update>
st interp::update_paths(const node* lhs, const value& in, const env* e, value& result, std::vector<value>& deletions,
                        Update&& update) {
  // `.[] |= f` (map_values, and so walk) on a container: each member updated in place, in iteration order, without
  // a path array and a getpath and setpath from the root per member. (result is in, or a copy of it.)
  if (lhs->o == op::iterate && !lhs->opt && lhs->a != nullptr && lhs->a->o == op::identity &&
      (in.is_array() || in.is_object())) {
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
    if (in.is_array()) {
      std::vector<value>& items = result.array_mut();
      for (std::size_t i = 0; i < items.size(); ++i) {
        const st s = each(items[i], [i] { return value::number(static_cast<double>(i)); });
        if (s != st::ok) return s;
      }
    } else {
      for (auto& en : result.object_mut().entries) {
        const st s = each(en.val, [&en] { return value::string(en.key); });
        if (s != st::ok) return s;
      }
    }
    return st::ok;
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
  return eval_path(lhs, nullptr, in, e, make_psink(per_path));
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
    st s = update_paths(n->a, in, e, result, deletions, update);
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

st interp::ev_recurse(const node* n, const value& in, const env* e, sink k) {
  (void)n;
  (void)e;
  recurse_ctx r{*this, k};
  return r.run(in);
}

st interp::ev_index(const node* n, const value& in, const env* e, sink k) {
  const node* kn = n->b;
  if (kn->o == op::literal) {
    if (n->a->o == op::identity) {
      value out;
      const st s = index_value(*this, in, kn->v, out);
      if (s != st::ok) return (s == st::err && n->opt) ? st::ok : s;
      return k(out);
    }
    auto per_target = [&](const value& t) -> st {
      value out;
      const st s = index_value(*this, t, kn->v, out);
      if (s != st::ok) return (s == st::err && n->opt) ? st::ok : s;
      return k(out);
    };
    return eval(n->a, in, e, make_sink(per_target));
  }
  auto per_key = [&](const value& key) -> st {
    auto per_target = [&](const value& t) -> st {
      value out;
      const st s = index_value(*this, t, key, out);
      if (s != st::ok) return (s == st::err && n->opt) ? st::ok : s;
      return k(out);
    };
    return eval(n->a, in, e, make_sink(per_target));
  };
  return eval(kn, in, e, make_sink(per_key));
}

st interp::ev_slice(const node* n, const value& in, const env* e, sink k) {
  auto per_to = [&](const value& to) -> st {
    auto per_from = [&](const value& from) -> st {
      auto per_target = [&](const value& t) -> st {
        value out;
        const st s = slice_value(*this, t, from, to, out);
        if (s != st::ok) return (s == st::err && n->opt) ? st::ok : s;
        return k(out);
      };
      return eval(n->a, in, e, make_sink(per_target));
    };
    if (n->b == nullptr) return per_from(value());
    return eval(n->b, in, e, make_sink(per_from));
  };
  if (n->c == nullptr) return per_to(value());
  return eval(n->c, in, e, make_sink(per_to));
}

st interp::ev_iterate(const node* n, const value& in, const env* e, sink k) {
  if (n->a->o == op::identity) {
    if (n->opt && in.type() != kind::array && in.type() != kind::object) return st::ok;
    return iterate_value(*this, in, k);
  }
  auto per_target = [&](const value& t) -> st {
    if (n->opt && t.type() != kind::array && t.type() != kind::object) return st::ok;
    return iterate_value(*this, t, k);
  };
  return eval(n->a, in, e, make_sink(per_target));
}

st interp::ev_pipe(const node* n, const value& in, const env* e, sink k) {
  if (n->sub == pipe_counts) {  // `[f] | length`
    double count = 0;
    auto one = [&](const value&) -> st {
      ++count;
      return st::ok;
    };
    const st s = eval(n->a->a, in, e, make_sink(one));
    if (s != st::ok) return s;
    return k(value::number(count));
  }
  const node* rhs = n->b;
  auto next = [&](const value& v) -> st { return eval(rhs, v, e, k); };
  return eval(n->a, in, e, make_sink(next));
}

st interp::ev_comma(const node* n, const value& in, const env* e, sink k) {
  const st s = eval(n->a, in, e, k);
  if (s != st::ok) return s;
  return eval(n->b, in, e, k);
}

st interp::ev_neg(const node* n, const value& in, const env* e, sink k) {
  auto each = [&](const value& v) -> st {
    if (!v.is_number()) return fail(std::string(v.type_name()) + " (" + dump_trunc(v) + ") cannot be negated");
    return k(negate(v));
  };
  return eval(n->a, in, e, make_sink(each));
}

st interp::ev_arith(const node* n, const value& in, const env* e, sink k) {
  const int opc = n->sub;
  if (n->b->o == op::literal) {
    const value& r = n->b->v;
    auto per_l = [&](const value& l) -> st {
      value out;
      const st s = arith(*this, opc, l, r, out);
      if (s != st::ok) return s;
      return k(out);
    };
    return eval(n->a, in, e, make_sink(per_l));
  }
  auto per_r = [&](const value& r) -> st {
    auto per_l = [&](const value& l) -> st {
      value out;
      const st s = arith(*this, opc, l, r, out);
      if (s != st::ok) return s;
      return k(out);
    };
    return eval(n->a, in, e, make_sink(per_l));
  };
  return eval(n->b, in, e, make_sink(per_r));
}

st interp::compare_emit(int opc, const value& l, const value& r, sink k) {
  bool b;
  try {
    b = compare_op(opc, l, r);
  } catch (const comparison_too_deep& x) {
    return fail(x.message);
  }
  return k(value::boolean(b));
}

st interp::ev_compare(const node* n, const value& in, const env* e, sink k) {
  const int opc = n->sub;
  if (n->b->o == op::literal) {
    const value& r = n->b->v;
    auto per_l = [&](const value& l) -> st { return compare_emit(opc, l, r, k); };
    return eval(n->a, in, e, make_sink(per_l));
  }
  auto per_r = [&](const value& r) -> st {
    auto per_l = [&](const value& l) -> st { return compare_emit(opc, l, r, k); };
    return eval(n->a, in, e, make_sink(per_l));
  };
  return eval(n->b, in, e, make_sink(per_r));
}

st interp::ev_andor(const node* n, const value& in, const env* e, sink k) {
  const bool is_and = n->o == op::and_;
  auto per_l = [&](const value& l) -> st {
    if (is_and ? !l.truthy() : l.truthy()) return k(value::boolean(!is_and));
    auto per_r = [&](const value& r) -> st { return k(value::boolean(r.truthy())); };
    return eval(n->b, in, e, make_sink(per_r));
  };
  return eval(n->a, in, e, make_sink(per_l));
}

st interp::ev_alt(const node* n, const value& in, const env* e, sink k) {
  bool found = false;
  auto per_l = [&](const value& v) -> st {
    if (!v.truthy()) return st::ok;
    found = true;
    return k(v);
  };
  const st s = eval(n->a, in, e, make_sink(per_l));
  if (s != st::ok || found) return s;
  return eval(n->b, in, e, k);
}

st interp::ev_if(const node* n, const value& in, const env* e, sink k) {
  auto per_c = [&](const value& c) -> st {
    if (c.truthy()) return eval(n->b, in, e, k);
    if (n->c != nullptr) return eval(n->c, in, e, k);
    return k(in);
  };
  return eval(n->a, in, e, make_sink(per_c));
}

st interp::ev_try(const node* n, const value& in, const env* e, sink k) {
  bool downstream = false;
  auto pass = [&](const value& v) -> st {
    const st s = k(v);
    if (s == st::err) downstream = true;
    return s;
  };
  const st s = eval(n->a, in, e, make_sink(pass));
  if (s != st::err || downstream) return s;
  if (n->b == nullptr) return st::ok;
  value ev = std::move(err);
  err = value();
  return eval(n->b, ev, e, k);
}

st interp::ev_bind(const node* n, const value& in, const env* e, sink k) {
  auto per_src = [&](const value& src) -> st {
    if (n->patterns.size() == 1) {
      auto body = [&](const env* e2) { return eval(n->b, in, e2, k); };
      return bind_patterns(n, src, in, e, body);
    }
    bool downstream = false;
    auto pass = [&](const value& v) -> st {
      const st s = k(v);
      if (s == st::err) downstream = true;
      return s;
    };
    auto body = [&](const env* e2) {
      const st s = eval(n->b, in, e2, make_sink(pass));
      body_downstream_error_ = downstream;
      return s;
    };
    body_downstream_error_ = false;
    return bind_patterns(n, src, in, e, body);
  };
  return eval(n->a, in, e, make_sink(per_src));
}

st interp::ev_funcdef(const node* n, const value& in, const env* e, sink k) {
  env node;
  node.parent = e;
  node.body = n;
  return eval(n->a, in, &node, k);
}

st interp::ev_label(const node* n, const value& in, const env* e, sink k) {
  env node;
  node.parent = e;
  node.label = next_label++;
  const st s = eval(n->a, in, &node, k);
  if (s == st::brk && brk_label == node.label) return st::ok;
  return s;
}

st interp::ev_array(const node* n, const value& in, const env* e, sink k) {
  if (n->a == nullptr) return k(value::empty_array());
  std::vector<value> items;
  auto collect = [&](const value& v) -> st {
    items.push_back(v);
    items.back().detach_streamed();  // `[inputs | {a, b}]`: the inputs' documents need not stay
    return st::ok;
  };
  const st s = eval(n->a, in, e, make_sink(collect));
  if (s != st::ok) return s;
  return k(value::array(std::move(items)));
}

st interp::ev_object(const node* n, const value& in, const env* e, sink k) {
  return eval_object(n, 0, in, e, k);
}

st interp::ev_interp(const node* n, const value& in, const env* e, sink k) {
  std::vector<value> parts(n->args.size());
  return eval_interp(n, n->args.size(), in, e, parts, k);
}

st interp::ev_format(const node* n, const value& in, const env* e, sink k) {
  (void)e;
  std::string out;
  const st s = apply_format(*this, n->name, in, out);
  if (s != st::ok) return s;
  return k(value::string(std::move(out)));
}

// The dispatcher stays small: each construct runs in its own function, so a level of jq recursion costs only
// the frames of the constructs it passes through (deep recursion is bounded by stack use, not by a count).
st interp::eval(const node* n, const value& in, const env* e, sink k) {
  switch (n->o) {
    case op::identity: return k(in);
    case op::recurse: return ev_recurse(n, in, e, k);
    case op::literal: return k(n->v);
    case op::index: return ev_index(n, in, e, k);
    case op::slice: return ev_slice(n, in, e, k);
    case op::iterate: return ev_iterate(n, in, e, k);
    case op::pipe: return ev_pipe(n, in, e, k);
    case op::comma: return ev_comma(n, in, e, k);
    case op::neg: return ev_neg(n, in, e, k);
    case op::arith: return ev_arith(n, in, e, k);
    case op::compare: return ev_compare(n, in, e, k);
    case op::and_:
    case op::or_: return ev_andor(n, in, e, k);
    case op::alt: return ev_alt(n, in, e, k);
    case op::assign:
    case op::update:
    case op::update_op:
    case op::alt_assign: return eval_assign(n, in, e, k);
    case op::if_: return ev_if(n, in, e, k);
    case op::try_: return ev_try(n, in, e, k);
    case op::reduce: return eval_reduce(n, in, e, k);
    case op::foreach: return eval_foreach(n, in, e, k);
    case op::bind: return ev_bind(n, in, e, k);
    case op::funcdef: return ev_funcdef(n, in, e, k);
    case op::call: return call(n, in, e, k);
    case op::var:
      if (n->vk == var_kind::global) return k(prog.globals[n->index]);
      return k(env_up(e, n->hops)->v);
    case op::label: return ev_label(n, in, e, k);
    case op::brk:
      brk_label = env_up(e, n->hops)->label;
      return st::brk;
    case op::array: return ev_array(n, in, e, k);
    case op::object: return ev_object(n, in, e, k);
    case op::interp: return ev_interp(n, in, e, k);
    case op::format: return ev_format(n, in, e, k);
  }
  return fail("internal error: unknown node");
}

// ---- path mode ----

// |=, op= and //= inside path(...). jq 1.8 defines them all with _modify (builtin.jq), whose reduce starts from the
// constructed state [., []] and ends with `. as $dot | $dot[0] | delpaths($dot[1])`: under path tracking the
// update runs on a value that is no path ($$$$v: indexing it is an error), and $dot[0] always fails, naming the
// final [value, deleted paths].
st interp::modify_path(const node* n, const value& in, const env* e) {
  auto run = [&](auto&& update) -> st {
    value result = in;
    std::vector<value> deletions;
    const st s = update_paths(n->a, in, e, result, deletions, update);
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


st interp::call_path(const node* n, const path_link* p, const value& in, const env* e, psink k) {
  switch (n->ck) {
    case call_kind::closure: {
      if (!stack_ok()) return stack_overflow();
      const env* c = env_up(e, n->hops);
      return eval_path(c->body, p, in, c->cenv, k);
    }
    case call_kind::native: {
      const native_def& nd = native_at(n->index);
      if (nd.path != nullptr) return nd.path(*this, n, p, in, e, k);
      auto f = [&](const value& v) -> st {
        if (p != &k_invalid_path && identical(v, in)) return k(p, in);
        return k(&k_invalid_path, v);
      };
      return call(n, in, e, make_sink(f));
    }
    case call_kind::local_def:
    case call_kind::global_def: {
      if (!stack_ok()) return stack_overflow();
      const funcdef* f = n->fn;
      const env* base = n->ck == call_kind::local_def ? env_up(e, n->hops) : nullptr;
      if (f->params.empty()) return eval_path(f->body, p, in, base, k);
      auto body = [&](const env* chain) { return eval_path(f->body, p, in, chain, k); };
      return bind_params(f, n, 0, in, e, base, body);
    }
    case call_kind::unresolved: break;
  }
  return fail("internal error: unresolved call " + n->name);
}

st interp::eval_path(const node* n, const path_link* p, const value& in, const env* e, psink k) {
  switch (n->o) {
    case op::identity: return k(p, in);
    case op::recurse: {
      if (p == &k_invalid_path)
        return fail("Invalid path expression near attempt to iterate through " + dump_trunc(in));
      recurse_path_ctx r{*this, k};
      return r.run(p, in);
    }
    case op::index: {
      auto per_key = [&](const value& key) -> st {
        auto per_target = [&](const path_link* tp, const value& t) -> st {
          if (tp == &k_invalid_path)
            return fail("Invalid path expression near attempt to access element " + dump_trunc(key) + " of " +
                        dump_trunc(t));
          value out;
          const st s = index_value(*this, t, key, out);
          if (s != st::ok) return (s == st::err && n->opt) ? st::ok : s;
          path_link l{tp, key};
          return k(&l, out);
        };
        return eval_path(n->a, p, in, e, make_psink(per_target));
      };
      if (n->b->o == op::literal) return per_key(n->b->v);
      return eval(n->b, in, e, make_sink(per_key));
    }
    case op::slice: {
      auto per_to = [&](const value& to) -> st {
        auto per_from = [&](const value& from) -> st {
          value key = value::empty_object();
          key.object_mut().set(std::string_view("start"), from);
          key.object_mut().set(std::string_view("end"), to);
          auto per_target = [&](const path_link* tp, const value& t) -> st {
            if (tp == &k_invalid_path)
              return fail("Invalid path expression near attempt to access element " + dump_trunc(key) + " of " +
                          dump_trunc(t));
            value out;
            const st s = slice_value(*this, t, from, to, out);
            if (s != st::ok) return (s == st::err && n->opt) ? st::ok : s;
            path_link l{tp, key};
            return k(&l, out);
          };
          return eval_path(n->a, p, in, e, make_psink(per_target));
        };
        if (n->b == nullptr) return per_from(value());
        return eval(n->b, in, e, make_sink(per_from));
      };
      if (n->c == nullptr) return per_to(value());
      return eval(n->c, in, e, make_sink(per_to));
    }
    case op::iterate: {
      auto per_target = [&](const path_link* tp, const value& t) -> st {
        if (tp == &k_invalid_path)
          return fail("Invalid path expression near attempt to iterate through " + dump_trunc(t));
        if (t.type() == kind::array) {
          value hold = t;
          const std::uint32_t len = hold.length();
          if (hold.is_owned_array()) {
            for (std::uint32_t i = 0; i < len; ++i) {
              path_link l{tp, value::number(i)};
              const st s = k(&l, hold.array_items()[i]);
              if (s != st::ok) return s;
            }
          } else {
            const document& d = hold.doc();
            const jview::node& an = d[hold.node_index()];
            std::uint32_t i = 0;
            for (std::uint32_t c = hold.node_index() + 1; c < an.next; c = d[c].next, ++i) {
              path_link l{tp, value::number(i)};
              const st s = k(&l, hold.sibling_view(c));
              if (s != st::ok) return s;
            }
          }
          return st::ok;
        }
        if (t.type() == kind::object) {
          value hold = t;
          if (hold.is_owned_object()) {
            for (const auto& en : hold.object_data_ref().entries) {
              path_link l{tp, value::string(en.key)};
              const st s = k(&l, en.val);
              if (s != st::ok) return s;
            }
          } else {
            const document& d = hold.doc();
            const jview::node& on = d[hold.node_index()];
            for (std::uint32_t c = hold.node_index() + 1; c < on.next; c = d[c + 1].next) {
              path_link l{tp, hold.sibling_view(c)};
              const st s = k(&l, hold.sibling_view(c + 1));
              if (s != st::ok) return s;
            }
          }
          return st::ok;
        }
        if (n->opt) return st::ok;
        return iterate_value(*this, t, sink{nullptr, nullptr});
      };
      return eval_path(n->a, p, in, e, make_psink(per_target));
    }
    case op::pipe: {
      auto next = [&](const path_link* p2, const value& v) -> st { return eval_path(n->b, p2, v, e, k); };
      return eval_path(n->a, p, in, e, make_psink(next));
    }
    case op::comma: {
      const st s = eval_path(n->a, p, in, e, k);
      if (s != st::ok) return s;
      return eval_path(n->b, p, in, e, k);
    }
    case op::alt: {
      bool found = false;
      auto per_l = [&](const path_link* p2, const value& v) -> st {
        if (!v.truthy()) return st::ok;
        found = true;
        return k(p2, v);
      };
      const st s = eval_path(n->a, p, in, e, make_psink(per_l));
      if (s != st::ok || found) return s;
      return eval_path(n->b, p, in, e, k);
    }
    case op::if_: {
      auto per_c = [&](const value& c) -> st {
        if (c.truthy()) return eval_path(n->b, p, in, e, k);
        if (n->c != nullptr) return eval_path(n->c, p, in, e, k);
        return k(p, in);
      };
      return eval(n->a, in, e, make_sink(per_c));
    }
    case op::try_: {
      bool downstream = false;
      auto pass = [&](const path_link* p2, const value& v) -> st {
        const st s = k(p2, v);
        if (s == st::err) downstream = true;
        return s;
      };
      const st s = eval_path(n->a, p, in, e, make_psink(pass));
      if (s != st::err || downstream) return s;
      if (n->b == nullptr) return st::ok;
      value ev = std::move(err);
      err = value();
      return eval_path(n->b, &k_invalid_path, ev, e, k);
    }
    case op::bind: {
      auto per_src = [&](const value& src) -> st {
        auto body = [&](const env* e2) { return eval_path(n->b, p, in, e2, k); };
        return bind_patterns(n, src, in, e, body);
      };
      return eval(n->a, in, e, make_sink(per_src));
    }
    case op::funcdef: {
      env node;
      node.parent = e;
      node.body = n;
      return eval_path(n->a, p, in, &node, k);
    }
    case op::call: return call_path(n, p, in, e, k);
    case op::update:
    case op::update_op:
    case op::alt_assign: return modify_path(n, in, e);
    case op::reduce: return reduce_path(n, p, in, e, k);
    case op::foreach: return foreach_path(n, p, in, e, k);
    case op::label: {
      env node;
      node.parent = e;
      node.label = next_label++;
      const st s = eval_path(n->a, p, in, &node, k);
      if (s == st::brk && brk_label == node.label) return st::ok;
      return s;
    }
    case op::brk:
      brk_label = env_up(e, n->hops)->label;
      return st::brk;
    default: {
      // Not a path expression: its values carry no path (or the input's, when they are the input itself).
      auto f = [&](const value& v) -> st {
        if (p != &k_invalid_path && identical(v, in)) return k(p, in);
        return k(&k_invalid_path, v);
      };
      return eval(n, in, e, make_sink(f));
    }
  }
}

// ---- run ----

}  // namespace jview::filter::detail

// Switching to the evaluation stack: a call of fn(arg) with the stack pointer at `top` (16-byte aligned), written
// for the two architectures the project builds for. The frame keeps a frame pointer with CFI, so debuggers and
// profilers unwind through it; no C++ exception crosses it (the trampoline catches them).
#if (defined(__x86_64__) || defined(__aarch64__)) && !JVIEW_ASAN && !defined(JVIEW_NO_STACK_SWITCH)
#define JVIEW_STACK_SWITCH 1
extern "C" void jview_filter_call_on_stack(void* top, void (*fn)(void*), void* arg);
#if defined(__x86_64__)
asm(R"(
  .text
  .p2align 4
  .globl jview_filter_call_on_stack
  .hidden jview_filter_call_on_stack
  .type jview_filter_call_on_stack,@function
jview_filter_call_on_stack:
  .cfi_startproc
  pushq %rbp
  .cfi_def_cfa_offset 16
  .cfi_offset %rbp, -16
  movq %rsp, %rbp
  .cfi_def_cfa_register %rbp
  movq %rdi, %rsp
  andq $-16, %rsp
  movq %rdx, %rdi
  callq *%rsi
  movq %rbp, %rsp
  popq %rbp
  .cfi_def_cfa %rsp, 8
  ret
  .cfi_endproc
  .size jview_filter_call_on_stack, .-jview_filter_call_on_stack
)");
#else
asm(R"(
  .text
  .p2align 2
  .globl jview_filter_call_on_stack
  .hidden jview_filter_call_on_stack
  .type jview_filter_call_on_stack,%function
jview_filter_call_on_stack:
  .cfi_startproc
  stp x29, x30, [sp, #-16]!
  .cfi_def_cfa_offset 16
  .cfi_offset x29, -16
  .cfi_offset x30, -8
  mov x29, sp
  .cfi_def_cfa_register x29
  mov sp, x0
  mov x0, x2
  blr x1
  mov sp, x29
  ldp x29, x30, [sp], #16
  .cfi_def_cfa sp, 0
  ret
  .cfi_endproc
  .size jview_filter_call_on_stack, .-jview_filter_call_on_stack
)");
#endif
#endif

namespace jview::filter::detail {

namespace {

constexpr std::size_t k_eval_stack_size = std::size_t{256} << 20;  // reserved, committed on use
constexpr std::size_t k_eval_stack_margin = std::size_t{2} << 20;  // room for natives below the depth check

struct run_context {
  program_impl* prog = nullptr;
  const value* input = nullptr;
  input_provider* inputs = nullptr;
  const run_callbacks* cb = nullptr;
  char* limit = nullptr;
  st status = st::ok;
  value err;
  int halt_code = -1;
  std::string halt_message;
  std::exception_ptr exception;
};

void run_body(void* p) {
  auto* ctx = static_cast<run_context*>(p);
  try {
    interp I(*ctx->prog, ctx->inputs, *ctx->cb, ctx->limit);
    auto emit = [&](const value& v) -> st {
      ctx->cb->emit(v);
      return st::ok;
    };
    ctx->status = I.eval(ctx->prog->main, *ctx->input, nullptr, make_sink(emit));
    ctx->err = std::move(I.err);
    ctx->halt_code = I.halt_code;
    ctx->halt_message = std::move(I.halt_message);
  } catch (const comparison_too_deep& x) {  // each comparing operation catches it: this is only a safety net
    ctx->status = st::err;
    ctx->err = value::string(x.message);
  } catch (...) {
    ctx->exception = std::current_exception();
  }
}

}  // namespace

namespace {

// One spare evaluation stack per process, as the parser keeps its key table: the next program takes it instead of
// mapping a fresh one (its first page written again means new page tables), and the last one is left to the
// process's exit, not unmapped (a munmap of the reservation took 20-50 µs of `jview -n 1`).
std::atomic<char*> g_spare_eval_stack{nullptr};

}  // namespace

program_impl::~program_impl() {
  if (eval_stack_ == nullptr) return;
  char* none = nullptr;
  if (!g_spare_eval_stack.compare_exchange_strong(none, eval_stack_)) munmap(eval_stack_, eval_stack_size_);
}

bool program_impl::is_identity() const { return main != nullptr && main->o == op::identity; }

bool program_impl::run(const value& input, input_provider* inputs, const run_callbacks& cb, std::string& error,
                       int& halt_code) {
  halt_code = -1;
  error_not_string_ = false;
  run_context ctx;
  ctx.prog = this;
  ctx.input = &input;
  ctx.inputs = inputs;
  ctx.cb = &cb;
  ctx.limit = nullptr;
#ifdef JVIEW_STACK_SWITCH
  if (eval_stack_ == nullptr && (eval_stack_ = g_spare_eval_stack.exchange(nullptr)) != nullptr)
    eval_stack_size_ = k_eval_stack_size;
  if (eval_stack_ == nullptr) {
    void* mem = mmap(nullptr, k_eval_stack_size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (mem != MAP_FAILED) {
      eval_stack_ = static_cast<char*>(mem);
      eval_stack_size_ = k_eval_stack_size;
      mprotect(eval_stack_, 4096, PROT_NONE);  // guard page
    }
  }
  if (eval_stack_ != nullptr) {
    ctx.limit = eval_stack_ + k_eval_stack_margin;
    jview_filter_call_on_stack(eval_stack_ + eval_stack_size_, run_body, &ctx);
  } else {
    run_body(&ctx);
  }
#else
  run_body(&ctx);
#endif
  if (ctx.exception) std::rethrow_exception(ctx.exception);
  struct {
    st status;
    value& err;
    int& halt_code;
    std::string& halt_message;
  } I{ctx.status, ctx.err, ctx.halt_code, ctx.halt_message};
  const st s = ctx.status;
  if (s == st::halt) {
    halt_code = I.halt_code;
    error = I.halt_message;
    return I.halt_message.empty();
  }
  if (s == st::err) {
    if (I.err.is_string()) {
      error = I.err.string_copy();
    } else {
      error = to_json(I.err);
      error_not_string_ = true;
    }
    return false;
  }
  if (s == st::brk) {
    error = "break";
    return false;
  }
  return true;
}

}  // namespace jview::filter::detail
