// core/parser.hpp: the validating JSON parser. One pass, iterative (explicit stack, depth-limited), strict RFC 8259,
// filling a document's node index. Parses one value at a time so a buffer of many values (NDJSON, concatenated)
// is processed value by value with the same document.
#pragma once
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "core/document.hpp"
#include "core/error.hpp"
#include "simd/kernels.hpp"
#include "simd/pages.hpp"
#include "simd/structural.hpp"

namespace jview {

// Which parser runs. The two-stage path (a vector index of the tokens, then a walk over it) gives exactly the
// one-pass result: on any error or irregular input it discards its work and the one-pass parser runs.
enum class parse_path : std::uint8_t {
  automatic,  // two-stage for containers when the input is not tiny and a stage-1 kernel exists, else one pass
  one_pass,   // always the one-pass parser (the reference the two-stage path is tested against)
  two_stage,  // two-stage whatever the size (tests)
};

struct parse_options {
  std::uint32_t max_depth = 10000;    // like jq
  bool replace_invalid_utf8 = false;  // jq's behaviour: invalid UTF-8 in strings becomes U+FFFD instead of an error
  bool single_value = false;          // --strict (value_reader): an input is one JSON text, not a stream of values
  // value_reader::open(path): a file or stdin that begins with a compression format's magic is read decompressed
  // (core/decompress_source.hpp; --decompress=auto, the CLI's default).
  bool decompress = false;
  parse_path path = parse_path::automatic;
  // Tests and benchmarks: these kernels instead of the process's choice (simd::active_kernels()).
  const simd::kernels* kernels = nullptr;
};

class parser {
 public:
  explicit parser(parse_options opts = {});

  // Skips whitespace from `p`; true when only whitespace remains before `end` (sets p to end).
  static bool at_end(const char*& p, const char* end) noexcept;

  // Parses the one value that starts at or after `begin` (whitespace skipped) into doc. Node offsets are relative
  // to the value's first byte. On success `stop` is the byte after the value. Error offsets are relative to `begin`.
  // Precondition: some non-whitespace byte lies in [begin, end) (check with at_end).
  parse_error parse(const char* begin, const char* end, document& doc, const char*& stop);

  const parse_options& options() const noexcept { return opts_; }

  // The bytes after the last value's end may have changed (a stream buffer refilled or moved): the two-stage
  // path must not reuse what it indexed there.
  void invalidate_index() noexcept {
    index_.invalidate();
    one_pass_end_ = nullptr;
  }
  // Values parsed by the two-stage path so far (tests check that it ran).
  std::uint64_t two_stage_values() const noexcept { return two_stage_values_; }

 private:
  template <class Kernels>
  parse_error parse_impl(const char* begin, const char* end, document& doc, const char*& stop);
  // Whether parse hands [begin, end) to the two-stage path first. Not on an input the index found faster one-pass
  // (one_pass_end_), nor, when the parser chooses, on a tiny one that does not repay stage 1's set-up
  // (stage1_kernel::min_bytes: fromjson, a short line in a pipe) unless it continues an indexed buffer. Inline:
  // on a 100-byte input, the call into parse_two_stage alone was 2-3% of the parse.
  bool two_stage_may_take(const char* begin, const char* end) const noexcept {
    if (stage1_ == nullptr || end == one_pass_end_) return false;
    return opts_.path != parse_path::automatic || static_cast<std::size_t>(end - begin) >= stage1_->min_bytes ||
           index_.continues(begin, end);
  }
  // The two-stage path: true with the same result as parse_impl, or false (nothing decided: run parse_impl).
  bool parse_two_stage(const char* begin, const char* end, document& doc, const char*& stop);

  struct frame {
    std::uint32_t index;  // the open container's node
    std::uint32_t count;  // elements so far (the two-stage walk keeps twice that, plus one for an object)
  };
  parse_options opts_;
  bool vector_scanners_;  // the vector string and whitespace scanners (else the portable ones)
  std::size_t (*validate_)(const char*, std::size_t) noexcept;  // the UTF-8 kernel for non-ASCII string runs
  std::vector<frame> stack_;
  // Duplicate-key candidates (see note_key): per depth up to k_key_table_depths, a row of 2^k_key_table_bits slots,
  // each the tag of the object that set it (high half) and its key's digest (low half). Tags are key_tag_ + the
  // object's node index, fresh for every value.
  static constexpr std::uint32_t k_key_table_depths = 16;
  static constexpr std::uint32_t k_key_table_bits = 11;
  static constexpr std::uint32_t k_key_probes = 8;  // slots of the object's other keys passed over, at most
  static constexpr std::size_t k_key_table_slots = std::size_t{k_key_table_depths} << k_key_table_bits;
  // The slots, then the next free tag, kept with the table so that the next parser to take it goes on from there
  // (no slot then holds a tag of its values: nothing to clear).
  static constexpr std::size_t k_key_table_bytes = (k_key_table_slots + 1) * sizeof(std::uint64_t);
  // On huge pages (a large input), the stage-1 arrays follow the table: index_ borrows them (one block for both).
  static constexpr std::size_t k_key_table_arrays_at = (k_key_table_bytes + 63) / 64 * 64;
  static constexpr std::size_t k_key_table_huge_bytes = k_key_table_arrays_at + simd::structural_index::k_arrays_bytes;
  struct table_deleter {  // keeps the table as the process's spare (parser.cpp) or unmaps it
    table_deleter() noexcept : huge(false) {}
    explicit table_deleter(bool on_huge_page) noexcept : huge(on_huge_page) {}
    bool huge;  // k_key_table_huge_bytes from map_huge_pages, else k_key_table_bytes from map_pages
    std::size_t mapping() const noexcept { return huge ? k_key_table_huge_bytes : k_key_table_bytes; }
    void operator()(std::uint64_t* p) const noexcept;
  };
  std::unique_ptr<std::uint64_t[], table_deleter> key_table_;
  // Gets key_table_ once, for a value of up to `len` bytes: the process's spare table, else fresh memory (a huge
  // page for a large input, whose stage-1 arrays go with it); false: out of memory.
  bool ensure_key_table(std::size_t len) noexcept;
  // After a value of n nodes: its tags are used up.
  void retire_key_tags(std::uint32_t n) noexcept {
    key_tag_ += n + 1;
    if (key_table_) key_table_[k_key_table_slots] = key_tag_;
  }
  std::uint32_t key_tag_ = 1;
  // A key's digest: its length, first 4 and last 4 bytes, and middle byte; a shorter key's length and first, middle
  // and last bytes (an empty key: 0 and its two quotes).
  [[gnu::always_inline]] static std::uint32_t key_digest(const char* key, std::uint32_t len) noexcept {
    const auto byte = [](char c) { return static_cast<std::uint32_t>(static_cast<unsigned char>(c)); };
    const std::uint32_t mid = byte(key[len >> 1]) << 16;
    if (len < 4) return len | byte(key[0]) << 8 | mid | byte(key[static_cast<std::ptrdiff_t>(len) - 1]) << 24;
    std::uint32_t first, last;
    std::memcpy(&first, key, 4);
    std::memcpy(&last, key + len - 4, 4);
    return (first ^ std::rotl(last, 11) ^ mid) + len;
  }
  // Duplicate keys: the key's digest picks a slot in the row of its
  // depth; a slot of this object (node `obj` at index `cur`) with the same digest flags the object as a candidate,
  // and the exact test runs when it closes. Slots of the object's other keys are passed over (linear probing), so
  // only keys with equal digests flag it (a slot per key, as before, flagged 70 of instruments.json's 1,012 objects,
  // whose keys collided in 12 bits). Escaped keys (their raw bytes are not their text), a run of more than
  // k_key_probes slots of the object, and very deep objects always flag it.
  [[gnu::always_inline]] void note_key(node& obj, std::uint32_t cur, std::uint32_t depth, const char* key,
                                       std::uint32_t len, std::uint8_t flags) noexcept {
    if (depth <= k_key_table_depths && (flags & node_flag::escapes) == 0) [[likely]] {
      const std::uint32_t digest = key_digest(key, len);
      const std::uint32_t tag = key_tag_ + cur;
      const std::uint64_t want = std::uint64_t{tag} << 32 | digest;
      std::uint64_t* const row = key_table_.get() + (std::size_t{depth - 1} << k_key_table_bits);
      std::uint32_t i = (digest * 0x9e3779b1u) >> (32 - k_key_table_bits);
      for (std::uint32_t probe = 0;; ++probe) {
        const std::uint64_t slot = row[i];
        if (static_cast<std::uint32_t>(slot >> 32) != tag) [[likely]] {  // no key of this object here
          row[i] = want;
          return;
        }
        if (slot == want || probe == k_key_probes) break;
        i = (i + 1) & ((1u << k_key_table_bits) - 1);
      }
    }
    obj.flags |= node_flag::duplicate_keys;
  }
  const simd::stage1_kernel* stage1_;  // nullptr: no two-stage path
  simd::structural_index index_;
  // The end of an input whose long strings the one-pass parser reads faster (structural_index::one_pass_better):
  // its values skip the two-stage path until the bytes change.
  const char* one_pass_end_ = nullptr;
  std::uint64_t two_stage_values_ = 0;
};

}  // namespace jview
