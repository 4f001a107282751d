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
  const std::uint32_t first = lex_.cur().start;
  bool first_pair = true;
  while (!at(tok::rbrace)) {
    const token& t = lex_.cur();
    const std::uint32_t kpos = t.start;
    // On a syntax error bison pops back to the '{' (after a whole pair, or in the first: `'{' error '}'` applies
    // too) or to the ',' before this pair, and takes the rule `error ':' ExpD` (recover_key).
    std::uint32_t start = kpos;
    bool brace = first_pair;
    try {
      node* key = nullptr;
      node* val = nullptr;
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
        key = parse_string_term();
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
          report(kpos + 1, kend - 1,
                    std::string("Cannot use ") + key->v.type_name() + " (" + dump_trunc(key->v) + ") as object key");
        }
        expect(tok::colon, "':'");
        val = parse_object_value();
      } else {
        unexpected();
      }
      obj->args.push_back(key);
      obj->args.push_back(val);
    } catch (const syntax_signal&) {
      if (!recover_key(start, brace, false)) return make(op::identity, pos);
    }
    // A whole pair: then ',' or '}'.
    for (;;) {
      try {
        if (at(tok::comma)) {
          advance();
          first_pair = false;
        } else if (!at(tok::rbrace)) {
          unexpected("'}'");
        }
        break;
      } catch (const syntax_signal&) {
        start = first;
        brace = true;
        if (!recover_key(start, brace, false)) return make(op::identity, pos);
      }
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
  const nesting guard(*this);
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
    const std::uint32_t first = lex_.cur().start;
    for (;;) {
      pattern::entry e;
      const token& t = lex_.cur();
      const std::uint32_t kpos = t.start;
      // On a syntax error bison pops back to the '{' (after a whole entry: it reduced ObjPats) or to the ',' before
      // this entry, and takes the rule `error ':' Pattern` (recover_key).
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
        } else if (t.t == tok::quote || t.t == tok::format) {
          e.key = parse_string_term();
          expect(tok::colon, "':'");
          e.sub = parse_pattern();
        } else if (t.t == tok::lparen) {
          advance();
          e.key = parse_pipe();
          expect(tok::rparen, "'|' or ',' or ')'");
          const std::uint32_t kend = prev_end_;
          if (e.key->o == op::literal && !e.key->v.is_string()) {
            report(kpos + 1, kend - 1,
                      std::string("Cannot use ") + e.key->v.type_name() + " (" + dump_trunc(e.key->v) +
                          ") as object key");
          }
          expect(tok::colon, "':'");
          e.sub = parse_pattern();
        } else {
          unexpected();
        }
        p->entries.push_back(e);
      } catch (const syntax_signal&) {
        recover_key(kpos, false, true);
      }
      bool more = false;
      for (;;) {  // a whole entry: then ',' or '}'
        try {
          if (at(tok::comma)) {
            advance();
            more = true;
          } else {
            expect(tok::rbrace, "',' or '}'");
          }
          break;
        } catch (const syntax_signal&) {
          recover_key(first, false, true);
        }
      }
      if (!more) break;
    }
    return p;
  }
  unexpected("BINDING or '[' or '{'");
}

}  // namespace jview::filter
