// core/filter/parser.hpp: jq's grammar by precedence climbing, producing the AST of ast.hpp. Precedences follow
// jq 1.8 (lowest first): def/label/`as` bodies, '|', ',', '//', assignments (non-assoc), or, and, comparisons
// (non-assoc), '+ -', '* / %', unary minus, postfix ('?', '.x', '[..]'). Syntax errors are thrown as
// compile_error with jq's wording where it is practical.
#pragma once
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
  // "Cannot use number (1) as object key": jq reports it and parses on, so the errors after it are reported too.
  void key_error(std::uint32_t start, std::uint32_t end, const std::string& msg);
  std::vector<compile_error> key_errors_;
  // A parse (program or library) with the key errors met in it: they come first, then `e` (the error that ended
  // the parse, nullptr if none) with its own further messages.
  template <class Parse>
  auto with_key_errors(Parse&& parse);
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
  // they never ask where the stack ends (three system calls, the first time).
  void enter_nesting();
  int depth_ = 0;
  std::uint32_t loc_pos_ = 0;  // loc_literal: the line of the last `$__loc__` and where it stood
  int loc_line_ = 1;
  // jq's grammar recovers from a syntax error at the innermost '(', '[', '{' or `Term [` (no second message) or
  // after `if ... then` / `try ... catch` ("Possibly unterminated ..."): brackets open now, and at the last error.
  int brackets_ = 0, brackets_at_error_ = -1;
  struct bracket {
    parser& p;
    explicit bracket(parser& q) : p(q) { ++p.brackets_; }
    ~bracket() { --p.brackets_; }
    bracket(const bracket&) = delete;
    bracket& operator=(const bracket&) = delete;
  };
  // Adds jq's "Possibly unterminated 'what' statement" (from `start` to the offending token) to a syntax error
  // met after `then` / `catch` with `brackets` open there, unless a bracket or an inner statement took it.
  void unterminated(compile_error& e, int brackets, const char* what, std::uint32_t start);
  // Adds jq's "May need parentheses around object key expression" to a syntax error met in an object construction
  // or object pattern whose brackets are `level` (bison's rules `error ':' ExpD` / `error ':' Pattern`): the span
  // runs from `start` (the first symbol bison pops) over the tokens it discards up to the next ':' (for a pattern,
  // also over the pattern after it). No message when the discarding meets the end of the program first, or, with
  // `brace_stops` (right after '{', where `'{' error '}'` applies too), a '}'.
  void key_recovery(compile_error& e, int level, std::uint32_t start, bool brace_stops, bool pattern);
  // Steps over the string literal whose opening quote is cur() (interpolations included) for key_recovery;
  // false at a lexer error or the end of the program. `end` becomes the end of its closing quote.
  bool skip_string(std::uint32_t& end);
  void eof_span(std::uint32_t& start, std::uint32_t& end) const;
};

// Line (1-based), column (1-based) and the text of the line holding byte offset `pos`.
void locate(std::string_view src, std::uint32_t pos, int& line, int& column, std::string& line_text);

}  // namespace jview::filter
