// simd/dispatch.cpp: the only CPU check, and the one table of UTF-8 kernel sets (best first). The CPU answer and the
// chosen kernel are cached in constant-initialised atomics (no static guard, no global constructor); the mode set
// by --no-simd / --force-ssse3 is read before first use and resets the cached choice.
#include <atomic>
#include <iterator>
#include <type_traits>

#include "simd/baseline.hpp"
#include "simd/kernels.hpp"
#include "simd/minify.hpp"
#include "simd/structural.hpp"
#include "simd/utf8_detail.hpp"

#if defined(__x86_64__) && !defined(JVIEW_NO_SIMD)
#include <cpuid.h>
#define JVIEW_X86_KERNELS 1
#elif defined(__aarch64__) && !defined(JVIEW_NO_SIMD)
#define JVIEW_NEON_KERNELS 1
#endif

namespace jview::simd {
namespace {

// Priority order: the first entry the CPU can run wins (in automatic mode).
constexpr kernel_set k_utf8_kernels[] = {
#if JVIEW_X86_KERNELS
    {"avx512", isa::avx512, &detail::validate_utf8_avx512},
    {"avx2", isa::avx2, &detail::validate_utf8_avx2},
    {"ssse3", isa::ssse3, &detail::validate_utf8_ssse3},
    {"sse2", isa::sse2, &detail::validate_utf8_sse2},
#elif JVIEW_NEON_KERNELS
    {"neon", isa::neon, &detail::validate_utf8_neon},
#endif
    {"portable", isa::portable, &validate_utf8_portable},
};
constexpr int k_kernel_count = static_cast<int>(std::size(k_utf8_kernels));
static_assert(std::is_trivially_destructible_v<kernel_set>, "the kernel table must need no destructor at exit");

constexpr int isa_bit(isa level) noexcept { return 1 << static_cast<int>(level); }
// Set in g_cpu once the check has run, so 0 means "not yet known".
constexpr int k_cpu_known = 1 << 30;
// Set in g_cpu when the AVX-512 stage-1 kernel can run (AVX-512 F+BW+VBMI2 plus PCLMULQDQ, POPCNT, BMI1, BMI2).
constexpr int k_cpu_stage1_avx512 = 1 << 29;
// Set in g_cpu when the AVX2 stage-1 kernel can run (AVX2 plus PCLMULQDQ, POPCNT, BMI1, BMI2).
constexpr int k_cpu_stage1_avx2 = 1 << 28;

constinit std::atomic<int> g_mode{static_cast<int>(mode::automatic)};
constinit std::atomic<int> g_cpu{0};
constinit std::atomic<int> g_utf8_choice{-1};  // index into k_utf8_kernels, -1 until chosen

// Stage-1 kernels of the parser's fast path (simd/structural.hpp), best first; the AVX-512 one also needs
// VBMI2 and PCLMULQDQ (see k_cpu_stage1_avx512).
constexpr stage1_kernel k_stage1_kernels[] = {
#if JVIEW_X86_KERNELS
    {"avx512", &detail::stage1_avx512},
    {"avx2", &detail::stage1_avx2},
    {"sse2", &detail::stage1_sse2},
#endif
    {"none", nullptr},
};
constexpr isa k_stage1_levels[] = {
#if JVIEW_X86_KERNELS
    isa::avx512,
    isa::avx2,
    isa::sse2,
#endif
    isa::portable,
};
constexpr int k_stage1_count = static_cast<int>(std::size(k_stage1_kernels));
static_assert(std::is_trivially_destructible_v<stage1_kernel>, "the kernel table must need no destructor at exit");
constinit std::atomic<int> g_stage1_choice{-1};  // index into k_stage1_kernels, -1 until chosen

// Minify kernels (simd/minify.hpp), best first; the AVX-512 one needs what the AVX-512 stage-1 kernel needs.
constexpr minify_kernel k_minify_kernels[] = {
#if JVIEW_X86_KERNELS
    {"avx512", &detail::minify_avx512},
    {"ssse3", &detail::minify_ssse3},
#endif
    {"portable", &detail::minify_portable},
};
constexpr isa k_minify_levels[] = {
#if JVIEW_X86_KERNELS
    isa::avx512,
    isa::ssse3,
#endif
    isa::portable,
};
constexpr int k_minify_count = static_cast<int>(std::size(k_minify_kernels));
static_assert(std::is_trivially_destructible_v<minify_kernel>, "the kernel table must need no destructor at exit");
constinit std::atomic<int> g_minify_choice{-1};  // index into k_minify_kernels, -1 until chosen

#if JVIEW_X86_KERNELS
// XCR0: which register states the OS saves on a context switch. Without its bits the AVX registers are unusable
// even when CPUID lists the instructions.
unsigned long long read_xcr0() noexcept {
  unsigned lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<unsigned long long>(hi) << 32) | lo;
}
#endif

int detect_cpu() noexcept {
  int bits = k_cpu_known | isa_bit(isa::portable);
#if JVIEW_X86_KERNELS
  bits |= isa_bit(isa::sse2);  // x86-64 baseline
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(1, &a, &b, &c, &d) == 0) return bits;
  if (c & bit_SSSE3) bits |= isa_bit(isa::ssse3);
  if ((c & bit_OSXSAVE) == 0 || (c & bit_AVX) == 0) return bits;
  const unsigned long long xcr0 = read_xcr0();
  const bool ymm_state = (xcr0 & 0x6) == 0x6;     // SSE and AVX state
  const bool zmm_state = (xcr0 & 0xe6) == 0xe6;   // plus opmask, ZMM0-15 upper halves, ZMM16-31
  if (__get_cpuid_max(0, nullptr) < 7) return bits;
  const bool pclmul = (c & bit_PCLMUL) != 0, popcnt = (c & bit_POPCNT) != 0;
  __cpuid_count(7, 0, a, b, c, d);
  if (ymm_state && (b & bit_AVX2)) {
    bits |= isa_bit(isa::avx2);
    if (pclmul && popcnt && (b & bit_BMI) && (b & bit_BMI2)) bits |= k_cpu_stage1_avx2;
  }
  if (ymm_state && zmm_state && (b & bit_AVX2) && (b & bit_AVX512F) && (b & bit_AVX512BW)) {
    bits |= isa_bit(isa::avx512);
    if (pclmul && popcnt && (b & bit_BMI) && (b & bit_BMI2) && (c & bit_AVX512VBMI2)) bits |= k_cpu_stage1_avx512;
  }
#elif JVIEW_NEON_KERNELS
  bits |= isa_bit(isa::neon);  // AArch64 baseline
#endif
  return bits;
}

int cpu_bits() noexcept {
  int bits = g_cpu.load(std::memory_order_relaxed);
  if (bits == 0) [[unlikely]] {
    bits = detect_cpu();  // idempotent, so a race only repeats the check
    g_cpu.store(bits, std::memory_order_relaxed);
  }
  return bits;
}

// Which kernel of a table (best first, the last one portable) a mode uses: --no-simd the last; --force-ssse3 the
// SSSE3 one without asking the CPU (a table without one: as automatic); else the first one runs(i, cpu bits) allows.
template <class LevelOf, class Runs>
int choose_kernel(mode m, int count, LevelOf level_of, Runs runs) noexcept {
  if (m == mode::portable) return count - 1;
  if (m == mode::force_ssse3)
    for (int i = 0; i < count; ++i)
      if (level_of(i) == isa::ssse3) return i;
  const int bits = cpu_bits();
  for (int i = 0; i < count; ++i)
    if (runs(i, bits)) return i;
  return count - 1;
}

int choose_utf8(mode m) noexcept {
  return choose_kernel(
      m, k_kernel_count, [](int i) { return k_utf8_kernels[i].level; },
      [](int i, int bits) { return (bits & isa_bit(k_utf8_kernels[i].level)) != 0; });
}

// Whether this CPU runs a kernel of `level` built on 64-bit block masks (stage 1, minify): the AVX-512 and AVX2 ones
// also need carry-less multiply, POPCNT and BMI (and VBMI2 for VPCOMPRESSB), see detect_cpu.
bool mask_kernel_runs(isa level, int bits) noexcept {
#if JVIEW_X86_KERNELS
  if (level == isa::avx512) return (bits & k_cpu_stage1_avx512) != 0;
  if (level == isa::avx2) return (bits & k_cpu_stage1_avx2) != 0;
#endif
  return (bits & isa_bit(level)) != 0;
}

// Why a kernel of `level` runs in mode `m`: the words that describe_kernels() puts in parentheses.
const char* reason(isa level, mode m) noexcept {
#if defined(JVIEW_NO_SIMD)
  (void)level;
  (void)m;
  return "JVIEW_NO_SIMD";
#else
  if (m == mode::portable) return "--no-simd";
  if (m == mode::force_ssse3 && level == isa::ssse3) return "forced";
  if (level == isa::ssse3 || level == isa::avx2 || level == isa::avx512) return "cpuid";
  return "baseline";
#endif
}

const char* scanner_name() noexcept {
  if (!vector_strings()) return "portable";
#if JVIEW_HAVE_SSE2
  return "sse2";
#elif JVIEW_HAVE_NEON
  return "neon";
#else
  return "portable";
#endif
}

}  // namespace

void set_mode(mode m) noexcept {
  g_mode.store(static_cast<int>(m), std::memory_order_relaxed);
  g_utf8_choice.store(-1, std::memory_order_relaxed);
  g_stage1_choice.store(-1, std::memory_order_relaxed);
  g_minify_choice.store(-1, std::memory_order_relaxed);
}
mode current_mode() noexcept { return static_cast<mode>(g_mode.load(std::memory_order_relaxed)); }

const kernel_set& utf8_kernels() noexcept {
  int i = g_utf8_choice.load(std::memory_order_relaxed);
  if (i < 0) [[unlikely]] {
    i = choose_utf8(current_mode());
    g_utf8_choice.store(i, std::memory_order_relaxed);
  }
  return k_utf8_kernels[i];
}

bool vector_strings() noexcept {
#if JVIEW_HAVE_SSE2 || JVIEW_HAVE_NEON
  return current_mode() != mode::portable;
#else
  return false;
#endif
}

bool vector_whitespace() noexcept { return vector_strings(); }

std::span<const kernel_set> all_utf8_kernels() noexcept { return k_utf8_kernels; }

namespace {
bool stage1_runs(int i, int bits) noexcept {
  return k_stage1_kernels[i].index == nullptr || mask_kernel_runs(k_stage1_levels[i], bits);
}
}  // namespace

const stage1_kernel* structural_kernel() noexcept {
  int i = g_stage1_choice.load(std::memory_order_relaxed);
  if (i < 0) [[unlikely]] {
    i = k_stage1_count - 1;
    // Automatic mode only, and only a kernel that pays everywhere. Whole parse, two-stage with each kernel vs
    // one-pass (EPYC, us): twitter 135 / 198 (AVX2) / 293 (SSE2) vs 240; citm_catalog 338 / 512 / 747 vs 530;
    // gsoc-2018 (long strings) 641 / 875 / 1199 vs 676; amazon_cellphones.ndjson 59 / 87 / 123 vs 76. AVX-512 wins
    // or ties on every corpus file; AVX2 loses up to 30% on long strings, SSE2 everywhere: those kernels stay for the
    // tests (and a later AVX2 tuning), and without AVX-512 the parser stays one-pass. --no-simd and --force-ssse3
    // keep the one-pass parser too, so the test suite's mode runs compare the two paths.
    if (current_mode() == mode::automatic) {
      const int bits = cpu_bits();
      for (int k = 0; k < k_stage1_count; ++k)
        if (k_stage1_kernels[k].index != nullptr && k_stage1_levels[k] == isa::avx512 && stage1_runs(k, bits)) {
          i = k;
          break;
        }
    }
    g_stage1_choice.store(i, std::memory_order_relaxed);
  }
  return k_stage1_kernels[i].index != nullptr ? &k_stage1_kernels[i] : nullptr;
}

std::size_t structural_kernels(const stage1_kernel** out, std::size_t max) noexcept {
  std::size_t n = 0;
  for (int k = 0; k < k_stage1_count && n < max; ++k)
    if (k_stage1_kernels[k].index != nullptr && stage1_runs(k, cpu_bits())) out[n++] = &k_stage1_kernels[k];
  return n;
}

namespace {
bool minify_runs(int i, int bits) noexcept { return mask_kernel_runs(k_minify_levels[i], bits); }

int choose_minify(mode m) noexcept {
  return choose_kernel(m, k_minify_count, [](int i) { return k_minify_levels[i]; }, &minify_runs);
}
}  // namespace

const minify_kernel& minify_kernel_for_cpu() noexcept {
  int i = g_minify_choice.load(std::memory_order_relaxed);
  if (i < 0) [[unlikely]] {
    i = choose_minify(current_mode());
    g_minify_choice.store(i, std::memory_order_relaxed);
  }
  return k_minify_kernels[i];
}

std::size_t minify_kernels(const minify_kernel** out, std::size_t max) noexcept {
  std::size_t n = 0;
  for (int k = 0; k < k_minify_count && n < max; ++k)
    if (minify_runs(k, cpu_bits())) out[n++] = &k_minify_kernels[k];
  return n;
}

bool cpu_supports(isa level) noexcept { return (cpu_bits() & isa_bit(level)) != 0; }

std::string describe_kernels() {
  const mode m = current_mode();
  const kernel_set& k = utf8_kernels();
  const char* scan = scanner_name();
  const char* scan_reason = reason(vector_strings() ? isa::sse2 : isa::portable, m);
  std::string s = "kernels: utf8=";
  s += k.name;
  s += " (";
  s += reason(k.level, m);
  s += ") strings=";
  s += scan;
  s += " (";
  s += scan_reason;
  s += ") whitespace=";
  s += scan;  // the whitespace scanner follows the string scanner's decision (vector_whitespace())
  s += " (";
  s += scan_reason;
  s += ") structure=";
  // The parser's token index (stage 1 of the two-stage path), or the one-pass parser alone, and why.
  if (const stage1_kernel* st = structural_kernel()) {
    s += st->name;
    s += " (cpuid)";
  } else {
#if defined(JVIEW_NO_SIMD)
    s += "one-pass (JVIEW_NO_SIMD)";
#else
    s += m == mode::portable      ? "one-pass (--no-simd)"
         : m == mode::force_ssse3 ? "one-pass (--force-ssse3)"
                                  : "one-pass (no AVX-512)";
#endif
  }
  // The kernel of the writer's `-c` path for unmodified values.
  const minify_kernel& mk = minify_kernel_for_cpu();
  [[maybe_unused]] const isa mk_level = k_minify_levels[&mk - k_minify_kernels];
  s += " minify=";
  s += mk.name;
  s += " (";
#if !defined(JVIEW_NO_SIMD) && !JVIEW_X86_KERNELS
  s += m == mode::portable ? "--no-simd" : "no vector kernel";
#else
  s += reason(mk_level, m);
#endif
  s += ")";
  return s;
}

}  // namespace jview::simd
