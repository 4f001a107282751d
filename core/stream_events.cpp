// core/stream_events.cpp: --stream events over a parsed document, and over the bytes of a value that failed to parse
// (see stream_events.hpp).
#include "core/stream_events.hpp"

#include <algorithm>
#include <cstring>
#include <deque>
#include <string_view>
#include <utility>

#include "core/number.hpp"
#include "simd/kernels.hpp"

namespace jview {
namespace {

bool is_leaf(const node& n) noexcept { return (n.k != kind::array && n.k != kind::object) || n.len == 0; }

// A closing event: [path].
filter::value closing(const std::vector<filter::value>& path) {
  std::vector<filter::value> items;
  items.push_back(filter::value::array(path));
  return filter::value::array(std::move(items));
}

bool is_ws(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
int hex(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') return (c | 0x20) - 'a' + 10;
  return -1;
}

}  // namespace

// The walk over a failed value's bytes up to the error's position (value_reader::failed_text): a validating JSON
// tokenizer as strict as core/parser, emitting jq's streaming events as it goes, one batch per call. The bytes end
// where the parser stopped, so a token cut there is incomplete, as it was for jq's streaming parser.
class stream_events::failed_walk {
 public:
  failed_walk(const parse_options& opts, std::string error_text)
      : max_depth_(opts.max_depth), replace_(opts.replace_invalid_utf8), error_text_(std::move(error_text)) {
    decode_nodes_ = decode_.reserve(1);
  }

  // The bytes (kept alive by `keep`); the value starts after whitespace and --seq separators.
  void view(std::string_view text, std::shared_ptr<source_bytes> keep) {
    keep_ = std::move(keep);
    p_ = text.data();
    end_ = text.data() + text.size();
    while (p_ < end_ && (is_ws(*p_) || *p_ == '\x1e')) ++p_;
  }

  bool next(filter::value& out) {
    while (queue_.empty() && !done_) step();
    if (queue_.empty()) return false;
    out = std::move(queue_.front());
    queue_.pop_front();
    return true;
  }

 private:
  enum class state { value, first_value, first_key, key, colon, comma_or_close };
  struct level {
    bool object;
    std::uint32_t index;
  };

  bool more() const noexcept { return p_ < end_; }
  bool have(std::size_t n) const noexcept { return static_cast<std::size_t>(end_ - p_) >= n; }
  void fail() {
    done_ = true;
    if (!error_text_.empty())
      queue_.push_back(filter::value::array({filter::value::string(error_text_), filter::value::array(path_)}));
  }
  void emit_leaf(filter::value v) { queue_.push_back(filter::value::array({filter::value::array(path_), std::move(v)})); }

  void skip_ws() {
    while (more() && is_ws(*p_)) ++p_;
  }

  // A string from p_ (its opening quote); false at an error (or the end).
  bool string(std::string& out) {
    const char* s = ++p_;
    std::uint8_t flags = 0;
    for (;;) {
      if (!more()) return false;
      const unsigned char c = static_cast<unsigned char>(*p_);
      if (c == '"') break;
      if (c == '\\') {
        flags |= node_flag::escapes;
        if (!have(2)) return false;
        const char e = p_[1];
        if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
          p_ += 2;
          continue;
        }
        if (e != 'u') return false;
        std::uint32_t cp = 0;
        if (!hex4(p_ + 2, cp)) return false;
        p_ += 6;
        if (cp >= 0xd800 && cp <= 0xdbff) {
          std::uint32_t lo = 0;
          if (have(6) && p_[0] == '\\' && p_[1] == 'u' && hex4(p_ + 2, lo) && lo >= 0xdc00 && lo <= 0xdfff) {
            p_ += 6;
            continue;
          }
        } else if (cp < 0xdc00 || cp > 0xdfff) {
          continue;
        }
        if (!replace_) return false;
        flags |= node_flag::bad_utf8;
        continue;
      }
      if (c < 0x20) return false;
      if (c == 0x7f) flags |= node_flag::escapes;
      if (c < 0x80) {
        ++p_;
        continue;
      }
      const std::size_t n = utf8_length();
      if (n == 0) {
        if (!replace_) return false;
        flags |= node_flag::bad_utf8;
        ++p_;
        continue;
      }
      p_ += n;
    }
    // Decoded as the document decodes its strings.
    decode_nodes_[0] = node{kind::string, flags, 0, 0, static_cast<std::uint32_t>(p_ - s), 1};
    decode_.set(s, 1);
    out.clear();
    decode_.append_string(0, out);
    ++p_;
    return true;
  }
  bool hex4(const char* q, std::uint32_t& cp) const noexcept {
    cp = 0;
    for (int i = 0; i < 4; ++i) {
      if (end_ != nullptr && q + i >= end_) return false;
      const int h = hex(q[i]);
      if (h < 0) return false;
      cp = cp << 4 | static_cast<std::uint32_t>(h);
    }
    return true;
  }
  // The length of the well-formed UTF-8 sequence at p_ (its lead byte >= 0x80), or 0 (also when cut by the end).
  std::size_t utf8_length() const noexcept {
    const unsigned c = static_cast<unsigned char>(*p_);
    const std::size_t need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
    return have(need) && simd::validate_utf8(p_, need) == need ? need : 0;
  }

  // A number from p_; false at an error. jq emits it only once it is followed by ',' or a closing bracket.
  bool number(filter::value& out) {
    const char* s = p_;
    auto digits = [&]() {
      if (!more() || !is_digit(*p_)) return false;
      do ++p_;
      while (more() && is_digit(*p_));
      return true;
    };
    if (*p_ == '-') {
      ++p_;
      if (!more() || !is_digit(*p_)) return false;
    }
    if (*p_ == '0') {
      ++p_;
      if (more() && is_digit(*p_)) return false;  // a leading zero
    } else {
      while (more() && is_digit(*p_)) ++p_;
    }
    if (more() && *p_ == '.') {
      ++p_;
      if (!digits()) return false;
    }
    if (more() && (*p_ | 0x20) == 'e') {
      ++p_;
      if (more() && (*p_ == '+' || *p_ == '-')) ++p_;
      if (!digits()) return false;
    }
    const std::string_view text(s, static_cast<std::size_t>(p_ - s));
    out = filter::value::number_literal(number_to_double(text), std::string(text));
    return true;
  }

  bool literal(filter::value& out) {
    static constexpr std::string_view words[] = {"true", "false", "null"};
    for (std::string_view w : words) {
      if (*p_ != w[0]) continue;
      if (!have(w.size()) || std::memcmp(p_, w.data(), w.size()) != 0) return false;
      p_ += w.size();
      out = w[0] == 'n' ? filter::value() : filter::value::boolean(w[0] == 't');
      return true;
    }
    return false;
  }

  // After a container closed (its events are out): back in its parent.
  void closed() {
    levels_.pop_back();
    path_.pop_back();
    if (levels_.empty()) {
      done_ = true;  // (the whole value was there: not a failure the walk can see)
      return;
    }
    state_ = state::comma_or_close;
  }

  // The closing bracket of an empty container at p_: its leaf event (none for the top level, which has no path).
  void close_empty(filter::value empty) {
    ++p_;
    levels_.pop_back();
    path_.pop_back();
    if (levels_.empty()) return void(done_ = true);
    emit_leaf(std::move(empty));
    state_ = state::comma_or_close;
  }

  // One token.
  void step() {
    skip_ws();
    if (!more()) return fail();
    const char c = *p_;
    switch (state_) {
      case state::first_value:
        if (c == ']') return close_empty(filter::value::empty_array());
        [[fallthrough]];
      case state::value: {
        if (c == '[' || c == '{') {
          if (levels_.size() >= max_depth_) return fail();
          ++p_;
          levels_.push_back(level{c == '{', 0});
          path_.push_back(c == '{' ? filter::value() : filter::value::number(0));
          state_ = c == '{' ? state::first_key : state::first_value;
          return;
        }
        if (levels_.empty()) return fail();  // a scalar at the top: no event before its end
        filter::value leaf;
        bool ok;
        if (c == '"') {
          std::string s;
          ok = string(s);
          if (ok) leaf = filter::value::string(std::move(s));
        } else if (c == '-' || is_digit(c)) {
          ok = number(leaf);
        } else {
          ok = literal(leaf);
        }
        if (!ok) return fail();
        pending_ = std::move(leaf);
        has_pending_ = true;
        state_ = state::comma_or_close;
        return;
      }
      case state::first_key:
        if (c == '}') return close_empty(filter::value::empty_object());
        [[fallthrough]];
      case state::key:
        if (c != '"' || !string(key_)) return fail();
        state_ = state::colon;
        return;
      case state::colon:
        if (c != ':') return fail();
        ++p_;
        path_.back() = filter::value::string(key_);
        state_ = state::value;
        return;
      case state::comma_or_close: {
        level& l = levels_.back();
        if (c == ',') {
          ++p_;
          if (has_pending_) emit_leaf(std::exchange(pending_, filter::value()));
          has_pending_ = false;
          if (l.object) {
            path_.back() = filter::value();
            state_ = state::key;
          } else {
            path_.back() = filter::value::number(++l.index);
            state_ = state::value;
          }
          return;
        }
        if (c != (l.object ? '}' : ']')) return fail();
        ++p_;
        if (has_pending_) emit_leaf(std::exchange(pending_, filter::value()));
        has_pending_ = false;
        queue_.push_back(closing(path_));
        return closed();
      }
    }
  }

  std::shared_ptr<source_bytes> keep_;
  const char* p_ = "";
  const char* end_ = p_;
  std::uint32_t max_depth_;
  bool replace_;
  std::string error_text_;
  document decode_;  // one string node at a time, decoded by document::append_string
  node* decode_nodes_ = nullptr;
  state state_ = state::value;
  std::vector<level> levels_;
  std::vector<filter::value> path_;
  std::string key_;
  filter::value pending_;
  bool has_pending_ = false;
  bool done_ = false;
  std::deque<filter::value> queue_;
};

stream_events::stream_events() = default;
stream_events::~stream_events() = default;

void stream_events::start(std::shared_ptr<const document> doc) {
  doc_ = std::move(doc);
  stack_.clear();
  path_.clear();
  root_pending_ = true;
  failed_.reset();
}

bool stream_events::start_failed(value_reader& r, const parse_options& opts, std::string error_text) {
  doc_.reset();
  stack_.clear();
  path_.clear();
  root_pending_ = false;
  failed_.reset();
  switch (r.error().code) {
    case error_code::ok:
    case error_code::io_error:
      return false;
    case error_code::empty_input:      // --strict: nothing was parsed (no value's bytes)
    case error_code::extra_value:
    case error_code::value_too_large:  // more than one value may span
    case error_code::out_of_memory:
      if (error_text.empty()) return false;
      failed_ = std::make_unique<failed_walk>(opts, std::move(error_text));
      return true;
    default:
      failed_ = std::make_unique<failed_walk>(opts, std::move(error_text));
      failed_->view(r.failed_text(), r.source_keepalive());
      return true;
  }
}

bool stream_events::next(filter::value& out) {
  if (failed_) {
    if (failed_->next(out)) return true;
    failed_.reset();
    return false;
  }
  if (!doc_) return false;
  const document& d = *doc_;
  if (root_pending_) {
    root_pending_ = false;
    if (is_leaf(d[0])) {  // a scalar or empty value: one event with the empty path
      out = filter::value::array({filter::value::empty_array(), filter::value::view(doc_, 0)});
      return true;
    }
    stack_.push_back(frame{1, d[0].next, 0, d[0].k == kind::object});
  }
  for (;;) {
    if (stack_.empty()) {
      doc_.reset();
      return false;
    }
    frame& f = stack_.back();
    if (f.child == f.end) {
      // The container is done: [path of its last member], then its own component goes.
      out = closing(path_);
      stack_.pop_back();
      path_.pop_back();
      return true;
    }
    std::uint32_t v = f.child;
    filter::value key;
    if (f.object) {
      key = filter::value::string(d.string_value(f.child));
      v = f.child + 1;
    } else {
      key = filter::value::number(static_cast<double>(f.pos));
    }
    ++f.pos;
    f.child = d[v].next;
    if (path_.size() < stack_.size())
      path_.push_back(std::move(key));
    else
      path_.back() = std::move(key);
    const node& n = d[v];
    if (is_leaf(n)) {
      out = filter::value::array({filter::value::array(path_), filter::value::view(doc_, v)});
      return true;
    }
    stack_.push_back(frame{v + 1, n.next, 0, n.k == kind::object});
  }
}

}  // namespace jview
