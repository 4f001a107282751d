// core/filter/parser.cpp: the recursive-descent / precedence-climbing parser of jq programs (see parser.hpp for
// the precedence table). Error texts follow jq 1.8's bison messages ("syntax error, unexpected X") and its
// semantic checks ("Cannot use number (1) as object key", "Top-level program not given (try \".\")").
#include "core/filter/parser.hpp"

#include <algorithm>
#include <cstdlib>

#include "core/dtoa.hpp"

namespace jview::filter {

void locate(std::string_view src, std::uint32_t pos, int& line, int& column, std::string& line_text) {
  if (pos > src.size()) pos = static_cast<std::uint32_t>(src.size());
  line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < pos; ++i) {
    if (src[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  column = static_cast<int>(pos - line_start) + 1;
  std::size_t line_end = src.find('\n', line_start);
  if (line_end == std::string_view::npos) line_end = src.size();
  line_text.assign(src.substr(line_start, line_end - line_start));
}

parser::parser(std::string_view src, ast_arena& arena, std::string file_name)
    : lex_(src), arena_(arena), file_name_(std::move(file_name)) {}

compile_error parser::error_at(std::uint32_t start, std::uint32_t end, const std::string& msg) const {
  compile_error e;
  e.message = msg;
  locate(lex_.source(), start, e.line, e.column, e.source_line);
  e.length = end > start ? static_cast<int>(end - start) : 1;
  // jq underlines to the end of the line at most.
  e.length = std::max(1, std::min(e.length, static_cast<int>(e.source_line.size()) - e.column + 1));
  return e;
}

void parser::fail_at(std::uint32_t start, std::uint32_t end, const std::string& msg) {
  throw error_at(start, end, msg);
}

void parser::key_error(std::uint32_t start, std::uint32_t end, const std::string& msg) {
  key_errors_.push_back(error_at(start, end, msg));
}

template <class Parse>
auto parser::with_key_errors(Parse&& parse) {
  auto merged = [this](const compile_error* last) {
    compile_error first = key_errors_.front();
    first.more.assign(key_errors_.begin() + 1, key_errors_.end());
    if (last != nullptr) {
      compile_error tail = *last;
      tail.more.clear();
      first.more.push_back(std::move(tail));
      first.more.insert(first.more.end(), last->more.begin(), last->more.end());
    }
    return first;
  };
  decltype(parse()) out;
  try {
    out = parse();
  } catch (compile_error& e) {
    if (key_errors_.empty()) throw;
    throw merged(&e);
  }
  if (!key_errors_.empty()) throw merged(nullptr);
  return out;
}

// Where jq places an error at the end of the program: its lexer's last match, which may be the whitespace after
// the last token (the whole run) or a comment (its last character).
void parser::eof_span(std::uint32_t& start, std::uint32_t& end) const {
  start = prev_start_;
  end = prev_end_;
  const std::string_view src = lex_.source();
  std::size_t i = prev_end_;
  while (i < src.size()) {
    std::size_t j = i;
    if (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
      while (j < src.size() && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r')) ++j;
      start = static_cast<std::uint32_t>(i);
    } else if (src[i] == '#') {
      while (j < src.size() && src[j] != '\n') j += src[j] == '\\' && j + 1 < src.size() ? 2 : 1;
      start = static_cast<std::uint32_t>(j - 1);
    } else {
      break;
    }
    end = static_cast<std::uint32_t>(j);
    i = j;
  }
}

void parser::unexpected(const char* expecting) {
  const token& t = lex_.cur();
  std::string msg = "syntax error, unexpected ";
  switch (t.t) {
    case tok::ident:
    case tok::field:
    case tok::variable:
    case tok::number:
    case tok::format:
    case tok::quote:
    case tok::invalid:
    case tok::eof: msg += token_name(t.t); break;
    default: msg += token_name(t.t); break;
  }
  if (expecting != nullptr) {
    msg += ", expecting ";
    msg += expecting;
  }
  brackets_at_error_ = brackets_;
  // jq's lexer leaves the location of the last token in place at the end of the input.
  if (t.t == tok::eof) {
    std::uint32_t start = 0, end = 0;
    eof_span(start, end);
    fail_at(start, end, msg);
  }
  if (t.t == tok::invalid) fail_at(t.start, t.start + 1, msg);  // jq's lexer takes one byte as INVALID_CHARACTER
  fail_at(t.start, t.end, msg);
}

void parser::unterminated(compile_error& e, int brackets, const char* what, std::uint32_t start) {
  if (e.message.rfind("syntax error", 0) != 0 || !e.more.empty() || brackets_at_error_ != brackets) return;
  const token& t = lex_.cur();
  std::uint32_t end = t.t == tok::invalid ? t.start + 1 : t.end, eof_start = 0;
  if (t.t == tok::eof) eof_span(eof_start, end);
  compile_error m;
  m.message = std::string("Possibly unterminated '") + what + "' statement";
  m.file = e.file;
  locate(lex_.source(), start, m.line, m.column, m.source_line);
  m.length = std::max(1, std::min(static_cast<int>(end - start), static_cast<int>(m.source_line.size()) - m.column + 1));
  e.more.push_back(std::move(m));
}

void parser::key_recovery(compile_error& e, int level, std::uint32_t start, bool brace_stops, bool pattern) {
  if (e.message.rfind("syntax error", 0) != 0 || !e.more.empty() || brackets_at_error_ != level) return;
  // bison's error token spans the symbols it pops, the offending token (even a ':' that ends the discarding at
  // once) and every token it discards.
  std::uint32_t end = start;
  for (;;) {
    const token& t = lex_.cur();
    if (t.t == tok::colon) {
      if (end == start) end = t.end;  // the offending token itself
      break;
    }
    if (t.t == tok::eof || (brace_stops && t.t == tok::rbrace)) return;
    if (t.t == tok::quote) {
      if (!skip_string(end)) return;
      continue;
    }
    end = t.t == tok::invalid ? t.start + 1 : t.end;
    advance();
  }
  if (pattern) {
    // bison's location of the rule: through the pattern after the ':'.
    advance();
    try {
      parse_pattern();
    } catch (compile_error&) {
      return;
    }
    end = prev_end_;
  }
  compile_error m;
  m.message = "May need parentheses around object key expression";
  m.file = e.file;
  locate(lex_.source(), start, m.line, m.column, m.source_line);
  m.length = std::max(1, std::min(static_cast<int>(end - start), static_cast<int>(m.source_line.size()) - m.column + 1));
  e.more.push_back(std::move(m));
}

bool parser::skip_string(std::uint32_t& end) {
  std::string text;
  for (;;) {
    const piece p = lex_.string_piece(text);
    text.clear();
    if (p == piece::error) return false;
    if (p == piece::end) {
      end = lex_.pos();
      advance();
      return true;
    }
    lex_.push_open('(');
    advance();
    int depth = 0;
    for (;;) {
      const tok t = lex_.cur().t;
      if (t == tok::eof) return false;
      if (t == tok::quote) {
        if (!skip_string(end)) return false;
        continue;
      }
      if (t == tok::rparen && depth == 0) break;  // the end of the interpolation: the string goes on after it
      if (t == tok::lparen) ++depth;
      if (t == tok::rparen) --depth;
      advance();
    }
  }
}

void parser::advance() {
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
  int line = 0, col = 0;
  std::string text;
  locate(lex_.source(), pos, line, col, text);
  value o = value::empty_object();
  o.object_mut().set(std::string_view("file"), value::string(file_name_));
  o.object_mut().set(std::string_view("line"), value::number(line));
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
  auto metadata = [&](value& dst) {
    const std::uint32_t mstart = lex_.cur().start;
    node* meta = parse_pipe();
    if (!constant_value(meta, dst)) fail_at(mstart, prev_end_, "Module metadata must be constant");
    if (!dst.is_object()) fail_at(mstart, prev_end_, "Module metadata must be an object");
  };
  if (at(tok::kw_module)) {
    advance();
    metadata(out.module_meta);
    expect(tok::semicolon);
  }
  while (at(tok::kw_import) || at(tok::kw_include)) {
    import_directive imp;
    imp.pos = lex_.cur().start;
    const bool is_import = at(tok::kw_import);
    advance();
    const std::uint32_t sstart = lex_.cur().start;
    if (at(tok::ident)) {
      // Older module files name the path bare: `import a as foo;`
      imp.path = lex_.cur().text;
      advance();
    } else {
      if (!at(tok::quote)) unexpected("QQSTRING_START");
      node* path = parse_string("text", sstart);
      if (path->o != op::literal) fail_at(sstart, prev_end_, "Import path must be constant");
      imp.path = path->v.string_copy();
    }
    if (is_import) {
      expect(tok::kw_as);
      if (at(tok::variable)) {
        imp.data = true;
        imp.alias = lex_.cur().text;
        advance();
      } else if (at(tok::ident)) {
        imp.alias = lex_.cur().text;
        advance();
      } else {
        unexpected();
      }
    }
    if (!at(tok::semicolon)) metadata(imp.meta);
    expect(tok::semicolon);
    out.imports.push_back(std::move(imp));
  }
}

parsed_program parser::parse_program() {
  return with_key_errors([this] { return parse_program_body(); });
}

parsed_program parser::parse_library() {
  return with_key_errors([this] { return parse_library_body(); });
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

// ---- expressions ----

node* parser::parse_pipe() {
  if (++depth_ > 2000) fail_at(lex_.cur().start, lex_.cur().end, "program nests too deeply");
  node* result;
  if (at(tok::kw_def)) {
    const std::uint32_t pos = lex_.cur().start;
    funcdef* f = parse_funcdef();
    node* n = make(op::funcdef, pos);
    n->fn = f;
    n->a = parse_pipe();
    result = n;
  } else {
    node* lhs = parse_comma_operand();
    while (at(tok::comma)) {
      const std::uint32_t pos = lex_.cur().start;
      advance();
      node* rhs = parse_comma_operand();
      node* n = make(op::comma, pos);
      n->a = lhs;
      n->b = rhs;
      lhs = n;
    }
    if (at(tok::pipe)) {
      const std::uint32_t pos = lex_.cur().start;
      advance();
      node* n = make(op::pipe, pos);
      n->a = lhs;
      n->b = parse_pipe();
      lhs = n;
    }
    result = lhs;
  }
  --depth_;
  return result;
}

// One operand of ',' (or of '|'): `def ...; body`, `label $x | body`, `E as $p | body`, or an expression at the
// level of '//' and above. The forms with bodies extend as far right as possible.
node* parser::parse_comma_operand() {
  if (at(tok::kw_def)) {
    const std::uint32_t pos = lex_.cur().start;
    funcdef* f = parse_funcdef();
    node* n = make(op::funcdef, pos);
    n->fn = f;
    n->a = parse_pipe();
    return n;
  }
  if (at(tok::kw_label)) {
    const std::uint32_t pos = lex_.cur().start;
    advance();
    if (!at(tok::variable)) unexpected("BINDING");
    node* n = make(op::label, pos);
    n->name = lex_.cur().text;
    advance();
    expect(tok::pipe, "'|'");
    n->a = parse_pipe();
    n->end = prev_end_;
    return n;
  }
  node* e = parse_binary(1);
  if (at(tok::kw_as)) {
    const std::uint32_t pos = lex_.cur().start;
    advance();
    node* n = make(op::bind, pos);
    n->a = e;
    parse_patterns(n->patterns);
    expect(tok::pipe, "'|'");
    n->b = parse_pipe();
    return n;
  }
  return e;
}

namespace {

enum class assoc : std::uint8_t { left, right, none };

struct binop_info {
  int level;  // 0: not a binary operator
  assoc as;
};

binop_info binop_of(tok t) {
  switch (t) {
    case tok::alt: return {1, assoc::right};
    case tok::assign:
    case tok::update:
    case tok::plus_eq:
    case tok::minus_eq:
    case tok::star_eq:
    case tok::slash_eq:
    case tok::percent_eq:
    case tok::alt_eq: return {2, assoc::none};
    case tok::kw_or: return {3, assoc::left};
    case tok::kw_and: return {4, assoc::left};
    case tok::eq:
    case tok::neq:
    case tok::lt:
    case tok::le:
    case tok::gt:
    case tok::ge: return {5, assoc::none};
    case tok::plus:
    case tok::minus: return {6, assoc::left};
    case tok::star:
    case tok::slash:
    case tok::percent: return {7, assoc::left};
    default: return {0, assoc::left};
  }
}

}  // namespace

node* parser::parse_binary(int min_level) {
  node* lhs = parse_unary();
  for (;;) {
    const tok t = lex_.cur().t;
    const binop_info info = binop_of(t);
    if (info.level == 0 || info.level < min_level) break;
    const std::uint32_t pos = lex_.cur().start;
    advance();
    node* rhs = parse_binary(info.as == assoc::right ? info.level : info.level + 1);
    node* n = nullptr;
    switch (t) {
      case tok::alt: n = make(op::alt, pos); break;
      case tok::assign: n = make(op::assign, pos); break;
      case tok::update: n = make(op::update, pos); break;
      case tok::plus_eq: n = make(op::update_op, pos); n->sub = '+'; break;
      case tok::minus_eq: n = make(op::update_op, pos); n->sub = '-'; break;
      case tok::star_eq: n = make(op::update_op, pos); n->sub = '*'; break;
      case tok::slash_eq: n = make(op::update_op, pos); n->sub = '/'; break;
      case tok::percent_eq: n = make(op::update_op, pos); n->sub = '%'; break;
      case tok::alt_eq: n = make(op::alt_assign, pos); break;
      case tok::kw_or: n = make(op::or_, pos); break;
      case tok::kw_and: n = make(op::and_, pos); break;
      case tok::eq: n = make(op::compare, pos); n->sub = cmp_eq; break;
      case tok::neq: n = make(op::compare, pos); n->sub = cmp_ne; break;
      case tok::lt: n = make(op::compare, pos); n->sub = cmp_lt; break;
      case tok::le: n = make(op::compare, pos); n->sub = cmp_le; break;
      case tok::gt: n = make(op::compare, pos); n->sub = cmp_gt; break;
      case tok::ge: n = make(op::compare, pos); n->sub = cmp_ge; break;
      case tok::plus: n = make(op::arith, pos); n->sub = '+'; break;
      case tok::minus: n = make(op::arith, pos); n->sub = '-'; break;
      case tok::star: n = make(op::arith, pos); n->sub = '*'; break;
      case tok::slash: n = make(op::arith, pos); n->sub = '/'; break;
      case tok::percent: n = make(op::arith, pos); n->sub = '%'; break;
      default: break;
    }
    n->a = lhs;
    n->b = rhs;
    lhs = n;
    if (info.as == assoc::none && binop_of(lex_.cur().t).level == info.level) unexpected();
  }
  return lhs;
}

// jq 1.8's unary minus negates the term right after it: `-"a" * 2` fails on the negation, `-1 / x` divides -1.
node* parser::parse_unary() {
  if (at(tok::minus)) {
    // Each minus nests: counted with the other nesting, so `- - ... 1` cannot outgrow the compiler's stack.
    if (++depth_ > 2000) fail_at(lex_.cur().start, lex_.cur().end, "program nests too deeply");
    const std::uint32_t pos = lex_.cur().start;
    advance();
    node* n = make(op::neg, pos);
    n->a = parse_unary();
    --depth_;
    return n;
  }
  return parse_postfix_term();
}

node* parser::parse_postfix_term() { return parse_postfix(parse_primary()); }

node* parser::parse_postfix(node* t) {
  for (;;) {
    if (at(tok::field)) {
      const std::uint32_t pos = lex_.cur().start;
      node* key = make_literal(value::string(lex_.cur().text), pos);
      advance();
      t = index_node(t, key, pos);
      if (at(tok::question)) {
        t->opt = true;
        advance();
      }
      continue;
    }
    if (at(tok::dot)) {
      // Term '.' String, Term '.' '[' ... ']'
      const std::uint32_t pos = lex_.cur().start;
      advance();
      if (at(tok::quote)) {
        node* key = parse_string("text", lex_.cur().start);
        t = index_node(t, key, pos);
        if (at(tok::question)) {
          t->opt = true;
          advance();
        }
        continue;
      }
      if (!at(tok::lbracket)) unexpected();
      // fall through to the bracket suffix
    }
    if (at(tok::lbracket)) {
      const bracket b(*this);
      const std::uint32_t pos = lex_.cur().start;
      advance();
      node* n;
      if (at(tok::rbracket)) {
        advance();
        n = make(op::iterate, pos);
        n->a = t;
      } else if (at(tok::colon)) {
        advance();
        n = make(op::slice, pos);
        n->a = t;
        n->c = parse_pipe();
        expect(tok::rbracket, "'|' or ',' or ']'");
      } else {
        node* e = parse_pipe();
        if (at(tok::colon)) {
          advance();
          n = make(op::slice, pos);
          n->a = t;
          n->b = e;
          if (!at(tok::rbracket)) n->c = parse_pipe();
          expect(tok::rbracket, "'|' or ',' or ']'");
        } else {
          expect(tok::rbracket, "'|' or ',' or ':' or ']'");
          n = index_node(t, e, pos);
        }
      }
      n->end = prev_end_;
      if (at(tok::question)) {
        n->opt = true;
        advance();
      }
      t = n;
      continue;
    }
    if (at(tok::question)) {
      const std::uint32_t pos = lex_.cur().start;
      advance();
      node* n = make(op::try_, pos);
      n->a = t;
      t = n;
      continue;
    }
    return t;
  }
}

node* parser::parse_try_body() { return parse_unary(); }

node* parser::parse_primary() {
  if (++depth_ > 2000) fail_at(lex_.cur().start, lex_.cur().end, "program nests too deeply");
  const token& t = lex_.cur();
  const std::uint32_t pos = t.start;
  node* result = nullptr;
  switch (t.t) {
    case tok::dot: {
      advance();
      if (at(tok::quote)) {
        node* key = parse_string("text", lex_.cur().start);
        result = index_node(make(op::identity, pos), key, pos);
        if (at(tok::question)) {
          result->opt = true;
          advance();
        }
      } else {
        result = make(op::identity, pos);
      }
      break;
    }
    case tok::dotdot:
      advance();
      result = make(op::recurse, pos);
      break;
    case tok::field: {
      node* key = make_literal(value::string(t.text), pos);
      advance();
      result = index_node(make(op::identity, pos), key, pos);
      result->end = prev_end_;
      if (at(tok::question)) {
        result->opt = true;
        advance();
      }
      break;
    }
    case tok::number: {
      value v = number_constant(t.text, t.num);
      advance();
      result = make_literal(std::move(v), pos);
      break;
    }
    case tok::quote: result = parse_string("text", pos); break;
    case tok::format: {
      std::string fmt = t.text;
      advance();
      if (at(tok::quote)) {
        result = parse_string(fmt, lex_.cur().start);
      } else {
        result = make(op::format, pos);
        result->name = fmt;
        result->end = prev_end_;
      }
      break;
    }
    case tok::lparen: {
      const bracket b(*this);
      advance();
      result = parse_pipe();
      expect(tok::rparen, "'|' or ',' or ')'");
      break;
    }
    case tok::lbracket: {
      const bracket b(*this);
      advance();
      result = make(op::array, pos);
      if (!at(tok::rbracket)) {
        result->a = parse_pipe();
        expect(tok::rbracket, "'|' or ',' or ']'");
      } else {
        advance();
      }
      break;
    }
    case tok::lbrace: {
      const bracket b(*this);
      result = parse_object();
      break;
    }
    case tok::variable: {
      result = make(op::var, pos);
      result->name = t.text;
      advance();
      result->end = prev_end_;
      break;
    }
    case tok::kw_loc:
      advance();
      result = loc_literal(pos);
      break;
    case tok::ident: {
      std::string name = t.text;
      advance();
      if (name == "true" || name == "false" || name == "null") {
        if (!at(tok::lparen)) {
          result = make_literal(name == "null" ? value::null() : value::boolean(name == "true"), pos);
          break;
        }
      }
      result = make(op::call, pos);
      result->name = std::move(name);
      result->end = prev_end_;
      if (at(tok::lparen)) {
        advance();
        for (;;) {
          result->args.push_back(parse_pipe());
          if (at(tok::semicolon)) {
            advance();
            continue;
          }
          expect(tok::rparen, "';' or ')'");
          break;
        }
      }
      break;
    }
    case tok::kw_reduce:
    case tok::kw_foreach: {
      const bool is_reduce = t.t == tok::kw_reduce;
      advance();
      result = make(is_reduce ? op::reduce : op::foreach, pos);
      // jq 1.8 takes the whole expression before `as` as the source (`foreach .[] / .[] as $i`, `reduce -.[] as`).
      result->a = parse_binary(1);
      expect(tok::kw_as);
      parse_patterns(result->patterns);
      expect(tok::lparen, "'('");
      result->b = parse_pipe();
      expect(tok::semicolon, "'|' or ',' or ';'");
      result->c = parse_pipe();
      if (!is_reduce && at(tok::semicolon)) {
        advance();
        result->d = parse_pipe();
        expect(tok::rparen, "'|' or ',' or ')'");
      } else {
        expect(tok::rparen, is_reduce ? "'|' or ',' or ')'" : "'|' or ',' or ';' or ')'");
      }
      break;
    }
    case tok::kw_if: {
      advance();
      result = make(op::if_, pos);
      result->a = parse_pipe();
      expect(tok::kw_then, "then or '|' or ','");
      const int brackets = brackets_;
      try {
        result->b = parse_pipe();
        node* tail = result;
        for (;;) {
          if (at(tok::kw_elif)) {
            const std::uint32_t epos = lex_.cur().start;
            advance();
            node* e = make(op::if_, epos);
            e->a = parse_pipe();
            expect(tok::kw_then, "then or '|' or ','");
            e->b = parse_pipe();
            tail->c = e;
            tail = e;
            continue;
          }
          if (at(tok::kw_else)) {
            advance();
            tail->c = parse_pipe();
            expect(tok::kw_end, "end or '|' or ','");
            break;
          }
          if (at(tok::kw_end)) {
            advance();
            break;
          }
          unexpected();
        }
      } catch (compile_error& e) {
        unterminated(e, brackets, "if", pos);
        throw;
      }
      break;
    }
    case tok::kw_try: {
      advance();
      result = make(op::try_, pos);
      result->a = parse_try_body();
      if (at(tok::kw_catch)) {
        advance();
        const int brackets = brackets_;
        try {
          result->b = parse_try_body();
        } catch (compile_error& e) {
          unterminated(e, brackets, "try", pos);
          throw;
        }
      }
      break;
    }
    case tok::kw_break: {
      advance();
      if (!at(tok::variable)) {
        // jq: bison's syntax error, then its rule `BREAK error`.
        const token& t = lex_.cur();
        std::uint32_t end = t.t == tok::invalid ? t.start + 1 : t.end, eof_start = 0;
        if (t.t == tok::eof) eof_span(eof_start, end);
        try {
          unexpected("BINDING");
        } catch (compile_error& e) {
          compile_error m;
          m.message = "break requires a label to break to";
          locate(lex_.source(), pos, m.line, m.column, m.source_line);
          m.length = std::max(1, std::min(static_cast<int>(end - pos), static_cast<int>(m.source_line.size()) - m.column + 1));
          m.file = e.file;
          e.more.push_back(std::move(m));
          throw;
        }
      }
      result = make(op::brk, pos);
      result->name = lex_.cur().text;
      advance();
      result->end = prev_end_;
      break;
    }
    default: unexpected();
  }
  --depth_;
  return result;
}

node* parser::parse_string(const std::string& format, std::uint32_t start) {
  // cur() is the opening quote; the lexer stands right after it.
  std::vector<node*> parts;
  std::string text;
  bool any_interp = false;
  std::uint32_t seg_start = lex_.pos();
  for (;;) {
    const piece p = lex_.string_piece(text);
    if (p == piece::error) {
      if (lex_.error() == "unterminated string") {
        compile_error e;
        e.message = "syntax error, unexpected end of file, expecting QQSTRING_TEXT or QQSTRING_INTERP_START or "
                    "QQSTRING_END";
        locate(lex_.source(), seg_start, e.line, e.column, e.source_line);
        e.length = static_cast<int>(lex_.error_end() - seg_start);
        e.length = std::max(1, std::min(e.length, static_cast<int>(e.source_line.size()) - e.column + 1));
        throw e;
      }
      fail_at(lex_.error_start(), lex_.error_end(), lex_.error());
    }
    if (p == piece::end) {
      if (!text.empty() || parts.empty()) {
        node* lit = make_literal(value::string(std::move(text)), start);
        lit->sub = 1;  // literal text: formats do not apply to it
        parts.push_back(lit);
        text.clear();
      }
      const std::uint32_t quote_end = lex_.pos();
      advance();  // the token after the closing quote
      // The last token consumed is the closing quote (jq's QQSTRING_END), not the last token lexed before it.
      prev_start_ = quote_end - 1;
      prev_end_ = quote_end;
      break;
    }
    // p == interp
    any_interp = true;
    if (!text.empty()) {
      node* lit = make_literal(value::string(std::move(text)), start);
      lit->sub = 1;
      parts.push_back(lit);
      text.clear();
    }
    lex_.push_open('(');
    advance();
    node* e = parse_pipe();
    if (!at(tok::rparen)) unexpected("QQSTRING_INTERP_END or '|' or ','");
    parts.push_back(e);
    seg_start = lex_.pos();
  }
  if (!any_interp) {
    node* lit = parts.front();
    lit->sub = 0;
    lit->pos = start;
    return lit;
  }
  node* n = make(op::interp, start);
  n->args = std::move(parts);
  n->name = format;
  return n;
}

namespace {

bool is_keyword(tok t) {
  switch (t) {
    case tok::kw_as:
    case tok::kw_def:
    case tok::kw_module:
    case tok::kw_import:
    case tok::kw_include:
    case tok::kw_if:
    case tok::kw_then:
    case tok::kw_else:
    case tok::kw_elif:
    case tok::kw_reduce:
    case tok::kw_foreach:
    case tok::kw_end:
    case tok::kw_and:
    case tok::kw_or:
    case tok::kw_try:
    case tok::kw_catch:
    case tok::kw_label:
    case tok::kw_break: return true;
    default: return false;
  }
}

}  // namespace

node* parser::parse_object() {
  const std::uint32_t pos = lex_.cur().start;
  expect(tok::lbrace);
  node* obj = make(op::object, pos);
  const int level = brackets_;
  const std::uint32_t first = lex_.cur().start;
  bool first_pair = true;
  while (!at(tok::rbrace)) {
    const token& t = lex_.cur();
    const std::uint32_t kpos = t.start;
    node* key = nullptr;
    node* val = nullptr;
    bool complete = false;
    try {
      if (t.t == tok::variable) {
        std::string name = t.text;
        advance();
        node* var = make(op::var, kpos);
        var->name = name;
        var->end = prev_end_;
        if (at(tok::colon)) {
          advance();
          key = var;
          val = parse_object_value();
        } else {
          key = make_literal(value::string(std::move(name)), kpos);
          val = var;
        }
      } else if (t.t == tok::kw_loc) {
        advance();
        key = make_literal(value::string("__loc__"), kpos);
        val = loc_literal(kpos);
      } else if (t.t == tok::ident || is_keyword(t.t)) {
        std::string name = t.t == tok::ident ? t.text : std::string(token_name(t.t));
        advance();
        key = make_literal(value::string(name), kpos);
        if (at(tok::colon)) {
          advance();
          val = parse_object_value();
        } else {
          val = index_node(make(op::identity, kpos), make_literal(value::string(std::move(name)), kpos), kpos);
        }
      } else if (t.t == tok::quote || (t.t == tok::format)) {
        if (t.t == tok::format) {
          std::string fmt = t.text;
          advance();
          if (!at(tok::quote)) unexpected("QQSTRING_START");
          key = parse_string(fmt, lex_.cur().start);
        } else {
          key = parse_string("text", kpos);
        }
        if (at(tok::colon)) {
          advance();
          val = parse_object_value();
        } else {
          val = index_node(make(op::identity, kpos), key, kpos);
        }
      } else if (t.t == tok::lparen) {
        advance();
        key = parse_pipe();
        expect(tok::rparen, "'|' or ',' or ')'");
        const std::uint32_t kend = prev_end_;
        if (key->o == op::literal && !key->v.is_string()) {
          key_error(kpos + 1, kend - 1,
                    std::string("Cannot use ") + key->v.type_name() + " (" + dump_trunc(key->v) + ") as object key");
        }
        expect(tok::colon, "':'");
        val = parse_object_value();
      } else {
        unexpected();
      }
      obj->args.push_back(key);
      obj->args.push_back(val);
      complete = true;
      if (at(tok::comma)) {
        advance();
        first_pair = false;
        continue;
      }
      if (!at(tok::rbrace)) unexpected("'}'");
    } catch (compile_error& e) {
      // After a whole pair, bison has reduced every pair before it: it pops them all, back to the '{'.
      if (complete)
        key_recovery(e, level, first, true, false);
      else
        key_recovery(e, level, kpos, first_pair, false);
      throw;
    }
  }
  advance();
  return obj;
}

// ExpD in jq's grammar: `ExpD '|' ExpD`, `'-' ExpD`, or a term.
node* parser::parse_object_value() {
  // jq 1.8 accepts operators here (`{x: 1 + 2, z: null // 3}`), but not ',' (it separates members).
  node* lhs = parse_binary(1);
  if (at(tok::pipe)) {
    const std::uint32_t pos = lex_.cur().start;
    advance();
    node* n = make(op::pipe, pos);
    n->a = lhs;
    n->b = parse_object_value();
    return n;
  }
  return lhs;
}

void parser::parse_patterns(std::vector<pattern*>& out) {
  out.push_back(parse_pattern());
  while (at(tok::alt_destructure)) {
    advance();
    out.push_back(parse_pattern());
  }
}

pattern* parser::parse_pattern() {
  pattern* p = arena_.make_pattern();
  if (at(tok::variable)) {
    p->k = pattern::var;
    p->name = lex_.cur().text;
    advance();
    return p;
  }
  if (at(tok::lbracket)) {
    p->k = pattern::array;
    advance();
    for (;;) {
      p->elems.push_back(parse_pattern());
      if (at(tok::comma)) {
        advance();
        continue;
      }
      expect(tok::rbracket, "',' or ']'");
      break;
    }
    return p;
  }
  if (at(tok::lbrace)) {
    p->k = pattern::object;
    advance();
    const int level = brackets_;
    const std::uint32_t first = lex_.cur().start;
    for (;;) {
      pattern::entry e;
      const token& t = lex_.cur();
      const std::uint32_t kpos = t.start;
      bool complete = false;
      try {
        if (t.t == tok::variable) {
          pattern* v = arena_.make_pattern();
          v->k = pattern::var;
          v->name = t.text;
          e.var = v;
          e.key = make_literal(value::string(t.text), kpos);
          advance();
          if (at(tok::colon)) {
            advance();
            e.sub = parse_pattern();
          }
        } else if (t.t == tok::ident || is_keyword(t.t)) {
          std::string name = t.t == tok::ident ? t.text : std::string(token_name(t.t));
          advance();
          e.key = make_literal(value::string(std::move(name)), kpos);
          expect(tok::colon, "':'");
          e.sub = parse_pattern();
        } else if (t.t == tok::quote) {
          e.key = parse_string("text", kpos);
          expect(tok::colon, "':'");
          e.sub = parse_pattern();
        } else if (t.t == tok::lparen) {
          advance();
          e.key = parse_pipe();
          expect(tok::rparen, "'|' or ',' or ')'");
          const std::uint32_t kend = prev_end_;
          if (e.key->o == op::literal && !e.key->v.is_string()) {
            key_error(kpos + 1, kend - 1,
                      std::string("Cannot use ") + e.key->v.type_name() + " (" + dump_trunc(e.key->v) +
                          ") as object key");
          }
          expect(tok::colon, "':'");
          e.sub = parse_pattern();
        } else {
          unexpected();
        }
        p->entries.push_back(e);
        complete = true;
        if (at(tok::comma)) {
          advance();
          continue;
        }
        expect(tok::rbrace, "',' or '}'");
      } catch (compile_error& x) {
        // After a whole entry, bison has reduced the entries before it (ObjPats): it pops them all.
        key_recovery(x, level, complete ? first : kpos, false, true);
        throw;
      }
      break;
    }
    return p;
  }
  unexpected("BINDING or '[' or '{'");
}

}  // namespace jview::filter
