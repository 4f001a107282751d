// core/parser.cpp: the one-pass validating parser. A goto state machine over an explicit stack: the open container
// lives in locals (`cur`, `count`) and only its two fields are pushed when a child container opens (a frame built
// and copied as a whole is reloaded by wider loads than its stores and stalls store forwarding).
// Instantiated once per string scanner (portable, SSE2/NEON); the choice is made once per value.
#include "core/parser.hpp"

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

namespace {

// One spare key table per process: parsers come and go (one per file under `--check *.json`), and the next one
// takes the pages the last one touched instead of faulting in fresh ones. Its address, with the lowest bit set when
// it is on huge pages.
std::atomic<std::uintptr_t> g_spare_key_table{0};

}  // namespace

void parser::table_deleter::operator()(std::uint32_t* p) const noexcept {
  std::uintptr_t none = 0;
  if (!g_spare_key_table.compare_exchange_strong(none, reinterpret_cast<std::uintptr_t>(p) | (huge ? 1 : 0)))
    simd::unmap_pages(p, mapping());
}

bool parser::ensure_key_table(std::size_t len) noexcept {
  if (key_table_) return true;
  std::uint32_t* t;
  table_deleter kind;
  if (const std::uintptr_t spare = g_spare_key_table.exchange(0); spare != 0) {
    t = reinterpret_cast<std::uint32_t*>(spare & ~std::uintptr_t{1});
    kind = table_deleter((spare & 1) != 0);
    key_tag_ = std::max<std::uint32_t>(t[k_key_table_slots], 1);
  } else {
    // The table is written at random, and fresh 4 KiB pages cost 5-17 µs each at their first write on the VMs we
    // measure (still about 4 µs after MADV_POPULATE_WRITE): a 64 KB file touched 29 of its pages, twitter.json 36.
    // For a large input it goes on huge pages (usually the one the file's bytes are on), for a small one its
    // pages are populated in one call.
    kind = table_deleter(len >= simd::k_large_input);
    void* mem = kind.huge ? simd::map_huge_pages(kind.mapping()) : simd::map_pages(kind.mapping());
    t = static_cast<std::uint32_t*>(mem);
    if (t == nullptr) return false;
    if (!kind.huge) simd::prefault_write(t, k_key_table_bytes);
  }
  key_table_ = std::unique_ptr<std::uint32_t[], table_deleter>(t, kind);
  if (kind.huge) index_.lend_arrays(t + k_key_table_arrays_at / sizeof(std::uint32_t));
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

// The first non-digit at or after p (or end): eight bytes at a time, so a long run of digits costs no branch per
// digit (a byte is a digit when its high nibble is 3 both before and after adding 6; a carry out of a non-digit
// byte only disturbs the bytes after it).
[[gnu::always_inline]] inline const char* skip_digits(const char* p, const char* end) noexcept {
  constexpr std::uint64_t k_high = 0xf0f0f0f0f0f0f0f0ull, k_three = 0x3030303030303030ull;
  while (end - p >= 8) {
    std::uint64_t x;
    std::memcpy(&x, p, 8);
    const std::uint64_t bad = ((x & k_high) ^ k_three) | (((x + 0x0606060606060606ull) & k_high) ^ k_three);
    if (bad != 0) return p + (std::countr_zero(bad) >> 3);
    p += 8;
  }
  while (p < end && is_digit(*p)) ++p;
  return p;
}

// The escapes of a string body [p, q) that stage 1 bounded and found to hold a backslash or DEL (its UTF-8 and
// control bytes are already checked): true when every escape is one scan_string accepts (no replacement mode);
// `recoded` tells whether jq writes the string otherwise (node_flag::recoded).
// Cheaper than scan_string there: no byte classes, no second UTF-8 pass (twitter.json: 312 of its 18,099 strings).
[[gnu::always_inline]] inline bool escapes_valid(const char* p, const char* q, bool& recoded) noexcept {
  recoded = std::memchr(p, 0x7f, static_cast<std::size_t>(q - p)) != nullptr;
  for (;;) {
    if (p == q || *p != '\\') {  // escapes often come in runs (\u30b9\u30d4): look before searching
      p = static_cast<const char*>(std::memchr(p, '\\', static_cast<std::size_t>(q - p)));
      if (p == nullptr) return true;
    }
    if (q - p < 2) return false;
    switch (p[1]) {
      case '/':
        recoded = true;
        [[fallthrough]];
      case '"': case '\\': case 'b': case 'f': case 'n': case 'r': case 't':
        p += 2;
        continue;
      case 'u': {
        std::uint32_t cp;
        if (!utf8::read_hex4(p + 2, q, cp)) return false;
        recoded |= !canonical_escape(p);
        p += 6;
        if (cp >= 0xd800 && cp <= 0xdbff) {
          std::uint32_t lo;
          if (q - p >= 6 && p[0] == '\\' && p[1] == 'u' && utf8::read_hex4(p + 2, q, lo) && lo >= 0xdc00 &&
              lo <= 0xdfff) {
            p += 6;
            continue;
          }
          return false;
        }
        if (cp >= 0xdc00 && cp <= 0xdfff) return false;
        continue;
      }
      default:
        return false;
    }
  }
}

// The flags of a string body [p, q) that stage 1 found to hold a backslash or DEL; false when an escape is invalid.
[[gnu::always_inline]] inline bool special_string_flags(const char* p, const char* q, std::uint8_t& flags) noexcept {
  bool recoded;
  if (!escapes_valid(p, q, recoded)) return false;
  flags = recoded ? static_cast<std::uint8_t>(node_flag::escapes | node_flag::recoded) : node_flag::escapes;
  return true;
}

// Four bytes as one integer: a literal is checked with one compare.
[[gnu::always_inline]] inline std::uint32_t load4(const char* p) noexcept {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// Writes a node as two 8-byte stores (GCC builds the 16 bytes field by field otherwise: 12 instructions per node).
[[gnu::always_inline]] inline void put_node(node* at, kind k, std::uint8_t flags, std::uint32_t offset,
                                           std::uint32_t len, std::uint32_t next) noexcept {
  if constexpr (std::endian::native == std::endian::little) {
    const std::uint64_t a = static_cast<std::uint64_t>(k) | static_cast<std::uint64_t>(flags) << 8 |
                            static_cast<std::uint64_t>(offset) << 32;
    const std::uint64_t b = static_cast<std::uint64_t>(len) | static_cast<std::uint64_t>(next) << 32;
    std::memcpy(reinterpret_cast<char*>(at), &a, 8);
    std::memcpy(reinterpret_cast<char*>(at) + 8, &b, 8);
  } else {
    *at = node{k, flags, 0, offset, len, next};
  }
}

// Bytes that may follow a number or literal inside a container: whitespace and structural characters.
struct ends_scalar_table {
  bool yes[256];
  constexpr ends_scalar_table() : yes{} {
    for (unsigned char c : {' ', '\t', '\n', '\r', ',', ':', '[', ']', '{', '}'}) yes[c] = true;
  }
};
inline constexpr ends_scalar_table k_ends_scalar{};

// Closing an object that the key table flagged as a candidate (parser::note_key): the exact test, now that its
// members are all there. Clears the flag when no key repeats; true when one does.
bool confirm_duplicate_keys(document& doc, const char* base, node* nodes, std::uint32_t n, std::uint32_t cur,
                            std::uint32_t count) {
  doc.set(base, n);
  if (count >= 2 && doc.object_has_duplicate_keys(cur)) return true;
  nodes[cur].flags &= static_cast<std::uint8_t>(~node_flag::duplicate_keys);
  return false;
}

}  // namespace

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
    if (stage1_ != nullptr && parse_two_stage(begin, end, doc, stop)) return {};
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

// The two-stage path. Stage 1 (simd/structural.hpp) lists the position of every structural character, both quotes
// of every string and the first byte of every number or literal; this walk turns the list into the same nodes as
// parse_impl. Strings cost one compare (their end is the next token; a side list names the few holding escapes or
// DEL, which scan_string checks); whitespace costs nothing. A control byte in a string or invalid UTF-8 ends the
// token list early, so the walk runs out of tokens. Whenever anything is not as it should be, the walk gives up
// and parse_impl parses the value again, producing the exact error; the index is dropped then.
// The index outlives the value: the next call starting at `stop` in the same buffer continues in the same batch.
bool parser::parse_two_stage(const char* begin, const char* end, document& doc, const char*& stop) {
#if JVIEW_HAVE_SSE2 || JVIEW_HAVE_NEON
  simd::structural_index& ix = index_;
  if (!ix.continues(begin, end)) {
    // Tiny inputs (fromjson, a short line in a pipe) do not repay stage 1's set-up; top-level scalars need no index.
    if (opts_.path == parse_path::automatic && end - begin < 192) return false;
    const char* first = simd::portable_ws::skip(begin, end);
    if (first == end || (*first != '{' && *first != '[')) return false;
    if (!ensure_key_table(static_cast<std::size_t>(end - first))) return false;  // before start: it may lend arrays
    if (!ix.start(stage1_, validate_, first, end)) return false;
  }
  const std::uint32_t* tp = ix.cursor();
  const std::uint32_t* te = ix.pos_end();
  const std::uint32_t* sp = ix.special_cursor();
  const char* bb = ix.base();
  const char* p;
  const char* q;
  const char* base = begin;  // the value's first byte once known (before that, a bound for refill's size check)
  node* nodes = nullptr;
  std::uint32_t n = 0;
  std::uint32_t cur = document::npos;
  std::uint32_t count = 0;
  std::uint32_t depth = 0;
  bool in_object = false;  // the kind of `cur`, kept in a register (read from its node only when a child closes)
  bool duplicate_keys = false;
  std::uint8_t string_flags = 0;  // of all strings, or-ed (document::verbatim)
  const std::uint32_t max_depth = opts_.max_depth;
  std::size_t cap = 0;
  std::size_t total = 0;
  stack_.clear();
  auto off = [&base](const char* x) { return static_cast<std::uint32_t>(x - base); };
  // Next batch of tokens (skipping empty ones: a long string or run of whitespace). Offsets stay 32-bit: a value
  // reaching 4 GiB from its start gives up (parse_impl reports value_too_large).
  const auto refill = [&]() -> bool {
    do {
      if (!ix.next_batch()) return false;
      bb = ix.base();
      tp = ix.cursor();
      te = ix.pos_end();
      sp = ix.special_cursor();
      if (static_cast<std::uint64_t>(bb - base) + simd::structural_index::k_batch >= 0xfffffffeull) return false;
    } while (tp == te);
    return true;
  };
#define JVIEW_NEXT(x)                        \
  do {                                       \
    if (tp == te) [[unlikely]] {             \
      if (!refill()) goto give_up;           \
    }                                        \
    (x) = bb + *tp++;                        \
  } while (0)
#define JVIEW_ROOM()                                                                                     \
  if (n >= cap) [[unlikely]] {                                                                           \
    nodes = doc.grow(n, static_cast<std::size_t>(p - base), total);                                      \
    if (nodes == nullptr) goto give_up;                                                                  \
    cap = doc.capacity();                                                                                \
  }

  if (tp == te && !refill()) goto give_up;
  p = bb + *tp++;
  if (*p != '{' && *p != '[') goto give_up;  // a top-level scalar after the previous value
  base = p;
  total = std::min<std::size_t>(static_cast<std::size_t>(end - base), 0xfffffffeu);
  try {
    nodes = doc.reserve(std::min<std::size_t>(total / 2 + 2, 65536), total / 16 + 256);  // as in parse_impl
  } catch (const std::bad_alloc&) {
    goto give_up;
  }
  cap = doc.capacity();
  if (!ensure_key_table(total)) goto give_up;

value:
  // p is at the token where a value must start.
  JVIEW_ROOM();
  switch (*p) {
    case '{':
    case '[': {
      if (depth >= max_depth) [[unlikely]]
        goto give_up;
      if (cur != document::npos) stack_.push_back(frame{cur, count});
      in_object = *p == '{';
      cur = n;
      count = 0;
      put_node(nodes + n, in_object ? kind::object : kind::array, 0, off(p), 0, 0);
      ++n;
      ++depth;
      JVIEW_NEXT(p);
      if (in_object) {
        if (*p == '}') goto close;
        if (*p == '"') [[likely]]
          goto key_string;
        goto give_up;
      }
      if (*p == ']') goto close;
      goto value;
    }
    case '"': {
      JVIEW_NEXT(q);  // the closing quote
      std::uint8_t flags = 0;
      if (tp[-1] == *sp) [[unlikely]] {  // holds a backslash or DEL: check the escapes like parse_impl
        ++sp;
        if (!special_string_flags(p + 1, q, flags)) goto give_up;
        string_flags |= flags;
      }
      put_node(nodes + n, kind::string, flags, off(p + 1), static_cast<std::uint32_t>(q - p - 1), n + 1);
      ++n;
      goto after_value;
    }
    case 't':
      if (end - p < 5 || load4(p) != load4("true") || !k_ends_scalar.yes[static_cast<unsigned char>(p[4])])
        goto give_up;
      put_node(nodes + n, kind::true_, 0, off(p), 4, n + 1);
      ++n;
      goto after_value;
    case 'f':
      if (end - p < 6 || load4(p + 1) != load4("alse") || !k_ends_scalar.yes[static_cast<unsigned char>(p[5])])
        goto give_up;
      put_node(nodes + n, kind::false_, 0, off(p), 5, n + 1);
      ++n;
      goto after_value;
    case 'n':
      if (end - p < 5 || load4(p) != load4("null") || !k_ends_scalar.yes[static_cast<unsigned char>(p[4])])
        goto give_up;
      put_node(nodes + n, kind::null_, 0, off(p), 4, n + 1);
      ++n;
      goto after_value;
    case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9': {
      const char* s = p;
      std::uint8_t flags = node_flag::integer;
      if (*p == '-') {
        flags |= node_flag::negative;
        ++p;
        if (p == end || !is_digit(*p)) goto give_up;
      }
      p = *p == '0' ? p + 1 : skip_digits(p + 1, end);
      if (p < end && *p == '.') {
        flags &= static_cast<std::uint8_t>(~node_flag::integer);
        ++p;
        if (p == end || !is_digit(*p)) goto give_up;
        p = skip_digits(p + 1, end);
      }
      if (p < end && (*p | 0x20) == 'e') {
        flags &= static_cast<std::uint8_t>(~node_flag::integer);
        ++p;
        if (p < end && (*p == '+' || *p == '-')) ++p;
        if (p == end || !is_digit(*p)) goto give_up;
        p = skip_digits(p + 1, end);
      }
      // The number must end at whitespace or a structural character (also rules out leading zeros: "01").
      if (p == end || !k_ends_scalar.yes[static_cast<unsigned char>(*p)]) goto give_up;
      put_node(nodes + n, kind::number, flags, off(s), static_cast<std::uint32_t>(p - s), n + 1);
      ++n;
      goto after_value;
    }
    default:
      goto give_up;
  }

key_string:
  // p is at the opening quote of a key.
  JVIEW_ROOM();
  JVIEW_NEXT(q);
  {
    const char* const s = p + 1;
    std::uint8_t flags = 0;
    if (tp[-1] == *sp) [[unlikely]] {
      ++sp;
      if (!special_string_flags(s, q, flags)) goto give_up;
      string_flags |= flags;
    }
    const auto len = static_cast<std::uint32_t>(q - s);
    put_node(nodes + n, kind::string, flags, off(s), len, n + 1);
    ++n;
    note_key(nodes[cur], cur, depth, s, len, flags);
  }
  if (te - tp >= 2) [[likely]] {  // the colon and the value's first token in one step
    if (bb[tp[0]] != ':') [[unlikely]]
      goto give_up;
    p = bb + tp[1];
    tp += 2;
    goto value;
  }
  JVIEW_NEXT(p);
  if (*p != ':') [[unlikely]]
    goto give_up;
  JVIEW_NEXT(p);
  goto value;

after_value:
  ++count;
  JVIEW_NEXT(p);
  if (in_object) {
    if (*p == ',') {
      JVIEW_NEXT(p);
      if (*p == '"') [[likely]]
        goto key_string;
      goto give_up;
    }
    if (*p == '}') goto close;
    goto give_up;
  }
  if (*p == ',') {
    JVIEW_NEXT(p);
    goto value;
  }
  if (*p == ']') goto close;
  goto give_up;

close:
  // p is at the closing bracket.
  nodes[cur].len = count;
  nodes[cur].next = n;
  if ((nodes[cur].flags & node_flag::duplicate_keys) != 0) [[unlikely]]
    duplicate_keys |= confirm_duplicate_keys(doc, base, nodes, n, cur, count);
  --depth;
  if (!stack_.empty()) {
    cur = stack_.back().index;
    count = stack_.back().count;
    stack_.pop_back();
    in_object = nodes[cur].k == kind::object;
    goto after_value;
  }
  // The whole value: its non-ASCII bytes not yet validated by stage 1 are checked now.
  if (!ix.validate_upto(p + 1)) goto give_up;
  doc.set(base, n, {static_cast<std::uint32_t>(p + 1 - base), duplicate_keys, string_flags});
  retire_key_tags(n);
  stop = p + 1;
  ix.save(tp, sp, stop);
  ++two_stage_values_;
  return true;

give_up:
#undef JVIEW_NEXT
#undef JVIEW_ROOM
  ix.invalidate();
  retire_key_tags(n);
  return false;
#else
  (void)begin;
  (void)end;
  (void)doc;
  (void)stop;
  return false;
#endif
}

}  // namespace jview
