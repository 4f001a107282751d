// core/filter/lexer.hpp: tokens of jq's language, produced on demand for the parser. Strings are not single
// tokens: after a `"` token the parser pulls string pieces (text, `\(` starts of interpolation) with
// string_piece(), so interpolated expressions are lexed by the ordinary rules.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace jview::filter {

#define JVIEW_FILTER_TOKENS(X)                                                                                     \
  X(eof, "end of file") X(invalid, "INVALID_CHARACTER") X(ident, "IDENT") X(field, "FIELD") X(variable, "BINDING") \
  X(number, "LITERAL") X(format, "FORMAT") X(quote, "QQSTRING_START")                                              \
  X(kw_as, "as") X(kw_def, "def") X(kw_module, "module") X(kw_import, "import") X(kw_include, "include")            \
  X(kw_if, "if") X(kw_then, "then") X(kw_else, "else") X(kw_elif, "elif") X(kw_reduce, "reduce")                    \
  X(kw_foreach, "foreach") X(kw_end, "end") X(kw_and, "and") X(kw_or, "or") X(kw_try, "try") X(kw_catch, "catch")  \
  X(kw_label, "label") X(kw_break, "break") X(kw_loc, "$__loc__")                                                   \
  X(dot, "'.'") X(dotdot, "..") X(lbracket, "'['") X(rbracket, "']'") X(lbrace, "'{'") X(rbrace, "'}'")             \
  X(lparen, "'('") X(rparen, "')'") X(pipe, "'|'") X(comma, "','") X(colon, "':'") X(semicolon, "';'")              \
  X(question, "'?'") X(plus, "'+'") X(minus, "'-'") X(star, "'*'") X(slash, "'/'") X(percent, "'%'")               \
  X(eq, "==") X(neq, "!=") X(lt, "'<'") X(le, "<=") X(gt, "'>'") X(ge, ">=") X(assign, "'='")                       \
  X(update, "|=") X(plus_eq, "+=") X(minus_eq, "-=") X(star_eq, "*=") X(slash_eq, "/=") X(percent_eq, "%=")         \
  X(alt, "//") X(alt_eq, "//=") X(alt_destructure, "?//") X(dollar, "'$'")

enum class tok : std::uint8_t {
#define JVIEW_X(name, text) name,
  JVIEW_FILTER_TOKENS(JVIEW_X)
#undef JVIEW_X
};

// How bison names the token in "syntax error, unexpected X".
const char* token_name(tok t) noexcept;

struct token {
  tok t = tok::eof;
  std::uint32_t start = 0;  // byte offsets in the source
  std::uint32_t end = 0;
  std::string text;         // ident / field / variable / format name (without '.', '$', '@'); number literal
  double num = 0;
  bool interp_end = false;  // a ')' that closes a string interpolation (jq's QQSTRING_INTERP_END)
};

// A piece of a string literal, from string_piece().
enum class piece : std::uint8_t { text, interp, end, error };

class lexer {
 public:
  explicit lexer(std::string_view src) : src_(src) {}

  // Lexes the next token into cur().
  void advance();
  const token& cur() const noexcept { return cur_; }

  // Inside a string literal (after its opening quote or after the `)` closing an interpolation): appends
  // literal text to `out` until `\(` (piece::interp), the closing quote (piece::end) or an error
  // (piece::error, message in error()). Position moves past what was consumed.
  piece string_piece(std::string& out);

  // After string_piece returned interp or end, the position is just past `\(` / `"`.
  std::uint32_t pos() const noexcept { return pos_; }
  const std::string& error() const noexcept { return error_; }
  std::uint32_t error_start() const noexcept { return error_start_; }
  std::uint32_t error_end() const noexcept { return error_end_; }
  std::string_view source() const noexcept { return src_; }
  // Bracket matching as jq's lexer does it: a closing bracket that does not match the innermost open one is an
  // invalid character. The parser pushes the `\(` of a string interpolation itself (k_interp_open).
  static constexpr char k_interp_open = 'i';
  void push_open(char c) { open_.push_back(c); }
  void pop_open() {
    if (!open_.empty()) open_.pop_back();
  }

 private:
  std::string open_;
  void skip_space();
  std::string_view src_;
  std::uint32_t pos_ = 0;
  token cur_;
  std::string error_;
  std::uint32_t error_start_ = 0, error_end_ = 0;
};

}  // namespace jview::filter
