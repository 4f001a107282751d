// core/filter/parser_expr.cpp: expressions by precedence climbing (parser.hpp has the table): pipes and commas with
// the forms that extend to the right (`def`, `label`, `as`), binary operators, unary minus, postfix suffixes
// ('.x', '[..]', '?'), primary terms (reduce, foreach, if, try, calls, literals) and string literals with their
// interpolations. Nesting is bounded (depth_) so that deep programs fail to compile instead of overflowing the stack.
#include <algorithm>
#include <utility>
#include <vector>

#include "core/filter/parser.hpp"
#include "core/filter/stack_room.hpp"
#include "core/utf8.hpp"

namespace jview::filter {

void parser::enter_nesting() {
  if (++depth_ > 2000 || (depth_ > 64 && !detail::stack_has_room()))
    fail_at(lex_.cur().start, lex_.cur().end, "program nests too deeply");
}

// A pipe: `def`s, comma chains and `|`, where `def f: ...;`, `label $x |` and `E as $p |` take the rest of the pipe
// as their body. Built in a loop, not by recursion: a chain of 10^6 `|`, `,`, `def` or `as` costs no stack. Comma
// chains are right-deep (`a, (b, c)`: the evaluator walks them in a loop); only real nesting counts in depth_.
node* parser::parse_pipe() {
  const nesting guard(*this);
  node* root = nullptr;
  node** slot = &root;        // where the rest of the pipe goes
  std::vector<node*> labels;  // `label $x | body`: each body ends where this pipe ends
  for (;;) {
    if (at(tok::kw_def)) {
      const std::uint32_t pos = lex_.cur().start;
      funcdef* f = parse_funcdef();
      node* n = make(op::funcdef, pos);
      n->fn = f;
      *slot = n;
      slot = &n->a;
      continue;
    }
    node* chain = nullptr;  // the comma chain so far
    node* last = nullptr;   // its last comma node
    node** body = nullptr;  // set when an operand's body takes the rest of the pipe
    std::uint32_t comma_pos = 0;
    for (;;) {
      node* operand = nullptr;
      const std::uint32_t pos = lex_.cur().start;
      if (at(tok::kw_def)) {
        funcdef* f = parse_funcdef();
        operand = make(op::funcdef, pos);
        operand->fn = f;
        body = &operand->a;
      } else if (at(tok::kw_label)) {
        advance();
        if (!at(tok::variable)) unexpected("BINDING");
        operand = make(op::label, pos);
        operand->name = lex_.cur().text;
        advance();
        expect(tok::pipe, "'|'");
        body = &operand->a;
        labels.push_back(operand);
      } else {
        node* e = parse_binary(1);
        if (at(tok::kw_as)) {
          operand = make(op::bind, lex_.cur().start);
          advance();
          operand->a = e;
          parse_patterns(operand->patterns);
          expect(tok::pipe, "'|'");
          body = &operand->b;
        } else {
          operand = e;
        }
      }
      if (chain == nullptr) {
        chain = operand;
      } else {
        node*& tail = last != nullptr ? last->b : chain;
        node* c = make(op::comma, comma_pos);
        c->a = tail;
        c->b = operand;
        tail = c;
        last = c;
      }
      if (body != nullptr || !at(tok::comma)) break;
      comma_pos = lex_.cur().start;
      advance();
    }
    *slot = chain;
    if (body != nullptr) {
      slot = body;
      continue;
    }
    if (at(tok::pipe)) {
      node* n = make(op::pipe, lex_.cur().start);
      advance();
      n->a = chain;
      *slot = n;
      slot = &n->b;
      continue;
    }
    break;
  }
  for (node* l : labels) l->end = prev_end_;
  return root;
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

// Whether t may follow a term in jq's grammar (bison reduces a lone '.' to a term on these; any other token after it
// is a syntax error caught by the rule '.' error).
bool follows_term(tok t) {
  if (binop_of(t).level != 0) return true;
  switch (t) {
    case tok::pipe: case tok::comma: case tok::question: case tok::field: case tok::dot: case tok::lbracket:
    case tok::rbracket: case tok::rparen: case tok::rbrace: case tok::semicolon: case tok::colon: case tok::kw_as:
    case tok::kw_then: case tok::kw_else: case tok::kw_elif: case tok::kw_end: case tok::kw_catch: case tok::eof:
      return true;
    default: return false;
  }
}

// How many QQSTRING_TEXT tokens jq's lexer makes of a string literal's raw text between its delimiters: one for each
// run of escapes and one for each run of other bytes.
int text_tokens(std::string_view raw) {
  int n = 0;
  for (std::size_t i = 0; i < raw.size();) {
    ++n;
    if (raw[i] == '\\') {
      while (i < raw.size() && raw[i] == '\\') i += raw.compare(i, 2, "\\u") == 0 ? 6 : 2;  // \uXXXX, \X
    } else {
      while (i < raw.size() && raw[i] != '\\') ++i;
    }
  }
  return n;
}

}  // namespace

// Left-associative chains (`1 + 1 + ...`, `a and b and ...`) are built in the loop; the right-associative `//`
// keeps its left operands in a list and is folded at the end, so a chain of any length costs no recursion.
node* parser::parse_binary(int min_level) {
  node* lhs = parse_unary();
  std::vector<std::pair<node*, std::uint32_t>> alts;  // `a // b // ...`: the left operands so far, and each '//'
  for (;;) {
    const tok t = lex_.cur().t;
    const binop_info info = binop_of(t);
    if (info.level == 0 || info.level < min_level) break;
    const std::uint32_t pos = lex_.cur().start;
    advance();
    if (info.as == assoc::right) {  // '//' (the lowest level: what follows binds tighter or is another '//')
      alts.emplace_back(lhs, pos);
      lhs = parse_unary();
      continue;
    }
    node* rhs = parse_binary(info.level + 1);
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
  for (std::size_t i = alts.size(); i-- > 0;) {
    node* n = make(op::alt, alts[i].second);
    n->a = alts[i].first;
    n->b = lhs;
    lhs = n;
  }
  return lhs;
}

// jq 1.8's unary minus negates the term right after it: `-"a" * 2` fails on the negation, `-1 / x` divides -1.
node* parser::parse_unary() {
  if (at(tok::minus)) {
    // Each minus nests: counted with the other nesting, so `- - ... 1` cannot outgrow the compiler's stack.
    const nesting guard(*this);
    const std::uint32_t pos = lex_.cur().start;
    advance();
    node* n = make(op::neg, pos);
    n->a = parse_unary();
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
    bool dotted = false;  // Term '.' '[' ... ']': a form without an error rule of its own in jq's grammar
    if (at(tok::dot)) {
      // Term '.' String, Term '.' '[' ... ']'
      const std::uint32_t pos = lex_.cur().start;
      advance();
      if (at(tok::quote) || at(tok::format)) {
        t = parse_string_index(t, pos);
        continue;
      }
      if (!at(tok::lbracket)) unexpected("FORMAT or QQSTRING_START or '['");
      dotted = true;  // on to the bracket suffix
    }
    if (at(tok::lbracket)) {
      const std::uint32_t pos = lex_.cur().start;
      advance();
      node* n = nullptr;
      try {
        if (at(tok::rbracket)) {
          advance();
          n = make(op::iterate, pos);
          n->a = t;
        } else if (at(tok::colon) && !dotted) {  // (jq's grammar has no slice after Term '.')
          advance();
          n = make(op::slice, pos);
          n->a = t;
          n->c = parse_pipe();
          expect(tok::rbracket, "'|' or ',' or ']'");
        } else {
          node* e = parse_pipe();
          if (at(tok::colon) && !dotted) {
            advance();
            n = make(op::slice, pos);
            n->a = t;
            n->b = e;
            if (!at(tok::rbracket)) n->c = parse_pipe();
            expect(tok::rbracket, "'|' or ',' or ']'");
          } else {
            expect(tok::rbracket, dotted ? "'|' or ',' or ']'" : "'|' or ',' or ':' or ']'");
            n = index_node(t, e, pos);
          }
        }
      } catch (const syntax_signal&) {
        if (dotted) throw;
        discard_to(tok::rbracket);  // Term '[' error ']': the term itself
        continue;
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
  const nesting guard(*this);
  const token& t = lex_.cur();
  const std::uint32_t pos = t.start;
  node* result = nullptr;
  switch (t.t) {
    case tok::dot: {
      advance();
      result = make(op::identity, pos);
      if (follows_term(lex_.cur().t)) break;
      // '.' String, or jq's rules '.' error and '.' IDENT error (`. foo`, `. 1`): what else follows a '.' that
      // starts a term is an error, reported with a hint.
      try {
        if (at(tok::quote) || at(tok::format)) {
          result = parse_string_index(result, pos);
          break;
        }
        if (at(tok::ident)) advance();
        unexpected();
      } catch (const syntax_signal&) {
        rule_message(pos, "try .[\"field\"] instead of .field for unusually named fields");
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
      advance();
      try {
        result = parse_pipe();
        expect(tok::rparen, "'|' or ',' or ')'");
      } catch (const syntax_signal&) {
        discard_to(tok::rparen);  // '(' error ')'
        result = make(op::identity, pos);
      }
      break;
    }
    case tok::lbracket: {
      advance();
      result = make(op::array, pos);
      try {
        if (!at(tok::rbracket)) {
          result->a = parse_pipe();
          expect(tok::rbracket, "'|' or ',' or ']'");
        } else {
          advance();
        }
      } catch (const syntax_signal&) {
        discard_to(tok::rbracket);  // '[' error ']'
        result = make(op::identity, pos);
      }
      break;
    }
    case tok::lbrace: result = parse_object(); break;
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
      } catch (const syntax_signal&) {
        rule_message(pos, "Possibly unterminated 'if' statement");  // "if" Exp "then" error
      }
      break;
    }
    case tok::kw_try: {
      advance();
      result = make(op::try_, pos);
      result->a = parse_try_body();
      if (at(tok::kw_catch)) {
        advance();
        try {
          result->b = parse_try_body();
        } catch (const syntax_signal&) {
          rule_message(pos, "Possibly unterminated 'try' statement");  // "try" Exp "catch" error
        }
      }
      break;
    }
    case tok::kw_break: {
      advance();
      if (!at(tok::variable)) {
        try {
          unexpected("BINDING");
        } catch (const syntax_signal&) {
          rule_message(pos, "break requires a label to break to");  // BREAK error
        }
        result = make(op::identity, pos);
        break;
      }
      result = make(op::brk, pos);
      result->name = lex_.cur().text;
      advance();
      result->end = prev_end_;
      break;
    }
    default: unexpected();
  }
  return result;
}

node* parser::parse_string_index(node* target, std::uint32_t pos) {
  node* n = index_node(target, parse_string_term(), pos);
  if (at(tok::question)) {
    n->opt = true;
    advance();
  }
  return n;
}

node* parser::parse_string_term() {
  if (!at(tok::format)) return parse_string("text", lex_.cur().start);
  const std::string fmt = lex_.cur().text;
  advance();
  if (!at(tok::quote)) unexpected("QQSTRING_START");
  return parse_string(fmt, lex_.cur().start);
}

node* parser::parse_string(const std::string& format, std::uint32_t start) {
  // cur() is the opening quote; the lexer stands right after it.
  std::vector<node*> parts;
  std::string text;
  bool any_interp = false;
  std::uint32_t seg_start = lex_.pos();
  shifted(1);  // (error recovery counts tokens as jq's lexer makes them: QQSTRING_START, each text, ...)
  for (;;) {
    const piece p = lex_.string_piece(text);
    if (p != piece::error) {
      const std::uint32_t delimiter = lex_.pos() - (p == piece::interp ? 2 : 1);
      shifted(text_tokens(lex_.source().substr(seg_start, delimiter - seg_start)));
    }
    if (p == piece::error) {
      if (lex_.error() == "unterminated string") {
        compile_error e;
        e.message = "syntax error, unexpected end of file, expecting QQSTRING_TEXT or QQSTRING_INTERP_START or "
                    "QQSTRING_END";
        // At jq's last token: the text after the opening quote or the interpolation, else that one-byte token.
        const std::uint32_t at_start = lex_.error_end() > seg_start ? seg_start : seg_start - 1;
        locate(lex_.source(), at_start, e.line, e.column, e.source_line);
        e.length = static_cast<int>(lex_.error_end() - at_start);
        e.length = std::max(1, std::min(e.length, static_cast<int>(e.source_line.size()) - e.column + 1));
        raise_syntax(std::move(e), lex_.error_end(), true);
      }
      fail_at(lex_.error_start(), lex_.error_end(), lex_.error());
    }
    if (p == piece::end) {
      if (!text.empty() || parts.empty()) {
        node* lit = make_literal(value::string(utf8::valid_or_replaced(std::move(text))), start);  // raw bytes: as jq
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
      node* lit = make_literal(value::string(utf8::valid_or_replaced(std::move(text))), start);  // raw bytes: as jq
      lit->sub = 1;
      parts.push_back(lit);
      text.clear();
    }
    lex_.push_open(lexer::k_interp_open);
    advance();
    node* e = parse_pipe();
    if (!at(tok::rparen)) unexpected("QQSTRING_INTERP_END or '|' or ','");
    shifted(1);
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

}  // namespace jview::filter
