// simd/pages.hpp: anonymous memory for buffers that are written as soon as they are allocated (the node arena, the
// stage-1 arrays, the duplicate-key table). On this kind of machine (a VM) the first write to each 4 KiB page is
// what costs: about 17 µs a page when it faults, still about 5 µs after MADV_POPULATE_WRITE filled the page table,
// against 30 µs for a whole MiB on a transparent huge page (measured: writing 1 MiB took 4.4 ms, 1.2 ms, 0.03 ms;
// mapping the huge page 60 µs). So a buffer of half a huge page or more is mapped 2 MiB aligned, in whole huge
// pages, with MADV_HUGEPAGE; a smaller one in 4 KiB pages. In simd/ because it is the lowest layer.
#pragma once
#include <cstddef>

namespace jview::simd {

inline constexpr std::size_t k_huge_page = std::size_t{2} << 20;
// From this input size up, a parser's own buffers (stage-1 arrays, key table) go on a huge page: below it they
// touch few pages, and zeroing a huge page (about 60 µs) for each of many small files (`--check *.json`) would cost
// more than it saves.
inline constexpr std::size_t k_large_input = std::size_t{256} << 10;

// What map_pages maps for `bytes`: whole huge pages from k_huge_page / 2 up, else whole 4 KiB pages.
std::size_t mapped_size(std::size_t bytes) noexcept;
// Zeroed memory of mapped_size(bytes), nothing populated yet; nullptr when there is no address space. MAP_NORESERVE:
// untouched pages cost nothing.
void* map_pages(std::size_t bytes) noexcept;
// Grows a map_pages mapping from old_bytes to new_bytes (both as given to map_pages / remap_pages), keeping its
// contents (the page tables move, nothing is copied) and huge-page alignment; nullptr when there is no address
// space (the old mapping is then unchanged).
void* remap_pages(void* p, std::size_t old_bytes, std::size_t new_bytes) noexcept;
void unmap_pages(void* p, std::size_t bytes) noexcept;

// Fills the page-table entries of the whole pages inside [p, p + bytes) for writing, in one call (one fault per
// page otherwise); a failure (a kernel before 5.14) only means the faults happen as before.
void prefault_write(void* p, std::size_t bytes) noexcept;

}  // namespace jview::simd
