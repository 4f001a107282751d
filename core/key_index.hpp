// core/key_index.hpp: hashing of object keys that input cannot flood, and a batch index of strings built on it.
// Keys come from the input, so an attacker chooses them: an unseeded hash (FNV-1a, as before) lets one craft
// 131,072 keys that share a slot and turn every table over them quadratic (17.7 s for one `length`). Here the hash
// is SipHash-1-3 under a key drawn once per process (getrandom), probing is linear but bounded, and a table whose
// probes pass the bound gives up hashing for a sorted order (O(n log n), whatever the keys). Internal to core/.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

namespace jview::detail {

// SipHash-1-3 of s under the process's key (made on first use; the same for every thread of the process).
std::uint64_t key_hash(std::string_view s) noexcept;

// The strings of a list (views the caller keeps alive), indexed for lookup and for finding repeats: expected
// O(1) per string, O(log n) string comparisons per string when the hash table gave up (sorted()).
class string_index {
 public:
  static constexpr std::uint32_t npos = 0xffffffffu;
  // A probe sequence longer than this makes the index sorted instead: at a load of at most 1/2 a good hash
  // almost never probes 64 slots, and crafted keys cannot make it.
  static constexpr std::uint32_t k_max_probe = 64;

  // Indexes texts (replacing what was indexed). When first is given, (*first)[i] is the index of the first text
  // equal to texts[i] (i itself for a first occurrence). True when some text repeats.
  bool build(std::vector<std::string_view> texts, std::vector<std::uint32_t>* first = nullptr);
  // The index of the first text equal to key, or npos.
  std::uint32_t find(std::string_view key) const noexcept;
  // True when the hash table gave up for the sorted order (for tests and statistics).
  bool sorted() const noexcept { return slots_.empty() && !texts_.empty(); }
  std::size_t size() const noexcept { return texts_.size(); }
  // Forces the sorted order from the start (tests: both ways must agree).
  void force_sorted(bool on) noexcept { force_sorted_ = on; }

 private:
  bool build_sorted(std::vector<std::uint32_t>* first);
  std::vector<std::string_view> texts_;
  std::vector<std::uint64_t> slots_;  // hash table: high 32 bits of the hash << 32 | (index + 1); 0: empty
  std::vector<std::uint32_t> order_;  // sorted: the first occurrences, in text order
  bool force_sorted_ = false;
};

}  // namespace jview::detail
