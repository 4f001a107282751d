// simd/structural.hpp: stage 1 of the parser's two-stage fast path (Langdale & Lemire, "Parsing Gigabytes of JSON
// per Second", 2019): per 64-byte block, bitmaps of escaped bytes, quotes, the inside of strings, structural
// characters and scalar starts, flattened into a list of token positions. The parser (stage 2) walks the list.
// The kernels (one per ISA, chosen in dispatch.cpp) index whole blocks; structural_index cuts the input into
// batches, pads the last partial block, and remembers where it stopped so NDJSON values reuse one batch.
// Anything irregular (a control byte in a string, invalid UTF-8) ends the token list early: the parser then falls
// back to its one-pass path, which reports the exact error.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

// The two stages' loops (each stage-1 kernel and the parser's walk over its tokens) start on a 64-byte boundary. Where
// they fell by chance moved with every edit elsewhere in the executable, and their speed with it: update-center.json's
// parse took 1.12x or 1.23x simdjson's time in two builds that differed only in core/object_keys.cpp (AMD Zen 5).
#define JVIEW_HOT_ALIGN __attribute__((aligned(64)))

namespace jview::simd {

// What one block leaves to the next, and the pending UTF-8 range.
struct stage1_state {
  std::uint64_t escaped = 0;    // 1: the next block's first byte is escaped by a backslash
  std::uint64_t in_string = 0;  // all ones: the block ended inside a string
  std::uint64_t scalar = 0;     // 1: the block's last byte belongs to a number or literal (or junk)
  std::uint64_t special = 0;    // 1: the string open at the block's end holds a backslash or DEL
  const char* utf8_from = nullptr;  // start of the non-ASCII blocks not yet validated (nullptr: none)
  std::uint64_t prev_high = 0;      // kernels checking UTF-8 per block: the last block held non-ASCII bytes
  const char* begin = nullptr;      // where indexing began (the bytes before it are not to be read)
  std::size_t string_blocks = 0;    // blocks wholly inside an ASCII string, without escapes, after its first block
  std::size_t (*validate)(const char*, std::size_t) noexcept = nullptr;  // the UTF-8 kernel
};

// Output cursors of one kernel call. Each array needs 64 entries of slack past what it will hold.
struct stage1_out {
  std::uint32_t* pos;      // token positions: structural characters, both quotes of every string, scalar starts
  std::uint32_t* special;  // closing-quote positions of strings holding a backslash or DEL (0x7f), see below
  const char* fail;        // set to the first byte no value may reach (control byte in a string, invalid UTF-8)
};

// A special entry is the closing quote's position, or-ed with k_special_checked when the parser must check the
// string's escapes: it holds DEL or an escape other than \" \\ \b \f \n \r \t (\u, \/, or an invalid one). Without it,
// every escape of the string is one of those seven, all valid and written by jq as they are.
inline constexpr std::uint32_t k_special_checked = 0x80000000u;

// Indexes `blocks` 64-byte blocks from `p` (bytes read from `p` only; `src` is where they are in the source, for
// UTF-8 validation: the last partial block is indexed from a padded copy). Positions are `rel` + offset from p.
// Returns true when every block was indexed; false at the first block holding a failure (out.fail set; that
// block's tokens are emitted).
using stage1_fn = bool (*)(const unsigned char* p, const char* src, std::size_t blocks, std::uint32_t rel,
                           stage1_state& st, stage1_out& out) noexcept;

struct stage1_kernel {
  const char* name;  // "portable", "sse2", "avx2", "avx512", "neon"
  stage1_fn index;
  // From what share of long-string blocks (structural_index::string_blocks, in percent of the blocks indexed) the
  // one-pass parser is faster than the two-stage parse on this kernel; 0: never (see dispatch.cpp).
  unsigned one_pass_share = 0;
  // Inputs shorter than this many bytes go one-pass when the parser chooses (parse_path::automatic): stage 1's
  // set-up is not repaid (see dispatch.cpp).
  std::size_t min_bytes = 192;
};
// The one in use is simd::active_kernels().structure (simd/kernels.hpp).
// Every stage-1 kernel this CPU can run (for tests), best first.
std::size_t structural_kernels(const stage1_kernel** out, std::size_t max) noexcept;

namespace detail {
bool stage1_sse2(const unsigned char*, const char*, std::size_t, std::uint32_t, stage1_state&, stage1_out&) noexcept;
bool stage1_avx2(const unsigned char*, const char*, std::size_t, std::uint32_t, stage1_state&, stage1_out&) noexcept;
bool stage1_avx512(const unsigned char*, const char*, std::size_t, std::uint32_t, stage1_state&, stage1_out&) noexcept;
bool stage1_neon(const unsigned char*, const char*, std::size_t, std::uint32_t, stage1_state&, stage1_out&) noexcept;
// The reference of the differential tests (structural_portable.cpp): never chosen for parsing.
bool stage1_portable(const unsigned char*, const char*, std::size_t, std::uint32_t, stage1_state&, stage1_out&) noexcept;
}  // namespace detail

// The token list of a buffer, one batch at a time.
class structural_index {
 public:
  static constexpr std::size_t k_batch = 32 * 1024;  // bytes per batch (a multiple of 64)
  // The first batch after start(): batches then double up to k_batch, so a short value (an NDJSON line whose
  // caller does not continue the index) costs about its own length in stage 1, not a whole batch.
  static constexpr std::size_t k_first_batch = 1024;

  structural_index();
  ~structural_index();
  structural_index(const structural_index&) = delete;
  structural_index& operator=(const structural_index&) = delete;
  structural_index(structural_index&&) noexcept = default;  // keeps jview::parser movable
  structural_index& operator=(structural_index&&) noexcept = default;

  // Forgets everything: the bytes under the index may have changed.
  void invalidate() noexcept { live_ = false; }
  // True when the index was left at `stop` of a value in [.., end) and `begin` lies between that stop and the next
  // token (only whitespace there: callers skip it before the next call).
  bool continues(const char* begin, const char* end) const noexcept {
    if (!live_ || end != end_ || begin < stop_) return false;
    return begin <= (cursor_ != pos_end_ ? base_ + *cursor_ : next_);
  }
  // Entries of each of the two arrays a large input needs: a batch holds at most one token per byte, plus the
  // flatten slack (64) and room for a sentinel. And the bytes of both.
  static constexpr std::size_t k_array_entries = k_batch + 128;
  static constexpr std::size_t k_arrays_bytes = 2 * k_array_entries * sizeof(std::uint32_t);
  // Memory of k_arrays_bytes the caller owns (and keeps until this index is destroyed or given other memory) for
  // the arrays, instead of a mapping of their own: the parser puts them on the huge page of its key table.
  void lend_arrays(std::uint32_t* mem) noexcept;
  // Starts indexing at `begin`; the first batch is indexed at once. False when there is nothing to index.
  bool start(const stage1_kernel* k, std::size_t (*validate)(const char*, std::size_t) noexcept, const char* begin,
             const char* end);
  // Indexes the next batch (the current one must be used up). False at the end of the input or after a failure.
  bool next_batch();
  // The parser leaves the index after a value ending at `stop` (its cursors saved with `save`), or drops it.
  void save(const std::uint32_t* pos, const std::uint32_t* special, const char* stop) noexcept {
    cursor_ = pos;
    special_cursor_ = special;
    stop_ = stop;
  }
  // Validates the UTF-8 of the pending non-ASCII range up to `stop` (a value's end); false when invalid.
  bool validate_upto(const char* stop) noexcept;

  // Since start(): bytes indexed, and of those the 64-byte blocks wholly inside ASCII strings without escapes after
  // their strings' first blocks (a long text field; stage 1 skips them at one test each).
  std::size_t indexed_bytes() const noexcept { return static_cast<std::size_t>(next_ - st_.begin); }
  std::size_t string_blocks() const noexcept { return st_.string_blocks; }
  // Bytes indexed before the input is judged by its long strings (the kernel's one_pass_share).
  static constexpr std::size_t k_sample_bytes = 16 * 1024;
  // True once the first k_sample_bytes have shown the kernel's one_pass_share of long-string blocks or more: the
  // one-pass parser is then faster on this input.
  bool one_pass_better() const noexcept { return one_pass_better_; }

  // The current batch: tokens [cursor, pos_end) relative to base; special positions from special_cursor, ending in
  // a sentinel 0xffffffff.
  const char* base() const noexcept { return base_; }
  const std::uint32_t* cursor() const noexcept { return cursor_; }
  const std::uint32_t* pos_end() const noexcept { return pos_end_; }
  const std::uint32_t* special_cursor() const noexcept { return special_cursor_; }

 private:
  const stage1_kernel* kernel_ = nullptr;
  stage1_state st_;
  bool live_ = false;
  bool failed_ = false;
  bool sampled_ = false;  // one_pass_better_ decided
  bool one_pass_better_ = false;
  const char* next_ = nullptr;  // first byte not yet indexed
  std::size_t batch_ = k_first_batch;  // size of the next batch
  const char* end_ = nullptr;
  const char* stop_ = nullptr;
  const char* base_ = nullptr;
  // pos_ and special_: one block of capacity_ entries each, mapped (simd/pages.hpp) or from the heap.
  struct arrays_deleter {
    // Bytes as given to map_huge_pages; 0: a heap block (unique_ptr value-initialises it); k_lent: lend_arrays' memory.
    std::size_t mapped;
    static constexpr std::size_t k_lent = ~std::size_t{0};
    void operator()(std::uint32_t* p) const noexcept;
  };
  std::unique_ptr<std::uint32_t[], arrays_deleter> pos_;
  std::uint32_t* special_ = nullptr;
  std::size_t capacity_ = 0;  // entries of pos_ and special_
  const std::uint32_t* cursor_ = nullptr;
  const std::uint32_t* pos_end_ = nullptr;
  const std::uint32_t* special_cursor_ = nullptr;
};

}  // namespace jview::simd
