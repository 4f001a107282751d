// core/filter/builtins_types.cpp: natives on types and selection (not, type, length, utf8bytelength, the type
// selectors arrays ... normals, select, empty, error) and recursion (recurse/0).
#include "core/filter/builtins.hpp"

#include <cmath>

namespace jview::filter::detail {

namespace {

st f_not(interp&, const value& in, const value*, value& out) {
  out = value::boolean(!in.truthy());
  return st::ok;
}

st f_type(interp&, const value& in, const value*, value& out) {
  out = value::string(in.type_name());
  return st::ok;
}

st f_length(interp& I, const value& in, const value*, value& out) { return length_of(I, in, out); }

st f_utf8bytelength(interp& I, const value& in, const value*, value& out) {
  if (!in.is_string()) return type_error(I, in, "only strings have UTF-8 byte length");
  std::string tmp;
  out = value::number(static_cast<double>(in.str(tmp).size()));
  return st::ok;
}

// The type selectors (arrays, objects, ...): jq's select(type == X) without building the type's name.
enum class type_set : std::uint8_t { arrays, objects, iterables, booleans, numbers, strings, nulls, values, scalars,
                                     finites, normals };

template <type_set S>
bool type_matches(const value& v) {
  const kind k = v.type();
  switch (S) {
    case type_set::arrays: return k == kind::array;
    case type_set::objects: return k == kind::object;
    case type_set::iterables: return k == kind::array || k == kind::object;
    case type_set::booleans: return k == kind::false_ || k == kind::true_;
    case type_set::numbers: return k == kind::number;
    case type_set::strings: return k == kind::string;
    case type_set::nulls: return k == kind::null_;
    case type_set::values: return k != kind::null_;
    case type_set::scalars: return k != kind::array && k != kind::object;
    case type_set::finites: return k == kind::number && !std::isinf(v.number());  // nan too, as jq 1.8
    case type_set::normals: return k == kind::number && std::isnormal(v.number());
  }
  return false;
}
template <type_set S>
st g_type_select(interp&, const node*, const value& in, const env*, sink k) {
  return type_matches<S>(in) ? k(in) : st::ok;
}
template <type_set S>
st p_type_select(interp&, const node*, const path_link* p, const value& in, const env*, psink k) {
  return type_matches<S>(in) ? k(p, in) : st::ok;
}

st g_select(interp& I, const node* call, const value& in, const env* e, sink k) {
  auto f = [&](const value& c) -> st { return c.truthy() ? k(in) : st::ok; };
  return I.eval_arg(call, 0, in, e, make_sink(f));
}
st p_select(interp& I, const node* call, const path_link* p, const value& in, const env* e, psink k) {
  auto f = [&](const value& c) -> st { return c.truthy() ? k(p, in) : st::ok; };
  return I.eval_arg(call, 0, in, e, make_sink(f));
}

st g_empty(interp&, const node*, const value&, const env*, sink) { return st::ok; }
st p_empty(interp&, const node*, const path_link*, const value&, const env*, psink) { return st::ok; }

st f_error0(interp& I, const value& in, const value*, value&) { return I.fail(in); }
st g_error1(interp& I, const node* call, const value& in, const env* e, sink) {
  auto f = [&](const value& m) -> st { return I.fail(m); };
  return I.eval_arg(call, 0, in, e, make_sink(f));
}
st p_error1(interp& I, const node* call, const path_link*, const value& in, const env* e, psink) {
  return g_error1(I, call, in, e, sink{nullptr, nullptr});
}

// ---- recursion ----

st g_recurse0(interp& I, const node* call, const value& in, const env* e, sink k) {
  (void)call;
  node n;
  n.o = op::recurse;
  return I.eval(&n, in, e, k);
}
st p_recurse0(interp& I, const node* call, const path_link* p, const value& in, const env* e, psink k) {
  (void)call;
  node n;
  n.o = op::recurse;
  return I.eval_path(&n, p, in, e, k);
}

constexpr auto k_part = sorted_natives(std::to_array<native_def>({
    {"not", 0, f_not, nullptr, nullptr},
    {"type", 0, f_type, nullptr, nullptr},
    {"length", 0, f_length, nullptr, nullptr},
    {"utf8bytelength", 0, f_utf8bytelength, nullptr, nullptr},
    {"arrays", 0, nullptr, g_type_select<type_set::arrays>, p_type_select<type_set::arrays>},
    {"objects", 0, nullptr, g_type_select<type_set::objects>, p_type_select<type_set::objects>},
    {"iterables", 0, nullptr, g_type_select<type_set::iterables>, p_type_select<type_set::iterables>},
    {"booleans", 0, nullptr, g_type_select<type_set::booleans>, p_type_select<type_set::booleans>},
    {"numbers", 0, nullptr, g_type_select<type_set::numbers>, p_type_select<type_set::numbers>},
    {"strings", 0, nullptr, g_type_select<type_set::strings>, p_type_select<type_set::strings>},
    {"nulls", 0, nullptr, g_type_select<type_set::nulls>, p_type_select<type_set::nulls>},
    {"values", 0, nullptr, g_type_select<type_set::values>, p_type_select<type_set::values>},
    {"scalars", 0, nullptr, g_type_select<type_set::scalars>, p_type_select<type_set::scalars>},
    {"finites", 0, nullptr, g_type_select<type_set::finites>, p_type_select<type_set::finites>},
    {"normals", 0, nullptr, g_type_select<type_set::normals>, p_type_select<type_set::normals>},
    {"select", 1, nullptr, g_select, p_select},
    {"empty", 0, nullptr, g_empty, p_empty},
    {"error", 0, f_error0, nullptr, nullptr},
    {"error", 1, nullptr, g_error1, p_error1},
    {"recurse", 0, nullptr, g_recurse0, p_recurse0},
}));

}  // namespace

native_span type_natives() { return {k_part.data(), k_part.size()}; }

}  // namespace jview::filter::detail
