// core/filter/compile.cpp: program::compile: parse, then resolve every name in place. Variables and calls get
// the number of environment nodes to skip (the runtime chain mirrors the compile-time scope exactly: one node per
// variable, closure parameter, local definition and label). Builtins written in jq (prelude.jq) are parsed and
// resolved only when a program calls them, so start-up cost follows the program, not the library. Each resolved
// node is offered to choose_fast_path (fast_paths.cpp) unless compile_options::fast_paths is off.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "core/filter/compile_errors.hpp"
#include "core/filter/eval.hpp"
#include "core/filter/local_scope.hpp"
#include "core/filter/stack_room.hpp"
#include "core/filter/name_suggestion.hpp"
#include "core/filter/parser.hpp"
#include "core/parser.hpp"
#include "core/utf8.hpp"

namespace jview::filter {

namespace detail {

bool parse_json_text(std::string_view text, value& out, std::string& error) {
  struct holder {
    std::string text;
    document doc;
  };
  auto h = std::make_shared<holder>();
  h->text.assign(text);
  const char* p = h->text.data();
  const char* end = p + h->text.size();
  if (jview::parser::at_end(p, end)) {
    error = "Expected JSON value";
    return false;
  }
  jview::parser ps;
  const char* stop = nullptr;
  const parse_error pe = ps.parse(p, end, h->doc, stop);
  if (pe) {
    error = pe.code == error_code::too_deep ? std::string("Exceeds depth limit for parsing")
                                            : std::string(error_message(pe.code));
    return false;
  }
  const char* rest = stop;
  if (!jview::parser::at_end(rest, end)) {
    error = "Unexpected extra JSON values";
    return false;
  }
  std::shared_ptr<const document> d(h, &h->doc);
  out = value::view(std::move(d), 0);
  return true;
}

namespace {

// What a program or module sees besides its own local scope: its earlier definitions (modules), the modules it
// imports (alias::name) or includes (empty alias), and its data imports ($name).
struct mod_scope {
  module_info* self = nullptr;
  std::size_t visible = 0;
  const std::vector<std::pair<std::string, module_info*>>* imports = nullptr;
  const std::vector<std::pair<std::string, std::uint32_t>>* data = nullptr;
  std::string file;  // for error locations ("" = <top-level>)
};

funcdef* find_def(const module_info* m, const std::string& name, std::size_t arity) {
  for (auto it = m->defs.rbegin(); it != m->defs.rend(); ++it)
    if ((*it)->name == name && (*it)->params.size() == arity) return *it;
  return nullptr;
}

class resolver {
 public:
  resolver(program_impl& p, std::string_view src, mod_scope ms = {}) : prog_(p), src_(src), ms_(std::move(ms)) {}

  void resolve(node* n);
  void resolve_def(funcdef* f, bool global);
  // resolve_def, but an error is kept for when the definition is referenced (jq ignores unreferenced ones).
  void resolve_def_deferred(funcdef* f, bool global);
  funcdef* prelude(const std::string& name, std::uint32_t arity);
  // Throws the undefined names recorded so far: the first, with the others as its `more`.
  void throw_if_errors();

 private:
  // A node on the walk's explicit stack: `step` counts the node's steps done, `mark` is a scope size to restore.
  struct frame {
    node* n;
    std::uint32_t step;
    std::size_t mark;
  };
  [[noreturn]] void fail(const node* n, const std::string& msg);
  // An undefined name: recorded, and resolution goes on, so that all of them are reported as jq 1.8 does.
  // `suggestion`: defined names close to it (compile_error::suggestion).
  void soft_fail(const node* n, const std::string& msg, std::string suggestion = {});
  // Every function a call here could name (for the suggestion after an undefined one).
  std::vector<defined_function> visible_functions() const;
  node* next_child(frame& f);
  void resolve_var(node* n);
  bool resolve_callee(node* n);  // false: undefined (recorded; its arguments are not looked at, as in jq)
  // Whether a resolved call's arguments are closures for jq 1.8 (not a builtin jq writes in C).
  bool args_are_closures(const node* n) const;
  // A call of a definition: its pending errors join the report (as a subfunction of the body it lives in).
  void note_called(const funcdef* f);
  void collect_vars(pattern* p, std::vector<std::string>& names);
  void resolve_pattern_keys(pattern* p);
  void push_vars(node* n);

  funcdef* module_function(const std::string& name, std::size_t arity);

  program_impl& prog_;
  std::string_view src_;
  mod_scope ms_;
  local_scope scope_;
  error_report report_;  // the undefined names, by body (compile_errors.hpp)
  std::unordered_map<const funcdef*, error_report::place> def_places_;  // where each local definition lives
  // The definitions whose bodies are being resolved, innermost last, with the report depth of their bodies; the
  // definitions defined outside a body and called in it (called only if that definition is); those called.
  std::vector<std::pair<const funcdef*, std::size_t>> open_defs_;
  std::unordered_map<const funcdef*, std::vector<const funcdef*>> def_calls_;
  std::unordered_set<const funcdef*> called_defs_;
};

// A call not bound in the local scope: the module's earlier definitions, then qualified imports or includes.
funcdef* resolver::module_function(const std::string& name, std::size_t arity) {
  if (ms_.self != nullptr) {
    for (std::size_t i = ms_.visible; i-- > 0;) {
      funcdef* f = ms_.self->defs[i];
      if (f->name == name && f->params.size() == arity) return f;
    }
  }
  if (ms_.imports == nullptr) return nullptr;
  const std::size_t sep = name.find("::");
  if (sep != std::string::npos) {
    const std::string alias = name.substr(0, sep);
    const std::string fn = name.substr(sep + 2);
    for (auto it = ms_.imports->rbegin(); it != ms_.imports->rend(); ++it)
      if (it->first == alias)
        if (funcdef* f = find_def(it->second, fn, arity)) return f;
    return nullptr;
  }
  for (auto it = ms_.imports->rbegin(); it != ms_.imports->rend(); ++it)
    if (it->first.empty())
      if (funcdef* f = find_def(it->second, name, arity)) return f;
  return nullptr;
}

void resolver::fail(const node* n, const std::string& msg) {
  compile_error e;
  e.file = ms_.file;
  e.message = msg;
  locate(src_, n->pos, e.line, e.column, e.source_line);
  e.length = n->end > n->pos ? static_cast<int>(n->end - n->pos) : 1;
  throw e;
}

void resolver::soft_fail(const node* n, const std::string& msg, std::string suggestion) {
  try {
    fail(n, msg);
  } catch (compile_error& e) {
    e.suggestion = std::move(suggestion);
    report_.add(std::move(e));
  }
}

std::vector<defined_function> resolver::visible_functions() const {
  std::vector<defined_function> out;
  for (const scope_entry& s : scope_.entries()) {
    if (s.k == scope_entry::func) out.push_back({s.name, s.arity});
    if (s.k == scope_entry::closure) out.push_back({s.name, 0});
  }
  if (ms_.self != nullptr)
    for (std::size_t i = 0; i < ms_.visible; ++i)
      out.push_back({ms_.self->defs[i]->name, static_cast<std::uint32_t>(ms_.self->defs[i]->params.size())});
  if (ms_.imports != nullptr)
    for (const auto& [alias, m] : *ms_.imports)
      for (const funcdef* f : m->defs)
        out.push_back({alias.empty() ? f->name : alias + "::" + f->name, static_cast<std::uint32_t>(f->params.size())});
  for (const std::string& b : builtin_names()) {
    const std::size_t slash = b.rfind('/');
    out.push_back({b.substr(0, slash), static_cast<std::uint32_t>(std::stoul(b.substr(slash + 1)))});
  }
  return out;
}

void resolver::throw_if_errors() {
  compile_error e;
  if (report_.take(e)) throw e;
}

// jq compiles only the definitions a program calls: one called in the body of another counts once that one is.
// A module's definition (resolved apart) lives before everything of the body that calls it; in a module's own
// definition, it is part of that definition's report.
void resolver::note_called(const funcdef* called) {
  std::vector<const funcdef*> work{called};  // a worklist, not recursion: chains of 10^5 definitions
  while (!work.empty()) {
    const funcdef* f = work.back();
    work.pop_back();
    auto found = def_places_.find(f);
    const error_report::place where =
        found != def_places_.end() ? found->second : error_report::place{ms_.self != nullptr ? 1u : 0u, 0};
    if (!open_defs_.empty() && where.depth < open_defs_.back().second) {
      def_calls_[open_defs_.back().first].push_back(f);
      continue;
    }
    if (!called_defs_.insert(f).second) continue;
    if (auto pending = prog_.pending_errors.find(f); pending != prog_.pending_errors.end())
      report_.called(f, where, pending->second);
    if (auto calls = def_calls_.find(f); calls != def_calls_.end())
      work.insert(work.end(), calls->second.rbegin(), calls->second.rend());
  }
}

bool resolver::args_are_closures(const node* n) const {
  bool builtin = n->ck == call_kind::native;
  if (n->ck == call_kind::global_def) {
    auto it = prog_.prelude_defs.find(n->name + "/" + std::to_string(n->args.size()));
    builtin = it != prog_.prelude_defs.end() && it->second == n->fn;
  }
  return !(builtin && jq_inlines_arguments(n->name, n->args.size()));
}

void resolver::collect_vars(pattern* p, std::vector<std::string>& names) {
  auto slot_of = [&](const std::string& name) -> std::uint32_t {
    for (std::uint32_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return i;
    names.push_back(name);
    return static_cast<std::uint32_t>(names.size() - 1);
  };
  switch (p->k) {
    case pattern::var: p->slot = slot_of(p->name); break;
    case pattern::array:
      for (pattern* e : p->elems) collect_vars(e, names);
      break;
    case pattern::object:
      for (auto& e : p->entries) {
        if (e.var != nullptr) e.var->slot = slot_of(e.var->name);
        if (e.sub != nullptr) collect_vars(e.sub, names);
      }
      break;
  }
}

void resolver::resolve_pattern_keys(pattern* p) {
  switch (p->k) {
    case pattern::var: break;
    case pattern::array:
      for (pattern* e : p->elems) resolve_pattern_keys(e);
      break;
    case pattern::object:
      for (auto& e : p->entries) {
        resolve(e.key);
        if (e.sub != nullptr) resolve_pattern_keys(e.sub);
      }
      break;
  }
}

// Assigns variable slots for a binding's patterns and pushes one scope entry per variable.
void resolver::push_vars(node* n) {
  std::vector<std::string> names;
  for (pattern* p : n->patterns) collect_vars(p, names);
  for (pattern* p : n->patterns) resolve_pattern_keys(p);
  n->n_vars = static_cast<std::uint32_t>(names.size());
  for (auto& name : names) scope_.push(scope_entry{scope_entry::var, name, 0, nullptr});
}

funcdef* resolver::prelude(const std::string& name, std::uint32_t arity) {
  const std::string key = name + "/" + std::to_string(arity);
  auto it = prog_.prelude_defs.find(key);
  if (it != prog_.prelude_defs.end()) return it->second;
  const std::string_view src = find_prelude(name, static_cast<int>(arity));
  if (src.empty()) return nullptr;
  parser ps(src, prog_.arena);
  parsed_program lib = ps.parse_library();
  funcdef* f = lib.defs.at(0);
  f->global = true;
  prog_.prelude_defs.emplace(key, f);
  // The definition's body sees no user scope: resolve it in a fresh resolver.
  resolver r(prog_, src);
  r.resolve_def(f, true);
  r.throw_if_errors();
  return f;
}

void resolver::resolve_def_deferred(funcdef* f, bool global) {
  const std::size_t mark = scope_.size();
  const std::size_t depth = report_.depth();
  def_places_[f] = report_.open_definition();
  open_defs_.emplace_back(f, depth);
  try {
    resolve_def(f, global);
    open_defs_.pop_back();
    std::vector<compile_error> errors = report_.close_definition();
    if (!errors.empty()) {
      compile_error e = errors.front();
      e.more.assign(errors.begin() + 1, errors.end());
      prog_.pending_errors.emplace(f, std::move(e));
    }
  } catch (compile_error& e) {
    scope_.truncate(mark);
    report_.unwind_to(depth);
    open_defs_.pop_back();
    prog_.pending_errors.emplace(f, std::move(e));
  }
}

void resolver::resolve_def(funcdef* f, bool global) {
  (void)global;
  // Definitions nested in definitions' bodies are resolved by recursion: as deep as the parser lets them nest, and
  // each level costs more stack than the parser's. (Past 64 levels only, as the parser: ordinary programs never ask
  // where the stack ends.)
  if (open_defs_.size() > 64 && !stack_has_room()) fail(f->body, "program nests too deeply");
  const std::size_t mark = scope_.size();
  for (const std::string& p : f->params) scope_.push(scope_entry{scope_entry::closure, p, 0, nullptr});
  for (std::size_t i = 0; i < f->params.size(); ++i)
    if (f->value_param[i]) scope_.push(scope_entry{scope_entry::var, f->params[i], 0, nullptr});
  resolve(f->body);
  scope_.truncate(mark);
}

// The tree is walked with an explicit stack, not by recursion: chains of 10^6 operators, suffixes or definitions
// (`1 + 1 + ...`, `.a.a...`, `def f: 1; def g: 2; ...`) resolve in constant stack. Only a definition's body is
// resolved by a nested call (resolve_def_deferred catches its errors), and definitions nest only as deeply as the
// parser lets anything nest.
void resolver::resolve(node* root) {
  if (root == nullptr) return;
  std::vector<frame> stack;
  stack.push_back(frame{root, 0, 0});
  while (!stack.empty()) {
    if (node* child = next_child(stack.back())) {
      stack.push_back(frame{child, 0, 0});
      continue;
    }
    node* n = stack.back().n;
    stack.pop_back();
    if (prog_.fast_paths) choose_fast_path(n);  // on the resolved node (`length` must be known to be the native)
  }
}

void resolver::resolve_var(node* n) {
  const std::size_t i = scope_.find(n->name, [](const scope_entry& s) { return s.k == scope_entry::var; });
  if (i != local_scope::npos) {
    n->vk = var_kind::local;
    n->hops = static_cast<std::uint32_t>(scope_.size() - 1 - i);
    return;
  }
  if (ms_.data != nullptr) {
    for (auto it = ms_.data->rbegin(); it != ms_.data->rend(); ++it) {
      if (it->first == n->name) {
        n->vk = var_kind::global;
        n->index = it->second;
        return;
      }
    }
  }
  for (std::size_t i = 0; i < prog_.global_names.size(); ++i) {
    if (prog_.global_names[i] == n->name) {
      n->vk = var_kind::global;
      n->index = static_cast<std::uint32_t>(i);
      if (i == 0) prog_.ensure_env();
      return;
    }
  }
  soft_fail(n, "$" + n->name + " is not defined");
}

bool resolver::resolve_callee(node* n) {
  const std::uint32_t arity = static_cast<std::uint32_t>(n->args.size());
  const std::size_t i = scope_.find(n->name, [arity](const scope_entry& s) {
    return (s.k == scope_entry::closure && arity == 0) || (s.k == scope_entry::func && s.arity == arity);
  });
  if (i != local_scope::npos) {
    const scope_entry& s = scope_[i];
    n->hops = static_cast<std::uint32_t>(scope_.size() - 1 - i);
    if (s.k == scope_entry::closure) {
      n->ck = call_kind::closure;
    } else {
      note_called(s.def->fn);
      n->ck = call_kind::local_def;
      n->fn = s.def->fn;
    }
    return true;
  }
  if (funcdef* f = module_function(n->name, arity)) {
    note_called(f);
    n->ck = call_kind::global_def;
    n->fn = f;
  } else if (funcdef* f = prelude(n->name, arity)) {
    n->ck = call_kind::global_def;
    n->fn = f;
  } else {
    const int idx = find_native(n->name, static_cast<int>(arity));
    if (idx < 0) {
      soft_fail(n, n->name + "/" + std::to_string(arity) + " is not defined",
                nearest_functions(n->name, arity, visible_functions()));
      return false;
    }
    n->ck = call_kind::native;
    n->index = static_cast<std::uint32_t>(idx);
    if (arity == 0 && n->name == "env") prog_.ensure_env();
    if (arity == 0 && (n->name == "input" || n->name == "inputs" || n->name == "input_line_number"))
      prog_.reads_inputs_ = true;
  }
  return true;
}

// One step of the walk at f.n: resolves what the node itself binds or refers to, in the order the recursive
// definition had (children left to right, scopes opened before the children that see them and closed after), and
// returns the next child to resolve, or null when the node is done.
node* resolver::next_child(frame& f) {
  node* n = f.n;
  switch (n->o) {
    case op::var:
      resolve_var(n);
      return nullptr;
    case op::call:
      // f.mark: 1 while an argument's closure is open in the report
      if (f.step == 0 && !resolve_callee(n)) return nullptr;
      if (f.mark != 0) report_.close();
      f.mark = 0;
      if (f.step < n->args.size()) {
        if (args_are_closures(n)) {
          report_.open();
          f.mark = 1;
        }
        return n->args[f.step++];
      }
      return nullptr;
    case op::assign:
    case op::update:
    case op::update_op:
    case op::alt_assign:
      // jq 1.8: _assign(paths; $value) and _modify(paths; update): the path is a closure, so is the right side of
      // `=` and `|=`; that of `+=` or `//=` is computed first, in the body.
      if (f.mark != 0) report_.close();
      f.mark = 0;
      switch (f.step++) {
        case 0:
          report_.open();
          f.mark = 1;
          return n->a;
        case 1:
          if (n->o == op::assign || n->o == op::update) {
            report_.open();
            f.mark = 1;
          }
          return n->b;
        default: return nullptr;
      }
    case op::funcdef:
      if (f.step++ == 0) {
        scope_.push(scope_entry{scope_entry::func, n->fn->name, static_cast<std::uint32_t>(n->fn->params.size()), n});
        resolve_def_deferred(n->fn, false);
        if (n->a != nullptr) return n->a;
        f.step++;
      }
      scope_.pop();
      return nullptr;
    case op::bind:
      switch (f.step++) {
        case 0: return n->a;
        case 1:
          f.mark = scope_.size();
          push_vars(n);
          return n->b;
        default: scope_.truncate(f.mark); return nullptr;
      }
    case op::reduce:
    case op::foreach:
      for (;;) {
        switch (f.step++) {
          case 0: if (n->a != nullptr) return n->a; continue;
          case 1: if (n->b != nullptr) return n->b; continue;
          case 2:
            f.mark = scope_.size();
            push_vars(n);
            if (n->c != nullptr) return n->c;
            continue;
          case 3: if (n->d != nullptr) return n->d; continue;
          default: scope_.truncate(f.mark); return nullptr;
        }
      }
    case op::label:
      if (f.step++ == 0) {
        scope_.push(scope_entry{scope_entry::label, "*label-" + n->name, 0, nullptr});
        if (n->a != nullptr) return n->a;
      }
      scope_.pop();
      return nullptr;
    case op::brk: {
      const std::string want = "*label-" + n->name;
      const std::size_t i = scope_.find(want, [](const scope_entry& s) { return s.k == scope_entry::label; });
      if (i != local_scope::npos) {
        n->hops = static_cast<std::uint32_t>(scope_.size() - 1 - i);
        return nullptr;
      }
      soft_fail(n, "$" + want + " is not defined");
      return nullptr;
    }
    default:
      for (;;) {
        const std::uint32_t i = f.step++;
        node* c = i == 0 ? n->a : i == 1 ? n->b : i == 2 ? n->c : i == 3 ? n->d
                 : i - 4 < n->args.size() ? n->args[i - 4] : nullptr;
        if (c != nullptr) return c;
        if (i >= 4 + n->args.size()) return nullptr;
      }
  }
}

}  // namespace

namespace {

bool is_regular_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

std::string dir_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// jq's substitutions in a search path: a leading "~" is $HOME, a leading "$ORIGIN" the directory of the
// executable.
std::string expand_search_path(const program_impl& prog, const std::string& d) {
  if (d == "~" || d.compare(0, 2, "~/") == 0) {
    if (!prog.home.empty()) return prog.home + d.substr(1);
  } else if (d == "$ORIGIN" || d.compare(0, 8, "$ORIGIN/") == 0) {
    char exe[4096];
    const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
      std::string dir(exe, static_cast<std::size_t>(n));
      const std::size_t slash = dir.rfind('/');
      dir.resize(slash == std::string::npos ? 0 : slash);
      return dir + d.substr(7);
    }
  }
  return d;
}

// A file's canonical path (jq names module files by their real path in errors and $__loc__).
std::string real_path(const std::string& file) {
  char* r = ::realpath(file.c_str(), nullptr);
  if (r == nullptr) return file;
  std::string out(r);
  std::free(r);
  return out;
}

// Directories to search for an import: the import's own "search" metadata (relative to the importing file),
// then the library paths (-L), or without -L jq's default list: ~/.jq, $ORIGIN/../lib/jq, $ORIGIN/../lib.
std::vector<std::string> search_dirs(const program_impl& prog, const value& meta, const std::string& origin) {
  std::vector<std::string> dirs;
  auto add = [&](const std::string& path) {
    if (path.empty()) return;
    const std::string d = expand_search_path(prog, path);
    if (d[0] == '/')
      dirs.push_back(d);
    else if (d == ".")
      dirs.push_back(origin);
    else if (d.compare(0, 2, "./") == 0)
      dirs.push_back(origin + d.substr(1));
    else
      dirs.push_back(origin + "/" + d);
  };
  // Without "search" metadata jq 1.8 looks in "." (the current directory) first.
  if (!meta.is_object() || !meta.has_member("search")) dirs.push_back(".");
  if (meta.is_object()) {
    const value s = meta.member("search");
    if (s.is_string()) add(s.string_copy());
    s.for_each_element([&](const value& v) {
      if (v.is_string()) add(v.string_copy());
    });
  }
  static const std::vector<std::string> k_default_paths = {"~/.jq", "$ORIGIN/../lib/jq", "$ORIGIN/../lib"};
  for (const std::string& p : prog.library_paths.empty() ? k_default_paths : prog.library_paths)
    dirs.push_back(expand_search_path(prog, p));
  return dirs;
}

[[noreturn]] void module_error(const std::string& msg);

// jq 1.8's rules for a module's name (its validate_relpath), checked before any file is looked for: no backslash,
// no ".." component (a module never reaches outside its search directories: `import "../secret"` with `-L lib`
// would read lib/../secret.json), no component equal to the one before it. The messages are jq's.
void check_module_name(const std::string& rel) {
  if (rel.find('\\') != std::string::npos)
    module_error("Modules must be named by relative paths using '/', not '\\' (" + rel + ")");
  std::string_view prev;
  for (std::size_t at = 0, i = 0;; ++i) {
    const std::size_t slash = rel.find('/', at);
    const std::string_view part = std::string_view(rel).substr(at, slash == std::string::npos ? slash : slash - at);
    if (part == "..") module_error("Relative paths to modules may not traverse to parent directories (" + rel + ")");
    if (i > 0 && part == prev) module_error("module names must not have equal consecutive components: " + rel);
    if (slash == std::string::npos) break;
    prev = part;
    at = slash + 1;
  }
}

std::string find_module_file(const program_impl& prog, const std::string& rel, const value& meta,
                             const std::string& origin, const char* ext) {
  check_module_name(rel);
  const std::size_t slash = rel.rfind('/');
  const std::string base = slash == std::string::npos ? rel : rel.substr(slash + 1);
  for (const std::string& d : search_dirs(prog, meta, origin)) {
    const std::string a = d + "/" + rel + ext;
    if (is_regular_file(a)) return a;
    const std::string m = d + "/" + rel + "/jq/main" + ext;  // a package's jq/main.jq, as jq 1.8
    if (is_regular_file(m)) return m;
    const std::string b = d + "/" + rel + "/" + base + ext;
    if (is_regular_file(b)) return b;
  }
  return {};
}

[[noreturn]] void module_error(const std::string& msg) {
  compile_error e;
  e.message = msg;
  e.line = 0;
  e.column = 0;
  e.length = 0;
  throw e;
}

}  // namespace

// Resolves a module's imports (code and data) into `imports` / `data`, and records modulemeta's "deps".
void bind_imports(program_impl& prog, const std::vector<import_directive>& imps, const std::string& origin,
                  std::vector<std::pair<std::string, module_info*>>& imports,
                  std::vector<std::pair<std::string, std::uint32_t>>& data, value* deps) {
  if (deps != nullptr) {
    std::vector<value> dep_list;
    for (const import_directive& imp : imps) {
      value d = value::empty_object();
      imp.meta.for_each_member([&](std::string_view k, const value& v) { d.object_mut().set(k, v); });
      if (!imp.alias.empty()) d.object_mut().set(std::string_view("as"), value::string(imp.alias));
      d.object_mut().set(std::string_view("is_data"), value::boolean(imp.data));
      d.object_mut().set(std::string_view("relpath"), value::string(imp.path));
      dep_list.push_back(std::move(d));
    }
    *deps = value::array(std::move(dep_list));
  }
  // Loaded last first, as jq does (its errors, a missing module or one that does not compile, are the last
  // import's), and bound in the program's order.
  std::vector<module_info*> loaded(imps.size(), nullptr);
  std::vector<std::uint32_t> slots(imps.size(), 0);
  for (std::size_t i = imps.size(); i-- > 0;) {
    const import_directive& imp = imps[i];
    if (imp.data) {
      value v;
      if (!prog.load_data(imp.path, imp.meta, origin, v)) module_error("module not found: " + imp.path);
      slots[i] = static_cast<std::uint32_t>(prog.globals.size());
      prog.globals.push_back(v);
      prog.global_names.push_back("\x01" + imp.alias);  // reachable only through the module's scope
    } else {
      loaded[i] = prog.load_module(imp.path, imp.meta, origin);
    }
  }
  for (std::size_t i = 0; i < imps.size(); ++i) {
    const import_directive& imp = imps[i];
    if (imp.data) {
      data.emplace_back(imp.alias, slots[i]);
      data.emplace_back(imp.alias + "::" + imp.alias, slots[i]);
    } else {
      imports.emplace_back(imp.alias, loaded[i]);
    }
  }
}

}  // namespace detail

detail::module_info* detail::program_impl::load_module(const std::string& rel, const value& meta,
                                                       const std::string& origin_dir) {
  // "\x01PATH": a file named exactly (~/.jq, included into the main program).
  std::string file = rel.compare(0, 1, "\x01") == 0 ? rel.substr(1) : find_module_file(*this, rel, meta, origin_dir, ".jq");
  if (file.empty()) module_error("module not found: " + rel);
  file = real_path(file);
  for (auto& m : modules) {
    if (m->file == file) {
      if (m->loading) module_error("module import cycle through " + rel);
      return m.get();
    }
  }
  modules.push_back(std::make_unique<module_info>());
  module_info* mi = modules.back().get();
  mi->file = file;
  mi->dir = dir_of(file);
  mi->loading = true;
  module_sources.emplace_back();
  if (!read_file(file, module_sources.back())) module_error("module not found: " + rel);
  const std::string& text = module_sources.back();
  parsed_program lib;
  try {
    parser ps(text, arena, file);
    lib = ps.parse_library();
  } catch (compile_error& e) {
    if (e.file.empty()) e.file = file;
    for (compile_error& m : e.more)  // (every message of the parse is in this file)
      if (m.file.empty()) m.file = file;
    throw;
  }
  mi->meta = lib.module_meta.is_object() ? lib.module_meta : value::empty_object();
  mi->defs = lib.defs;
  bind_imports(*this, lib.imports, mi->dir, mi->code_imports, mi->data_vars, &mi->deps);
  for (std::size_t i = 0; i < mi->defs.size(); ++i) {
    funcdef* f = mi->defs[i];
    f->global = true;
    mod_scope ms;
    ms.self = mi;
    ms.visible = i + 1;
    ms.imports = &mi->code_imports;
    ms.data = &mi->data_vars;
    ms.file = file;
    resolver r(*this, text, ms);
    r.resolve_def_deferred(f, true);
  }
  mi->loading = false;
  return mi;
}

bool detail::program_impl::load_data(const std::string& rel, const value& meta, const std::string& origin_dir,
                                     value& out) {
  const std::string file = find_module_file(*this, rel, meta, origin_dir, ".json");
  if (file.empty()) return false;
  std::string text;
  if (!read_file(file, text)) return false;
  // All values of the file, as an array (jq's data import).
  std::vector<value> values;
  auto holder = std::make_shared<std::string>(std::move(text));
  const char* p = holder->data();
  const char* end = p + holder->size();
  jview::parser ps;
  while (!jview::parser::at_end(p, end)) {
    auto doc = std::make_shared<document>();
    const char* stop = nullptr;
    if (ps.parse(p, end, *doc, stop)) module_error("invalid JSON in data module " + file);
    // Keep the text alive with the document: one holder per value, sharing the text.
    struct both {
      std::shared_ptr<std::string> text;
      std::shared_ptr<document> doc;
    };
    auto b = std::make_shared<both>(both{holder, doc});
    values.push_back(value::view(std::shared_ptr<const document>(b, b->doc.get()), 0));
    p = stop;
  }
  out = value::array(std::move(values));
  return true;
}

namespace {

// A string from outside the JSON parser (an argument, a file, the environment): valid UTF-8, with invalid
// sequences replaced as jq 1.8 replaces them (core/utf8.hpp), so that every builtin sees the same text.
value string_from_outside(const std::string& s) { return value::string(utf8::valid_or_replaced(s)); }

}  // namespace

void detail::program_impl::ensure_env() {
  if (env_built_) return;
  env_built_ = true;
  value env_obj = value::empty_object();
  for (const auto& [k, v] : environment)
    env_obj.object_mut().set(std::string_view(utf8::valid_or_replaced(k)), string_from_outside(v));
  globals[0] = std::move(env_obj);
}

std::unique_ptr<program> program::compile(std::string_view source, const compile_options& opts) {
  auto prog = std::make_unique<detail::program_impl>();
  prog->source.assign(source);
  prog->environment = opts.environment;
  prog->fast_paths = opts.fast_paths;

  // Global variables: $ENV (built only if the program uses it: an environment can be large), the named
  // arguments, $ARGS.
  prog->global_names.push_back("ENV");
  prog->globals.push_back(value());

  value named = value::empty_object();
  auto add_global = [&](const std::string& name, const value& v) {
    for (std::size_t i = 0; i < prog->global_names.size(); ++i) {
      if (prog->global_names[i] == name) {
        prog->globals[i] = v;
        return;
      }
    }
    prog->global_names.push_back(name);
    prog->globals.push_back(v);
  };
  auto bad_json = [](const char* option) {
    compile_error e;
    e.message = std::string("Invalid JSON text passed to --") + option;
    e.length = 0;
    e.bad_json_option = option;
    return e;
  };
  std::vector<std::string_view> seen;
  for (const compile_options::named_arg& a : opts.named_args) {
    if (std::find(seen.begin(), seen.end(), std::string_view(a.name)) != seen.end()) continue;  // jq keeps the first
    seen.push_back(a.name);
    value v;
    if (a.json) {
      std::string err;
      if (!detail::parse_json_text(a.text, v, err)) throw bad_json("argjson");
    } else {
      v = string_from_outside(a.text);
    }
    add_global(a.name, v);
    named.object_mut().set(std::string_view(a.name), v);
  }
  std::vector<value> positional;
  for (const compile_options::positional_arg& a : opts.positional_args) {
    value v;
    if (a.json) {
      std::string err;
      if (!detail::parse_json_text(a.text, v, err)) throw bad_json("jsonargs");
    } else {
      v = string_from_outside(a.text);
    }
    positional.push_back(v);
  }
  value args = value::empty_object();
  args.object_mut().set(std::string_view("positional"), value::array(std::move(positional)));
  args.object_mut().set(std::string_view("named"), named);
  add_global("ARGS", args);

  prog->library_paths = opts.library_paths;
  for (const auto& [name, text] : opts.environment)
    if (name == "HOME") prog->home = text;
  prog->program_origin = opts.program_origin;
  prog->jq_origin = opts.jq_origin;
  parser ps(prog->source, prog->arena);
  parsed_program parsed = ps.parse_program();
  // The main program's imports live as long as the program (the resolver keeps pointers to them).
  auto* main_imports = new std::vector<std::pair<std::string, detail::module_info*>>();
  auto* main_data = new std::vector<std::pair<std::string, std::uint32_t>>();
  prog->main_imports.reset(main_imports);
  prog->main_data.reset(main_data);
  // jq includes $HOME/.jq into the main program when it is a file (as a directory it is a search path).
  if (!prog->home.empty()) {
    const std::string dot = prog->home + "/.jq";
    if (detail::is_regular_file(dot)) {
      import_directive d;
      d.path = "\x01" + dot;
      parsed.imports.insert(parsed.imports.begin(), std::move(d));
    }
  }
  detail::bind_imports(*prog, parsed.imports, ".", *main_imports, *main_data, nullptr);
  prog->main = parsed.main;
  detail::mod_scope ms;
  ms.imports = main_imports;
  ms.data = main_data;
  detail::resolver r(*prog, prog->source, ms);
  r.resolve(prog->main);
  r.throw_if_errors();
  return prog;
}

}  // namespace jview::filter
