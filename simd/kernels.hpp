// simd/kernels.hpp: the kernel table and its run-time dispatch.
// One CPU check, cached in a constant-initialised atomic; `--no-simd` / `--force-ssse3` pick a mode before first use.
// Nothing here depends on compiler flags: vector code is compiled with target attributes, so every x86-64 build
// carries the SSSE3/AVX2/AVX-512 kernels and picks one at run time. JVIEW_NO_SIMD=1 builds the portable code only.
#pragma once
#include <cstddef>
#include <span>
#include <string>

namespace jview::simd {

// Which kernels the process uses. Set once by the CLI before any kernel runs.
enum class mode : int { automatic = 0, portable = 1, force_ssse3 = 2 };
void set_mode(mode m) noexcept;
mode current_mode() noexcept;

// Instruction-set levels a kernel may need. On x86-64 each level implies the ones below it.
enum class isa : int { portable = 0, sse2 = 1, ssse3 = 2, avx2 = 3, avx512 = 4, neon = 5 };

struct kernel_set {
  const char* name;  // "portable", "sse2", "ssse3", "avx2", "avx512", "neon"
  isa level;
  // Returns the offset of the first byte of the first invalid UTF-8 sequence in [p, p+len), or len if all valid.
  // Never reads outside [p, p+len).
  std::size_t (*validate_utf8)(const char* p, std::size_t len) noexcept;
};

// The kernel set chosen for UTF-8 validation on this CPU under the current mode (cached after the first call).
const kernel_set& utf8_kernels() noexcept;

// Validates with the chosen kernel; same contract as kernel_set::validate_utf8.
inline std::size_t validate_utf8(const char* p, std::size_t len) noexcept {
  return utf8_kernels().validate_utf8(p, len);
}

// True when the parser should use the vector string scanner (sse2_scanner on x86-64, neon_scanner on AArch64);
// false for --no-simd and JVIEW_NO_SIMD builds.
bool vector_strings() noexcept;
// The same decision for the whitespace scanners of simd/whitespace.hpp (sse2_ws / neon_ws vs portable_ws).
bool vector_whitespace() noexcept;

// One line naming each job's kernel and why, e.g.
// "kernels: utf8=avx2 (cpuid) strings=sse2 (baseline) whitespace=sse2 (baseline)".
std::string describe_kernels();

// Every UTF-8 kernel compiled into this build, best first; the last is always the portable one.
// Tests and benchmarks call them directly (only those with cpu_supports(level)).
std::span<const kernel_set> all_utf8_kernels() noexcept;
// Whether this CPU (and OS, for AVX state) can run code of the given level. Runs the CPU check once.
bool cpu_supports(isa level) noexcept;

// The portable reference validator (always available; the other kernels must agree with it).
std::size_t validate_utf8_portable(const char* p, std::size_t len) noexcept;

}  // namespace jview::simd
