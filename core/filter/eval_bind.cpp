// core/filter/eval_bind.cpp: destructuring: a value matched against a pattern (`$x`, `[$a, $b]`, `{a: $x, $y}`)
// binds the pattern's variables in turn and runs the continuation once per binding (object patterns with
// generator keys bind once per key).
#include "core/filter/eval.hpp"
#include "core/filter/eval_bind.hpp"

namespace jview::filter::detail {

namespace {

st destr_array(interp& I, const pattern* p, std::size_t i, const value& v, const env* e, value* vars, dk k) {
  if (i == p->elems.size()) return k();
  if (!I.stack_ok()) [[unlikely]] return I.stack_overflow();  // one level per element: `[$a, $b, ...]` of 10^5
  value elem;
  const st s = index_value(I, v, value::number(static_cast<double>(i)), elem);
  if (s != st::ok) return s;
  auto next = [&]() { return destr_array(I, p, i + 1, v, e, vars, k); };
  return destructure(I, p->elems[i], elem, e, vars, make_dk(next));
}

st destr_object(interp& I, const pattern* p, std::size_t i, const value& v, const env* e, value* vars, dk k) {
  if (i == p->entries.size()) return k();
  if (!I.stack_ok()) [[unlikely]] return I.stack_overflow();  // one level per entry, as destr_array
  const pattern::entry& ent = p->entries[i];
  auto with_key = [&](const value& key) -> st {
    if (!key.is_string()) return I.fail(index_error(v, key));
    value member;
    const st s = index_value(I, v, key, member);
    if (s != st::ok) return s;
    if (ent.var != nullptr) vars[ent.var->slot] = member;
    auto next = [&]() { return destr_object(I, p, i + 1, v, e, vars, k); };
    if (ent.sub != nullptr) return destructure(I, ent.sub, member, e, vars, make_dk(next));
    return next();
  };
  if (ent.key->o == op::literal) return with_key(ent.key->v);
  // Key expressions see the value being destructured as their input.
  return I.eval(ent.key, v, e, make_sink(with_key));
}

}  // namespace

st destructure(interp& I, const pattern* p, const value& v, const env* e, value* vars, dk k) {
  switch (p->k) {
    case pattern::var: vars[p->slot] = v; return k();
    case pattern::array:
      // jq indexes the last element first: its error names that index.
      if (!v.is_array() && !v.is_null())
        return I.fail(index_error(v, value::number(static_cast<double>(p->elems.size() - 1))));
      return destr_array(I, p, 0, v, e, vars, k);
    case pattern::object: return destr_object(I, p, 0, v, e, vars, k);
  }
  return st::ok;
}

}  // namespace jview::filter::detail
