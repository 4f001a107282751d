// core/parser_two_stage.cpp: the parser's two-stage path (parser::parse_two_stage): a walk over stage 1's token
// index (simd/structural.hpp) that gives the one-pass parser's nodes (core/parser.cpp), or gives up and leaves the
// value to it.
#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>
#include <new>

#include "core/parser.hpp"
#include "core/parser_detail.hpp"
#include "core/utf8.hpp"
#include "simd/string_scan.hpp"
#include "simd/whitespace.hpp"

namespace jview {

namespace {

using parse_detail::canonical_escape;
using parse_detail::confirm_duplicate_keys;
using parse_detail::is_digit;

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

// The flags of a string body [p, q) that stage 1 found to hold a backslash or DEL (its special entry); false when an
// escape is invalid. Escapes that stage 1 found all among \" \\ \b \f \n \r \t need no look.
[[gnu::always_inline]] inline bool special_string_flags(std::uint32_t entry, const char* p, const char* q,
                                                        std::uint8_t& flags) noexcept {
  if ((entry & simd::k_special_checked) == 0) {
    flags = node_flag::escapes;
    return true;
  }
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

// The next batch of tokens that holds any (a long string or run of whitespace gives empty ones). Offsets stay
// 32-bit: a value reaching 4 GiB from its start `base` gives up (parse_impl reports value_too_large); so does an
// input on which the index finds the one-pass parser faster, when `gated` (the automatic choice of path).
[[gnu::noinline]] bool next_tokens(simd::structural_index& ix, const char* base, bool gated) {
  do {
    if (!ix.next_batch() || (gated && ix.one_pass_better())) return false;
    if (static_cast<std::uint64_t>(ix.base() - base) + simd::structural_index::k_batch >= 0xfffffffeull) return false;
  } while (ix.cursor() == ix.pos_end());
  return true;
}
// The walk's cursors, as a refill leaves them.
struct walk_cursors {
  const char* bb;
  const std::uint32_t* tp;
  const std::uint32_t* te;
  const std::uint32_t* sp;
  node* nodes;
};
inline constexpr std::size_t k_room_step = 256;  // tokens of room asked for at least (fewer stops at the room's end)

// The walk's room for nodes. A value has fewer nodes than tokens (a string two tokens, a key with its colon three, a
// container its closing bracket too), so the walk reads at most as many tokens as it has room for nodes, less two (a
// string's node is written at its closing quote): its end of tokens `te` is the batch's end or the end of the room,
// whichever comes first, and only there is the room checked, not at each value. The arena grows as before, to the
// projected need (room for a whole batch of tokens at once populated up to twice the pages a value needs, which a
// fresh document paid for on every small input).
// refill, at the walk's end of tokens `c.tp`: the next batch (next_tokens) when the batch is done, then room for at
// least min(its tokens left, k_room_step) more nodes than the `n` written, and the end of tokens that room allows.
// False: no more tokens, or out of address space. Out of line: the walk's loop holds only the test for its end.
[[gnu::noinline]] bool refill(simd::structural_index& ix, document& doc, walk_cursors& c, std::uint32_t n,
                              const char* base, std::size_t done, std::size_t total, bool gated) noexcept {
  if (c.tp == ix.pos_end()) {
    if (!next_tokens(ix, base, gated)) return false;
    c.bb = ix.base();
    c.tp = ix.cursor();
    c.sp = ix.special_cursor();
  }
  const std::size_t left = static_cast<std::size_t>(ix.pos_end() - c.tp);
  const std::size_t want = n + 2 + std::min(left, k_room_step);
  if (want > doc.capacity()) {
    c.nodes = doc.grow(n, done, total, want);
    if (c.nodes == nullptr || want > doc.capacity()) return false;
  }
  c.te = c.tp + std::min(left, doc.capacity() - n - 2);
  return true;
}
[[gnu::always_inline]] inline std::uint32_t offset_in(const char* x, const char* base) noexcept {
  return static_cast<std::uint32_t>(x - base);
}

}  // namespace

// The two-stage path. Stage 1 (simd/structural.hpp) lists the position of every structural character, both quotes
// of every string and the first byte of every number or literal; this walk turns the list into the same nodes as
// parse_impl. Strings cost one compare (their end is the next token; a side list names the few holding escapes or
// DEL, which scan_string checks); whitespace costs nothing. A control byte in a string or invalid UTF-8 ends the
// token list early, so the walk runs out of tokens. Whenever anything is not as it should be, the walk gives up
// and parse_impl parses the value again, producing the exact error; the index is dropped then.
// The index outlives the value: the next call starting at `stop` in the same buffer continues in the same batch.
JVIEW_HOT_ALIGN bool parser::parse_two_stage(const char* begin, const char* end, document& doc, const char*& stop) {
#if JVIEW_HAVE_SSE2 || JVIEW_HAVE_NEON
  simd::structural_index& ix = index_;
  if (!ix.continues(begin, end)) {
    // (Tiny inputs were sent one-pass by two_stage_may_take.) Top-level scalars need no index.
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
  // The open container's members so far, times two, plus one when it is an object: one register for both (with
  // the kind in a register of its own, GCC kept the count on the stack, a store and reload per value).
  std::uint32_t count2 = 0;
  std::uint32_t depth = 0;
  bool duplicate_keys = false;
  std::uint8_t string_flags = 0;  // of all strings, or-ed (document::verbatim)
  const std::uint32_t max_depth = opts_.max_depth;
  std::size_t total = 0;
  walk_cursors cursors{};  // (only refill's in and out: the cursors themselves stay in registers)
  stack_.clear();
  // Next batch of tokens (skipping empty ones: a long string or run of whitespace), read into the cursors. No lambda
  // captures the cursors: their addresses taken, GCC kept them on the stack, a store and reload per token.
#define JVIEW_TOKENS()                                                                                   \
  (next_tokens(ix, base, opts_.path == parse_path::automatic) &&                                         \
   (bb = ix.base(), tp = ix.cursor(), te = ix.pos_end(), sp = ix.special_cursor(), true))
// At te: the batch's end (the next batch) or the room's (more room); see refill.
#define JVIEW_REFILL()                                                                                   \
  (cursors = {bb, tp, te, sp, nodes},                                                                    \
   refill(ix, doc, cursors, n, base, static_cast<std::size_t>(p - base), total,                          \
          opts_.path == parse_path::automatic) &&                                                        \
   (bb = cursors.bb, tp = cursors.tp, te = cursors.te, sp = cursors.sp, nodes = cursors.nodes, true))
#define JVIEW_NEXT(x)                        \
  do {                                       \
    if (tp == te) [[unlikely]] {             \
      if (!JVIEW_REFILL()) goto give_up;     \
    }                                        \
    (x) = bb + *tp++;                        \
  } while (0)

  if (tp == te && !JVIEW_TOKENS()) goto give_up;  // (the nodes' room: once they are reserved)
  p = bb + *tp++;
  if (*p != '{' && *p != '[') goto give_up;  // a top-level scalar after the previous value
  base = p;
  total = std::min<std::size_t>(static_cast<std::size_t>(end - base), 0xfffffffeu);
  try {
    nodes = doc.reserve(std::min<std::size_t>(total / 2 + 2, 65536), total / 16 + 256);  // as in parse_impl
  } catch (const std::bad_alloc&) {
    goto give_up;
  }
  if (!ensure_key_table(total)) goto give_up;
  te = tp;  // (the room's end: refill makes room from here)
  if (!JVIEW_REFILL()) goto give_up;

value:
  // p is at the token where a value must start (room for its node: refill).
  assert(n < doc.capacity());
  // A chain of compares, most frequent kinds first, not a switch: its jump table's one indirect branch mispredicted
  // whenever the kind of value changed unpredictably (an array of true and null in random order took twice the
  // time), and a compare resolves sooner than a jump through two table loads.
  {
    const unsigned char c = static_cast<unsigned char>(*p);
    if (c == '"') goto v_string;
    if (static_cast<unsigned char>(c - '0') < 10 || c == '-') goto v_number;
    if ((c | 0x20) == '{') goto v_container;  // '{' or '['
    if (c == 't') goto v_true;
    if (c == 'n') goto v_null;
    if (c == 'f') goto v_false;
    goto give_up;
  }
v_container:
  {
    if (depth >= max_depth) [[unlikely]]
      goto give_up;
    if (cur != document::npos) stack_.push_back(frame{cur, count2});
    count2 = *p == '{' ? 1 : 0;
    cur = n;
    put_node(nodes + n, count2 != 0 ? kind::object : kind::array, 0, offset_in(p, base), 0, 0);
    ++n;
    ++depth;
    JVIEW_NEXT(p);
    if (count2 != 0) {
      if (*p == '}') goto close;
      if (*p == '"') [[likely]]
        goto key_string;
      goto give_up;
    }
    if (*p == ']') goto close;
    goto value;
  }
v_string:
  {
    JVIEW_NEXT(q);  // the closing quote
    std::uint8_t flags = 0;
    if (tp[-1] == (*sp & ~simd::k_special_checked)) [[unlikely]] {  // holds a backslash or DEL
      if (!special_string_flags(*sp++, p + 1, q, flags)) goto give_up;
      string_flags |= flags;
    }
    put_node(nodes + n, kind::string, flags, offset_in(p + 1, base), static_cast<std::uint32_t>(q - p - 1), n + 1);
    ++n;
    goto after_value;
  }
v_true:
  if (end - p < 5 || load4(p) != load4("true") || !k_ends_scalar.yes[static_cast<unsigned char>(p[4])])
    goto give_up;
  put_node(nodes + n, kind::true_, 0, offset_in(p, base), 4, n + 1);
  ++n;
  goto after_value;
v_false:
  if (end - p < 6 || load4(p + 1) != load4("alse") || !k_ends_scalar.yes[static_cast<unsigned char>(p[5])])
    goto give_up;
  put_node(nodes + n, kind::false_, 0, offset_in(p, base), 5, n + 1);
  ++n;
  goto after_value;
v_null:
  if (end - p < 5 || load4(p) != load4("null") || !k_ends_scalar.yes[static_cast<unsigned char>(p[4])])
    goto give_up;
  put_node(nodes + n, kind::null_, 0, offset_in(p, base), 4, n + 1);
  ++n;
  goto after_value;
v_number:
  {
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
    put_node(nodes + n, kind::number, flags, offset_in(s, base), static_cast<std::uint32_t>(p - s), n + 1);
    ++n;
    goto after_value;
  }

key_string:
  // p is at the opening quote of a key.
  JVIEW_NEXT(q);
  {
    const char* const s = p + 1;
    std::uint8_t flags = 0;
    if (tp[-1] == (*sp & ~simd::k_special_checked)) [[unlikely]] {
      if (!special_string_flags(*sp++, s, q, flags)) goto give_up;
      string_flags |= flags;
    }
    const auto len = static_cast<std::uint32_t>(q - s);
    assert(n < doc.capacity());
    put_node(nodes + n, kind::string, flags, offset_in(s, base), len, n + 1);
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
  count2 += 2;
  if (te - tp >= 2) [[likely]] {  // a comma and the next token in one step
    if (bb[tp[0]] == ',') {
      p = bb + tp[1];
      tp += 2;
      if ((count2 & 1) == 0) goto value;
      if (*p == '"') [[likely]]
        goto key_string;
      goto give_up;
    }
  }
  JVIEW_NEXT(p);
  if ((count2 & 1) != 0) {
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
  nodes[cur].len = count2 >> 1;
  nodes[cur].next = n;
  if ((nodes[cur].flags & node_flag::duplicate_keys) != 0) [[unlikely]]
    duplicate_keys |= confirm_duplicate_keys(doc, base, nodes, n, cur, count2 >> 1);
  --depth;
  if (!stack_.empty()) {
    cur = stack_.back().index;
    count2 = stack_.back().count;
    stack_.pop_back();
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
#undef JVIEW_REFILL
#undef JVIEW_TOKENS
  // An input of long strings, on a kernel that indexes them slower than the one-pass parser reads them: the values
  // left in it go one-pass (tests asking for the two-stage path keep it).
  if (ix.one_pass_better() && opts_.path == parse_path::automatic) one_pass_end_ = end;
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
