// core/parser.cpp: the one-pass validating parser. A goto state machine over an explicit stack: the open container
// lives in locals (`cur`, `count`) and only its two fields are pushed when a child container opens (a frame built
// and copied as a whole is reloaded by wider loads than its stores and stalls store forwarding).
// Instantiated once per string scanner (portable, SSE2/NEON); the choice is made once per value. The two-stage path,
// tried first where a stage-1 kernel is chosen, is core/parser_two_stage.cpp.
#include "core/parser.hpp"

#include "core/parser_detail.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <cstdlib>
#include <new>

#include "core/json_lexer.hpp"
#include "core/utf8.hpp"
#include "simd/kernels.hpp"
#include "simd/pages.hpp"
#include "simd/string_run.hpp"
#include "simd/string_scan.hpp"
#include "simd/whitespace.hpp"

namespace jview {

using parse_detail::confirm_duplicate_keys;

namespace {

// One spare key table per process: parsers come and go (one per file under `--check *.json`), and the next one
// takes the pages the last one touched instead of faulting in fresh ones. Its address, with the lowest bit set when
// it is on huge pages.
std::atomic<std::uintptr_t> g_spare_key_table{0};

}  // namespace

void parser::table_deleter::operator()(std::uint64_t* p) const noexcept {
  std::uintptr_t none = 0;
  if (!g_spare_key_table.compare_exchange_strong(none, reinterpret_cast<std::uintptr_t>(p) | (huge ? 1 : 0)))
    simd::unmap_pages(p, mapping());
}

bool parser::ensure_key_table(std::size_t len) noexcept {
  if (key_table_) return true;
  std::uint64_t* t;
  table_deleter kind;
  if (const std::uintptr_t spare = g_spare_key_table.exchange(0); spare != 0) {
    t = reinterpret_cast<std::uint64_t*>(spare & ~std::uintptr_t{1});
    kind = table_deleter((spare & 1) != 0);
    key_tag_ = std::max<std::uint32_t>(static_cast<std::uint32_t>(t[k_key_table_slots]), 1);
  } else {
    // The table is written at random, and fresh 4 KiB pages cost 5-17 µs each at their first write on the VMs we
    // measure (still about 4 µs after MADV_POPULATE_WRITE): a 64 KB file touched 29 of its pages, twitter.json 36.
    // For a large input it goes on huge pages (usually the one the file's bytes are on), for a small one its
    // pages are populated in one call.
    kind = table_deleter(len >= simd::k_large_input);
    void* mem = kind.huge ? simd::map_huge_pages(kind.mapping()) : simd::map_pages(kind.mapping());
    t = static_cast<std::uint64_t*>(mem);
    if (t == nullptr) return false;
    if (!kind.huge) simd::prefault_write(t, k_key_table_bytes);
  }
  key_table_ = std::unique_ptr<std::uint64_t[], table_deleter>(t, kind);
  if (kind.huge) index_.lend_arrays(reinterpret_cast<std::uint32_t*>(reinterpret_cast<char*>(t) + k_key_table_arrays_at));
  return true;
}

namespace {

using lexer::canonical_escape;
using lexer::continues_token;
using lexer::is_digit;
using lexer::portable_kernels;
using lexer::scan_string;
#if JVIEW_HAVE_SSE2 || JVIEW_HAVE_NEON
using lexer::vector_kernels;
#endif

}  // namespace

bool parse_detail::confirm_duplicate_keys(document& doc, const char* base, node* nodes, std::uint32_t n,
                                          std::uint32_t cur, std::uint32_t count) {
  doc.set(base, n);
  if (count >= 2 && doc.object_has_duplicate_keys(cur)) return true;
  nodes[cur].flags &= static_cast<std::uint8_t>(~node_flag::duplicate_keys);
  return false;
}

bool parser::at_end(const char*& p, const char* end) noexcept {
  p = simd::portable_ws::skip(p, end);
  return p == end;
}

namespace {
const simd::kernels& kernels_of(const parse_options& opts) noexcept {
  return opts.kernels != nullptr ? *opts.kernels : simd::active_kernels();
}
}  // namespace

parser::parser(parse_options opts)
    : opts_(opts),
      vector_scanners_(kernels_of(opts).vector_scanners()),
      validate_(kernels_of(opts).utf8->validate_utf8),
      stage1_(opts.replace_invalid_utf8 || opts.path == parse_path::one_pass ? nullptr : kernels_of(opts).structure) {
  opts_.kernels = &kernels_of(opts);
}

parse_error parser::parse(const char* begin, const char* end, document& doc, const char*& stop) {
#if JVIEW_HAVE_SSE2 || JVIEW_HAVE_NEON
  if (vector_scanners_) {
    if (two_stage_may_take(begin, end) && parse_two_stage(begin, end, doc, stop)) return {};
    return parse_impl<vector_kernels>(begin, end, doc, stop);
  }
#endif
  return parse_impl<portable_kernels>(begin, end, doc, stop);
}

template <class K>
parse_error parser::parse_impl(const char* begin, const char* end, document& doc, const char*& stop) {
  const auto skip_ws = [](const char* q, const char* e) { return K::ws::skip(q, e); };
  const auto validate = validate_;
  const char* p = skip_ws(begin, end);
  const char* const base = p;
  // Offsets are 32-bit and relative to the value: a single value may span at most 4 GiB - 1 bytes.
  bool clipped = false;
  if (static_cast<std::uint64_t>(end - base) >= 0xffffffffull) {
    end = base + 0xfffffffeull;
    clipped = true;
  }
  node* nodes;
  try {
    // Every value takes at least one byte and all but the last are followed by a separator: at most len/2 + 2.
    // Ask for up to 64Ki nodes first; a bigger value grows the arena as it goes (document::grow), so the
    // address space reserved follows the need (`ulimit -v`), not 8 times the input. Of that, pages for one node
    // per 16 bytes are made writable now (the corpus has one per 4 to 90 bytes, most 10 to 30; grow() projects
    // the rest from the bytes parsed).
    const std::size_t len = static_cast<std::size_t>(end - base);
    nodes = doc.reserve(std::min<std::size_t>(len / 2 + 2, 65536), len / 16 + 256);
  } catch (const std::bad_alloc&) {
    return {error_code::out_of_memory, static_cast<std::size_t>(p - begin)};
  }
  if (!ensure_key_table(static_cast<std::size_t>(end - base))) return {error_code::out_of_memory, static_cast<std::size_t>(p - begin)};
  bool duplicate_keys = false;
  std::uint8_t string_flags = 0;  // of all strings, or-ed (document::verbatim)
  const bool replace = opts_.replace_invalid_utf8;
  const std::uint32_t max_depth = opts_.max_depth;
  std::uint32_t n = 0;          // next node
  std::uint32_t cur = document::npos;  // open container
  std::uint32_t count = 0;      // its elements so far
  std::uint32_t depth = 0;
  error_code err = error_code::ok;
  stack_.clear();
  auto off = [base](const char* q) { return static_cast<std::uint32_t>(q - base); };

#define JVIEW_FAIL(code) \
  do {                   \
    err = (code);        \
    goto failed;         \
  } while (0)
  // Room for one more node (each label below adds at most one before the next check).
  std::size_t cap = doc.capacity();
#define JVIEW_ROOM()                                                                                      \
  if (n >= cap) [[unlikely]] {                                                                            \
    nodes = doc.grow(n, static_cast<std::size_t>(p - base), static_cast<std::size_t>(end - base));        \
    if (nodes == nullptr) JVIEW_FAIL(error_code::out_of_memory);                                          \
    cap = doc.capacity();                                                                                 \
  }

value:
  JVIEW_ROOM();
  if (p == end) JVIEW_FAIL(error_code::unexpected_end);
  switch (*p) {
    case '{':
    case '[': {
      if (depth >= max_depth) [[unlikely]]
        JVIEW_FAIL(error_code::too_deep);
      if (cur != document::npos) stack_.push_back(frame{cur, count});
      const bool is_object = *p == '{';
      cur = n;
      count = 0;
      nodes[n] = node{is_object ? kind::object : kind::array, 0, 0, off(p), 0, 0};
      ++n;
      ++depth;
      p = skip_ws(p + 1, end);
      if (p == end) JVIEW_FAIL(error_code::unexpected_end);
      if (is_object) {
        if (*p == '}') {
          ++p;
          goto close;
        }
        goto key;
      }
      if (*p == ']') {
        ++p;
        goto close;
      }
      goto value;
    }
    case '"': {
      const char* s = ++p;
      std::uint8_t flags = 0;
      err = scan_string<K>(p, end, replace, validate, flags);
      if (err != error_code::ok) [[unlikely]] {
        if (err == error_code::unterminated_string) p = s - 1;
        goto failed;
      }
      nodes[n] = node{kind::string, flags, 0, off(s), static_cast<std::uint32_t>(p - s), n + 1};
      string_flags |= flags;
      ++n;
      ++p;
      goto after_value;
    }
    case 't':
    case 'f':
    case 'n': {
      kind k;
      const std::size_t len = lexer::match_literal(p, end, k);
      if (len == 0) JVIEW_FAIL(error_code::bad_literal);
      nodes[n] = node{k, 0, 0, off(p), static_cast<std::uint32_t>(len), n + 1};
      ++n;
      p += len;
      goto after_value;
    }
    case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9': {
      const char* s = p;
      std::uint8_t flags;
      err = lexer::scan_number(p, end, flags);
      if (err != error_code::ok) [[unlikely]]
        goto failed;
      nodes[n] = node{kind::number, flags, 0, off(s), static_cast<std::uint32_t>(p - s), n + 1};
      ++n;
      goto after_value;
    }
    case ']':
    case '}':
    case ',':
    case ':':
      JVIEW_FAIL(error_code::expected_value);
    default:
      JVIEW_FAIL(error_code::unexpected_char);
  }

key:
  // p is at a non-whitespace byte (or end) where an object key must start.
  if (p == end) JVIEW_FAIL(error_code::unexpected_end);
  if (*p != '"') JVIEW_FAIL(error_code::expected_key);
key_string:
  // p is at the opening quote of a key.
  JVIEW_ROOM();
  {
    const char* s = ++p;
    std::uint8_t flags = 0;
    err = scan_string<K>(p, end, replace, validate, flags);
    if (err != error_code::ok) [[unlikely]] {
      if (err == error_code::unterminated_string) p = s - 1;
      goto failed;
    }
    const auto len = static_cast<std::uint32_t>(p - s);
    nodes[n] = node{kind::string, flags, 0, off(s), len, n + 1};
    string_flags |= flags;
    ++n;
    note_key(nodes[cur], cur, depth, s, len, flags);
    ++p;
  }
  if (p < end && *p == ':') [[likely]] {  // the colon right after the key, as nearly every writer puts it
    p = skip_ws(p + 1, end);
    goto value;
  }
  p = skip_ws(p, end);
  if (p == end) JVIEW_FAIL(error_code::unexpected_end);
  if (*p != ':') JVIEW_FAIL(error_code::expected_colon);
  p = skip_ws(p + 1, end);
  goto value;

after_value:
  if (cur == document::npos) goto done;
  ++count;
  p = skip_ws(p, end);
  if (p == end) JVIEW_FAIL(error_code::unexpected_end);
  if (nodes[cur].k == kind::object) {
    if (*p == ',') {
      p = skip_ws(p + 1, end);
      if (p < end && *p == '"') [[likely]]
        goto key_string;
      if (p < end && *p == '}') JVIEW_FAIL(error_code::trailing_comma);
      goto key;
    }
    if (*p == '}') {
      ++p;
      goto close;
    }
    JVIEW_FAIL(error_code::expected_comma_or_close_object);
  }
  if (*p == ',') {
    p = skip_ws(p + 1, end);
    if (p < end && *p == ']') JVIEW_FAIL(error_code::trailing_comma);
    goto value;
  }
  if (*p == ']') {
    ++p;
    goto close;
  }
  JVIEW_FAIL(error_code::expected_comma_or_close_array);

close:
  nodes[cur].len = count;
  nodes[cur].next = n;
  if ((nodes[cur].flags & node_flag::duplicate_keys) != 0) [[unlikely]]
    duplicate_keys |= confirm_duplicate_keys(doc, base, nodes, n, cur, count);
  --depth;
  if (stack_.empty()) {
    cur = document::npos;
  } else {
    cur = stack_.back().index;
    count = stack_.back().count;
    stack_.pop_back();
  }
  goto after_value;

done:
  // A top-level number or literal may not run straight into letters or digits ("truex", "1x").
  if (nodes[0].k != kind::array && nodes[0].k != kind::object && nodes[0].k != kind::string && p < end &&
      continues_token(*p))
    JVIEW_FAIL(nodes[0].k == kind::number ? error_code::bad_number : error_code::bad_literal);
  doc.set(base, n, {static_cast<std::uint32_t>(p - base), duplicate_keys, string_flags});
  retire_key_tags(n);
  stop = p;
  return {};

failed:
#undef JVIEW_FAIL
#undef JVIEW_ROOM
  if (clipped && p >= end) err = error_code::value_too_large;
  doc.set(base, 0);
  retire_key_tags(n);
  stop = p;
  return {err, static_cast<std::size_t>(p - begin)};
}

}  // namespace jview
