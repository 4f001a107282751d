// core/filter/lexer.cpp: jq's tokens (flex rules of jq's src/lexer.l, written by hand): keywords, identifiers
// with module prefixes (a::b), fields (.foo), variables ($x), formats (@csv), numbers, operators, comments
// (# to end of line; a line ending in an odd number of backslashes continues the comment, as jq 1.7+).
#include "core/filter/lexer.hpp"

#include <algorithm>
#include <cstring>

#include "core/number.hpp"
#include "core/utf8.hpp"

namespace jview::filter {

const char* token_name(tok t) noexcept {
  switch (t) {
#define JVIEW_X(name, text) \
  case tok::name: return text;
    JVIEW_FILTER_TOKENS(JVIEW_X)
#undef JVIEW_X
  }
  return "?";
}

namespace {

inline bool is_ident_start(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
inline bool is_ident_char(char c) noexcept { return is_ident_start(c) || (c >= '0' && c <= '9'); }
inline bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

struct keyword {
  const char* text;
  tok t;
};
constexpr keyword k_keywords[] = {
    {"as", tok::kw_as},         {"def", tok::kw_def},         {"module", tok::kw_module}, {"import", tok::kw_import},
    {"include", tok::kw_include}, {"if", tok::kw_if},         {"then", tok::kw_then},     {"else", tok::kw_else},
    {"elif", tok::kw_elif},     {"reduce", tok::kw_reduce},   {"foreach", tok::kw_foreach}, {"end", tok::kw_end},
    {"and", tok::kw_and},       {"or", tok::kw_or},           {"try", tok::kw_try},       {"catch", tok::kw_catch},
    {"label", tok::kw_label},   {"break", tok::kw_break},
};

}  // namespace

void lexer::skip_space() {
  const std::uint32_t n = static_cast<std::uint32_t>(src_.size());
  while (pos_ < n) {
    const char c = src_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++pos_;
    } else if (c == '#') {
      // A comment runs to the end of the line; an odd run of backslashes before the newline continues it.
      for (;;) {
        while (pos_ < n && src_[pos_] != '\n') ++pos_;
        if (pos_ >= n) break;
        std::uint32_t b = pos_;
        int slashes = 0;
        while (b > 0 && src_[b - 1] == '\\') {
          --b;
          ++slashes;
        }
        if (pos_ > 0 && src_[pos_ - 1] == '\r') {
          b = pos_ - 1;
          slashes = 0;
          while (b > 0 && src_[b - 1] == '\\') {
            --b;
            ++slashes;
          }
        }
        ++pos_;
        if (slashes % 2 == 0) break;
      }
    } else {
      break;
    }
  }
}

void lexer::advance() {
  skip_space();
  token& t = cur_;
  t.text.clear();
  t.num = 0;
  t.interp_end = false;
  t.start = pos_;
  const std::uint32_t n = static_cast<std::uint32_t>(src_.size());
  if (pos_ >= n) {
    t.t = tok::eof;
    t.end = pos_;
    return;
  }
  const char c = src_[pos_];
  auto two = [&](char a, char b) { return c == a && pos_ + 1 < n && src_[pos_ + 1] == b; };
  auto three = [&](char a, char b, char d) {
    return c == a && pos_ + 2 < n && src_[pos_ + 1] == b && src_[pos_ + 2] == d;
  };
  auto set = [&](tok k, std::uint32_t len) {
    t.t = k;
    pos_ += len;
    t.end = pos_;
  };

  if (is_ident_start(c)) {
    std::uint32_t p = pos_;
    for (;;) {
      while (p < n && is_ident_char(src_[p])) ++p;
      // Module-qualified names: a::b
      if (p + 2 < n && src_[p] == ':' && src_[p + 1] == ':' && is_ident_start(src_[p + 2])) {
        p += 2;
        continue;
      }
      break;
    }
    t.text.assign(src_.data() + pos_, p - pos_);
    for (const keyword& k : k_keywords) {
      if (t.text == k.text) {
        set(k.t, p - pos_);
        return;
      }
    }
    set(tok::ident, p - pos_);
    return;
  }
  if (is_digit(c) || (c == '.' && pos_ + 1 < n && is_digit(src_[pos_ + 1]))) {
    std::uint32_t p = pos_;
    while (p < n && is_digit(src_[p])) ++p;
    if (p < n && src_[p] == '.') {
      ++p;
      while (p < n && is_digit(src_[p])) ++p;
    }
    if (p < n && (src_[p] == 'e' || src_[p] == 'E')) {
      std::uint32_t q = p + 1;
      if (q < n && (src_[q] == '+' || src_[q] == '-')) ++q;
      if (q < n && is_digit(src_[q])) {
        while (q < n && is_digit(src_[q])) ++q;
        p = q;
      }
    }
    t.text.assign(src_.data() + pos_, p - pos_);
    t.num = number_to_double(t.text);
    set(tok::number, p - pos_);
    return;
  }
  switch (c) {
    case '.':
      if (two('.', '.')) return set(tok::dotdot, 2);
      if (pos_ + 1 < n && is_ident_start(src_[pos_ + 1])) {
        std::uint32_t p = pos_ + 1;
        while (p < n && is_ident_char(src_[p])) ++p;
        t.text.assign(src_.data() + pos_ + 1, p - pos_ - 1);
        return set(tok::field, p - pos_);
      }
      return set(tok::dot, 1);
    case '$':
      if (pos_ + 1 < n && is_ident_start(src_[pos_ + 1])) {
        std::uint32_t p = pos_ + 1;
        for (;;) {
          while (p < n && is_ident_char(src_[p])) ++p;
          if (p + 2 < n && src_[p] == ':' && src_[p + 1] == ':' && is_ident_start(src_[p + 2])) {
            p += 2;
            continue;
          }
          break;
        }
        t.text.assign(src_.data() + pos_ + 1, p - pos_ - 1);
        if (t.text == "__loc__") return set(tok::kw_loc, p - pos_);
        return set(tok::variable, p - pos_);
      }
      return set(tok::dollar, 1);
    case '@':
      if (pos_ + 1 < n && is_ident_char(src_[pos_ + 1])) {
        std::uint32_t p = pos_ + 1;
        while (p < n && is_ident_char(src_[p])) ++p;
        t.text.assign(src_.data() + pos_ + 1, p - pos_ - 1);
        return set(tok::format, p - pos_);
      }
      return set(tok::invalid, 1);
    case '"': return set(tok::quote, 1);
    case '[': open_.push_back('['); return set(tok::lbracket, 1);
    case '{': open_.push_back('{'); return set(tok::lbrace, 1);
    case '(': open_.push_back('('); return set(tok::lparen, 1);
    case ']':
    case '}':
    case ')': {
      const char want = c == ']' ? '[' : (c == '}' ? '{' : '(');
      if (open_.empty() || (open_.back() != want && !(c == ')' && open_.back() == k_interp_open)))
        return set(tok::invalid, 1);
      t.interp_end = open_.back() == k_interp_open;
      open_.pop_back();
      return set(c == ']' ? tok::rbracket : (c == '}' ? tok::rbrace : tok::rparen), 1);
    }
    case '|':
      if (two('|', '=')) return set(tok::update, 2);
      return set(tok::pipe, 1);
    case ',': return set(tok::comma, 1);
    case ':': return set(tok::colon, 1);
    case ';': return set(tok::semicolon, 1);
    case '?':
      if (three('?', '/', '/')) return set(tok::alt_destructure, 3);
      return set(tok::question, 1);
    case '+':
      if (two('+', '=')) return set(tok::plus_eq, 2);
      return set(tok::plus, 1);
    case '-':
      if (two('-', '=')) return set(tok::minus_eq, 2);
      return set(tok::minus, 1);
    case '*':
      if (two('*', '=')) return set(tok::star_eq, 2);
      return set(tok::star, 1);
    case '/':
      if (three('/', '/', '=')) return set(tok::alt_eq, 3);
      if (two('/', '/')) return set(tok::alt, 2);
      if (two('/', '=')) return set(tok::slash_eq, 2);
      return set(tok::slash, 1);
    case '%':
      if (two('%', '=')) return set(tok::percent_eq, 2);
      return set(tok::percent, 1);
    case '=':
      if (two('=', '=')) return set(tok::eq, 2);
      return set(tok::assign, 1);
    case '!':
      if (two('!', '=')) return set(tok::neq, 2);
      return set(tok::invalid, 1);
    case '<':
      if (two('<', '=')) return set(tok::le, 2);
      return set(tok::lt, 1);
    case '>':
      if (two('>', '=')) return set(tok::ge, 2);
      return set(tok::gt, 1);
    default: break;
  }
  // Anything else is one invalid character (a whole UTF-8 sequence, so carets line up).
  std::uint32_t len = 1;
  if (static_cast<unsigned char>(c) >= 0x80) {
    const std::size_t k = utf8::sequence_length(reinterpret_cast<const unsigned char*>(src_.data() + pos_),
                                                reinterpret_cast<const unsigned char*>(src_.data() + n));
    if (k > 0) len = static_cast<std::uint32_t>(k);
  }
  set(tok::invalid, len);
}

piece lexer::string_piece(std::string& out) {
  const std::uint32_t n = static_cast<std::uint32_t>(src_.size());
  const std::uint32_t seg_start = pos_;
  (void)seg_start;
  // jq's lexer makes each escape a token of its own and parses it as a JSON string: the message names the escape
  // and the column after it ("Invalid escape at line 1, column 4 (while parsing '"\v"')"), located at the escape.
  auto fail = [&](const char* what, std::uint32_t esc_len) {
    const std::uint32_t start = pos_;
    std::uint32_t end = std::min<std::uint32_t>(start + esc_len, n);
    std::string_view text = src_.substr(start, end - start);
    error_ = std::string(what) + " at line 1, column " + std::to_string(text.size() + 2) + " (while parsing '\"" +
             std::string(text) + "\"')";
    error_start_ = start;
    error_end_ = end;
    pos_ = end;
    return piece::error;
  };
  while (pos_ < n) {
    const char c = src_[pos_];
    if (c == '"') {
      ++pos_;
      return piece::end;
    }
    if (c != '\\') {
      out.push_back(c);
      ++pos_;
      continue;
    }
    if (pos_ + 1 >= n) break;
    const char e = src_[pos_ + 1];
    switch (e) {
      case '(': pos_ += 2; return piece::interp;
      case '"': out.push_back('"'); break;
      case '\\': out.push_back('\\'); break;
      case '/': out.push_back('/'); break;
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'n': out.push_back('\n'); break;
      case 'r': out.push_back('\r'); break;
      case 't': out.push_back('\t'); break;
      case 'u': {
        std::uint32_t cp = 0;
        if (!utf8::read_hex4(src_.data() + pos_ + 2, src_.data() + n, cp)) {
          std::uint32_t len = 2;
          while (len < 6 && pos_ + len < n && utf8::hex_value(src_[pos_ + len]) >= 0) ++len;
          return fail("Invalid \\uXXXX escape", len);
        }
        pos_ += 6;
        if (cp >= 0xd800 && cp <= 0xdbff) {
          std::uint32_t lo = 0;
          if (pos_ + 1 < n && src_[pos_] == '\\' && src_[pos_ + 1] == 'u' &&
              utf8::read_hex4(src_.data() + pos_ + 2, src_.data() + n, lo) && lo >= 0xdc00 && lo <= 0xdfff) {
            pos_ += 6;
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          } else {
            pos_ -= 6;
            return fail("Invalid \\uXXXX\\uXXXX surrogate pair escape", 6);
          }
        } else if (cp >= 0xdc00 && cp <= 0xdfff) {
          cp = utf8::k_replacement;
        }
        utf8::append(out, cp);
        continue;
      }
      default: return fail("Invalid escape", 2);
    }
    pos_ += 2;
  }
  error_ = "unterminated string";
  error_start_ = seg_start;
  error_end_ = n;
  pos_ = n;
  return piece::error;
}

}  // namespace jview::filter
