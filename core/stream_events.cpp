// core/stream_events.cpp: jq's stream events, token by token (see stream_events.hpp). The states and errors follow
// core/parser.cpp's one-pass parser step for step: the same error code at the same byte for every input.
#include "core/stream_events.hpp"

#include <cstring>
#include <utility>

#include "core/json_lexer.hpp"
#include "core/number.hpp"
#include "simd/boundary_scan.hpp"

namespace jview {
namespace {

const simd::kernels& kernels_of(const parse_options& opts) noexcept {
  return opts.kernels != nullptr ? *opts.kernels : simd::active_kernels();
}

// Whether more bytes after `end` could change the string error scan_string reported at p: an unterminated string,
// or an escape or UTF-8 sequence too close to the end to be complete.
bool cut_by_end(error_code e, const char* p, const char* end) noexcept {
  switch (e) {
    case error_code::unterminated_string: return true;
    case error_code::bad_unicode_escape: return end - p < 6;   // \uXXXX
    case error_code::lone_surrogate: return end - p < 12;      // \uXXXX\uXXXX
    case error_code::invalid_utf8: return end - p < 4;
    default: return false;
  }
}

// The bytes that end a bare word (number or literal) for jq: whitespace, a quote, a structural character.
bool ends_bare_word(char c) noexcept {
  switch (c) {
    case ' ': case '\t': case '\n': case '\r': case '"': case '[': case ']': case '{': case '}': case ',': case ':':
      return true;
    default:
      return false;
  }
}

// The next quote or backslash in [p, end).
const char* quote_or_backslash(const char* p, const char* end, bool vector) noexcept {
#if JVIEW_HAVE_SSE2
  if (vector) return simd::sse2_boundary::quote_or_backslash(p, end);
#endif
  (void)vector;
  return simd::portable_boundary::quote_or_backslash(p, end);
}

}  // namespace

stream_events::stream_events(const parse_options& opts)
    : opts_(opts), vector_(kernels_of(opts).vector_scanners()), validate_(kernels_of(opts).utf8->validate_utf8) {}

stream_events::~stream_events() = default;

void stream_events::reset() {
  state_ = state::top;
  levels_.clear();
  path_.clear();
  pending_ = filter::value();
  has_pending_ = false;
  key_.clear();
  values_ = 0;
  resume_ = 0;
  queued_ = popped_ = 0;
  error_ = {};
}

stream_events::result stream_events::next(std::string_view in, bool last, std::size_t& used, filter::value& out) {
#if JVIEW_HAVE_SSE2 || JVIEW_HAVE_NEON
  if (vector_) return run<lexer::vector_kernels>(in, last, used, out);
#endif
  return run<lexer::portable_kernels>(in, last, used, out);
}

void stream_events::leaf_event(filter::value leaf) {
  push(filter::value::array({filter::value::array(path_), std::move(leaf)}));
}

// The closing event of the innermost container (the path of its last member); the container is left.
void stream_events::close_event() {
  push(filter::value::array({filter::value::array(path_)}));
  levels_.pop_back();
  path_.pop_back();
}

// A string token from its opening quote t: done (stop past its closing quote, its decoded text in `text`), more, or
// fail (the error in error_.code, stop where it is reported).
template <class K>
stream_events::step stream_events::string_token(const char* t, const char* end, bool last, const char*& stop,
                                                std::string& text) {
  const auto scan = [&]() {
    const char* p = t + 1;
    std::uint8_t flags = 0;
    const error_code e = lexer::scan_string<K>(p, end, opts_.replace_invalid_utf8, validate_, flags);
    if (e == error_code::ok) {
      text.clear();
      lexer::decode_string(t + 1, static_cast<std::size_t>(p - t - 1), flags, text);
      stop = p + 1;
      return step::done;
    }
    if (!last && cut_by_end(e, p, end)) return step::more;
    error_.code = e;
    stop = e == error_code::unterminated_string ? t : p;  // (the parser reports it at the opening quote)
    return step::fail;
  };
  if (resume_ == 0 || last) {
    const step s = scan();
    if (s != step::more) return s;
    resume_ = 1;
  }
  // The string may go on after the window: its closing quote first (the search goes on where it stopped), then
  // the scan once, over the whole string.
  const char* q = t + resume_;
  for (;;) {
    q = quote_or_backslash(q, end, vector_);
    if (q == end || (*q == '\\' && end - q < 2)) {
      resume_ = static_cast<std::size_t>(q - t);
      return step::more;
    }
    if (*q == '"') break;
    q += 2;
  }
  last = true;  // the string is complete: what the scan finds now is final
  return scan();
}

// A number or literal from t: done (stop past it, its value in leaf), more, or fail (the error in `code`, stop
// where it is reported).
stream_events::step stream_events::scalar_token(const char* t, const char* end, bool last, const char*& stop,
                                                filter::value& leaf, error_code& code) {
  if (*t == 't' || *t == 'f' || *t == 'n') {
    const char* word = *t == 't' ? "true" : *t == 'f' ? "false" : "null";
    const std::size_t n = std::strlen(word);
    if (static_cast<std::size_t>(end - t) < n && !last) {
      // Cut by the window's end: wait for the rest unless the bytes so far already differ.
      if (std::memcmp(t, word, static_cast<std::size_t>(end - t)) == 0) return step::more;
      code = error_code::bad_literal;
      stop = t;
      return step::fail;
    }
    kind k;
    const std::size_t len = lexer::match_literal(t, end, k);
    if (len == 0) {
      code = error_code::bad_literal;
      stop = t;
      return step::fail;
    }
    leaf = k == kind::null_ ? filter::value() : filter::value::boolean(k == kind::true_);
    stop = t + len;
    return step::done;
  }
  if (resume_ != 0 && !last) {  // the bytes before resume_ are all the number's: where does its run end?
    const char* q = t + resume_;
    while (q < end && lexer::continues_token(*q)) ++q;
    if (q == end) {
      resume_ = static_cast<std::size_t>(end - t);
      return step::more;
    }
  }
  const char* p = t;
  std::uint8_t flags;
  const error_code e = lexer::scan_number(p, end, flags);
  if (p == end && !last) {  // the number (or its error) may go on
    resume_ = static_cast<std::size_t>(end - t);
    return step::more;
  }
  stop = p;
  if (e != error_code::ok) {
    code = e;
    return step::fail;
  }
  const std::string_view text(t, static_cast<std::size_t>(p - t));
  if ((flags & node_flag::integer) != 0 && text.size() <= 15 && text != "-0") {
    // A plain integer of up to 15 digits is its own shortest form: inline, printed and converted alike.
    std::int64_t x = 0;
    for (char d : text.substr(text[0] == '-')) x = x * 10 + (d - '0');
    leaf = filter::value::number_exact(static_cast<double>(text[0] == '-' ? -x : x));
  } else {
    leaf = filter::value::input_number(number_to_double(text), std::string(text));
  }
  return step::done;
}

template <class K>
stream_events::result stream_events::run(std::string_view in, bool last, std::size_t& used, filter::value& out) {
  const char* const b = in.data();
  const char* const end = b + in.size();
  const char* p = b;
  const auto fail = [&](const char* t, error_code code, const char* at) {
    used = static_cast<std::size_t>(t - b);
    error_ = {code, static_cast<std::size_t>(at - t)};
    resume_ = 0;
    return result::error;
  };
  const auto more = [&](const char* t) {
    used = static_cast<std::size_t>(t - b);
    return result::more;
  };
  for (;;) {
    if (popped_ < queued_) {
      out = std::move(queue_[popped_++]);
      if (popped_ == queued_) queued_ = popped_ = 0;
      used = static_cast<std::size_t>(p - b);
      return result::event;
    }
    p = K::ws::skip(p, end);
    const char* const t = p;  // the token
    if (p == end) {
      if (!last) return more(p);
      if (state_ != state::top) return fail(p, error_code::unexpected_end, p);
      if (opts_.single_value && values_ == 0) return fail(p, error_code::empty_input, p);
      used = static_cast<std::size_t>(p - b);
      return result::end;
    }
    const char c = *p;
    switch (state_) {
      case state::top:
        if (opts_.single_value && values_ != 0) return fail(t, error_code::extra_value, t);
        break;
      case state::first_value:
      case state::first_key:
        if (c == (state_ == state::first_value ? ']' : '}')) {  // an empty container: a leaf at its bracket
          ++p;
          levels_.pop_back();
          path_.pop_back();
          filter::value empty = c == ']' ? filter::value::empty_array() : filter::value::empty_object();
          if (levels_.empty()) {
            push(filter::value::array({filter::value::empty_array(), std::move(empty)}));
            ++values_;
            state_ = state::top;
          } else {
            leaf_event(std::move(empty));
            state_ = state::after_value;
          }
          continue;
        }
        if (state_ == state::first_key) goto key;
        break;
      case state::array_value:
        if (c == ']') return fail(t, error_code::trailing_comma, t);
        break;
      case state::member_value:
        break;
      case state::key:
        if (c == '}') return fail(t, error_code::trailing_comma, t);
        goto key;
      case state::colon:
        if (c != ':') return fail(t, error_code::expected_colon, t);
        ++p;
        path_.back() = filter::value::string(key_);
        state_ = state::member_value;
        continue;
      case state::after_value: {
        level& l = levels_.back();
        const bool close = c == (l.object ? '}' : ']');
        if (c != ',' && !close)
          return fail(t, l.object ? error_code::expected_comma_or_close_object
                                  : error_code::expected_comma_or_close_array, t);
        ++p;
        if (has_pending_) leaf_event(std::exchange(pending_, filter::value()));
        has_pending_ = false;
        if (close) {
          close_event();
          if (levels_.empty()) {
            ++values_;
            state_ = state::top;
          }
        } else if (l.object) {
          path_.back() = filter::value();
          state_ = state::key;
        } else {
          path_.back() = filter::value::number(static_cast<double>(++l.index));
          state_ = state::array_value;
        }
        continue;
      }
    }
    // A value.
    switch (c) {
      case '[':
      case '{':
        if (levels_.size() >= opts_.max_depth) return fail(t, error_code::too_deep, t);
        ++p;
        levels_.push_back(level{c == '{', 0});
        path_.push_back(c == '{' ? filter::value() : filter::value::number(0));
        state_ = c == '{' ? state::first_key : state::first_value;
        continue;
      case '"': {
        const char* stop = nullptr;
        std::string text;
        switch (string_token<K>(t, end, last, stop, text)) {
          case step::more: return more(t);
          case step::fail: return fail(t, error_.code, stop);
          case step::done: break;
        }
        resume_ = 0;
        p = stop;
        if (levels_.empty()) {  // a top-level string: its event at its closing quote
          push(filter::value::array({filter::value::empty_array(), filter::value::string(std::move(text))}));
          ++values_;
        } else {
          pending_ = filter::value::string(std::move(text));
          has_pending_ = true;
          state_ = state::after_value;
        }
        continue;
      }
      case 't': case 'f': case 'n':
      case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9': {
        const char* stop = nullptr;
        filter::value leaf;
        error_code code = error_code::ok;
        switch (scalar_token(t, end, last, stop, leaf, code)) {
          case step::more: return more(t);
          case step::fail: return fail(t, code, stop);
          case step::done: break;
        }
        // A number or literal is complete at the byte after it, as jq has it: jq reads a bare word up to
        // whitespace, a quote or a structural character, and judges it there. Any other byte right after it
        // fails at that byte (the parser's error there), in the token that began with the number or literal (so
        // jq's words for it are those of the whole word).
        if (stop == end && !last) return more(t);
        const bool word_goes_on = stop != end && !ends_bare_word(*stop);
        if (!levels_.empty()) {
          if (word_goes_on)
            return fail(t, levels_.back().object ? error_code::expected_comma_or_close_object
                                                 : error_code::expected_comma_or_close_array, stop);
          resume_ = 0;
          p = stop;
          pending_ = std::move(leaf);
          has_pending_ = true;
          state_ = state::after_value;
          continue;
        }
        // At the top level, a byte that would continue the token is the token's error; any other byte of a bare
        // word, and ']', '}', ',' or ':', are the next value's error, and jq drops the scalar then (it reads the
        // byte before it hands the scalar out).
        if (word_goes_on && lexer::continues_token(*stop))
          return fail(t, c == 't' || c == 'f' || c == 'n' ? error_code::bad_literal : error_code::bad_number, stop);
        if (word_goes_on || (stop != end && (*stop == ']' || *stop == '}' || *stop == ',' || *stop == ':'))) {
          const error_code next_value = word_goes_on ? error_code::unexpected_char : error_code::expected_value;
          return fail(t, opts_.single_value ? error_code::extra_value : next_value, stop);
        }
        resume_ = 0;
        p = stop;
        push(filter::value::array({filter::value::empty_array(), std::move(leaf)}));
        ++values_;
        continue;
      }
      case ']': case '}': case ',': case ':':
        return fail(t, error_code::expected_value, t);
      default:
        return fail(t, error_code::unexpected_char, t);
    }
  key:
    // An object's key at t.
    if (c != '"') return fail(t, error_code::expected_key, t);
    {
      const char* stop = nullptr;
      switch (string_token<K>(t, end, last, stop, key_)) {
        case step::more: return more(t);
        case step::fail: return fail(t, error_.code, stop);
        case step::done: break;
      }
      resume_ = 0;
      p = stop;
      state_ = state::colon;
    }
  }
}

jq_stream_state stream_events::jq_state() const {
  using ls = jq_stream_state::last_seen;
  jq_stream_state s;
  s.path = path_;
  switch (state_) {
    case state::top: s.last = ls::none; break;
    case state::first_value: s.last = ls::open_array; break;
    case state::first_key: s.last = ls::open_object; break;
    case state::array_value:
    case state::key: s.last = ls::comma; break;
    case state::member_value: s.last = ls::colon; break;
    case state::colon:
      s.last = ls::value;
      s.has_next = true;
      s.next = filter::value::string(key_);
      break;
    case state::after_value:
      s.last = ls::value;
      s.has_next = has_pending_;
      if (has_pending_) s.next = pending_;
      break;
  }
  return s;
}

}  // namespace jview
