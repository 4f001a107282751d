// core/filter/parser_objects.cpp: object constructions (`{a, "b": 1, (.k): .v, $x, @base64 "k": ..}`) and
// destructuring patterns (`$x`, `[$a, $b]`, `{a: $x, $y, (.k): [$z]}`), with jq's error recovery around their keys.
#include "core/filter/parser.hpp"

namespace jview::filter {

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
  // `a | b | ...` right-deep, built in a loop.
  node* root = parse_binary(1);
  node** slot = &root;
  while (at(tok::pipe)) {
    node* n = make(op::pipe, lex_.cur().start);
    advance();
    n->a = *slot;
    n->b = parse_binary(1);
    *slot = n;
    slot = &n->b;
  }
  return root;
}

void parser::parse_patterns(std::vector<pattern*>& out) {
  out.push_back(parse_pattern());
  while (at(tok::alt_destructure)) {
    advance();
    out.push_back(parse_pattern());
  }
}

pattern* parser::parse_pattern() {
  // Nesting counts with the expressions' (`[[[...$x]]]` must not outgrow the stack here or in the compiler).
  enter_nesting();
  struct leave {
    int& d;
    ~leave() { --d; }
  } const guard{depth_};
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
