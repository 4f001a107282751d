// core/filter/parser.hpp: jq's grammar by precedence climbing, producing the AST of ast.hpp. Precedences follow
// jq 1.8 (lowest first): def/label/`as` bodies, '|', ',', '//', assignments (non-assoc), or, and, comparisons
// (non-assoc), '+ -', '* / %', unary minus, postfix ('?', '.x', '[..]'). Syntax errors are reported in jq's words,
// and the parse recovers from them where jq's grammar does (its `error` rules), so that it reports the same further
// errors; all of them come out as one compile_error (the first, the others in its `more`).
#pragma once
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "core/filter/ast.hpp"
#include "core/filter/lexer.hpp"
#include "core/filter/program.hpp"

namespace jview::filter {

// An `import "path" as name;` / `import "path" as $name;` / `include "path";` directive.
struct import_directive {
  std::string path;
  std::string alias;   // empty for include
  bool data = false;   // `as $name`: a JSON data file
  value meta;          // optional metadata object
  std::uint32_t pos = 0;
};

struct parsed_program {
  std::vector<import_directive> imports;
  value module_meta;             // `module {...};`
  std::vector<funcdef*> defs;    // library mode: the definitions
  node* main = nullptr;          // program mode: the main expression (defs are nested funcdef nodes)
};

class parser {
 public:
  parser(std::string_view src, ast_arena& arena, std::string file_name = "<top-level>");
  // A program: optional module directive and imports, then an expression (definitions in front are part of it).
  parsed_program parse_program();
  // A library (prelude, module): directives and definitions only.
  parsed_program parse_library();

  // The decNumber-style canonical text jq 1.8 prints for a number literal (1.50 -> 1.50, 1e5 -> 1E+5, .5 -> 0.5).
  static std::string canonical_number(std::string_view literal);
  // A number constant: an inline double when it prints the same as the literal, else a literal-keeping value.
  static value number_constant(std::string_view literal, double d);

 private:
  [[noreturn]] void fail_at(std::uint32_t start, std::uint32_t end, const std::string& msg);
  compile_error error_at(std::uint32_t start, std::uint32_t end, const std::string& msg) const;
  // A message of a rule's action in jq's grammar ("Cannot use number (1) as object key", "Module metadata must be
  // constant"): reported, and the parse goes on, so the errors after it are reported too.
  void report(std::uint32_t start, std::uint32_t end, const std::string& msg);

  // Error recovery as bison does it in jq's grammar. A syntax error is reported (kept in errors_) and thrown as a
  // syntax_signal; the innermost enclosing rule of jq's grammar with an `error` token catches it (a recovery site:
  // '(' error ')', '[' error ']', Term '[' error ']', '{' error '}' and error ':' ExpD in an object, error ':'
  // Pattern, "if" Exp "then" error, "try" Exp "catch" error, BREAK error, '.' error and '.' IDENT error), adds the
  // rule's own message, discards what bison would discard, and parsing goes on, so that jq's further errors are
  // reported too. With no site left, the parse ends (abort_signal at the end of the program). As in bison, a
  // syntax error is reported only once three tokens have been read since the last recovery (quiet_), and one met
  // right after a recovery discards its token first.
  struct syntax_signal {};
  struct abort_signal {};
  std::vector<compile_error> errors_;  // every message reported so far, in order
  static constexpr std::size_t k_max_errors = 100;  // syntax errors reported at most; the parse ends at the next
  int quiet_ = 0;                      // bison's yyerrstatus: tokens to shift before the next error is reported
  std::uint32_t err_end_ = 0;          // where the last error's token ends (the token discarded, if it was)
  // Records the syntax error e (its token ending at token_end; at_eof: the token is the end of the program), then
  // throws syntax_signal (abort_signal when the end of the program would be discarded).
  [[noreturn]] void raise_syntax(compile_error e, std::uint32_t token_end, bool at_eof);
  // Reads on from a recovery site: quiet_ starts over, and (discard_to) tokens are dropped up to `closer`, which
  // is consumed (abort_signal at the end of the program first). A string literal is dropped whole.
  void recovered() noexcept { quiet_ = 3; }
  void shifted(int tokens) noexcept { quiet_ = std::max(0, quiet_ - tokens); }  // as advance() does for one
  void discard_to(tok closer);
  void discard();  // drops the current token (bison's discarded lookahead: not a shift), a string literal whole
  void discard_token();  // drops the current token as it is
  // The parse (program or library) with every message reported in it: the first, then the others as its `more`.
  template <class Parse>
  auto collect_errors(Parse&& parse);
  parsed_program parse_program_body();
  parsed_program parse_library_body();
  [[noreturn]] void unexpected(const char* expecting = nullptr);
  void expect(tok t, const char* expecting = nullptr);
  bool at(tok t) const noexcept { return lex_.cur().t == t; }
  void advance();

  void parse_directives(parsed_program& out);
  funcdef* parse_funcdef();
  node* parse_pipe();
  node* parse_binary(int min_level);
  node* parse_unary();
  node* parse_postfix(node* t);
  node* parse_postfix_term();
  node* parse_primary();
  node* parse_string(const std::string& format, std::uint32_t start);
  node* parse_string_term();  // jq's String at cur(): a string literal, or a format and one (`@base64 "..."`)
  node* parse_string_index(node* target, std::uint32_t pos);  // `."key"` after the '.' at pos, and its '?' if any
  node* parse_object();
  node* parse_object_value();
  node* parse_try_body();
  void parse_patterns(std::vector<pattern*>& out);
  pattern* parse_pattern();
  node* make(op o, std::uint32_t pos);
  node* make_literal(value v, std::uint32_t pos);
  node* index_node(node* target, node* key, std::uint32_t pos);
  node* loc_literal(std::uint32_t pos);

  lexer lex_;
  ast_arena& arena_;
  std::string file_name_;
  std::uint32_t prev_start_ = 0, prev_end_ = 0;  // the last consumed token (jq reports EOF errors there)
  // One level more of nesting (an expression, a unary minus, a pattern): fails past 2,000 levels, or past 64 when
  // the thread's stack has no room left (stack_room.hpp: a small `ulimit -s`). Ordinary programs stay within 64, so
  // they never ask where the stack ends (three system calls, the first time). Held for the scope of a `nesting`, so
  // that a syntax error unwinding to a recovery site leaves the levels it passes.
  void enter_nesting();
  int depth_ = 0;
  struct nesting {
    parser& p;
    explicit nesting(parser& q) : p(q) { p.enter_nesting(); }
    ~nesting() { --p.depth_; }
    nesting(const nesting&) = delete;
    nesting& operator=(const nesting&) = delete;
  };
  std::uint32_t loc_pos_ = 0;  // loc_literal: the line of the last `$__loc__` and where it stood
  int loc_line_ = 1;
  // The messages of jq's recovery rules, each from `start` (the rule's first token) to the error's token:
  // "Possibly unterminated 'what' statement" (`if ... then error`, `try ... catch error`), "break requires a label
  // to break to" and "try .[\"field\"] instead of .field for unusually named fields". Each also starts recovery.
  void rule_message(std::uint32_t start, const std::string& msg);
  // jq's rules `error ':' ExpD` (an object construction's entry) and `error ':' Pattern` (an object pattern's),
  // after a syntax error in an entry: tokens are discarded up to the next ':' (with `brace`, where bison popped back
  // to the '{' and `'{' error '}'` applies too, or up to a '}': then false, the '}' consumed). The value (ExpD or
  // Pattern) after the ':' is parsed, and "May need parentheses around object key expression" reported from
  // `start` (the first token of the entries bison popped) to the last token discarded (for a pattern, through the
  // pattern). A syntax error in the value starts it over.
  bool recover_key(std::uint32_t start, bool brace, bool pattern);
  // Steps over the string literal whose opening quote is cur() (interpolations included) for discard();
  // false at a lexer error or the end of the program. `end` becomes the end of its closing quote.
  bool skip_string(std::uint32_t& end);
  void eof_span(std::uint32_t& start, std::uint32_t& end) const;
};

// Line (1-based), column (1-based) and the text of the line holding byte offset `pos`.
void locate(std::string_view src, std::uint32_t pos, int& line, int& column, std::string& line_text);

}  // namespace jview::filter
