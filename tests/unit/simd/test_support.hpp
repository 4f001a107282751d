// tests/unit/simd/test_support.hpp: helpers for the simd/ differential tests: a seeded generator, random valid
// UTF-8, a buffer whose end (or start) touches an inaccessible page so any load past the data faults, and the list
// of UTF-8 kernels this CPU can run.
#pragma once
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "simd/kernels.hpp"

namespace jview::simd::test {

// splitmix64: small, fast, and the same sequence on every platform (std distributions are not).
struct rng {
  std::uint64_t state;
  explicit rng(std::uint64_t seed) : state(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) (n > 0; the tiny modulo bias does not matter here).
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }
  unsigned char byte() { return static_cast<unsigned char>(next()); }
};

inline void append_code_point(std::string& s, std::uint32_t cp) {
  if (cp < 0x80) {
    s += static_cast<char>(cp);
  } else if (cp < 0x800) {
    s += static_cast<char>(0xc0 | (cp >> 6));
    s += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    s += static_cast<char>(0xe0 | (cp >> 12));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    s += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    s += static_cast<char>(0xf0 | (cp >> 18));
    s += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    s += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

// A random scalar value whose encoding has `bytes` bytes (1..4), biased towards the edges of each range
// (the values next to overlong, surrogate and U+10FFFF limits are where validators go wrong).
inline std::uint32_t random_code_point(rng& r, int bytes) {
  static constexpr std::uint32_t lo[5] = {0, 0, 0x80, 0x800, 0x10000};
  static constexpr std::uint32_t hi[5] = {0, 0x7f, 0x7ff, 0xffff, 0x10ffff};
  std::uint32_t cp;
  switch (r.below(8)) {
    case 0: cp = lo[bytes]; break;
    case 1: cp = hi[bytes]; break;
    case 2: cp = bytes == 3 ? (r.below(2) ? 0xd7ff : 0xe000) : lo[bytes] + r.below(4); break;
    default: cp = lo[bytes] + r.below(hi[bytes] - lo[bytes] + 1); break;
  }
  if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xe000 + (cp & 0xff);
  return cp;
}

// Valid UTF-8 of exactly n bytes. ascii_weight of 8 parts are ASCII, the rest split over 2/3/4-byte sequences.
inline std::string random_utf8(rng& r, std::size_t n, unsigned ascii_weight = 4) {
  std::string s;
  s.reserve(n + 4);
  while (s.size() < n) {
    const std::size_t room = n - s.size();
    int bytes = r.below(8) < ascii_weight ? 1 : 2 + static_cast<int>(r.below(3));
    if (static_cast<std::size_t>(bytes) > room) bytes = 1;
    append_code_point(s, random_code_point(r, bytes));
  }
  return s;
}

// Ill-formed sequences of every kind; the error is at their first byte whatever follows them.
inline const std::vector<std::string>& bad_sequences() {
  static const std::vector<std::string> k = {
      "\xc0\x80", "\xc1\xbf", "\xc0", "\xc1",                      // overlong 2-byte, and C0/C1 alone
      "\xe0\x80\x80", "\xe0\x9f\xbf",                              // overlong 3-byte
      "\xf0\x80\x80\x80", "\xf0\x8f\xbf\xbf",                      // overlong 4-byte
      "\xed\xa0\x80", "\xed\xbf\xbf", "\xed\xb0\x80",              // surrogates
      "\xf4\x90\x80\x80", "\xf4\xbf\xbf\xbf", "\xf5\x80\x80\x80",  // above U+10FFFF
      "\xf7\xbf\xbf\xbf", "\xf8\x88\x80\x80\x80", "\xfc\x84\x80\x80\x80\x80",
      "\xf5", "\xf8", "\xfe", "\xff",                              // never valid
      "\x80", "\xbf", "\x80\x80", "\xbf\xbf\xbf\xbf",              // stray continuations
      "\xc2", "\xdf", "\xe0\xa0", "\xe2\x82", "\xef\xbf", "\xed\x9f",  // truncated leads
      "\xf0\x90\x80", "\xf0\x9f\x98", "\xf4\x8f\xbf", "\xf1", "\xf3\x80",
      "\xc2\xc2\x80", "\xe2\xe2\x82\xac", "\xf0\xf0\x9f\x98\x80",  // lead where a continuation is due
  };
  return k;
}

// Bytes a string scanner meets: mostly plain letters, and every kind of byte that stops one of the scanners.
inline char scan_byte(rng& r) {
  static constexpr unsigned char k_alphabet[] = {'a', 'b', 'z', ' ', '0', '~', 0x7f, '"', '\\', 0x00, 0x1f, 0x20,
                                                 0x21, 0x5b, 0x5d, 0x80, 0xbf, 0xc3, 0xe2, 0xff, '/', '\t', '\n'};
  const std::uint32_t pick = r.below(64);
  if (pick < 40) return static_cast<char>('a' + pick % 26);
  return static_cast<char>(k_alphabet[r.below(sizeof k_alphabet)]);
}

// density/16 of the bytes come from scan_byte, the rest are 'x' (long plain runs at low density).
inline std::string random_scan_buffer(rng& r, std::size_t len, int density) {
  std::string s;
  for (std::size_t i = 0; i < len; ++i) s += r.below(16) < static_cast<std::uint32_t>(density) ? scan_byte(r) : 'x';
  return s;
}

// The UTF-8 kernels this CPU can run, less the portable one (the reference they are compared with).
inline std::vector<kernel_set> runnable_kernels() {
  std::vector<kernel_set> out;
  for (const kernel_set& k : all_utf8_kernels())
    if (cpu_supports(k.level) && k.validate_utf8 != &validate_utf8_portable) out.push_back(k);
  return out;
}

// Pages mapped as [no access][data pages][no access]: place_end() puts bytes so they end right at the upper guard,
// place_start() so they start right at the lower one. Any read outside the bytes placed faults.
class guarded_buffer {
 public:
  explicit guarded_buffer(std::size_t max_len) {
    page_ = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    data_pages_ = (max_len + page_ - 1) / page_ + 1;
    total_ = (data_pages_ + 2) * page_;
    void* m = mmap(nullptr, total_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    base_ = m == MAP_FAILED ? nullptr : static_cast<char*>(m);
    if (base_ != nullptr) {
      mprotect(base_, page_, PROT_NONE);
      mprotect(base_ + (data_pages_ + 1) * page_, page_, PROT_NONE);
    }
  }
  ~guarded_buffer() {
    if (base_ != nullptr) munmap(base_, total_);
  }
  guarded_buffer(const guarded_buffer&) = delete;
  guarded_buffer& operator=(const guarded_buffer&) = delete;

  bool ok() const { return base_ != nullptr; }
  const char* place_end(std::string_view s) {
    char* p = base_ + (data_pages_ + 1) * page_ - s.size();
    if (!s.empty()) std::memcpy(p, s.data(), s.size());
    return p;
  }
  const char* place_start(std::string_view s) {
    char* p = base_ + page_;
    if (!s.empty()) std::memcpy(p, s.data(), s.size());
    return p;
  }

 private:
  char* base_ = nullptr;
  std::size_t page_ = 0, data_pages_ = 0, total_ = 0;
};

// Loop counts of the random tests: full in optimised builds; a twentieth in unoptimised or sanitizer builds (10-30x
// slower) so `make test` stays quick. -DJVIEW_SIMD_TEST_SCALE=N overrides (e.g. 10 for a long run).
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define JVIEW_SIMD_TEST_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define JVIEW_SIMD_TEST_SANITIZED 1
#endif
#ifndef JVIEW_SIMD_TEST_SCALE
#if defined(__OPTIMIZE__) && !defined(JVIEW_SIMD_TEST_SANITIZED)
#define JVIEW_SIMD_TEST_SCALE 1.0
#else
#define JVIEW_SIMD_TEST_SCALE 0.05
#endif
#endif
inline std::size_t scaled(std::size_t n) {
  const auto v = static_cast<std::size_t>(static_cast<double>(n) * JVIEW_SIMD_TEST_SCALE);
  return v == 0 ? 1 : v;
}

}  // namespace jview::simd::test
