// cli/process_tuning.cpp: the process's memory policy, set by main (core/ calls no mallopt itself): transparent huge
// pages for big evaluations. `[inputs | {a, b}] | group_by(.a)` over a
// 200 MB log keeps hundreds of MB of small blocks from malloc's main heap; on 4 KiB pages every page costs a fault
// (and in a VM a second one in the host): with 4 KiB pages that command took twice as long as with huge pages.
// So once the heap has grown past a threshold, malloc is told to extend it in large steps (M_TOP_PAD) and each
// extension is advised MADV_HUGEPAGE as the box allocator notices it (its allocation hook runs every 256 boxes:
// core/filter/value.hpp). Small runs
// never get here. Without a brk heap (another allocator, ASan) sbrk(0) does not move and nothing happens.
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

#include "cli/process_tuning.hpp"
#include "core/filter/program.hpp"

namespace jview::cli {

namespace {

constexpr std::uintptr_t k_huge_page = std::uintptr_t{1} << 21;
constexpr std::uintptr_t k_start_after = std::uintptr_t{16} << 20;  // heap growth before huge pages pay
constexpr int k_top_pad = 64 << 20;                                 // heap extension step from then on

std::uintptr_t g_heap_base = 0;  // the break when first checked
std::uintptr_t g_advised = 0;    // end of the part of the heap advised (or passed over) so far
bool g_started = false;

void heap_check_locked() noexcept;

void heap_check() noexcept {
  // The hook runs on every thread of a parallel run: one checks at a time, the others pass.
  static std::atomic_flag busy = ATOMIC_FLAG_INIT;
  if (busy.test_and_set(std::memory_order_acquire)) return;
  heap_check_locked();
  busy.clear(std::memory_order_release);
}

void heap_check_locked() noexcept {
  const auto brk_now = reinterpret_cast<std::uintptr_t>(sbrk(0));
  if (brk_now == static_cast<std::uintptr_t>(-1)) return;
  if (g_heap_base == 0) {
    g_heap_base = g_advised = brk_now;
    return;
  }
  if (brk_now <= g_advised) return;
  if (!g_started) {
    if (brk_now - g_heap_base < k_start_after) return;
    g_started = true;
    mallopt(M_TOP_PAD, k_top_pad);
    // Large blocks (the arrays of a big collection, a sort's buffers) from the heap too, not from mappings of
    // their own that fault page by page (32 MiB is malloc's largest threshold).
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
  }
  // Whole huge pages only: the rest of the old range is already in use on small pages.
  const std::uintptr_t from = (g_advised + k_huge_page - 1) & ~(k_huge_page - 1);
  if (brk_now > from) madvise(reinterpret_cast<void*>(from), brk_now - from, MADV_HUGEPAGE);
  g_advised = brk_now;
}

}  // namespace

void use_process_tuning() noexcept { filter::set_allocation_hook(&heap_check); }

}  // namespace jview::cli
