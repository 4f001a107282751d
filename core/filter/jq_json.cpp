// core/filter/jq_json.cpp: a JSON reader that follows jq 1.8's own parser (src/jv_parse.c's behaviour, written
// anew): the same leniency (nan, infinity, leading zeros, "1.") and the same error texts and positions
// ("Unfinished JSON term at EOF at line 1, column 4"). fromjson uses it when the strict document parser rejects
// a text, so valid JSON keeps the fast zero-copy path and invalid JSON gets jq's message; --lenient reads with it,
// --seq words its warnings with it (jq_diagnose), and its streaming mode words --stream-errors events
// (core/jq_stream_error.hpp).
#include <cmath>
#include <cstring>

#include "core/filter/eval.hpp"
#include "core/jq_stream_error.hpp"
#include "core/number.hpp"
#include "core/utf8.hpp"
#include "core/value_reader.hpp"

namespace jview::filter::detail {

bool parse_number_literal(std::string_view s, value& out);  // strings.cpp (tonumber)

namespace {

constexpr std::size_t k_max_parse_depth = 10000;
// A second complete top-level value: jq's fromjson reports it without a position.
constexpr char k_extra[] = "Unexpected extra JSON values";

using last_seen = jq_stream_state::last_seen;

struct frame {
  value container;  // array or object under construction
  value key;        // object: the key waiting for its value (null when none)
  bool has_key = false;
};

}  // namespace

class jq_reader {
 public:
  explicit jq_reader(std::string_view text, std::vector<value>* stream = nullptr) : text_(text), stream_(stream) {}
  // jq's streaming parser (its --stream), from the state before a token, fed byte by byte (jq_stream_error).
  jq_reader(jq_stream_state s, std::uint64_t line, std::uint64_t column)
      : line_(static_cast<long long>(line)),
        column_(static_cast<long long>(column)),
        streaming_(true),
        path_(std::move(s.path)),
        next_(std::move(s.next)),
        has_next_(s.has_next),
        last_(s.last) {}

  // Streaming: one byte; true when jq fails at it (err_).
  bool feed(char c) {
    count(c);
    const char* e = scan(c);
    return e != nullptr && !fail(e, false, err_);
  }
  // Streaming: the end of the input; true when jq fails there.
  bool eof() {
    const char* e = in_string_ ? "Unfinished string" : check_literal();
    if (e == nullptr && !path_.empty()) e = "Unfinished JSON term";
    return e != nullptr && !fail(e, true, err_);
  }
  std::uint64_t accepted() const noexcept { return accepted_; }
  const std::string& error_text() const noexcept { return err_; }
  value path() const { return value::array(path_); }

  bool run(value& out, std::string& err) {
    for (pos_ = 0; pos_ < text_.size(); ++pos_) {
      const char c = text_[pos_];
      count(c);
      const char* e = scan(c);
      if (e != nullptr) return fail(e, false, err);
      if (done_ && !stack_.empty()) continue;
    }
    // End of input.
    if (in_string_) return fail("Unfinished string", true, err);
    if (const char* e = check_literal()) return fail(e, true, err);
    if (!stack_.empty()) return fail("Unfinished JSON term", true, err);
    if (stream_ != nullptr) return true;
    if (values_ == 0) {
      err = "Expected JSON value";
      return false;
    }
    out = std::move(result_);
    return true;
  }

 private:
  void count(char c) noexcept {
    if (c == '\n') {
      ++line_;
      column_ = 0;
    } else {
      ++column_;
    }
  }

  bool fail(const char* what, bool at_eof, std::string& err) {
    failed_what_ = what;
    failed_at_eof_ = at_eof;
    if (what == k_extra) {
      err = what;
      return false;
    }
    err = std::string(what) + (at_eof ? " at EOF" : "") + " at line " + std::to_string(line_) + ", column " +
          std::to_string(column_);
    return false;
  }

  const char* scan(char c) {
    if (in_string_) {
      if (escaped_) {
        escaped_ = false;
        token_.push_back(c);
        return nullptr;
      }
      if (c == '\\') {
        escaped_ = true;
        token_.push_back(c);
        return nullptr;
      }
      if (c == '"') {
        in_string_ = false;
        return found_string();
      }
      token_.push_back(c);
      return nullptr;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') return check_literal();
    switch (c) {
      case '[':
      case '{':
      case ':':
      case ',':
      case ']':
      case '}':
        if (const char* e = check_literal()) return e;
        return token(c);
      case '"':
        if (const char* e = check_literal()) return e;
        in_string_ = true;
        token_.clear();
        return nullptr;
      default: literal_.push_back(c); return nullptr;
    }
  }

  const char* token(char c) {
    if (!streaming_) return document_token(c);
    const char* e = stream_token(c);
    accepted_ += e == nullptr;
    return e;
  }

  // A complete value: the top-level result or the pending value of the open container.
  const char* add_value(value v) {
    if (streaming_) return stream_value(std::move(v));
    if (has_next_) return "Expected separator between values";
    if (stack_.empty() && values_ > 0) return k_extra;
    next_ = std::move(v);
    has_next_ = true;
    last_ = last_seen::value;
    if (stack_.empty()) finish_top();
    return nullptr;
  }

  void finish_top() {
    has_next_ = false;
    if (stream_ != nullptr) {  // a stream of values: each is handed out, none is "extra"
      stream_->push_back(std::move(next_));
      return;
    }
    result_ = std::move(next_);
    ++values_;
    done_ = true;
  }

  const char* check_literal() {
    if (literal_.empty()) return nullptr;
    std::string lit;
    lit.swap(literal_);
    const char* pattern = nullptr;
    value v;
    switch (lit[0]) {
      case 't': pattern = "true"; v = value::boolean(true); break;
      case 'f': pattern = "false"; v = value::boolean(false); break;
      case '\'': return "Invalid string literal; expected \", but got '";
      case 'n':
        // jq: "nu..." must be null; any other word from 'n' on is a number (nan, nAn) or an invalid number.
        if (lit.size() > 1 && lit[1] == 'u') {
          pattern = "null";
          v = value();
        }
        break;
      default: break;
    }
    if (pattern != nullptr) {
      if (lit != pattern) return "Invalid literal";
      return add_value(std::move(v));
    }
    value num;
    if (!parse_number_literal(lit, num)) return "Invalid numeric literal";
    return add_value(std::move(num));
  }

  const char* found_string() {
    std::string s;
    const std::string& t = token_;
    for (std::size_t i = 0; i < t.size(); ++i) {
      const char c = t[i];
      if (c != '\\') {
        if (static_cast<unsigned char>(c) < 0x20)
          return "Invalid string: control characters from U+0000 through U+001F must be escaped";
        s.push_back(c);
        continue;
      }
      ++i;
      switch (t[i]) {
        case '"': case '\\': case '/': s.push_back(t[i]); break;
        case 'b': s.push_back('\b'); break;
        case 'f': s.push_back('\f'); break;
        case 'n': s.push_back('\n'); break;
        case 'r': s.push_back('\r'); break;
        case 't': s.push_back('\t'); break;
        case 'u': {
          std::uint32_t cp = 0;
          if (t.size() - (i + 1) < 4) return "Invalid \\uXXXX escape";
          if (!utf8::read_hex4(t.data() + i + 1, t.data() + t.size(), cp)) return "Invalid characters in \\uXXXX escape";
          i += 4;
          if (cp >= 0xd800 && cp <= 0xdbff) {
            // jq 1.8: a high surrogate must be followed by a low one.
            std::uint32_t lo = 0;
            if (!(i + 6 < t.size() && t[i + 1] == '\\' && t[i + 2] == 'u' &&
                  utf8::read_hex4(t.data() + i + 3, t.data() + t.size(), lo) && lo >= 0xdc00 && lo <= 0xdfff))
              return "Invalid \\uXXXX\\uXXXX surrogate pair escape";
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            i += 6;
          } else if (cp >= 0xdc00 && cp <= 0xdfff) {
            cp = utf8::k_replacement;
          }
          utf8::append(s, cp);
          break;
        }
        default: return "Invalid escape";
      }
    }
    return add_value(value::string(utf8::valid_or_replaced(std::move(s))));  // raw bytes: U+FFFD, as jq
  }

  const char* document_token(char c) {
    switch (c) {
      case '[':
      case '{':
        if (stack_.size() >= k_max_parse_depth) return "Exceeds depth limit for parsing";
        if (has_next_) return "Expected separator between values";
        if (stack_.empty() && values_ > 0) {
          // Parse on: jq reports the second value only once it is complete (or its own error first).
          extra_ = true;
        }
        stack_.push_back(frame{c == '[' ? value::empty_array() : value::empty_object(), value(), false});
        last_ = c == '[' ? last_seen::open_array : last_seen::open_object;
        return nullptr;
      case ':': {
        // (jq 1.8 tests for the key first: a ':' with nothing before it is "Expected string key", even at the top.)
        if (!has_next_) return "Expected string key before ':'";
        if (stack_.empty() || !stack_.back().container.is_object()) return "':' not as part of an object";
        frame& f = stack_.back();
        if (last_ == last_seen::colon || f.has_key) return "Expected string key before ':'";
        if (!next_.is_string()) return "Object keys must be strings";
        f.key = std::move(next_);
        f.has_key = true;
        has_next_ = false;
        last_ = last_seen::colon;
        return nullptr;
      }
      case ',': {
        if (!has_next_) return "Expected value before ','";
        if (stack_.empty()) return "',' not as part of an object or array";
        frame& f = stack_.back();
        if (f.container.is_array()) {
          f.container.array_mut().push_back(std::move(next_));
        } else if (f.has_key) {
          std::string tmp;
          f.container.object_mut().set(f.key.str(tmp), std::move(next_));
          f.has_key = false;
        } else {
          return "Objects must consist of key:value pairs";
        }
        has_next_ = false;
        last_ = last_seen::comma;
        return nullptr;
      }
      case ']': {
        if (stack_.empty() || !stack_.back().container.is_array()) return "Unmatched ']'";
        if (last_ == last_seen::comma) return "Expected another array element";
        frame f = std::move(stack_.back());
        stack_.pop_back();
        if (has_next_) f.container.array_mut().push_back(std::move(next_));
        has_next_ = false;
        return close(std::move(f.container));
      }
      case '}': {
        if (stack_.empty() || !stack_.back().container.is_object()) return "Unmatched '}'";
        if (last_ == last_seen::comma) return "Expected another key-value pair";
        frame f = std::move(stack_.back());
        stack_.pop_back();
        if (has_next_) {
          if (!f.has_key) return "Objects must consist of key:value pairs";
          std::string tmp;
          f.container.object_mut().set(f.key.str(tmp), std::move(next_));
        } else if (f.has_key || last_ != last_seen::open_object) {
          return "Expected another key-value pair";
        }
        has_next_ = false;
        return close(std::move(f.container));
      }
    }
    return nullptr;
  }

  // The streaming parser's value(): a complete scalar. At the top level it is handed out at once.
  const char* stream_value(value v) {
    if (has_next_ || last_ == last_seen::value) return "Expected separator between values";
    last_ = path_.empty() ? last_seen::none : last_seen::value;
    next_ = std::move(v);
    has_next_ = !path_.empty();
    ++accepted_;
    return nullptr;
  }

  // The streaming parser's structural characters (jv_parse.c's stream_token), on the path alone.
  const char* stream_token(char c) {
    const bool in_array = !path_.empty() && path_.back().is_number();
    switch (c) {
      case '[':
      case '{':
        if (c == '[' ? has_next_ : last_ == last_seen::value) return "Expected a separator between values";
        if (last_ == last_seen::open_object)
          return c == '[' ? "Expected string key after '{', not '['" : "Expected string key after '{', not '{'";
        if (last_ == last_seen::comma && !in_array)
          return c == '[' ? "Expected string key after ',' in object, not '['"
                          : "Expected string key after ',' in object, not '{'";
        path_.push_back(c == '[' ? value::number(0) : value());
        last_ = c == '[' ? last_seen::open_array : last_seen::open_object;
        return nullptr;
      case ':':
        if (path_.empty() || in_array) return "':' not as part of an object";
        if (!has_next_ || last_ == last_seen::none) return "Expected string key before ':'";
        if (!next_.is_string()) return "Object keys must be strings";
        if (last_ != last_seen::value) return "':' should follow a key";
        path_.back() = std::move(next_);
        has_next_ = false;
        last_ = last_seen::colon;
        return nullptr;
      case ',':
        if (last_ != last_seen::value) return "Expected value before ','";
        if (path_.empty()) return "',' not as part of an object or array";
        if (in_array) {
          path_.back() = value::number(path_.back().number() + 1);
        } else if (path_.back().is_string()) {
          path_.back() = value();
        } else {
          return "Objects must consist of key:value pairs";
        }
        has_next_ = false;
        last_ = last_seen::comma;
        return nullptr;
      case ']':
        if (path_.empty()) return "Unmatched ']' at the top-level";
        if (last_ == last_seen::comma) return "Expected another array element";
        if (!in_array) return "Unmatched ']' in the middle of an object";
        break;
      case '}':
        if (path_.empty()) return "Unmatched '}' at the top-level";
        if (last_ == last_seen::comma) return "Expected another key:value pair";
        if (in_array) return "Unmatched '}' in the middle of an array";
        if (has_next_) {
          if (!path_.back().is_string()) return "Objects must consist of key:value pairs";
        } else {
          if (last_ == last_seen::colon) return "Missing value in key:value pair";
          if (last_ != last_seen::value && last_ != last_seen::open_object) return "Unmatched '}'";
        }
        break;
    }
    if (c == ']' || c == '}') {  // the container closes
      path_.pop_back();
      has_next_ = false;
      last_ = path_.empty() ? last_seen::none : last_seen::value;
    }
    return nullptr;
  }

  const char* close(value container) {
    if (stack_.empty() && extra_) return k_extra;
    next_ = std::move(container);
    has_next_ = true;
    last_ = last_seen::value;
    if (stack_.empty()) finish_top();
    return nullptr;
  }

 public:
  const char* failed_what_ = nullptr;  // the last fail(): jq's message, at the text's end or not, where
  bool failed_at_eof_ = false;
  int line() const noexcept { return static_cast<int>(line_); }
  int column() const noexcept { return static_cast<int>(column_); }
  std::size_t pos() const noexcept { return pos_; }

 private:
  std::string_view text_;
  std::vector<value>* stream_ = nullptr;
  std::size_t pos_ = 0;
  long long line_ = 1, column_ = 0;
  bool in_string_ = false, escaped_ = false, done_ = false;
  std::string token_, literal_;
  std::vector<frame> stack_;
  value result_;
  bool extra_ = false;
  int values_ = 0;
  bool streaming_ = false;
  std::vector<value> path_;  // streaming: jq's path (its events' paths)
  value next_;
  bool has_next_ = false;
  last_seen last_ = last_seen::none;
  std::string err_;  // streaming: the message once jq failed
  std::uint64_t accepted_ = 0;  // streaming: values and structural characters taken
};

bool parse_json_jq(std::string_view text, value& out, std::string& error) {
  jq_reader r(text);
  return r.run(out, error);
}

bool parse_json_jq_stream(std::string_view text, std::vector<value>& out, std::string& error) {
  jq_reader r(text, &out);
  value unused;
  return r.run(unused, error);
}

}  // namespace jview::filter::detail

namespace jview {

bool jq_diagnose(std::string_view text, jq_text_error& out) {
  filter::detail::jq_reader r(text);
  filter::value v;
  std::string err;
  if (r.run(v, err) || r.failed_what_ == nullptr || r.failed_what_ == filter::detail::k_extra) return false;
  out.what = r.failed_what_;
  out.at_eof = r.failed_at_eof_;
  out.line = r.line();
  out.column = r.column();
  out.offset = r.pos();
  return true;
}

}  // namespace jview

namespace jview {

jq_stream_error::jq_stream_error(jq_stream_state state, std::uint64_t line, std::uint64_t column)
    : r_(std::make_unique<filter::detail::jq_reader>(std::move(state), line, column)) {}
jq_stream_error::~jq_stream_error() = default;
bool jq_stream_error::feed(char c) { return r_->feed(c); }
bool jq_stream_error::at_eof() { return r_->eof(); }
std::uint64_t jq_stream_error::accepted() const noexcept { return r_->accepted(); }
std::string jq_stream_error::message() const { return r_->error_text(); }
filter::value jq_stream_error::path() const { return r_->path(); }

}  // namespace jview
