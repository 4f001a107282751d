// core/filter/eval_path.cpp: path mode: eval_path runs an expression with the path of each output (path(f),
// assignments, del, paths, getpath under path()); constructs that are no path expressions give their values with
// k_invalid_path, which is jq's "Invalid path expression" when used as a path.
#include "core/filter/eval.hpp"
#include "core/filter/eval_bind.hpp"

namespace jview::filter::detail {

namespace {

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

}  // namespace

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
  if (!stack_ok()) [[unlikely]]
    return stack_overflow();
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
          if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
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
            if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
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
        if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
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
    case op::comma:  // right-deep chains (see ev_comma)
      for (;;) {
        const st s = eval_path(n->a, p, in, e, k);
        if (s != st::ok) return s;
        if (n->b->o != op::comma) return eval_path(n->b, p, in, e, k);
        n = n->b;
      }
    case op::alt:
      for (;;) {
        bool found = false;
        auto per_l = [&](const path_link* p2, const value& v) -> st {
          if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
          if (!v.truthy()) return st::ok;
          found = true;
          return k(p2, v);
        };
        const st s = eval_path(n->a, p, in, e, make_psink(per_l));
        if (s != st::ok || found) return s;
        if (n->b->o != op::alt) return eval_path(n->b, p, in, e, k);
        n = n->b;
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
        if (!stack_ok()) [[unlikely]] return stack_overflow();  // (a continuation chain: see eval)
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

}  // namespace jview::filter::detail
