// core/filter/parser.cpp: the parser's state and helpers (tokens, node construction, number constants) and the
// program structure: module and import directives, definitions, the main expression of a program and the
// definitions of a library. Expressions are parsed in parser_expr.cpp, object constructions and destructuring
// patterns in parser_objects.cpp, error texts and recovery in parser_errors.cpp (see parser.hpp for the
// precedence table).
#include <algorithm>

#include "core/filter/parser.hpp"

#include "core/dtoa.hpp"

namespace jview::filter {

void parser::advance() {
  if (quiet_ > 0) --quiet_;
  prev_start_ = lex_.cur().start;
  prev_end_ = lex_.cur().end;
  lex_.advance();
}

void parser::expect(tok t, const char* expecting) {
  if (!at(t)) unexpected(expecting);
  advance();
}

node* parser::make(op o, std::uint32_t pos) { return arena_.make(o, pos); }

node* parser::make_literal(value v, std::uint32_t pos) {
  node* n = make(op::literal, pos);
  n->v = std::move(v);
  return n;
}

node* parser::index_node(node* target, node* key, std::uint32_t pos) {
  node* n = make(op::index, pos);
  n->a = target;
  n->b = key;
  return n;
}

node* parser::loc_literal(std::uint32_t pos) {
  // The line by counting on from the last `$__loc__` (programs are parsed left to right): 10^5 of them on one line
  // took a scan of the whole text each (fuzz_compile_deep found it).
  const std::string_view src = lex_.source();
  if (pos > src.size()) pos = static_cast<std::uint32_t>(src.size());
  if (pos < loc_pos_) loc_pos_ = 0, loc_line_ = 1;
  loc_line_ += static_cast<int>(std::count(src.begin() + loc_pos_, src.begin() + pos, '\n'));
  loc_pos_ = pos;
  value o = value::empty_object();
  o.object_mut().set(std::string_view("file"), value::string(file_name_));
  o.object_mut().set(std::string_view("line"), value::number(loc_line_));
  return make_literal(std::move(o), pos);
}

// ---- numbers ----

std::string parser::canonical_number(std::string_view s) { return jview::filter::canonical_number(s); }

value parser::number_constant(std::string_view literal, double d) {
  std::string canon = canonical_number(literal);
  char buf[k_max_double_chars + 8];
  char* e = write_double_shortest(d, buf);
  if (canon == std::string_view(buf, static_cast<std::size_t>(e - buf))) return value::number_exact(d);
  return value::number_literal(d, std::move(canon));
}

// ---- program structure ----

namespace {

// The value of an expression jq treats as a constant (literals, [], objects of constants), or false.
bool constant_value(const node* n, value& out) {
  if (n->o == op::literal) {
    out = n->v;
    return true;
  }
  if (n->o == op::array && n->a == nullptr) {
    out = value::empty_array();
    return true;
  }
  if (n->o == op::object) {
    value o = value::empty_object();
    for (std::size_t i = 0; i + 1 < n->args.size(); i += 2) {
      value k, v;
      if (!constant_value(n->args[i], k) || !k.is_string() || !constant_value(n->args[i + 1], v)) return false;
      std::string tmp;
      o.object_mut().set(k.str(tmp), v);
    }
    out = o;
    return true;
  }
  return false;
}

}  // namespace

void parser::parse_directives(parsed_program& out) {
  // `Exp ';'` after `module` or an import; jq checks the value once the ';' is read, and parses on.
  auto metadata = [&](value& dst) {
    const std::uint32_t mstart = lex_.cur().start;
    node* meta = parse_pipe();
    const std::uint32_t mend = prev_end_;
    expect(tok::semicolon, "'|' or ',' or ';'");
    if (!constant_value(meta, dst))
      report(mstart, mend, "Module metadata must be constant");
    else if (!dst.is_object())
      report(mstart, mend, "Module metadata must be an object");
  };
  if (at(tok::kw_module)) {
    advance();
    metadata(out.module_meta);
  }
  while (at(tok::kw_import) || at(tok::kw_include)) {
    import_directive imp;
    imp.pos = lex_.cur().start;
    const bool is_import = at(tok::kw_import);
    advance();
    const std::uint32_t sstart = lex_.cur().start;
    if (!at(tok::quote) && !at(tok::format)) unexpected("FORMAT or QQSTRING_START");
    node* path = parse_string_term();
    if (path->o == op::literal)
      imp.path = path->v.string_copy();
    else
      report(sstart, prev_end_, "Import path must be constant");
    if (is_import) {
      expect(tok::kw_as, "as");
      if (at(tok::variable)) {
        imp.data = true;
        imp.alias = lex_.cur().text;
        advance();
      } else if (at(tok::ident)) {
        imp.alias = lex_.cur().text;
        advance();
      } else {
        unexpected("IDENT or BINDING");
      }
    }
    if (at(tok::semicolon))
      advance();
    else
      metadata(imp.meta);
    out.imports.push_back(std::move(imp));
  }
}

parsed_program parser::parse_program_body() {
  parsed_program out;
  lex_.advance();
  parse_directives(out);
  std::vector<std::pair<funcdef*, std::uint32_t>> defs;
  while (at(tok::kw_def)) {
    const std::uint32_t pos = lex_.cur().start;
    defs.emplace_back(parse_funcdef(), pos);
  }
  if (at(tok::eof)) {
    compile_error e;
    e.message = "Top-level program not given (try \".\")";
    e.line = 0;
    e.column = 0;
    e.length = 0;
    throw e;
  }
  // bison reduces an empty definition list first, so a first token that cannot start an expression is reported
  // as "expecting end of file".
  switch (lex_.cur().t) {
    case tok::dot: case tok::dotdot: case tok::field: case tok::number: case tok::quote: case tok::format:
    case tok::lparen: case tok::lbracket: case tok::lbrace: case tok::variable: case tok::kw_loc: case tok::ident:
    case tok::kw_reduce: case tok::kw_foreach: case tok::kw_if: case tok::kw_try: case tok::kw_break:
    case tok::kw_def: case tok::kw_label: case tok::minus: break;
    default: unexpected("end of file");
  }
  node* body = parse_pipe();
  if (!at(tok::eof)) unexpected("end of file");
  for (auto it = defs.rbegin(); it != defs.rend(); ++it) {
    node* n = make(op::funcdef, it->second);
    n->fn = it->first;
    n->a = body;
    body = n;
  }
  out.main = body;
  return out;
}

parsed_program parser::parse_library_body() {
  parsed_program out;
  lex_.advance();
  parse_directives(out);
  while (at(tok::kw_def)) out.defs.push_back(parse_funcdef());
  if (!at(tok::eof)) {
    if (at(tok::kw_import) || at(tok::kw_include) || at(tok::kw_module)) unexpected();
    // jq parses the rest as a main expression first: syntax errors in it come out as such.
    parse_pipe();
    if (!at(tok::eof)) unexpected("end of file");
    compile_error e;
    e.message = "library should only have function definitions, not a main expression";
    e.length = 0;
    throw e;
  }
  return out;
}

funcdef* parser::parse_funcdef() {
  const std::uint32_t pos = lex_.cur().start;
  expect(tok::kw_def);
  funcdef* f = arena_.make_funcdef();
  f->pos = pos;
  if (!at(tok::ident)) unexpected("IDENT");
  f->name = lex_.cur().text;
  advance();
  if (!at(tok::lparen) && !at(tok::colon)) unexpected("':' or '('");
  if (at(tok::lparen)) {
    advance();
    for (;;) {
      if (at(tok::variable)) {
        f->params.push_back(lex_.cur().text);
        f->value_param.push_back(true);
      } else if (at(tok::ident)) {
        f->params.push_back(lex_.cur().text);
        f->value_param.push_back(false);
      } else {
        unexpected("IDENT or BINDING");
      }
      advance();
      if (at(tok::semicolon)) {
        advance();
        continue;
      }
      expect(tok::rparen, "';' or ')'");
      break;
    }
  }
  expect(tok::colon, "':'");
  f->body = parse_pipe();
  expect(tok::semicolon, "'|' or ',' or ';'");
  return f;
}

}  // namespace jview::filter
