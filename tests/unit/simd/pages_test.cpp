// tests/unit/simd/pages_test.cpp: simd/pages.hpp's regions. Blocks on huge pages are cut one after the other from a
// shared region, zeroed, never handed out twice; the last block grows in place, another one moves with its
// contents; a region goes away with its last block; small buffers keep mappings of their own.
#include <doctest/doctest.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "simd/pages.hpp"

namespace simd = jview::simd;

namespace {

bool mapped(const void* p) {
  unsigned char v;
  void* page = reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(p) & ~std::uintptr_t{4095});
  return mincore(page, 4096, &v) == 0;
}

bool all_zero(const char* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (p[i] != 0) return false;
  return true;
}

// b follows a directly, or starts a new region (2 MiB aligned) because a's had no room left.
bool follows(const char* a, std::size_t a_bytes, const char* b) {
  return b == a + simd::mapped_size(a_bytes) || reinterpret_cast<std::uintptr_t>(b) % simd::k_huge_page == 0;
}

}  // namespace

TEST_CASE("pages: huge-page blocks share a region, are zeroed and never handed out twice") {
  constexpr std::size_t k = 300000;  // not a multiple of a page: blocks span whole pages
  CHECK(simd::mapped_size(k) == 303104);
  auto* a = static_cast<char*>(simd::map_huge_pages(k));
  auto* b = static_cast<char*>(simd::map_huge_pages(k));
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  CHECK(follows(a, k, b));
  CHECK(all_zero(a, simd::mapped_size(k)));
  CHECK(all_zero(b, simd::mapped_size(k)));
  std::memset(a, 0x5a, simd::mapped_size(k));
  simd::unmap_pages(a, k);  // b keeps the region
  CHECK(mapped(b));
  auto* c = static_cast<char*>(simd::map_huge_pages(k));
  REQUIRE(c != nullptr);
  CHECK(c != a);
  CHECK(all_zero(c, simd::mapped_size(k)));
  simd::unmap_pages(b, k);
  simd::unmap_pages(c, k);
}

TEST_CASE("pages: the last block grows in place, another one moves with its contents") {
  // A block larger than any region's room starts a region with as much room again after it.
  constexpr std::size_t anchor_bytes = std::size_t{96} << 20;
  void* anchor = simd::map_huge_pages(anchor_bytes);
  REQUIRE(anchor != nullptr);
  constexpr std::size_t k = 1u << 20;
  auto* a = static_cast<char*>(simd::map_pages(k));  // half a huge page: a region block
  REQUIRE(a != nullptr);
  CHECK(a == static_cast<char*>(anchor) + anchor_bytes);
  std::memset(a, 'a', k);
  auto* grown = static_cast<char*>(simd::remap_pages(a, k, 3 * k));
  REQUIRE(grown != nullptr);
  CHECK(grown == a);  // nothing was cut after it
  CHECK(grown[k - 1] == 'a');
  CHECK(all_zero(grown + k, 2 * k));
  auto* b = static_cast<char*>(simd::map_pages(k));
  REQUIRE(b != nullptr);
  std::memset(grown + k, 'b', 2 * k);
  auto* moved = static_cast<char*>(simd::remap_pages(grown, 3 * k, 4 * k));  // b follows it now
  REQUIRE(moved != nullptr);
  CHECK(moved != grown);
  CHECK(moved[0] == 'a');
  CHECK(moved[k - 1] == 'a');
  CHECK(moved[k] == 'b');
  CHECK(moved[3 * k - 1] == 'b');
  CHECK(all_zero(moved + 3 * k, k));
  simd::unmap_pages(b, k);
  simd::unmap_pages(moved, 4 * k);
  simd::unmap_pages(anchor, anchor_bytes);
}

TEST_CASE("pages: a region goes with its last block; small buffers map pages of their own") {
  // A block larger than any region's room starts a region of its own; freeing it unmaps the region.
  constexpr std::size_t big = std::size_t{96} << 20;
  auto* p = static_cast<char*>(simd::map_huge_pages(big));
  REQUIRE(p != nullptr);
  CHECK(reinterpret_cast<std::uintptr_t>(p) % simd::k_huge_page == 0);
  p[0] = 1;
  p[big - 1] = 1;
  simd::unmap_pages(p, big);
  CHECK_FALSE(mapped(p));
  CHECK_FALSE(mapped(p + big - 1));

  auto* small = static_cast<char*>(simd::map_pages(64u << 10));
  REQUIRE(small != nullptr);
  CHECK(all_zero(small, 64u << 10));
  std::memset(small, 1, 64u << 10);
  auto* wider = static_cast<char*>(simd::remap_pages(small, 64u << 10, 128u << 10));
  REQUIRE(wider != nullptr);
  CHECK(wider[(64u << 10) - 1] == 1);
  CHECK(all_zero(wider + (64u << 10), 64u << 10));
  simd::unmap_pages(wider, 128u << 10);
  CHECK_FALSE(mapped(wider));
}
