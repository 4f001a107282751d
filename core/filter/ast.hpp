// core/filter/ast.hpp: the syntax tree of a jq program. The parser builds it; the compiler (compile.cpp) resolves
// names in place (variables and calls get their binding: hops up the environment chain, a global, a native) and
// the evaluator walks the resolved tree. Nodes live in an arena owned by the program and never move.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "core/filter/value.hpp"

namespace jview::filter {

enum class op : std::uint8_t {
  identity,    // .
  recurse,     // ..
  literal,     // v
  index,       // a[b]; opt: a[b]?
  slice,       // a[b:c]; b or c may be null (absent)
  iterate,     // a[]
  pipe,        // a | b
  comma,       // a, b
  neg,         // -a
  arith,       // a sub b (sub: '+', '-', '*', '/', '%')
  compare,     // a sub b (sub: cmp_*)
  and_,        // a and b
  or_,         // a or b
  alt,         // a // b
  assign,      // a = b
  update,      // a |= b
  update_op,   // a sub= b
  alt_assign,  // a //= b
  if_,         // if a then b else c end (c null: identity)
  try_,        // try a catch b (b null: none)
  reduce,      // reduce a as patterns (b; c)
  foreach,     // foreach a as patterns (b; c; d) (d null: identity)
  bind,        // a as patterns | b
  funcdef,     // def fn; a
  call,        // name(args)
  var,         // $name
  label,       // label $name | a
  brk,         // break $name
  array,       // [a] (a null: [])
  object,      // {args[0]: args[1], ...}
  interp,      // "..\(..).." : args are literal strings and expressions, name = format ("text" by default)
  format,      // @name as a filter
};

enum cmp_op : std::uint8_t { cmp_eq, cmp_ne, cmp_lt, cmp_le, cmp_gt, cmp_ge };

// A shortcut the compiler chose for a node (fast_paths.cpp lists them; none when compile_options::fast_paths is
// off). Value mode only: path expressions run every node as written.
enum class fast_path : std::uint8_t { none, count_outputs, reduce_in_place, object_in_one_step, update_each_in_place };

struct node;

struct pattern {
  enum kind_t : std::uint8_t { var, array, object } k = var;
  std::string name;      // var: variable name (without '$')
  std::uint32_t slot = 0;  // var: index in the binding's variable list
  std::vector<pattern*> elems;  // array
  struct entry {
    node* key = nullptr;      // key expression (a literal string for `a:`, `"a":`, `$a`)
    pattern* var = nullptr;   // `$a` / `$a: p`: the variable bound to the member itself
    pattern* sub = nullptr;   // the member's pattern (null for plain `$a`)
  };
  std::vector<entry> entries;  // object
};

struct funcdef {
  std::string name;
  std::vector<std::string> params;  // names without '$'
  std::vector<bool> value_param;    // declared as $name
  node* body = nullptr;
  bool global = false;     // defined in the builtin prelude (no environment: callers start from the root)
  std::uint32_t pos = 0;
  std::uint32_t n_value_params() const {
    std::uint32_t n = 0;
    for (bool b : value_param) n += b;
    return n;
  }
};

// How a call was resolved.
enum class call_kind : std::uint8_t { unresolved, native, global_def, local_def, closure };
// How a variable was resolved.
enum class var_kind : std::uint8_t { unresolved, local, global };

struct node {
  op o;
  std::uint8_t sub = 0;
  bool opt = false;        // index/iterate/slice with '?'
  fast_path fast = fast_path::none;
  std::uint32_t pos = 0;   // source range, for compile errors and $__loc__
  std::uint32_t end = 0;
  node* a = nullptr;
  node* b = nullptr;
  node* c = nullptr;
  node* d = nullptr;
  std::vector<node*> args;
  value v;                 // literal; index with a constant key keeps it in b->v
  std::string name;        // call / var / label / format name
  std::vector<pattern*> patterns;  // bind / reduce / foreach (several: ?// alternatives)
  funcdef* fn = nullptr;   // funcdef node: the definition; call: the callee (global/local def)

  // Resolution (compile.cpp).
  call_kind ck = call_kind::unresolved;
  var_kind vk = var_kind::unresolved;
  std::uint32_t hops = 0;       // local var / local def / closure / label: env nodes to skip
  std::uint32_t index = 0;      // native: table index; global var: slot
  std::uint32_t n_vars = 0;     // bind / reduce / foreach: variables bound by the patterns
};

// Owner of every node, pattern and funcdef of a program (stable addresses).
class ast_arena {
 public:
  node* make(op o, std::uint32_t pos = 0) {
    nodes_.emplace_back();
    node* n = &nodes_.back();
    n->o = o;
    n->pos = pos;
    return n;
  }
  pattern* make_pattern() {
    patterns_.emplace_back();
    return &patterns_.back();
  }
  funcdef* make_funcdef() {
    funcs_.emplace_back();
    return &funcs_.back();
  }

 private:
  std::deque<node> nodes_;
  std::deque<pattern> patterns_;
  std::deque<funcdef> funcs_;
};

}  // namespace jview::filter
