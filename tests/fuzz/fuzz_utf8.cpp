// tests/fuzz/fuzz_utf8.cpp: libFuzzer target: every UTF-8 kernel this CPU can run against the portable validator:
// the same verdict and the same offset of the first invalid sequence, on the whole input and on slices starting at
// each of the first 64 offsets (so every alignment and every block-tail length is met). Each call gets an exact-size
// heap copy: a kernel reading one byte past its slice is a heap-buffer-overflow under ASan.
#include <cstdint>
#include <string>

#include "simd/kernels.hpp"
#include "tests/fuzz/fuzz_common.hpp"

using namespace jview;

namespace {

void check_slice(const std::uint8_t* p, std::size_t n) {
  fuzz::exact_copy c(p, n);
  const std::size_t want = simd::validate_utf8_portable(c.data(), n);
  JVIEW_FUZZ_CHECK(want <= n);
  for (const simd::kernel_set& k : simd::all_utf8_kernels()) {
    if (!simd::cpu_supports(k.level)) continue;
    const std::size_t got = k.validate_utf8(c.data(), n);
    if (got != want) {
      std::fprintf(stderr, "kernel %s: %zu, portable: %zu, length %zu\n", k.name, got, want, n);
      fuzz::fail("UTF-8 kernel disagrees with the portable validator");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  check_slice(data, size);
  for (std::size_t off = 1; off < size && off < 64; ++off) check_slice(data + off, size - off);
  // Ends cut at every length below 64 too (tails shorter than one vector).
  for (std::size_t len = 0; len < size && len < 64; ++len) check_slice(data, len);
  return 0;
}
