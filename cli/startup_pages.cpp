// cli/startup_pages.cpp: the executable's own pages mapped in one call each, before anything runs.
//
// On the machines we measure (VMs) a page fault costs 9-14 µs, and start-up touches code spread over the whole
// text of the executable (libc's start-up, libstdc++'s locale, CLI11, the filter compiler, the writer): about 30
// faults, with the kernel mapping 16 neighbouring pages at each. MADV_POPULATE_READ maps every page of a segment
// that is in the page cache in one call (0.1 µs a page), MADV_POPULATE_WRITE makes the data and bss pages
// private in one call; the heap's first pages likewise. Kernels before 5.14 refuse the advice, and the pages then
// fault in as before: nothing depends on it.
//
// In the static x86-64 build (JVIEW_EARLY_ENTRY, CMakeLists.txt) the segments are populated by the executable's
// entry point, before libc's own start-up (which alone took 26 faults: its tunables, CPU features, IFUNC
// resolvers, locale); elsewhere from .preinit_array, before libc's and libstdc++'s initialisers. The heap's pages
// are populated from .preinit_array in both, malloc being ready then.
#include <link.h>
#include <malloc.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

namespace {

constexpr std::uintptr_t k_page = 4096;

// [begin, end) widened to whole pages: its start and length, the length 0 when empty.
struct page_span {
  std::uintptr_t begin, len;
};
[[gnu::always_inline]] inline page_span whole_pages(std::uintptr_t begin, std::uintptr_t end) noexcept {
  begin &= ~(k_page - 1);
  end = (end + k_page - 1) & ~(k_page - 1);
  return {begin, end > begin ? end - begin : 0};
}

#ifdef JVIEW_EARLY_ENTRY

// Before libc is initialised: no libc call (nor errno), no stack protector (the thread pointer is not set yet).
// Returns the system call's result (0, or minus the error).
[[gnu::always_inline]] inline long early_madvise(std::uintptr_t begin, std::uintptr_t end, long advice) noexcept {
  const page_span s = whole_pages(begin, end);
  if (s.len == 0) return 0;
  long ret;
  asm volatile("syscall"
               : "=a"(ret)
               : "0"(static_cast<long>(SYS_madvise)), "D"(s.begin), "S"(s.len), "d"(advice)
               : "rcx", "r11", "memory");
  return ret;
}

}  // namespace

extern "C" const ElfW(Ehdr) __ehdr_start;  // the ELF header, mapped with the first segment (GNU ld)
extern "C" const char etext[];              // the end of the code (GNU ld)

// Every loadable segment: the read-only ones mapped, the writable one made private (its RELRO part is still
// writable now: libc's start-up writes it, then makes it read-only). The headers and the code first, in one call,
// so that reading the program headers does not fault; segments aligned to 2 MiB (CMakeLists.txt) leave a gap
// between the two, and the call then stops after the headers with ENOMEM: the code is done in the loop. In the
// entry point's section, so that the two share a page (each fault on the code maps only its 64 KiB around).
extern "C" [[gnu::used, gnu::no_stack_protector, gnu::section(".text.jview_entry")]] void
jview_populate_segments() noexcept {
  const bool code_done = early_madvise(reinterpret_cast<std::uintptr_t>(&__ehdr_start),
                                       reinterpret_cast<std::uintptr_t>(etext), MADV_POPULATE_READ) == 0;
  const auto* base = reinterpret_cast<const unsigned char*>(&__ehdr_start);
  const auto* phdr = reinterpret_cast<const ElfW(Phdr)*>(base + __ehdr_start.e_phoff);
  std::uintptr_t bias = 0;
  // The unwind tables' index (.eh_frame_hdr, then .eh_frame and .gcc_except_table) and its size.
  std::uintptr_t unwind = 0, unwind_index = 0;
  for (std::size_t i = 0; i < __ehdr_start.e_phnum; ++i) {
    if (phdr[i].p_type == PT_LOAD && phdr[i].p_offset == 0)
      bias = reinterpret_cast<std::uintptr_t>(base) - phdr[i].p_vaddr;
    if (phdr[i].p_type == PT_GNU_EH_FRAME) {
      unwind = phdr[i].p_vaddr;
      unwind_index = phdr[i].p_memsz;
    }
  }
  for (std::size_t i = 0; i < __ehdr_start.e_phnum; ++i) {
    if (phdr[i].p_type != PT_LOAD) continue;
    const std::uintptr_t begin = bias + phdr[i].p_vaddr;
    std::uintptr_t end = begin + phdr[i].p_memsz;
    if (code_done && end <= reinterpret_cast<std::uintptr_t>(etext)) continue;  // done above
    // The unwind tables (a tenth of the executable) are read only when an exception is thrown: not mapped now,
    // but for the first page of .eh_frame, which libc's start-up registers.
    if (unwind != 0 && bias + unwind > begin && bias + unwind < end) {
      const std::uintptr_t frames = bias + unwind + unwind_index;
      early_madvise(frames, frames + 1, MADV_POPULATE_READ);
      end = bias + unwind;
    }
    early_madvise(begin, end, (phdr[i].p_flags & PF_W) != 0 ? MADV_POPULATE_WRITE : MADV_POPULATE_READ);
  }
}

// The entry point: the segments, then libc's _start with the stack and %rdx (the exit hook the kernel passes) as
// they were. The stack pointer is 16-byte aligned at entry, as a call expects.
asm(R"(
  .pushsection .text.jview_entry,"ax",@progbits
  .p2align 9
  .globl jview_entry
  .type jview_entry, @function
jview_entry:
  mov %rdx, %r12
  call jview_populate_segments
  mov %r12, %rdx
  jmp _start
  .size jview_entry, .-jview_entry
  .popsection
)");

namespace {

#endif  // JVIEW_EARLY_ENTRY

void populate(std::uintptr_t begin, std::uintptr_t end, bool writable) noexcept {
  const page_span s = whole_pages(begin, end);
  if (s.len != 0)
    ::madvise(reinterpret_cast<void*>(s.begin), s.len, writable ? MADV_POPULATE_WRITE : MADV_POPULATE_READ);
}

void populate_startup_pages(int, char**, char**) {
#ifndef JVIEW_EARLY_ENTRY
  const auto phdr_address = static_cast<std::uintptr_t>(::getauxval(AT_PHDR));
  const auto count = static_cast<std::size_t>(::getauxval(AT_PHNUM));
  if (phdr_address == 0) return;
  const auto* phdr = reinterpret_cast<const ElfW(Phdr)*>(phdr_address);
  std::uintptr_t load_bias = 0;  // 0 unless the executable is position-independent
  for (std::size_t i = 0; i < count; ++i)
    if (phdr[i].p_type == PT_PHDR) load_bias = phdr_address - phdr[i].p_vaddr;
  // The part of the data segment made read-only after relocation (RELRO), which cannot be written.
  std::uintptr_t relro_end = 0;
  for (std::size_t i = 0; i < count; ++i)
    if (phdr[i].p_type == PT_GNU_RELRO) relro_end = load_bias + phdr[i].p_vaddr + phdr[i].p_memsz;
  for (std::size_t i = 0; i < count; ++i) {
    if (phdr[i].p_type != PT_LOAD) continue;
    std::uintptr_t begin = load_bias + phdr[i].p_vaddr;
    const std::uintptr_t end = begin + phdr[i].p_memsz;
    if ((phdr[i].p_flags & PF_W) == 0) {
      populate(begin, end, false);
      continue;
    }
    if (relro_end > begin && relro_end < end) {
      populate(begin, relro_end, false);
      begin = relro_end;
    }
    populate(begin, end, true);
  }
#endif
  // The heap: malloc's first call extended the break by 132 KiB and more, which start-up then writes a page at a
  // time. mallinfo2's arena is what the break grew by for malloc.
  std::free(std::malloc(1));
  const auto top = reinterpret_cast<std::uintptr_t>(::sbrk(0));
  const std::size_t arena = ::mallinfo2().arena;
  if (arena != 0 && arena < top) populate(top - arena, top, true);
}

}  // namespace

// .preinit_array: an executable's earliest initialisers, run before .init_array (libstdc++'s, then ours).
__attribute__((section(".preinit_array"), used)) void (*const jview_populate_startup_pages)(int, char**, char**) =
    populate_startup_pages;
