// core/filter/eval.cpp: the evaluator in value mode: the dispatcher over the resolved AST, calls (closures,
// definitions, natives) and the constructs (index, slice, iteration, pipes, operators, if, try, bindings, labels,
// constructions, string interpolation). Every construct is a loop that calls its continuation per output; the
// returned status unwinds early on errors, `break` and `halt`. try/catch tells errors raised inside its body from
// errors raised by its continuation (those pass through), as jq does. Elsewhere: path mode (eval_path.cpp),
// assignments (eval_assign.cpp), reduce and foreach (eval_fold.cpp), destructuring (eval_bind.cpp), the fast paths
// (fast_paths.cpp) and running a program (eval_run.cpp).
#include "core/filter/eval.hpp"
#include "core/filter/eval_bind.hpp"

namespace jview::filter::detail {

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

}  // namespace

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
    if (!I.stack_ok()) [[unlikely]] return I.stack_overflow();  // (a continuation chain: see eval)
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
  if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
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
    if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
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
    if (!I.stack_ok()) [[unlikely]]
      return I.stack_overflow();
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

st interp::eval_object(const node* n, std::size_t i, const value& in, const env* e, sink k) {
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

st interp::ev_recurse(const node* n, const value& in, const env* e, sink k) {
  (void)n;
  (void)e;
  recurse_ctx r{*this, k};
  return r.run(in);
}

namespace {

// Suffix chains (`.a.b.c`) and operator chains (`1 + 2 + 3`) are left-deep trees. Up to this many levels the
// evaluator recurses through them as through anything else; a longer chain runs in one loop (chain_*), so a chain of
// 10^6 terms costs no stack.
constexpr std::size_t k_chain_loop_after = 32;

bool is_literal_index(const node* n) { return n->o == op::index && n->b->o == op::literal; }

// An operand of an arithmetic chain that gives exactly one value or an error: a literal, a variable, `.`, an array
// construction (`[1] + [2] + ...`), `.k.l` or `$v.k` (literal keys, not optional), `-` of a literal. Evaluated in
// the nested evaluation's order, so effects inside `[...]` (debug, input) come in jq's order too.
bool is_single_operand(const node* n) {
  switch (n->o) {
    case op::literal:
    case op::var:
    case op::identity:
    case op::array: return true;
    case op::neg: return n->a->o == op::literal;
    case op::index:
      for (int depth = 0; depth < 8; ++depth) {
        if (n->opt || n->b->o != op::literal) return false;
        n = n->a;
        if (n->o == op::identity || n->o == op::var) return true;
        if (n->o != op::index) return false;
      }
      return false;
    default: return false;
  }
}

}  // namespace

// `.k1.k2...kn` with literal keys, more than k_chain_loop_after of them: the target once, then each key in a loop
// (each level gives one value, or none under `?`, or an error: what the nested evaluation gives).
st interp::chain_index(const node* n, const value& in, const env* e, sink k) {
  std::vector<const node*> spine;  // top first
  const node* m = n;
  for (; is_literal_index(m); m = m->a) spine.push_back(m);
  auto per_target = [&](const value& target) -> st {
    if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
    value t = target;
    for (std::size_t j = spine.size(); j-- > 0;) {
      value out;
      const st s = index_value(*this, t, spine[j]->b->v, out);
      if (s != st::ok) return (s == st::err && spine[j]->opt) ? st::ok : s;
      t = std::move(out);
    }
    return k(t);
  };
  if (m->o == op::identity) return per_target(in);
  return eval(m, in, e, make_sink(per_target));
}

// `x op1 y1 op2 y2 ...` whose right operands are single (is_single_operand), more than k_chain_loop_after of them:
// the operands in the nested evaluation's order (the last one first), then the leftmost term's outputs, each
// folded left to right.
st interp::chain_arith(const node* n, const value& in, const env* e, sink k) {
  std::vector<const node*> spine;  // top first
  const node* m = n;
  for (; m->o == op::arith && is_single_operand(m->b); m = m->a) spine.push_back(m);
  std::vector<value> operands(spine.size());
  for (std::size_t j = 0; j < spine.size(); ++j) {
    bool got = false;
    auto one = [&](const value& v) -> st {
      operands[j] = v;
      got = true;
      return st::ok;
    };
    const st s = eval(spine[j]->b, in, e, make_sink(one));
    if (s != st::ok || !got) return s;
  }
  auto per_l = [&](const value& l) -> st {
    if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
    value acc = l;
    for (std::size_t j = spine.size(); j-- > 0;) {
      const st s = arith_inplace(*this, spine[j]->sub, acc, operands[j]);
      if (s != st::ok) return s;
    }
    return k(acc);
  };
  return eval(m, in, e, make_sink(per_l));
}

st interp::ev_index(const node* n, const value& in, const env* e, sink k) {
  const node* kn = n->b;
  if (kn->o == op::literal) {
    if (is_literal_index(n->a)) {
      std::size_t depth = 1;
      for (const node* m = n->a; is_literal_index(m) && depth <= k_chain_loop_after; m = m->a) ++depth;
      if (depth > k_chain_loop_after) return chain_index(n, in, e, k);
    }
    if (n->a->o == op::identity) {
      value out;
      const st s = index_value(*this, in, kn->v, out);
      if (s != st::ok) return (s == st::err && n->opt) ? st::ok : s;
      return k(out);
    }
    auto per_target = [&](const value& t) -> st {
      if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
      value out;
      const st s = index_value(*this, t, kn->v, out);
      if (s != st::ok) return (s == st::err && n->opt) ? st::ok : s;
      return k(out);
    };
    return eval(n->a, in, e, make_sink(per_target));
  }
  auto per_key = [&](const value& key) -> st {
    auto per_target = [&](const value& t) -> st {
      if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
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
        if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
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
    if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
    if (n->opt && t.type() != kind::array && t.type() != kind::object) return st::ok;
    return iterate_value(*this, t, k);
  };
  return eval(n->a, in, e, make_sink(per_target));
}

st interp::ev_pipe(const node* n, const value& in, const env* e, sink k) {
  if (n->fast == fast_path::count_outputs) [[unlikely]]
    return count_outputs(n, in, e, k);
  const node* rhs = n->b;
  auto next = [&](const value& v) -> st { return eval(rhs, v, e, k); };
  return eval(n->a, in, e, make_sink(next));
}

st interp::ev_comma(const node* n, const value& in, const env* e, sink k) {
  // The parser builds comma chains right-deep (`a, (b, (c, d))`): a chain of any length runs in this loop.
  for (;;) {
    const st s = eval(n->a, in, e, k);
    if (s != st::ok) return s;
    if (n->b->o != op::comma) return eval(n->b, in, e, k);
    n = n->b;
  }
}

st interp::ev_neg(const node* n, const value& in, const env* e, sink k) {
  auto each = [&](const value& v) -> st {
    if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
    if (!v.is_number()) return fail(std::string(v.type_name()) + " (" + dump_trunc(v) + ") cannot be negated");
    return k(negate(v));
  };
  return eval(n->a, in, e, make_sink(each));
}

st interp::ev_arith(const node* n, const value& in, const env* e, sink k) {
  const int opc = n->sub;
  if (n->a->o == op::arith && is_single_operand(n->b)) {
    std::size_t depth = 1;
    for (const node* m = n->a; m->o == op::arith && is_single_operand(m->b) && depth <= k_chain_loop_after; m = m->a)
      ++depth;
    if (depth > k_chain_loop_after) return chain_arith(n, in, e, k);
  }
  if (n->b->o == op::literal) {
    const value& r = n->b->v;
    auto per_l = [&](const value& l) -> st {
      if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
      value out;
      const st s = arith(*this, opc, l, r, out);
      if (s != st::ok) return s;
      return k(out);
    };
    return eval(n->a, in, e, make_sink(per_l));
  }
  auto per_r = [&](const value& r) -> st {
    auto per_l = [&](const value& l) -> st {
      if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
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
  if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
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
    if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
    if (is_and ? !l.truthy() : l.truthy()) return k(value::boolean(!is_and));
    auto per_r = [&](const value& r) -> st {
      if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
      return k(value::boolean(r.truthy()));
    };
    return eval(n->b, in, e, make_sink(per_r));
  };
  return eval(n->a, in, e, make_sink(per_l));
}

st interp::ev_alt(const node* n, const value& in, const env* e, sink k) {
  // `a // b // c` is right-deep (`a // (b // c)`): the chain runs in this loop.
  for (;;) {
    bool found = false;
    auto per_l = [&](const value& v) -> st {
      if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
      if (!v.truthy()) return st::ok;
      found = true;
      return k(v);
    };
    const st s = eval(n->a, in, e, make_sink(per_l));
    if (s != st::ok || found) return s;
    if (n->b->o != op::alt) return eval(n->b, in, e, k);
    n = n->b;
  }
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
    if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
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
      if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
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
  if (n->fast == fast_path::object_in_one_step) {
    value o;
    if (object_in_one_step(n, in, o)) return k(o);
  }
  return eval_object(n, 0, in, e, k);
}

st interp::ev_interp(const node* n, const value& in, const env* e, sink k) {
  std::vector<value> parts(n->args.size());
  return eval_interp(n, n->args.size(), in, e, parts, k);
}

st interp::ev_format(const node* n, const value& in, const env* e, sink k) {
  (void)e;
  value out;
  const st s = format_value(*this, n->name, in, out);
  if (s != st::ok) return s;
  return k(std::move(out));
}

// The dispatcher stays small: each construct runs in its own function, so a level of jq recursion costs only
// the frames of the constructs it passes through (deep recursion is bounded by stack use, not by a count).
st interp::eval(const node* n, const value& in, const env* e, sink k) {
  // Any nesting of the program or of its recursion ends here, with an error, before the stack does. Continuations
  // that call their own continuation without an eval (`1 or false or ...`, `.[]?[]?...`, `1???...`: the leaf's
  // value climbs back through every level) check too: the descent's checks alone leave room for half of it.
  if (!stack_ok()) [[unlikely]]
    return stack_overflow();
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

}  // namespace jview::filter::detail
