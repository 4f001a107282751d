// core/filter/builtins_system.cpp: natives on the environment, I/O and control: env, builtins, input,
// inputs, input_filename, input_line_number, debug, stderr, halt, halt_error, modulemeta, get_search_list and
// the constant answers (have_decnum, get_prog_origin ...).
#include "core/filter/builtins.hpp"

#include <climits>
#include <cstdlib>

#include "core/utf8.hpp"

namespace jview::filter::detail {

namespace {

st f_env(interp& I, const value&, const value*, value& out) {
  out = I.prog.globals[0];
  return st::ok;
}

st f_builtins(interp&, const value&, const value*, value& out) {
  std::vector<value> names;
  for (auto& n : builtin_names()) names.push_back(value::string(n));
  out = value::array(std::move(names));
  return st::ok;
}

st f_prog_origin(interp& I, const value&, const value*, value& out) {
  out = I.prog.program_origin.empty() ? value() : value::string(utf8::valid_or_replaced(I.prog.program_origin));
  return st::ok;
}

st f_jq_origin(interp& I, const value&, const value*, value& out) {
  out = I.prog.jq_origin.empty() ? value() : value::string(utf8::valid_or_replaced(I.prog.jq_origin));
  return st::ok;
}

st f_input_line_number(interp& I, const value&, const value*, value& out) {
  out = value::number(I.inputs == nullptr ? 0.0 : static_cast<double>(I.inputs->current_line()));
  return st::ok;
}

st f_input_filename(interp& I, const value&, const value*, value& out) {
  if (I.inputs == nullptr) {
    out = value();
    return st::ok;
  }
  std::string name = I.inputs->current_filename();
  out = name.empty() ? value() : value::string(utf8::valid_or_replaced(std::move(name)));  // as jq: U+FFFD
  return st::ok;
}

st f_input(interp& I, const value&, const value*, value& out) {
  if (I.inputs == nullptr) return I.fail("break");
  if (!I.inputs->next(out)) {
    std::string why = I.inputs->take_error();  // a parse error is the program's error (try can catch it)
    return I.fail(why.empty() ? std::string("break") : std::move(why));  // "break": jq 1.8's word for no more
  }
  if (out.is_view()) out.doc_box_ptr()->streamed = true;
  return st::ok;
}

st g_inputs(interp& I, const node*, const value&, const env*, sink k) {
  if (I.inputs == nullptr) return st::ok;
  for (;;) {
    value v;
    if (!I.inputs->next(v)) {
      std::string why = I.inputs->take_error();
      return why.empty() ? st::ok : I.fail(std::move(why));
    }
    if (v.is_view()) v.doc_box_ptr()->streamed = true;
    const st s = k(v);
    if (s != st::ok) return s;
  }
}

st f_debug(interp& I, const value& in, const value*, value& out) {
  if (I.cb.debug) I.cb.debug(in);
  out = in;
  return st::ok;
}

st f_stderr(interp& I, const value& in, const value*, value& out) {
  if (I.cb.stderr_out) {
    if (in.is_string()) {
      std::string tmp;
      I.cb.stderr_out(in.str(tmp));
    } else {
      I.cb.stderr_out(to_json(in));
    }
  }
  out = in;
  return st::ok;
}

st halt_with(interp& I, int code, const value& msg) {
  I.halted = true;
  I.halt_code = code;
  if (msg.is_string()) {
    I.halt_message = msg.string_copy();
  } else if (msg.is_null()) {
    I.halt_message.clear();  // jq 1.8 writes nothing for null
  } else {
    I.halt_message = to_json(msg);
    I.halt_message.push_back('\n');
  }
  return st::halt;
}

st f_halt(interp& I, const value&, const value*, value&) {
  I.halted = true;
  I.halt_code = 0;
  I.halt_message.clear();
  return st::halt;
}
st f_halt_error0(interp& I, const value& in, const value*, value&) { return halt_with(I, 5, in); }
st f_halt_error1(interp& I, const value& in, const value* args, value&) {
  if (!args[0].is_number()) return type_error(I, in, "halt_error/1: number required");
  return halt_with(I, c_int_of(args[0].number()), in);  // (jq converts the code with C's cast to int)
}

st f_true(interp&, const value&, const value*, value& out) {
  out = value::boolean(true);
  return st::ok;
}

// modulemeta: the metadata of the module named by the input, with its "deps" and "defs".
st f_modulemeta(interp& I, const value& in, const value*, value& out) {
  if (!in.is_string()) return I.fail("modulemeta input module name must be a string");
  module_info* m = nullptr;
  // jq 1.8 looks only in the library paths (-L, or its defaults), not in the current directory as an import does:
  // metadata with an empty "search" list says so.
  value only_library_paths = value::empty_object();
  only_library_paths.object_mut().set(std::string_view("search"), value::empty_array());
  try {
    m = I.prog.load_module(in.string_copy(), only_library_paths, ".");
  } catch (const compile_error& e) {
    return I.fail(e.message);
  }
  out = value::empty_object();
  m->meta.for_each_member([&](std::string_view k, const value& v) { out.object_mut().set(k, v); });
  out.object_mut().set(std::string_view("deps"), m->deps.is_null() ? value::empty_array() : m->deps);
  std::vector<value> defs;
  for (const funcdef* f : m->defs) defs.push_back(value::string(f->name + "/" + std::to_string(f->params.size())));
  out.object_mut().set(std::string_view("defs"), value::array(std::move(defs)));
  return st::ok;
}

st f_search_list(interp& I, const value&, const value*, value& out) {
  // jq's list: the -L paths (resolved to real paths where they exist), or its defaults unexpanded.
  std::vector<value> dirs;
  if (I.prog.library_paths.empty()) {
    for (const char* d : {"~/.jq", "$ORIGIN/../lib/jq", "$ORIGIN/../lib"}) dirs.push_back(value::string(d));
  }
  for (const std::string& p : I.prog.library_paths) {
    char* r = p.empty() || p[0] == '~' || p[0] == '$' ? nullptr : ::realpath(p.c_str(), nullptr);
    dirs.push_back(value::string(r != nullptr ? std::string(r) : p));
    std::free(r);
  }
  out = value::array(std::move(dirs));
  return st::ok;
}

constexpr auto k_part = sorted_natives(std::to_array<native_def>({
    {"env", 0, f_env, nullptr, nullptr},
    {"builtins", 0, f_builtins, nullptr, nullptr},
    {"input_filename", 0, f_input_filename, nullptr, nullptr},
    {"input_line_number", 0, f_input_line_number, nullptr, nullptr},
    {"input", 0, f_input, nullptr, nullptr},
    {"inputs", 0, nullptr, g_inputs, nullptr},
    {"debug", 0, f_debug, nullptr, nullptr},
    {"stderr", 0, f_stderr, nullptr, nullptr},
    {"halt", 0, f_halt, nullptr, nullptr},
    {"halt_error", 0, f_halt_error0, nullptr, nullptr},
    {"halt_error", 1, f_halt_error1, nullptr, nullptr},
    {"have_literal_numbers", 0, f_true, nullptr, nullptr},
    {"have_decnum", 0, f_true, nullptr, nullptr},
    {"get_search_list", 0, f_search_list, nullptr, nullptr},
    {"get_prog_origin", 0, f_prog_origin, nullptr, nullptr},
    {"get_jq_origin", 0, f_jq_origin, nullptr, nullptr},
    {"modulemeta", 0, f_modulemeta, nullptr, nullptr},
}));

}  // namespace

native_span system_natives() { return {k_part.data(), k_part.size()}; }

}  // namespace jview::filter::detail
