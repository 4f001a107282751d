// simd/pages.cpp: see pages.hpp.
#include "simd/pages.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <vector>

namespace jview::simd {
namespace {

constexpr std::size_t k_small_page = 4096;
// Address space a region reserves beyond its first block (as much again, at least 8 MiB): for the blocks that
// follow it (a file's key table and node arena follow its bytes) and for a node arena to grow in place. Untouched,
// it costs nothing but address space; under `ulimit -v` a region without it is tried. A first block over 64 MiB
// gets 8 MiB only and grows by mremap (grow_alone): room as large as itself could be what a later block lacks
// under `ulimit -v` (a 100 MB file's buffer, then its 370 MB of nodes).
constexpr std::size_t k_region_room = std::size_t{8} << 20;
constexpr std::size_t k_region_doubles_upto = std::size_t{64} << 20;

std::uintptr_t round_up(std::uintptr_t x, std::size_t to) noexcept { return (x + to - 1) & ~(to - 1); }
std::uintptr_t round_down(std::uintptr_t x, std::size_t to) noexcept { return x & ~(to - 1); }

struct region {
  std::uintptr_t base, end;  // the reservation, 2 MiB aligned
  std::uintptr_t next;       // where the next block starts
  std::size_t blocks;        // blocks handed out and not unmapped yet
};

// The live regions (each holds at least one block); new blocks come from the last one. Never destroyed: a block
// may be unmapped by a static object's destructor at exit.
std::vector<region>& regions() noexcept {
  static auto* live = new std::vector<region>;
  return *live;
}

// The regions are shared by every thread (a parallel run's workers map document arenas and buffers): one lock,
// recursive because remap_pages maps and unmaps through the public functions. Never destroyed, as the regions.
std::recursive_mutex& regions_lock() noexcept {
  static auto* m = new std::recursive_mutex;
  return *m;
}

region* find_region(std::uintptr_t a) noexcept {
  for (region& r : regions())
    if (a >= r.base && a < r.end) return &r;
  return nullptr;
}

void advise_huge(void* at, std::size_t len) noexcept {
#ifdef MADV_HUGEPAGE
  madvise(at, len, MADV_HUGEPAGE);  // only advice: without THP the pages are small
#else
  (void)at;
  (void)len;
#endif
}

// len bytes (a multiple of k_huge_page) of zeroed memory, 2 MiB aligned, nothing committed, advised onto huge pages.
void* map_aligned(std::size_t len) noexcept {
  constexpr int prot = PROT_READ | PROT_WRITE;
  void* raw = mmap(nullptr, len + k_huge_page, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = round_up(start, k_huge_page);
  if (aligned > start) munmap(raw, aligned - start);
  const std::uintptr_t tail = start + len + k_huge_page - (aligned + len);
  if (tail > 0) munmap(reinterpret_cast<void*>(aligned + len), tail);
  advise_huge(reinterpret_cast<void*>(aligned), len);
  return reinterpret_cast<void*>(aligned);
}

// A new last region with room for a block of len bytes, or false (no address space).
bool add_region(std::size_t len) noexcept {
  const std::size_t first = round_up(len, k_huge_page);
  const std::size_t room = first <= k_region_doubles_upto ? std::max(k_region_room, first) : k_region_room;
  for (const std::size_t size : {first + room, first}) {
    if (void* at = map_aligned(size)) {
      const auto base = reinterpret_cast<std::uintptr_t>(at);
      try {
        regions().push_back(region{base, base + size, base, 0});
      } catch (...) {
        munmap(at, size);
        return false;
      }
      return true;
    }
  }
  return false;
}

// Grows region r, whose one block starts at its base, to hold new_len bytes of that block: in place when the
// addresses after it are free, else moved (the page tables move, nothing is copied) onto an aligned reservation,
// else, when the address space is short (`ulimit -v`: the reservation needs room for both), anywhere.
bool grow_alone(region& r, std::size_t new_len) noexcept {
  void* old = reinterpret_cast<void*>(r.base);
  const std::size_t old_size = r.end - r.base, size = round_up(new_len, k_huge_page);
  void* at = mremap(old, old_size, size, 0);
  if (at == MAP_FAILED) {
    at = map_aligned(size);
    if (at != nullptr && mremap(old, old_size, size, MREMAP_MAYMOVE | MREMAP_FIXED, at) == MAP_FAILED) {
      munmap(at, size);
      at = nullptr;
    }
    if (at == nullptr) {
      at = mremap(old, old_size, size, MREMAP_MAYMOVE);
      if (at == MAP_FAILED) return false;
      advise_huge(at, size);
    }
  }
  r.base = reinterpret_cast<std::uintptr_t>(at);
  r.end = r.base + size;
  r.next = r.base + new_len;
  return true;
}

}  // namespace

std::size_t mapped_size(std::size_t bytes) noexcept { return round_up(std::max<std::size_t>(bytes, 1), k_small_page); }

void* map_huge_pages(std::size_t bytes) noexcept {
  const std::lock_guard<std::recursive_mutex> hold(regions_lock());
  const std::size_t len = mapped_size(bytes);
  std::vector<region>& live = regions();
  if ((live.empty() || live.back().end - live.back().next < len) && !add_region(len)) return nullptr;
  region& r = live.back();
  void* p = reinterpret_cast<void*>(r.next);
  r.next += len;
  ++r.blocks;
  return p;
}

void* map_pages(std::size_t bytes) noexcept {
  const std::size_t len = mapped_size(bytes);
  if (len >= k_huge_page / 2) return map_huge_pages(bytes);
  void* p = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

void* remap_pages(void* p, std::size_t old_bytes, std::size_t new_bytes) noexcept {
  const std::lock_guard<std::recursive_mutex> hold(regions_lock());
  const std::size_t old_len = mapped_size(old_bytes), new_len = mapped_size(new_bytes);
  if (new_len <= old_len) return p;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  if (region* r = find_region(a)) {
    if (a + old_len == r->next && r->end - a >= new_len) {  // the last block, with room after it
      r->next = a + new_len;
      return p;
    }
    if (r->blocks == 1 && a == r->base) return grow_alone(*r, new_len) ? reinterpret_cast<void*>(r->base) : nullptr;
  } else if (new_len < k_huge_page / 2) {
    void* q = mremap(p, old_len, new_len, MREMAP_MAYMOVE);
    return q == MAP_FAILED ? nullptr : q;
  }
  // Moved to a block of its own region (which has room to grow in place after it).
  void* q = map_pages(new_bytes);
  if (q == nullptr) return nullptr;
  std::memcpy(q, p, old_len);
  unmap_pages(p, old_bytes);
  return q;
}

void unmap_pages(void* p, std::size_t bytes) noexcept {
  const std::lock_guard<std::recursive_mutex> hold(regions_lock());
  if (p == nullptr) return;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const std::size_t len = mapped_size(bytes);
  region* r = find_region(a);
  if (r == nullptr) {
    munmap(p, len);
    return;
  }
  if (--r->blocks == 0) {
    munmap(reinterpret_cast<void*>(r->base), r->end - r->base);
    std::vector<region>& live = regions();
    live.erase(live.begin() + (r - live.data()));
    return;
  }
  // The region lives on for its other blocks: the huge pages wholly inside this one go back now (its addresses
  // are never handed out again).
  const std::uintptr_t lo = round_up(a, k_huge_page), hi = round_down(a + len, k_huge_page);
  if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_DONTNEED);
}

void prefault_write(void* p, std::size_t bytes) noexcept {
#ifdef MADV_POPULATE_WRITE
  const std::uintptr_t first = round_up(reinterpret_cast<std::uintptr_t>(p), k_small_page);
  const std::uintptr_t last = round_down(reinterpret_cast<std::uintptr_t>(p) + bytes, k_small_page);
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_POPULATE_WRITE);
#else
  (void)p;
  (void)bytes;
#endif
}

}  // namespace jview::simd
