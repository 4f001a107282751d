// core/filter/eval_fold.cpp: reduce and foreach, in value mode and in path mode. Both are one loop (fold): for each
// output of INIT a state, for each output of SOURCE bound to the patterns a step. reduce's in-place steps for its
// common update shapes are a fast path (fast_paths.cpp).
#include "core/filter/eval.hpp"
#include "core/filter/eval_bind.hpp"

namespace jview::filter::detail {

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
    if (n->fast == fast_path::reduce_in_place) {
      bool handled = false;
      const st fs = reduce_step(n->c, acc, e2, handled);
      if (handled) return fs;
    }
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

}  // namespace jview::filter::detail
