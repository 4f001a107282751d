// core/key_index.cpp: SipHash-1-3 (Aumasson and Bernstein's construction: one compression round per 8-byte word,
// three finalisation rounds) under a per-process key, and the bounded-probe string index with its sorted fallback.
#include "core/key_index.hpp"

#include <sys/random.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <ctime>

namespace jview::detail {
namespace {

// The process's hash key: 0 until first use. Every thread agrees on the first value stored (compare-exchange).
constinit std::atomic<std::uint64_t> g_key_seed{0};

std::uint64_t mix64(std::uint64_t x) noexcept {  // splitmix64's finaliser: spreads a seed over two key words
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

[[gnu::noinline]] std::uint64_t make_seed() noexcept {
  std::uint64_t s = 0;
  if (getrandom(&s, sizeof s, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof s)) {
    // No entropy yet (very early boot): the clock and this process's address-space layout, still unknown to an
    // input prepared in advance.
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    s = mix64(static_cast<std::uint64_t>(t.tv_nsec) ^ (static_cast<std::uint64_t>(t.tv_sec) << 30) ^
              reinterpret_cast<std::uintptr_t>(&s));
  }
  if (s == 0) s = 1;
  std::uint64_t expected = 0;
  if (!g_key_seed.compare_exchange_strong(expected, s, std::memory_order_relaxed)) return expected;
  return s;
}

inline std::uint64_t seed() noexcept {
  const std::uint64_t s = g_key_seed.load(std::memory_order_relaxed);
  return s != 0 ? s : make_seed();
}

inline std::uint64_t load64(const char* p) noexcept {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
  return w;
}

struct sip_state {
  std::uint64_t v0, v1, v2, v3;
  [[gnu::always_inline]] void round() noexcept {
    v0 += v1;
    v1 = std::rotl(v1, 13);
    v1 ^= v0;
    v0 = std::rotl(v0, 32);
    v2 += v3;
    v3 = std::rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = std::rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = std::rotl(v1, 17);
    v1 ^= v2;
    v2 = std::rotl(v2, 32);
  }
  [[gnu::always_inline]] void word(std::uint64_t m) noexcept {
    v3 ^= m;
    round();
    v0 ^= m;
  }
};

}  // namespace

std::uint64_t key_hash(std::string_view s) noexcept {
  const std::uint64_t k0 = seed();
  const std::uint64_t k1 = mix64(k0);
  sip_state st{k0 ^ 0x736f6d6570736575ull, k1 ^ 0x646f72616e646f6dull, k0 ^ 0x6c7967656e657261ull,
               k1 ^ 0x7465646279746573ull};
  const char* p = s.data();
  const std::size_t n = s.size();
  const char* end = p + (n & ~std::size_t{7});
  for (; p != end; p += 8) st.word(load64(p));
  std::uint64_t last = static_cast<std::uint64_t>(n) << 56;
  for (std::size_t i = 0; i < (n & 7); ++i) last |= static_cast<std::uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  st.word(last);
  st.v2 ^= 0xff;
  st.round();
  st.round();
  st.round();
  return st.v0 ^ st.v1 ^ st.v2 ^ st.v3;
}

bool string_index::build(std::vector<std::string_view> texts, std::vector<std::uint32_t>* first) {
  texts_ = std::move(texts);
  slots_.clear();
  order_.clear();
  const std::size_t n = texts_.size();
  if (first != nullptr) first->resize(n);
  if (n == 0) return false;
  if (force_sorted_) return build_sorted(first);
  std::size_t cap = 16;
  while (cap < n * 2) cap <<= 1;
  slots_.assign(cap, 0);
  const std::size_t mask = cap - 1;
  bool repeats = false;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint64_t h = key_hash(texts_[i]);
    const std::uint64_t tag = h & 0xffffffff00000000ull;
    std::size_t at = static_cast<std::size_t>(h) & mask;
    for (std::uint32_t probe = 0;; ++probe, at = (at + 1) & mask) {
      const std::uint64_t s = slots_[at];
      if (s == 0) {
        slots_[at] = tag | (i + 1u);
        if (first != nullptr) (*first)[i] = i;
        break;
      }
      const std::uint32_t j = static_cast<std::uint32_t>(s) - 1;
      if ((s & 0xffffffff00000000ull) == tag && texts_[j] == texts_[i]) {
        if (first != nullptr) (*first)[i] = j;
        repeats = true;
        break;
      }
      if (probe == k_max_probe) [[unlikely]] {
        slots_.clear();
        slots_.shrink_to_fit();
        return build_sorted(first);
      }
    }
  }
  return repeats;
}

bool string_index::build_sorted(std::vector<std::uint32_t>* first) {
  const std::size_t n = texts_.size();
  std::vector<std::uint32_t> all(n);
  for (std::uint32_t i = 0; i < n; ++i) all[i] = i;
  std::sort(all.begin(), all.end(), [&](std::uint32_t a, std::uint32_t b) {
    const int c = texts_[a].compare(texts_[b]);
    return c < 0 || (c == 0 && a < b);
  });
  bool repeats = false;
  order_.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = all[k];
    if (!order_.empty() && texts_[order_.back()] == texts_[i]) {
      repeats = true;
      if (first != nullptr) (*first)[i] = order_.back();
    } else {
      order_.push_back(i);
      if (first != nullptr) (*first)[i] = i;
    }
  }
  return repeats;
}

std::uint32_t string_index::find(std::string_view key) const noexcept {
  if (!slots_.empty()) {
    const std::uint64_t h = key_hash(key);
    const std::uint64_t tag = h & 0xffffffff00000000ull;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t at = static_cast<std::size_t>(h) & mask;; at = (at + 1) & mask) {
      const std::uint64_t s = slots_[at];
      if (s == 0) return npos;
      const std::uint32_t j = static_cast<std::uint32_t>(s) - 1;
      if ((s & 0xffffffff00000000ull) == tag && texts_[j] == key) return j;
    }
  }
  auto it = std::lower_bound(order_.begin(), order_.end(), key,
                             [&](std::uint32_t i, std::string_view k) { return texts_[i] < k; });
  return it != order_.end() && texts_[*it] == key ? *it : npos;
}

}  // namespace jview::detail
