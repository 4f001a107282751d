// core/filter/parser_errors.cpp: how the parser reports syntax errors as jq 1.8 does, apart from the grammar:
// error locations (line, column, the underlined span, the end-of-program position of jq's lexer), bison's
// "syntax error, unexpected X, expecting Y" texts, the key errors jq reports and parses on after ("Cannot use
// number (1) as object key"), and the further messages of bison's error recovery ("Possibly unterminated 'if'
// statement", "May need parentheses around object key expression"). The entry points parse_program and
// parse_library are here because they wrap the grammar with the key errors.
#include <algorithm>

#include "core/filter/parser.hpp"

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

parsed_program parser::parse_program() {
  return with_key_errors([this] { return parse_program_body(); });
}

parsed_program parser::parse_library() {
  return with_key_errors([this] { return parse_library_body(); });
}

}  // namespace jview::filter
