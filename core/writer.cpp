// core/writer.cpp: jq's output format. The view walk is iterative (an explicit frame stack), so nesting as deep
// as the parser allows never recurses. Strings without escapes are copied from the source in one piece.
#include "core/writer.hpp"

#include <algorithm>
#include <cstring>

#include "core/dtoa.hpp"
#include "core/number.hpp"
#include "core/utf8.hpp"
#include "simd/minify.hpp"
#include "simd/string_run.hpp"

namespace jview {
namespace {

constexpr int k_slot_null = 0, k_slot_false = 1, k_slot_true = 2, k_slot_number = 3, k_slot_string = 4,
              k_slot_array = 5, k_slot_object = 6, k_slot_key = 7;

// jq writes these bytes escaped; everything else (including '/' and non-ASCII) goes out as is.
struct escape_table {
  bool needs[256];
  constexpr escape_table() : needs{} {
    for (int c = 0; c < 256; ++c) needs[c] = c < 0x20 || c == '"' || c == '\\' || c == 0x7f;
  }
};
constexpr escape_table k_escape{};
constexpr char k_hex[] = "0123456789abcdef";

char* write_u_escape(char* o, std::uint32_t u) {
  o[0] = '\\';
  o[1] = 'u';
  o[2] = k_hex[(u >> 12) & 15];
  o[3] = k_hex[(u >> 8) & 15];
  o[4] = k_hex[(u >> 4) & 15];
  o[5] = k_hex[u & 15];
  return o + 6;
}


// A string that needs no escaping (no node_flag::escapes or bad_utf8), copied from the source between quotes.
// A key's tail follows in the same reservation: `tail` bytes of ": " (0 for a value, 1 compact, 2 pretty).
[[gnu::always_inline]] inline void put_plain_string(output_buffer& out, const char* s, std::uint32_t len,
                                                    unsigned tail = 0) {
  char* o = out.reserve(static_cast<std::size_t>(len) + 4);
  *o++ = '"';
  copy_bytes(o, s, len);
  o += len;
  o[0] = '"';
  o[1] = ':';
  o[2] = ' ';
  out.commit(o + 1 + tail);
}

}  // namespace

color_scheme color_scheme::jq_default() {
  color_scheme s;
  const char* defaults[8] = {"0;90", "0;39", "0;39", "0;39", "0;32", "1;39", "1;39", "1;34"};
  for (int i = 0; i < 8; ++i) s.code[i] = std::string("\x1b[") + defaults[i] + "m";
  return s;
}

// jq 1.8's reading (jq_set_colors): up to eight fields of digits and ';' separated by ':'; what follows the eighth
// is ignored; an empty last field counts for nothing (the defaults stay from there); any other character is an error
// (the scheme stays as it was). Fields have no length limit (truecolour codes such as 38;2;255;100;0).
bool color_scheme::apply(std::string_view spec) {
  const color_scheme defaults = jq_default();
  std::string_view fields[8];
  std::size_t n = 0;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t start = pos;
    while (pos < spec.size() && ((spec[pos] >= '0' && spec[pos] <= '9') || spec[pos] == ';')) ++pos;
    fields[n] = spec.substr(start, pos - start);
    if (pos == spec.size() || n + 1 >= 8) break;
    if (spec[pos] != ':') return false;
    ++pos;
    ++n;
  }
  const std::size_t count = fields[n].empty() ? n : n + 1;
  for (std::size_t i = 0; i < 8; ++i)
    code[i] = i < count ? "\x1b[" + std::string(fields[i]) + "m" : defaults.code[i];
  return true;
}

writer::writer(output_buffer& out, const write_options& opts) : out_(out), opts_(opts) {
  if (opts_.kernels == nullptr) opts_.kernels = &simd::active_kernels();
  if (opts_.tab)
    indent_unit_ = "\t";
  else
    indent_unit_.assign(static_cast<std::size_t>(std::clamp(opts_.indent, 0, 7)), ' ');
  // A newline and 64 levels of indentation (at least k_indent_copy bytes): the break before a member is one piece.
  indent_line_ = "\n";
  for (int d = 0; d < 64; ++d) indent_line_ += indent_unit_;
  indent_line_.resize(std::max(indent_line_.size(), k_indent_copy), ' ');
}

void writer::color_start(int slot) { out_.append(opts_.colors.code[slot]); }
void writer::color_end() { out_.append("\x1b[0m", 4); }

[[gnu::always_inline]] inline void writer::newline_indent() {
  if (!opts_.pretty) return;
  const std::size_t n = 1 + indent_unit_.size() * static_cast<std::size_t>(depth_);
  if (n <= k_indent_copy) [[likely]] {
    // A fixed-size copy (a few vector stores, no call), of which the first n bytes count.
    char* o = out_.reserve(k_indent_copy);
    std::memcpy(o, indent_line_.data(), k_indent_copy);
    out_.commit(o + n);
    return;
  }
  deep_newline_indent(n);
}

void writer::deep_newline_indent(std::size_t n) {
  const std::size_t unit = indent_unit_.size();  // >= 1 here
  char* o = out_.reserve(n);
  const std::size_t first = std::min(n, indent_line_.size());  // "\n" and 64 whole units
  std::memcpy(o, indent_line_.data(), first);
  o += first;
  for (std::size_t done = first; done < n; done += unit) {
    std::memcpy(o, indent_unit_.data(), unit);
    o += unit;
  }
  out_.commit(o);
}

void writer::punct(kind k, char c) {
  if (opts_.color) {
    color_start(k == kind::array ? k_slot_array : k_slot_object);
    out_.put(c);
    color_end();
  } else {
    out_.put(c);
  }
}

void writer::null_value() {
  if (opts_.color) color_start(k_slot_null);
  out_.append("null", 4);
  if (opts_.color) color_end();
}

void writer::boolean(bool b) {
  if (opts_.color) color_start(b ? k_slot_true : k_slot_false);
  if (b)
    out_.append("true", 4);
  else
    out_.append("false", 5);
  if (opts_.color) color_end();
}

void writer::number(double d) {
  if (opts_.color) color_start(k_slot_number);
  char* o = out_.reserve(k_max_double_chars);
  out_.commit(write_double_shortest(d, o));
  if (opts_.color) color_end();
}

void writer::number_literal(std::string_view text) {
  if (opts_.color) color_start(k_slot_number);
  if (opts_.numbers == number_mode::shortest)
    out_.commit(write_number_shortest(text, out_.reserve(k_max_double_chars)));
  else
    out_.append(text);
  if (opts_.color) color_end();
}

// Writes the escaped body of a UTF-8 string. `verbatim`: known to need no escaping (no -a, no escapes, no DEL).
void writer::string_body(const char* p, std::size_t n, bool verbatim) {
  if (verbatim) {
    out_.append(p, n);
    return;
  }
  const char* end = p + n;
  while (p < end) {
    const char* run = p;
    if (opts_.ascii) {
      while (p < end && !k_escape.needs[static_cast<unsigned char>(*p)] && static_cast<unsigned char>(*p) < 0x80) ++p;
    } else {
      while (p < end && !k_escape.needs[static_cast<unsigned char>(*p)]) ++p;
    }
    out_.append(run, static_cast<std::size_t>(p - run));
    if (p == end) break;
    const unsigned char c = static_cast<unsigned char>(*p);
    char* o = out_.reserve(12);
    if (c >= 0x80) {  // -a
      std::uint32_t cp;
      std::size_t k = utf8::decode(reinterpret_cast<const unsigned char*>(p), reinterpret_cast<const unsigned char*>(end), cp);
      if (k == 0) {
        cp = utf8::k_replacement;
        k = 1;
      }
      p += k;
      if (cp >= 0x10000) {
        cp -= 0x10000;
        o = write_u_escape(o, 0xd800 + (cp >> 10));
        o = write_u_escape(o, 0xdc00 + (cp & 0x3ff));
      } else {
        o = write_u_escape(o, cp);
      }
      out_.commit(o);
      continue;
    }
    ++p;
    *o++ = '\\';
    switch (c) {
      case '"': *o++ = '"'; break;
      case '\\': *o++ = '\\'; break;
      case '\n': *o++ = 'n'; break;
      case '\t': *o++ = 't'; break;
      case '\r': *o++ = 'r'; break;
      case '\b': *o++ = 'b'; break;
      case '\f': *o++ = 'f'; break;
      default: o = write_u_escape(o - 1, c); break;
    }
    out_.commit(o);
  }
}

// A source string body with escapes, rewritten in jq's escaping without decoding it first: most escapes are
// already jq's (\" \\ \n \t \r \b \f), \/ becomes '/', \uXXXX becomes UTF-8 unless jq escapes that
// character too, and a raw DEL becomes \u007f. (Decoding into a scratch string and escaping again was ~4x slower on
// gsoc-2018's long texts.)
void writer::transcode_escaped(const char* p, std::size_t n) {
  const char* end = p + n;
  while (p < end) {
    const char* run = p;
    // In a source string only '\\' and DEL stop the run (quotes and control bytes appear escaped).
#if JVIEW_HAVE_SSE2
    p = !opts_.kernels->vector_scanners() ? simd::portable_run::find_end(p, end) : simd::sse2_run::find_end(p, end);
#elif JVIEW_HAVE_NEON
    p = !opts_.kernels->vector_scanners() ? simd::portable_run::find_end(p, end) : simd::neon_run::find_end(p, end);
#else
    p = simd::portable_run::find_end(p, end);
#endif
    out_.append(run, static_cast<std::size_t>(p - run));
    if (p == end) break;
    char* o = out_.reserve(12);
    if (*p == 0x7f) {
      o = write_u_escape(o, 0x7f);
      ++p;
      out_.commit(o);
      continue;
    }
    const char e = p[1];
    if (e != 'u') {
      if (e == '/') {
        *o++ = '/';
      } else {
        *o++ = '\\';
        *o++ = e;
      }
      p += 2;
      out_.commit(o);
      continue;
    }
    const std::uint32_t cp = utf8::decode_u_escape(p, end);
    if (cp < 0x80 && k_escape.needs[cp]) {
      *o++ = '\\';
      switch (cp) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '\n': *o++ = 'n'; break;
        case '\t': *o++ = 't'; break;
        case '\r': *o++ = 'r'; break;
        case '\b': *o++ = 'b'; break;
        case '\f': *o++ = 'f'; break;
        default: o = write_u_escape(o - 1, cp); break;
      }
    } else {
      o = utf8::encode(o, cp);
    }
    out_.commit(o);
  }
}

void writer::string(std::string_view s) {
  if (opts_.color) color_start(k_slot_string);
  out_.put('"');
  string_body(s.data(), s.size(), false);
  out_.put('"');
  if (opts_.color) color_end();
}

void writer::key(std::string_view s) {
  if (opts_.color) color_start(k_slot_key);
  out_.put('"');
  string_body(s.data(), s.size(), false);
  out_.put('"');
  if (opts_.color) color_end();
  punct(kind::object, ':');
  if (opts_.pretty) out_.put(' ');
}

void writer::string_node(const document& doc, std::uint32_t i, bool is_key) {
  const node& n = doc[i];
  if (opts_.color) color_start(is_key ? k_slot_key : k_slot_string);
  out_.put('"');
  if ((n.flags & (node_flag::escapes | node_flag::bad_utf8)) == 0) {
    string_body(doc.source() + n.offset, n.len, !opts_.ascii);
  } else if ((n.flags & node_flag::bad_utf8) == 0 && !opts_.ascii) {
    transcode_escaped(doc.source() + n.offset, n.len);
  } else {
    tmp_.clear();
    doc.append_string(i, tmp_);
    string_body(tmp_.data(), tmp_.size(), false);
  }
  out_.put('"');
  if (opts_.color) color_end();
  if (is_key) {
    punct(kind::object, ':');
    if (opts_.pretty) out_.put(' ');
  }
}

void writer::scalar_node(const document& doc, std::uint32_t i) {
  const node& n = doc[i];
  switch (n.k) {
    case kind::null_: null_value(); break;
    case kind::false_: boolean(false); break;
    case kind::true_: boolean(true); break;
    case kind::number: number_literal(doc.raw(i)); break;
    case kind::string: string_node(doc, i, false); break;
    default: break;
  }
}

void writer::open(kind k) {
  punct(k, k == kind::array ? '[' : '{');
  ++depth_;
}

void writer::item(kind k, bool first) {
  if (!first) punct(k, ',');
  newline_indent();
}

void writer::close(kind k, bool empty) {
  --depth_;
  if (!empty) newline_indent();
  punct(k, k == kind::array ? ']' : '}');
}

void writer::empty_container(kind k) {
  if (opts_.color) color_start(k == kind::array ? k_slot_array : k_slot_object);
  out_.append(k == kind::array ? "[]" : "{}", 2);
  if (opts_.color) color_end();
}

// A whole value written compact that document::verbatim() says needs no node: its text without the whitespace
// outside strings, by the minify kernel, 64 KiB at a time (the output buffer stays one chunk).
void writer::minified(std::string_view text) {
  const simd::minify_fn minify = opts_.kernels->minify->run;
  constexpr std::size_t k_step = 64 * 1024;  // a multiple of 64: only the last step has a partial block
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  simd::minify_state st;
  for (std::size_t left = text.size(); left != 0;) {
    const std::size_t n = std::min(left, k_step);
    out_.commit(simd::minify_bytes(minify, p, n, out_.reserve(n + 64), st));
    p += n;
    left -= n;
  }
}

// The common case (no colour, no sorting, no -a): one linear pass over the nodes, which are in document order,
// with a stack of container ends. Tokens go to the buffer straight from the source bytes.
void writer::value_plain(const document& doc, std::uint32_t root) {
  const node* nodes = doc.nodes();
  const char* src = doc.source();
  const unsigned key_tail = opts_.pretty ? 2 : 1;  // ": " or ":" after a key
  const bool source_numbers = opts_.numbers == number_mode::source;
  ends_.clear();
  std::uint32_t i = root;
  bool first;
  for (;;) {
    const node& n = nodes[i];
    switch (n.k) {
      case kind::array:
      case kind::object: {
        const bool obj = n.k == kind::object;
        if (n.len == 0) {
          out_.append(obj ? "{}" : "[]", 2);
          ++i;
          break;
        }
        out_.put(obj ? '{' : '[');
        ++depth_;
        ends_.push_back(n.next | (obj ? 0x80000000u : 0u));
        ++i;
        first = true;
        goto next_item;
      }
      case kind::string:
        if ((n.flags & (node_flag::escapes | node_flag::bad_utf8)) == 0) [[likely]] {
          put_plain_string(out_, src + n.offset, n.len);
        } else {
          string_node(doc, i, false);
        }
        ++i;
        break;
      case kind::number:
        if (source_numbers) [[likely]]
          out_.append(src + n.offset, n.len);
        else
          out_.commit(write_number_shortest(doc.raw(i), out_.reserve(k_max_double_chars)));
        ++i;
        break;
      default:  // literals: their source bytes are their text
        out_.append(src + n.offset, n.len);
        ++i;
        break;
    }
    first = false;
  next_item:
    while (!ends_.empty() && i == (ends_.back() & 0x7fffffffu)) {
      const bool obj = (ends_.back() & 0x80000000u) != 0;
      ends_.pop_back();
      --depth_;
      newline_indent();
      out_.put(obj ? '}' : ']');
    }
    if (ends_.empty()) return;
    if (!first) out_.put(',');
    newline_indent();
    if ((ends_.back() & 0x80000000u) != 0) {  // a member: key first
      const node& k = nodes[i];
      if ((k.flags & (node_flag::escapes | node_flag::bad_utf8)) == 0) [[likely]] {
        put_plain_string(out_, src + k.offset, k.len, key_tail);
      } else {
        string_node(doc, i, true);
      }
      ++i;
    }
  }
}

void writer::value(const document& doc, std::uint32_t root) {
  if (root == 0 && !opts_.pretty && opts_.numbers == number_mode::source && !opts_.color && !opts_.sort_keys &&
      !opts_.ascii && doc.verbatim()) {
    minified(doc.text());
    return;
  }
  if (!opts_.color && !opts_.sort_keys && !opts_.ascii && !doc.has_duplicate_keys()) {
    value_plain(doc, root);
    return;
  }
  stack_.clear();
  sorted_.clear();
  std::uint32_t i = root;
  for (;;) {
    // Write node i: a scalar, or open a container and push its frame.
    const node& n = doc[i];
    if (n.k == kind::array || n.k == kind::object) {
      if (n.len == 0) {
        empty_container(n.k);
      } else {
        open(n.k);
        frame f{i + 1, n.next, 0, n.k == kind::object, true, false};
        const bool duplicates = f.object && (n.flags & node_flag::duplicate_keys) != 0;
        if (f.object && (opts_.sort_keys || duplicates)) {
          // The member keys (one per distinct key, as jq: first position, last value), sorted under -S by decoded
          // key (UTF-8 byte order = code point order, as jq).
          const std::uint32_t begin = static_cast<std::uint32_t>(sorted_.size());
          if (duplicates)
            doc.unique_member_keys(i, sorted_);
          else
            for (std::uint32_t k = i + 1; k < n.next; k = doc[k + 1].next) sorted_.push_back(k);
          if (opts_.sort_keys)
            std::stable_sort(sorted_.begin() + begin, sorted_.end(), [&doc](std::uint32_t a, std::uint32_t b) {
              return doc.string_value(a) < doc.string_value(b);
            });
          f = frame{begin, static_cast<std::uint32_t>(sorted_.size()), begin, true, true, true};
        }
        stack_.push_back(f);
      }
    } else {
      scalar_node(doc, i);
    }
    // Find the next node to write, closing finished containers.
    for (;;) {
      if (stack_.empty()) return;
      frame& f = stack_.back();
      if (f.pos == f.end) {
        if (f.sorted) sorted_.resize(f.begin);
        close(f.object ? kind::object : kind::array, false);
        stack_.pop_back();
        continue;
      }
      item(f.object ? kind::object : kind::array, f.first);
      f.first = false;
      if (f.object) {
        const std::uint32_t k = f.sorted ? sorted_[f.pos] : f.pos;
        string_node(doc, k, true);
        i = k + 1;
        f.pos = f.sorted ? f.pos + 1 : doc[i].next;
      } else {
        i = f.pos;
        f.pos = doc[i].next;
      }
      break;
    }
  }
}

}  // namespace jview
