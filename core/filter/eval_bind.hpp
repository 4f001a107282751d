// core/filter/eval_bind.hpp: binding, shared by value mode, path mode and reduce/foreach (not a public header):
// destructuring a value by a binding's patterns (with ?// alternatives) and binding a definition's parameters
// (closures, then $parameters as values, the first outermost). Each binding is one env node on the stack of the
// code that runs the body, so the runtime chain mirrors the compile-time scope (compile.cpp).
#pragma once
#include <vector>

#include "core/filter/eval.hpp"

namespace jview::filter::detail {

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

// Matches v against pattern p, storing the variables in vars (by slot), and calls k once per binding; the key
// expressions of object patterns run on v (eval_bind.cpp).
st destructure(interp& I, const pattern* p, const value& v, const env* e, value* vars, dk k);

// Pushes env nodes for vars[i..n) on the stack, then runs body(chain).
template <class Body>
inline st push_vars(const value* vars, std::uint32_t i, std::uint32_t n, const env* chain, Body& body) {
  if (i == n) return body(chain);
  env node;
  node.parent = chain;
  node.v = vars[i];
  return push_vars(vars, i + 1, n, &node, body);
}

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
  if (n->patterns.size() == 1) return destructure(*this, n->patterns[0], src, e, vars, make_dk(run_body));
  // Alternatives: an error in a pattern or in the body moves on to the next pattern; errors raised by the
  // continuation of the whole expression are not the body's (body() marks them in `downstream_`).
  for (std::size_t i = 0; i < n->patterns.size(); ++i) {
    for (std::uint32_t j = 0; j < nv; ++j) vars[j] = value();
    body_downstream_error_ = false;
    const st s = destructure(*this, n->patterns[i], src, e, vars, make_dk(run_body));
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

}  // namespace jview::filter::detail
