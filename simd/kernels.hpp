// simd/kernels.hpp: the one kernel choice. Every family of vector code (UTF-8 validation, the parser's string and
// whitespace scanners, its stage-1 token index, the writer's minifier, the stream reader's value-boundary and line
// scans, the digit conversion of numbers) is chosen once, together, from one request (`--kernels`, JVIEW_KERNELS,
// or their aliases) and the CPU, and every consumer reads that one choice (active_kernels(), or a `kernels` a test
// passes in). Nothing here depends on compiler flags: vector code is compiled with target attributes, so every x86-64
// build carries the SSSE3/AVX2/AVX-512 kernels and picks one at run time; a JVIEW_PORTABLE_ONLY build has none.
#pragma once
#include <atomic>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace jview::simd {

// Instruction-set levels. On x86-64 each level implies the ones below it; NEON is AArch64's baseline.
enum class isa : int { portable = 0, sse2 = 1, ssse3 = 2, avx2 = 3, avx512 = 4, neon = 5 };
const char* isa_name(isa level) noexcept;  // "portable", "sse2", ...

// A UTF-8 validator: returns the offset of the first byte of the first invalid UTF-8 sequence in [p, p+len), or len
// if all valid. Never reads outside [p, p+len).
struct kernel_set {
  const char* name;  // "portable", "sse2", "ssse3", "avx2", "avx512", "neon"
  isa level;
  std::size_t (*validate_utf8)(const char* p, std::size_t len) noexcept;
};
struct stage1_kernel;  // simd/structural.hpp
struct minify_kernel;  // simd/minify.hpp

// What was asked for: the best the CPU runs (automatic), or everything at or below one level.
struct kernel_request {
  bool automatic = true;
  isa ceiling = isa::portable;  // when !automatic
  char source[48] = {};  // who asked, for --version: "--kernels portable", "JVIEW_PORTABLE_ONLY=1", ...; empty: nobody
  void set_source(std::string_view who) noexcept;  // (cut to fit)
};
// "auto", "portable", "sse2", "ssse3", "avx2", "avx512", "neon" -> a request (source left empty); false when unknown.
bool parse_kernel_request(std::string_view name, kernel_request& out) noexcept;

// The choice: one implementation per family.
struct kernels {
  kernel_request request;
  const kernel_set* utf8;          // validation of non-ASCII runs (parser, --utf8)
  const stage1_kernel* structure;  // the parser's token index; nullptr: the one-pass parser alone
  const minify_kernel* minify;     // `-c` of unmodified values
  // The header-only scanners inlined into their callers -- strings and whitespace (parser, writer), value
  // boundaries and newlines (stream reader), the digits of numbers (dtoa, number cutting) -- use the baseline vector
  // unit (SSE2 on x86-64, NEON on AArch64) or portable code. One decision for all: compiled without target
  // attributes, they have no level between those two.
  isa scanners;
  bool vector_scanners() const noexcept { return scanners != isa::portable; }
};

// Every family's kernel for this CPU under `request`: the best each family has at or below the requested level
// (automatic: the CPU's best), the stage-1 index only where it beats the one-pass parser. False, with `error` set,
// when the request names a level this build lacks or this CPU cannot run.
bool choose_kernels(const kernel_request& request, kernels& out, std::string& error);
// The all-portable choice (the reference every other kernel is tested against).
const kernels& portable_kernels() noexcept;

// The process's choice, read by every consumer. use_kernels() sets it (the CLI, once, before any kernel runs and
// before any thread starts; tests may switch and restore); until then it is the automatic choice.
void use_kernels(const kernels& k) noexcept;
const kernels& active_kernels() noexcept;

// active_kernels().vector_scanners(), for the hottest callers (a double's digits): one load of a flag that
// use_kernels() keeps equal to it, instead of reaching the choice through its pointer.
namespace detail {
extern constinit std::atomic<bool> g_vector_scanners;
}
inline bool vector_scanners_active() noexcept { return detail::g_vector_scanners.load(std::memory_order_relaxed); }

// One line naming each family's kernel and why, e.g. "kernels: utf8=avx512 (cpuid) strings=sse2 (baseline) ...".
std::string describe_kernels(const kernels& k);

// Every UTF-8 kernel compiled into this build, best first; the last is always the portable one.
// Tests and benchmarks call them directly (only those with cpu_supports(level)).
std::span<const kernel_set> all_utf8_kernels() noexcept;
// Whether this CPU (and OS, for AVX state) can run code of the given level. Runs the CPU check once.
bool cpu_supports(isa level) noexcept;

// The portable reference validator (always available; the other kernels must agree with it).
std::size_t validate_utf8_portable(const char* p, std::size_t len) noexcept;
// Validates with the active kernel; same contract as kernel_set::validate_utf8.
inline std::size_t validate_utf8(const char* p, std::size_t len) noexcept {
  return active_kernels().utf8->validate_utf8(p, len);
}

}  // namespace jview::simd
