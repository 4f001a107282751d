// simd/pages.cpp: see pages.hpp.
#include "simd/pages.hpp"

#include <sys/mman.h>

#include <cstdint>

namespace jview::simd {
namespace {

constexpr std::size_t k_small_page = 4096;

std::uintptr_t round_up(std::uintptr_t x, std::size_t to) noexcept { return (x + to - 1) & ~(to - 1); }

// Half a huge page or more, in whole small pages (so that mapped_size(mapped_size(x)) == mapped_size(x)).
bool huge(std::size_t bytes) noexcept { return round_up(bytes, k_small_page) >= k_huge_page / 2; }

// A 2 MiB aligned range of len bytes, reserved (no access, nothing committed): the target of a huge mapping.
void* reserve_aligned(std::size_t len) noexcept {
  void* raw = mmap(nullptr, len + k_huge_page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = round_up(start, k_huge_page);
  if (aligned > start) munmap(raw, aligned - start);
  const std::uintptr_t tail = start + len + k_huge_page - (aligned + len);
  if (tail > 0) munmap(reinterpret_cast<void*>(aligned + len), tail);
  return reinterpret_cast<void*>(aligned);
}

}  // namespace

std::size_t mapped_size(std::size_t bytes) noexcept {
  if (bytes == 0) bytes = 1;
  return round_up(bytes, huge(bytes) ? k_huge_page : k_small_page);
}

void* map_pages(std::size_t bytes) noexcept {
  const std::size_t len = mapped_size(bytes);
  constexpr int prot = PROT_READ | PROT_WRITE;
  constexpr int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
  if (!huge(bytes)) {
    void* p = mmap(nullptr, len, prot, flags, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
  }
  void* at = reserve_aligned(len);
  if (at == nullptr) return nullptr;
  if (mmap(at, len, prot, flags | MAP_FIXED, -1, 0) == MAP_FAILED) {
    munmap(at, len);
    return nullptr;
  }
#ifdef MADV_HUGEPAGE
  madvise(at, len, MADV_HUGEPAGE);  // only advice: without THP the pages are small
#endif
  return at;
}

void* remap_pages(void* p, std::size_t old_bytes, std::size_t new_bytes) noexcept {
  const std::size_t old_len = mapped_size(old_bytes), new_len = mapped_size(new_bytes);
  if (!huge(new_bytes)) {
    void* q = mremap(p, old_len, new_len, MREMAP_MAYMOVE);
    return q == MAP_FAILED ? nullptr : q;
  }
  // In place if the addresses after it are free; else moved onto an aligned reservation (MREMAP_FIXED replaces
  // it), so the huge pages stay huge; else, when the address space is short (`ulimit -v`: the reservation needs
  // room for both), moved anywhere.
  void* at = mremap(p, old_len, new_len, 0);
  if (at == MAP_FAILED) {
    at = reserve_aligned(new_len);
    if (at != nullptr && mremap(p, old_len, new_len, MREMAP_MAYMOVE | MREMAP_FIXED, at) == MAP_FAILED) {
      munmap(at, new_len);
      at = nullptr;
    }
    if (at == nullptr) {
      at = mremap(p, old_len, new_len, MREMAP_MAYMOVE);
      if (at == MAP_FAILED) return nullptr;
    }
  }
#ifdef MADV_HUGEPAGE
  madvise(at, new_len, MADV_HUGEPAGE);
#endif
  return at;
}

void unmap_pages(void* p, std::size_t bytes) noexcept {
  if (p != nullptr) munmap(p, mapped_size(bytes));
}

void prefault_write(void* p, std::size_t bytes) noexcept {
#ifdef MADV_POPULATE_WRITE
  const std::uintptr_t first = round_up(reinterpret_cast<std::uintptr_t>(p), k_small_page);
  const std::uintptr_t last = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(k_small_page - 1);
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_POPULATE_WRITE);
#else
  (void)p;
  (void)bytes;
#endif
}

}  // namespace jview::simd
