// simd/prefault.hpp: fill the page-table entries of a buffer about to be written, in one system call. A fresh
// process otherwise takes one page fault per 4 KiB page it first writes (about 10 µs each on a VM, against about
// 1 µs a page here). In simd/ because it is the lowest layer: the stage-1 arrays and core/'s arena both use it.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>

namespace jview::simd {

// Prefaults the whole pages inside [p, p + bytes) for writing; a failure (e.g. a kernel before 5.14) only means
// the faults happen as before.
inline void prefault_write(void* p, std::size_t bytes) noexcept {
#ifdef MADV_POPULATE_WRITE
  constexpr std::uintptr_t page = 4096;
  const std::uintptr_t first = (reinterpret_cast<std::uintptr_t>(p) + page - 1) & ~(page - 1);
  const std::uintptr_t last = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(page - 1);
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_POPULATE_WRITE);
#else
  (void)p;
  (void)bytes;
#endif
}

}  // namespace jview::simd
