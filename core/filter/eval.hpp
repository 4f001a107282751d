// core/filter/eval.hpp: the evaluator's internals (not a public header). Evaluation is continuation-passing over
// the resolved AST: eval(node, input, env, sink) calls the sink once per output, and a sink's status stops the
// generator early (errors, `break`, `limit`). Environments are linked frames on the C++ stack: jq's functions are
// second-class, so no closure outlives the call that created it. Path mode (path(f), assignments, del) threads a
// linked path (also on the stack) beside each value.
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <memory>
#include <unordered_map>
#include <vector>

#include "core/filter/ast.hpp"
#include "core/filter/program.hpp"
#include "core/filter/value.hpp"

namespace jview::filter::detail {

// Status of a generator step: keep going, a runtime error (the value is interp::err), a `break` to a label in
// flight (interp::brk_label), or `halt` (never caught).
enum class st : std::uint8_t { ok, err, brk, halt };

// A non-owning callable "value -> status".
struct sink {
  void* obj;
  st (*fn)(void*, const value&);
  st operator()(const value& v) const { return fn(obj, v); }
};
template <class F>
inline sink make_sink(F& f) {
  return sink{&f, [](void* o, const value& v) { return (*static_cast<F*>(o))(v); }};
}

// A path as a chain of keys from the leaf back to the root, living on the stack of the code that extends it.
struct path_link {
  const path_link* parent;
  value key;
};
// The path of a value that did not come from a path expression (a literal, arithmetic): using it as a path is
// jq's "Invalid path expression" error.
extern const path_link k_invalid_path;

struct psink {
  void* obj;
  st (*fn)(void*, const path_link*, const value&);
  st operator()(const path_link* p, const value& v) const { return fn(obj, p, v); }
};
template <class F>
inline psink make_psink(F& f) {
  return psink{&f, [](void* o, const path_link* p, const value& v) { return (*static_cast<F*>(o))(p, v); }};
}

// One binding in the environment chain: a variable, a closure (filter argument), a local function definition
// or a label.
struct env {
  const env* parent = nullptr;
  value v;                      // variable value
  const node* body = nullptr;   // closure: argument expression; local def: the op::funcdef node
  const env* cenv = nullptr;    // closure: the environment of the caller
  std::uint64_t label = 0;      // label: id of this dynamic instance
};

// The update of one path's value in |=, op= and //=: out is the new value (got = false: no output, the path is
// deleted at the end).
struct updater {
  void* obj;
  st (*fn)(void*, const value& cur, value& out, bool& got);
  st operator()(const value& cur, value& out, bool& got) const { return fn(obj, cur, out, got); }
};
template <class F>
inline updater make_updater(F& f) {
  return updater{&f, [](void* o, const value& cur, value& out, bool& got) {
                    return (*static_cast<F*>(o))(cur, out, got);
                  }};
}

// The same value, not only an equal one: the input itself as an output keeps the input's path.
inline bool identical(const value& a, const value& b) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case kind::null_:
    case kind::false_:
    case kind::true_: return true;
    default: return a.same_storage(b);
  }
}

inline const env* env_up(const env* e, std::uint32_t hops) noexcept {
  while (hops-- > 0) e = e->parent;
  return e;
}

class interp;

// Native builtins. A native takes either value arguments (evaluated as a cartesian product, the last argument
// outermost, as jq does for its C functions) and returns one value, or the raw call (filter arguments) and emits
// through a sink; natives that make sense in path mode also have a path version.
using native_value_fn = st (*)(interp&, const value& in, const value* args, value& out);
using native_gen_fn = st (*)(interp&, const node* call, const value& in, const env* e, sink k);
using native_path_fn = st (*)(interp&, const node* call, const path_link* p, const value& in, const env* e,
                              psink k);

struct native_def {
  const char* name;
  std::uint8_t arity;
  native_value_fn vfn;
  native_gen_fn gen;
  native_path_fn path;
};

// Lookup in the natives table; -1 when absent.
int find_native(std::string_view name, int arity);
const native_def& native_at(std::uint32_t i);
// Every native and prelude definition as "name/arity" (for `builtins`).
std::vector<std::string> builtin_names();

// The jq-defined part of the library (prelude.jq): the text of one definition by name/arity, or empty.
std::string_view find_prelude(std::string_view name, int arity);
std::vector<std::string> prelude_names();

// A module loaded by import/include: its definitions (global, resolved in the module's own scope), its
// metadata, and what it imports in turn.
struct module_info {
  std::string file;   // resolved path
  std::string dir;    // directory of the file (the origin of "./" search paths)
  value meta;         // `module {...};`
  std::vector<funcdef*> defs;
  value deps;         // modulemeta's "deps"
  std::vector<std::pair<std::string, module_info*>> code_imports;  // alias (empty: include) -> module
  std::vector<std::pair<std::string, std::uint32_t>> data_vars;    // "$name" / "$name::name" -> global slot
  bool loading = false;
};

// A compiled program.
class program_impl final : public program {
 public:
  program_impl() = default;
  bool is_identity() const override;
  bool run(const value& input, input_provider* inputs, const run_callbacks& cb, std::string& error,
           int& halt_code) override;
  bool last_error_not_string() const override { return error_not_string_; }
  bool reads_inputs() const override { return reads_inputs_; }
  int last_halt_code() const override { return halt_code_; }

  ast_arena arena;
  node* main = nullptr;
  std::vector<value> globals;              // values of global variables, by slot
  std::vector<std::string> global_names;   // their names (without '$')
  std::unordered_map<std::string, funcdef*> prelude_defs;  // "name/arity" -> compiled prelude definition
  // Definitions whose bodies do not compile: like jq, an error counts only when the definition is referenced.
  std::unordered_map<const funcdef*, compile_error> pending_errors;
  std::vector<std::unique_ptr<module_info>> modules;       // every loaded module (cached by file)
  std::vector<std::string> library_paths;                  // -L
  std::string home;                                        // $HOME from compile_options::environment ("~" in paths)
  std::string program_origin, jq_origin;                   // get_prog_origin, get_jq_origin (empty: null)
  std::deque<std::string> module_sources;  // texts of loaded modules (error locations); a deque: loading a module
                                           // while another one's text is in use (import chains) moves no text
  std::unique_ptr<std::vector<std::pair<std::string, module_info*>>> main_imports;
  std::unique_ptr<std::vector<std::pair<std::string, std::uint32_t>>> main_data;
  // Loads (or finds) the module `rel` searched from `origin_dir` with import metadata `meta`; data modules are
  // JSON files. Throws compile_error.
  module_info* load_module(const std::string& rel, const value& meta, const std::string& origin_dir);
  bool load_data(const std::string& rel, const value& meta, const std::string& origin_dir, value& out);
  std::vector<std::pair<std::string, std::string>> environment;
  std::string source;
  bool error_not_string_ = false;
  bool reads_inputs_ = false;  // a call of input, inputs or input_line_number was resolved
  int halt_code_ = 0;  // the last run's halt code (last_halt_code)
  bool env_built_ = false;
  bool fast_paths = true;  // compile_options::fast_paths: the compiler chooses fast paths (fast_paths.cpp)
  void ensure_env();  // builds $ENV (globals[0]) from `environment` on first use
  ~program_impl() override;

  // The evaluation stack: a large reserved region (pages are committed only as deep recursion touches them), so
  // jq programs can recurse as deep as jq's heap-allocated stack allows them to (eval_run.cpp).
  char* eval_stack_ = nullptr;
  std::size_t eval_stack_size_ = 0;
};

class interp {
 public:
  // `stack_limit`: the lowest stack address evaluation may reach (null: the running thread's own stack);
  // `stack_deep`: above it, the part of the stack ordinary programs stay in (went_deep() tells whether the run went
  // below it; null: no such part).
  interp(program_impl& prog, input_provider* inputs, const run_callbacks& cb, char* stack_limit = nullptr,
         char* stack_deep = nullptr);

  st eval(const node* n, const value& in, const env* e, sink k);
  st eval_path(const node* n, const path_link* p, const value& in, const env* e, psink k);

  // Errors: set err and return st::err.
  st fail(value v) {
    err = std::move(v);
    return st::err;
  }
  st fail(std::string msg) { return fail(value::string(std::move(msg))); }

  // Calls a filter argument of a native: arg i of the call, evaluated in the caller's environment.
  st eval_arg(const node* call, std::size_t i, const value& in, const env* e, sink k) {
    return eval(call->args[i], in, e, k);
  }
  st eval_arg_path(const node* call, std::size_t i, const path_link* p, const value& in, const env* e, psink k) {
    return eval_path(call->args[i], p, in, e, k);
  }

  // Fails unless the stack has room for more nesting (deep recursion in jq code must not crash). One compare while
  // the run stays in the stack's first part; past it, the limit itself (and the run is noted as deep).
  bool stack_ok() const noexcept {
    char probe;
    if (&probe > stack_check_) [[likely]]
      return true;
    went_deep_ = true;
    stack_check_ = stack_limit_;
    return &probe > stack_limit_;
  }
  st stack_overflow();
  bool went_deep() const noexcept { return went_deep_; }

  value err;
  std::uint64_t brk_label = 0;
  std::uint64_t next_label = 1;
  bool halted = false;  // halt / halt_error ran (st::halt without it: the output is gone, see run_callbacks)
  int halt_code = 0;    // their code as jq has it: a C int (halt_error's number converted as jq converts it)
  std::string halt_message;
  program_impl& prog;
  input_provider* inputs;
  const run_callbacks& cb;

 private:
  st call(const node* n, const value& in, const env* e, sink k);
  st call_path(const node* n, const path_link* p, const value& in, const env* e, psink k);
  template <class Body>
  st bind_params(const funcdef* f, const node* n, std::size_t i, const value& in, const env* caller, const env* chain,
                 Body& body);
  template <class Body>
  st bind_patterns(const node* n, const value& src, const value& in, const env* e, Body& body);
  st eval_interp(const node* n, std::size_t i, const value& in, const env* e, std::vector<value>& parts, sink k);
  st eval_object(const node* n, std::size_t i, const value& in, const env* e, sink k);
  st eval_assign(const node* n, const value& in, const env* e, sink k);
  st modify_path(const node* n, const value& in, const env* e);  // |=, op=, //= under path(...)
  // For each path of n's left side in `in`: result's value there replaced by the first output of update(cur, out,
  // got), or the path added to deletions when it has none (|=, op=, //=, plain and under path(...)).
  st update_paths(const node* n, const value& in, const env* e, value& result, std::vector<value>& deletions,
                  updater update);
  [[gnu::noinline]] st ev_recurse(const node* n, const value& in, const env* e, sink k);
  [[gnu::noinline]] st ev_index(const node* n, const value& in, const env* e, sink k);
  st chain_index(const node* n, const value& in, const env* e, sink k);  // long `.a.b.c...` in a loop
  st chain_arith(const node* n, const value& in, const env* e, sink k);  // long `1 + x + ...` in a loop
  [[gnu::noinline]] st ev_slice(const node* n, const value& in, const env* e, sink k);
  [[gnu::noinline]] st ev_iterate(const node* n, const value& in, const env* e, sink k);
  [[gnu::noinline]] st ev_pipe(const node* n, const value& in, const env* e, sink k);
  [[gnu::noinline]] st ev_comma(const node* n, const value& in, const env* e, sink k);
  [[gnu::noinline]] st ev_neg(const node* n, const value& in, const env* e, sink k);
  [[gnu::noinline]] st ev_arith(const node* n, const value& in, const env* e, sink k);
  [[gnu::noinline]] st ev_compare(const node* n, const value& in, const env* e, sink k);
  st compare_emit(int opc, const value& l, const value& r, sink k);  // k(l op r), or "... too deep"
  [[gnu::noinline]] st ev_andor(const node* n, const value& in, const env* e, sink k);
  [[gnu::noinline]] st ev_alt(const node* n, const value& in, const env* e, sink k);
  [[gnu::noinline]] st ev_if(const node* n, const value& in, const env* e, sink k);
  [[gnu::noinline]] st ev_try(const node* n, const value& in, const env* e, sink k);
  [[gnu::noinline]] st ev_bind(const node* n, const value& in, const env* e, sink k);
  [[gnu::noinline]] st ev_funcdef(const node* n, const value& in, const env* e, sink k);
  [[gnu::noinline]] st ev_label(const node* n, const value& in, const env* e, sink k);
  [[gnu::noinline]] st ev_array(const node* n, const value& in, const env* e, sink k);
  [[gnu::noinline]] st ev_object(const node* n, const value& in, const env* e, sink k);
  [[gnu::noinline]] st ev_interp(const node* n, const value& in, const env* e, sink k);
  [[gnu::noinline]] st ev_format(const node* n, const value& in, const env* e, sink k);
  st eval_reduce(const node* n, const value& in, const env* e, sink k);
  // Fast paths (fast_paths.cpp).
  [[gnu::noinline]] st count_outputs(const node* n, const value& in, const env* e, sink k);
  st reduce_step(const node* u, value& state, const env* e, bool& handled);
  st collect(const node* n, const value& in, const env* e, std::vector<value>& out);
  st eval_foreach(const node* n, const value& in, const env* e, sink k);
  template <class Step, class Done>
  st fold(const node* n, const value& in, const env* e, Step&& step, Done&& done);
  // reduce and foreach under path(): see eval_fold.cpp.
  st reduce_path(const node* n, const path_link* p, const value& in, const env* e, psink k);
  st foreach_path(const node* n, const path_link* p, const value& in, const env* e, psink k);

  char* stack_limit_;
  mutable char* stack_check_;       // stack_ok compares with this: the deep part's start, then stack_limit_
  mutable bool went_deep_ = false;
  bool body_downstream_error_ = false;  // ?// alternatives: the last body's error came from its continuation
};

// ---- fast paths (fast_paths.cpp) ----

// Marks n->fast when n has the shape of a fast path (called by the compiler on each resolved node).
void choose_fast_path(node* n);
// `{a, b: .x.y}` built in one step; false when the values do not fit (the general way then runs).
bool object_in_one_step(const node* n, const value& in, value& out);
// `.[] |= f` on an array or object: false (nothing done) for any other input; else status is the result.
bool update_each_in_place(interp& I, const value& in, value& result, std::vector<value>& deletions, updater update,
                          st& status);

// ---- value operations shared by the evaluator and the builtins (ops.cpp) ----

// jq's `.[k]` for any key type (string, number, slice object, array for indices); null input gives null.
st index_value(interp& I, const value& t, const value& k, value& out);
st slice_value(interp& I, const value& t, const value& from, const value& to, value& out);
st iterate_value(interp& I, const value& t, sink k);  // `.[]`
st arith(interp& I, int op, const value& a, const value& b, value& out);
// a = a op b, modifying a's storage in place when a owns it alone (arrays, objects, strings under '+').
st arith_inplace(interp& I, int op, value& a, const value& b);
bool compare_op(int op, const value& a, const value& b);
value negate(const value& v);
// getpath / setpath / delpaths on materialised paths (arrays of keys).
st getpath(interp& I, const value& root, const value& path, value& out);
st setpath(interp& I, value& root, const value* keys, std::size_t n, value v);
st delpaths(interp& I, value& root, std::vector<value> paths);
// A linked path as an array value.
value path_to_array(const path_link* p);
std::size_t path_length(const path_link* p);
void path_keys(const path_link* p, std::vector<value>& out);
// "Cannot index T with ..." messages.
std::string index_error(const value& t, const value& k);
// Length of a value as jq's `length`.
st length_of(interp& I, const value& v, value& out);
// Number of Unicode code points of a UTF-8 string.
std::size_t utf8_length(std::string_view s);
// Appends `v` formatted with @name (text, json, html, uri, csv, tsv, sh, base64, base64d, base32, base32d).
st apply_format(interp& I, std::string_view name, const value& v, std::string& out);
// `@name` and format("name") of one value: apply_format's text as a string value, except @text of a string, which
// is the string itself (jq's tostring), so it keeps its path.
st format_value(interp& I, std::string_view name, const value& v, value& out);
// Parses JSON text into a value (fromjson, --argjson): false with a jq-style message when invalid.
bool parse_json_text(std::string_view text, value& out, std::string& error);
// The same with jq 1.8's reader: its leniency and its error texts (jq_json.cpp).
bool parse_json_jq(std::string_view text, value& out, std::string& error);
// A stream of values (--lenient input) with jq 1.8's reader: the values before an error are in `out`.
bool parse_json_jq_stream(std::string_view text, std::vector<value>& out, std::string& error);

}  // namespace jview::filter::detail
