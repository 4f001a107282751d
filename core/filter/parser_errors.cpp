// core/filter/parser_errors.cpp: how the parser reports syntax errors as jq 1.8 does, apart from the grammar:
// error locations (line, column, the underlined span, the end-of-program position of jq's lexer), bison's
// "syntax error, unexpected X, expecting Y" texts, the key errors jq reports and parses on after ("Cannot use
// number (1) as object key"), and bison's error recovery (parser.hpp): what a recovery site discards, the messages
// of jq's recovery rules ("Possibly unterminated 'if' statement", "May need parentheses around object key
// expression"), and all the messages of a parse gathered into one compile_error. The entry points parse_program and
// parse_library are here because they gather them.
#include <algorithm>

#include "core/filter/parser.hpp"

namespace jview::filter {

namespace {

// Where a token ends for jq's messages: jq's lexer takes one byte as INVALID_CHARACTER (jview's token is the whole
// UTF-8 sequence, to step over it).
std::uint32_t jq_token_end(const token& t) { return t.t == tok::invalid ? t.start + 1 : t.end; }

}  // namespace

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

void parser::report(std::uint32_t start, std::uint32_t end, const std::string& msg) {
  errors_.push_back(error_at(start, end, msg));
}

template <class Parse>
auto parser::collect_errors(Parse&& parse) {
  decltype(parse()) out;
  try {
    out = parse();
  } catch (const syntax_signal&) {  // (reported already)
  } catch (const abort_signal&) {
  } catch (compile_error& e) {  // an error that ends the parse at once (fail_at: a bad string, too deep a nesting)
    if (errors_.empty()) throw;
    errors_.push_back(std::move(e));
  }
  if (!errors_.empty()) {
    compile_error first = std::move(errors_.front());
    first.more.assign(std::make_move_iterator(errors_.begin() + 1), std::make_move_iterator(errors_.end()));
    errors_.clear();
    throw first;
  }
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
  msg += t.interp_end ? "QQSTRING_INTERP_END" : token_name(t.t);
  if (expecting != nullptr) {
    msg += ", expecting ";
    msg += expecting;
  }
  std::uint32_t start = t.start, end = jq_token_end(t);
  if (t.t == tok::eof) eof_span(start, end);  // jq's lexer leaves the last token's location in place at the end
  raise_syntax(error_at(start, end, msg), end, t.t == tok::eof);
}

void parser::raise_syntax(compile_error e, std::uint32_t token_end, bool at_eof) {
  err_end_ = token_end;
  if (quiet_ == 0) {
    // Each message holds its source line: a long line with many errors would take memory and output in their
    // product (jq's bison stack ends such a parse near 1,700 errors on a pipe; a parse ends here at k_max_errors).
    if (errors_.size() >= k_max_errors) throw abort_signal{};
    errors_.push_back(std::move(e));
  }
  if (quiet_ == 3) {  // no token read since the last recovery: bison drops this one
    if (at_eof) throw abort_signal{};
    discard();
  }
  throw syntax_signal{};
}

void parser::discard() {
  // A string literal goes whole; after the ')' that ends an interpolation (QQSTRING_INTERP_END), the rest of its
  // string.
  if (at(tok::quote) || lex_.cur().interp_end) {
    const std::uint32_t token_end = lex_.cur().end;
    std::uint32_t end = 0;
    if (skip_string(end)) {
      err_end_ = end;
    } else {  // unterminated: the rest of the program was inside it (bison dropped the quote, and then the rest)
      err_end_ = token_end;
      lex_.advance();
    }
    return;
  }
  discard_token();
}

void parser::discard_token() {
  const token& t = lex_.cur();
  err_end_ = jq_token_end(t);
  prev_start_ = t.start;
  prev_end_ = t.end;
  lex_.advance();
}

void parser::discard_to(tok closer) {
  recovered();
  for (;;) {
    if (at(closer) && !lex_.cur().interp_end) {
      advance();
      return;
    }
    if (at(tok::eof)) throw abort_signal{};
    discard();
  }
}

void parser::rule_message(std::uint32_t start, const std::string& msg) {
  errors_.push_back(error_at(start, err_end_, msg));
  recovered();
}

bool parser::recover_key(std::uint32_t start, bool brace, bool pattern) {
  for (;;) {
    recovered();
    // bison's error token spans the symbols it pops, the offending token and every token it discards.
    for (;;) {
      if (at(tok::colon)) break;
      if (at(tok::eof)) throw abort_signal{};
      if (brace && at(tok::rbrace)) {  // '{' error '}'
        advance();
        return false;
      }
      discard();
    }
    const std::uint32_t end = err_end_;
    advance();  // the ':'
    try {
      if (pattern) {
        parse_pattern();
        errors_.push_back(error_at(start, prev_end_, "May need parentheses around object key expression"));
      } else {
        parse_object_value();
        errors_.push_back(error_at(start, end, "May need parentheses around object key expression"));
      }
      return true;
    } catch (const syntax_signal&) {  // back to the same entry: bison pops the value, the ':' and the error token
    }
  }
}

bool parser::skip_string(std::uint32_t& end) {
  std::string text;
  for (;;) {
    const piece p = lex_.string_piece(text);
    text.clear();
    if (p == piece::error) return false;
    if (p == piece::end) {
      end = lex_.pos();
      discard_token();
      prev_start_ = end - 1;  // (as parse_string: the closing quote is the last token read)
      prev_end_ = end;
      return true;
    }
    lex_.push_open(lexer::k_interp_open);
    discard_token();
    for (;;) {
      const tok t = lex_.cur().t;
      if (t == tok::eof) return false;
      if (t == tok::quote) {
        if (!skip_string(end)) return false;
        continue;
      }
      if (lex_.cur().interp_end) break;  // the end of the interpolation: the string goes on after it
      discard_token();
    }
  }
}

parsed_program parser::parse_program() {
  return collect_errors([this] { return parse_program_body(); });
}

parsed_program parser::parse_library() {
  return collect_errors([this] { return parse_library_body(); });
}

}  // namespace jview::filter
