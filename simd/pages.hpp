// simd/pages.hpp: anonymous memory for buffers that are written as soon as they are allocated (a file read whole,
// the node arena, the stage-1 arrays, the duplicate-key table). On this kind of machine (a VM) the first write to
// each 4 KiB page is what costs: about 17 µs a page when it faults, still about 5 µs after MADV_POPULATE_WRITE
// filled the page table, against 30 µs for a whole MiB on a transparent huge page (measured: writing 1 MiB took
// 4.4 ms, 1.2 ms, 0.03 ms). So a buffer of half a huge page or more goes on huge pages, a smaller one on 4 KiB
// pages of its own mapping.
//
// A huge page in turn costs 50-130 µs at its first touch (the kernel zeroes 2 MiB), whatever part of it is used.
// So buffers on huge pages are blocks cut one after the other from a shared *region* (one 2 MiB aligned
// reservation with MADV_HUGEPAGE): twitter.json's bytes (617 KiB), its key table and stage-1 arrays (519 KiB) and
// its nodes (437 KiB) touch one huge page instead of three. A region hands out fresh memory only (a freed block is
// never handed out again, so every block is zeroed); it is unmapped when its last block is, and the whole huge
// pages inside a freed block are given back at once. Not thread-safe: jview parses on one thread.
// In simd/ because it is the lowest layer.
#pragma once
#include <cstddef>

namespace jview::simd {

inline constexpr std::size_t k_huge_page = std::size_t{2} << 20;
// From this input size up, a parser's own buffers (stage-1 arrays, key table) go on huge pages: below it they
// touch few pages, and a huge page for each of many small files (`--check *.json`) would cost more than it saves.
inline constexpr std::size_t k_large_input = std::size_t{256} << 10;

// The bytes a mapping or block of `bytes` spans: whole 4 KiB pages (all of them usable).
std::size_t mapped_size(std::size_t bytes) noexcept;
// Zeroed memory of mapped_size(bytes), nothing populated yet (untouched pages cost nothing); nullptr when there is
// no address space. From k_huge_page / 2 up a block of a region (huge pages), below it a mapping of its own.
void* map_pages(std::size_t bytes) noexcept;
// The same, always a block of a region: for a buffer that is written at once (or at random) even when it is small.
void* map_huge_pages(std::size_t bytes) noexcept;
// Grows memory of map_pages / map_huge_pages from old_bytes to new_bytes (both as given), keeping its contents: in
// place when the addresses after it are free, else moved (mremap for a mapping of its own or a region's only
// block: the page tables move; a copy of old_bytes for a block among others); nullptr when there is no address
// space (the old memory is then unchanged).
void* remap_pages(void* p, std::size_t old_bytes, std::size_t new_bytes) noexcept;
void unmap_pages(void* p, std::size_t bytes) noexcept;

// Fills the page-table entries of the whole pages inside [p, p + bytes) for writing, in one call (one fault per
// page otherwise); a failure (a kernel before 5.14) only means the faults happen as before.
void prefault_write(void* p, std::size_t bytes) noexcept;

}  // namespace jview::simd
