// simd/dispatch.cpp: the only CPU check, the tables of each kernel family (best first), and the one choice made from
// them (simd/kernels.hpp). The CPU answer is cached in a constant-initialised atomic, and the choice in use is a
// trivially destructible object published through another (no global constructor or destructor).
#include <algorithm>
#include <atomic>
#include <cstring>
#include <iterator>
#include <string>
#include <type_traits>

#include "simd/baseline.hpp"
#include "simd/kernels.hpp"
#include "simd/minify.hpp"
#include "simd/structural.hpp"
#include "simd/utf8_detail.hpp"

#if defined(__x86_64__) && !defined(JVIEW_PORTABLE_ONLY)
#include <cpuid.h>
#define JVIEW_X86_KERNELS 1
#elif defined(__aarch64__) && !defined(JVIEW_PORTABLE_ONLY)
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

constinit std::atomic<int> g_cpu{0};

// Stage-1 kernels of the parser's fast path (simd/structural.hpp), best first; the AVX-512 one also needs
// VBMI2 and PCLMULQDQ (see k_cpu_stage1_avx512). k_stage1_pays: whether the kernel is chosen at all, i.e. whether the
// two-stage parse with it beats the one-pass parser over the corpus (tests/benchmarks/RESULTS.md, "Issue 24, second
// round"). AVX-512 wins or ties on every file. AVX2 (measured by forcing it on the EPYC): 0.63-0.97x the one-pass
// parser's time on 25 of 29 files (geometric mean 0.84x), ties within the noise on the small truenull.json and
// che-1.geo.json and on amazon_cellphones.ndjson, and sends inputs of long strings one-pass (below; gsoc-2018). SSE2 loses everywhere: it stays for the tests. NEON (AArch64) is chosen without a
// measurement (no ARM machine here): stage 1 there is the design of simdjson's arm64 kernel, which beats one-pass
// parsers on ARM servers. The portable kernel is the differential tests' reference only.
// The AVX2 kernel reads every byte of a long ASCII string, where the one-pass parser's string scanner runs 16 bytes
// a step; inputs made of strings of about 100-300 bytes parse faster one-pass on AVX2 (generated arrays of objects
// with one such string: 1.06-1.12x at 96-256 bytes, with 23-64% of their blocks inside long strings; gsoc-2018.json
// 70%, 1.18x). From this share on, an input goes one-pass (structural_index::one_pass_better); the next most in the
// corpus is 26% (twitterescaped.json), which the two-stage parse wins.
constexpr unsigned k_avx2_one_pass_share = 30;
// Below what size an input goes one-pass (stage1_kernel::min_bytes), from 47 objects of 150-700 bytes cut from the
// corpus (twitter, citm_catalog, update-center, github_events, ...; 5 interleaved runs, Zen 5): the two-stage time
// over the one-pass time was, by 50-byte size class from 150 bytes, AVX-512 1.06, 1.00, 0.97, 0.86 and at most 0.88
// above; AVX2 1.18, 1.09, 1.05, 0.96, and at most 1.00 above. Other kernels keep the default (NEON: not measured).
constexpr std::size_t k_avx512_min_bytes = 256, k_avx2_min_bytes = 288;
constexpr stage1_kernel k_stage1_kernels[] = {
#if JVIEW_X86_KERNELS
    {"avx512", &detail::stage1_avx512, 0, k_avx512_min_bytes},
    {"avx2", &detail::stage1_avx2, k_avx2_one_pass_share, k_avx2_min_bytes},
    {"sse2", &detail::stage1_sse2},
#elif JVIEW_NEON_KERNELS
    {"neon", &detail::stage1_neon},
#endif
    {"portable", &detail::stage1_portable},
};
constexpr isa k_stage1_levels[] = {
#if JVIEW_X86_KERNELS
    isa::avx512,
    isa::avx2,
    isa::sse2,
#elif JVIEW_NEON_KERNELS
    isa::neon,
#endif
    isa::portable,
};
constexpr bool k_stage1_pays[] = {
#if JVIEW_X86_KERNELS
    true,
    true,
    false,
#elif JVIEW_NEON_KERNELS
    true,
#endif
    false,
};
constexpr int k_stage1_count = static_cast<int>(std::size(k_stage1_kernels));
static_assert(std::is_trivially_destructible_v<stage1_kernel>, "the kernel table must need no destructor at exit");

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

// Whether this CPU runs a kernel of `level` built on 64-bit block masks (stage 1, minify): the AVX-512 and AVX2 ones
// also need carry-less multiply, POPCNT and BMI (and VBMI2 for VPCOMPRESSB), see detect_cpu.
bool mask_kernel_runs(isa level, int bits) noexcept {
#if JVIEW_X86_KERNELS
  if (level == isa::avx512) return (bits & k_cpu_stage1_avx512) != 0;
  if (level == isa::avx2) return (bits & k_cpu_stage1_avx2) != 0;
#endif
  return (bits & isa_bit(level)) != 0;
}

// The levels of this build, lowest first: those a request may name.
constexpr isa k_levels[] = {
    isa::portable,
#if JVIEW_X86_KERNELS
    isa::sse2, isa::ssse3, isa::avx2, isa::avx512,
#elif JVIEW_NEON_KERNELS
    isa::neon,
#endif
};
// The baseline vector unit of the header-only scanners (simd/baseline.hpp), or portable.
constexpr isa k_scanner_level =
#if JVIEW_HAVE_SSE2
    isa::sse2;
#elif JVIEW_HAVE_NEON
    isa::neon;
#else
    isa::portable;
#endif

// Rank of a level among k_levels (portable 0); -1 when this build has no such level.
int rank(isa level) noexcept {
  for (int i = 0; i < static_cast<int>(std::size(k_levels)); ++i)
    if (k_levels[i] == level) return i;
  return -1;
}

// The best CPU-runnable entry of a family's table (best first, last portable) at or below `ceiling`.
template <class Level, class Runs>
int best_at_or_below(int count, isa ceiling, Level level_of, Runs runs) noexcept {
  const int bits = cpu_bits();
  const int top = rank(ceiling);
  for (int i = 0; i < count; ++i)
    if (rank(level_of(i)) <= top && runs(i, bits)) return i;
  return count - 1;
}

constinit kernels g_chosen{};                           // the choice use_kernels() made
constinit kernels g_automatic{};                        // the automatic choice, once computed
constinit std::atomic<const kernels*> g_active{nullptr};  // what active_kernels() returns; nullptr: not yet chosen
static_assert(std::is_trivially_destructible_v<kernels>, "the choice must need no destructor at exit");

}  // namespace

namespace detail {
constinit std::atomic<bool> g_vector_scanners{k_scanner_level != isa::portable};
}

const char* isa_name(isa level) noexcept {
  switch (level) {
    case isa::portable: return "portable";
    case isa::sse2: return "sse2";
    case isa::ssse3: return "ssse3";
    case isa::avx2: return "avx2";
    case isa::avx512: return "avx512";
    case isa::neon: return "neon";
  }
  return "?";
}

void kernel_request::set_source(std::string_view who) noexcept {
  const std::size_t n = std::min(who.size(), sizeof source - 1);
  std::memcpy(source, who.data(), n);
  source[n] = '\0';
}

bool parse_kernel_request(std::string_view name, kernel_request& out) noexcept {
  if (name == "auto") {
    out.automatic = true;
    return true;
  }
  for (const isa level : {isa::portable, isa::sse2, isa::ssse3, isa::avx2, isa::avx512, isa::neon}) {
    if (name == isa_name(level)) {
      out.automatic = false;
      out.ceiling = level;
      return true;
    }
  }
  return false;
}

bool choose_kernels(const kernel_request& request, kernels& out, std::string& error) {
  isa ceiling = k_levels[std::size(k_levels) - 1];
  if (!request.automatic) {
    if (rank(request.ceiling) < 0) {
      error = std::string(isa_name(request.ceiling)) + " kernels are not in this build (it has:";
      for (const isa l : k_levels) error += std::string(" ") + isa_name(l);
      error += ")";
      return false;
    }
    if (!cpu_supports(request.ceiling)) {
      error = std::string("this CPU cannot run the ") + isa_name(request.ceiling) + " kernels";
      return false;
    }
    ceiling = request.ceiling;
  }
  out.request = request;
  out.utf8 = &k_utf8_kernels[best_at_or_below(
      k_kernel_count, ceiling, [](int i) { return k_utf8_kernels[i].level; },
      [](int i, int bits) { return (bits & isa_bit(k_utf8_kernels[i].level)) != 0; })];
  const int s = best_at_or_below(
      k_stage1_count, ceiling, [](int i) { return k_stage1_levels[i]; },
      [](int i, int bits) { return k_stage1_pays[i] && mask_kernel_runs(k_stage1_levels[i], bits); });
  out.structure = k_stage1_kernels[s].index != nullptr && k_stage1_pays[s] ? &k_stage1_kernels[s] : nullptr;
  out.minify = &k_minify_kernels[best_at_or_below(
      k_minify_count, ceiling, [](int i) { return k_minify_levels[i]; },
      [](int i, int bits) { return mask_kernel_runs(k_minify_levels[i], bits); })];
  out.scanners = rank(ceiling) >= rank(k_scanner_level) ? k_scanner_level : isa::portable;
  return true;
}

const kernels& portable_kernels() noexcept {
  static constexpr kernels k_portable{
      kernel_request{false, isa::portable, {}}, &k_utf8_kernels[k_kernel_count - 1], nullptr,
      &k_minify_kernels[k_minify_count - 1], isa::portable};
  return k_portable;
}

void use_kernels(const kernels& k) noexcept {
  g_chosen = k;
  detail::g_vector_scanners.store(k.vector_scanners(), std::memory_order_relaxed);
  g_active.store(&g_chosen, std::memory_order_release);
}

const kernels& active_kernels() noexcept {
  const kernels* k = g_active.load(std::memory_order_acquire);
  if (k != nullptr) [[likely]] return *k;
  // Nobody chose (a library user, a test): the automatic choice, which cannot fail. Two threads racing here
  // compute the same answer; the object is written before it is published, and only by the first.
  static std::atomic_flag computing = ATOMIC_FLAG_INIT;
  if (!computing.test_and_set(std::memory_order_acq_rel)) {
    std::string unused;
    choose_kernels(kernel_request{}, g_automatic, unused);
    const kernels* none = nullptr;
    g_active.compare_exchange_strong(none, &g_automatic, std::memory_order_acq_rel);
    return *g_active.load(std::memory_order_acquire);
  }
  while ((k = g_active.load(std::memory_order_acquire)) == nullptr) {
  }
  return *k;
}

std::span<const kernel_set> all_utf8_kernels() noexcept { return k_utf8_kernels; }

std::size_t structural_kernels(const stage1_kernel** out, std::size_t max) noexcept {
  std::size_t n = 0;
  for (int k = 0; k < k_stage1_count && n < max; ++k)
    if (k_stage1_kernels[k].index != nullptr && mask_kernel_runs(k_stage1_levels[k], cpu_bits()))
      out[n++] = &k_stage1_kernels[k];
  return n;
}

std::size_t minify_kernels(const minify_kernel** out, std::size_t max) noexcept {
  std::size_t n = 0;
  for (int k = 0; k < k_minify_count && n < max; ++k)
    if (mask_kernel_runs(k_minify_levels[k], cpu_bits())) out[n++] = &k_minify_kernels[k];
  return n;
}

bool cpu_supports(isa level) noexcept { return (cpu_bits() & isa_bit(level)) != 0; }

std::string describe_kernels(const kernels& k) {
  // Why each family runs what it runs: once at the end when a request (or a portable-only build) decided them all;
  // else per family, the CPU check for levels above the baseline.
#if defined(JVIEW_PORTABLE_ONLY)
  const std::string asked = "portable-only build";
#else
  const std::string asked = k.request.source;
#endif
  auto family = [&](const char* name, const char* kernel, isa level) {
    std::string f = std::string(" ") + name + "=" + kernel;
    if (asked.empty()) f += level == isa::portable || level == k_scanner_level ? " (baseline)" : " (cpuid)";
    return f;
  };
  std::string s = "kernels:";
  s += family("utf8", k.utf8->name, k.utf8->level);
  const char* scan = isa_name(k.scanners);
  s += family("strings", scan, k.scanners);
  s += family("whitespace", scan, k.scanners);
  if (k.structure != nullptr)
    s += family("structure", k.structure->name, k_stage1_levels[k.structure - k_stage1_kernels]);
  else  // the one-pass parser alone: asked for, or no stage-1 kernel that pays on this CPU
    s += asked.empty() ? " structure=one-pass (no AVX2)" : " structure=one-pass";
  s += family("minify", k.minify->name, k_minify_levels[k.minify - k_minify_kernels]);
  s += family("boundary", scan, k.scanners);
  s += family("lines", scan, k.scanners);
  s += family("numbers", scan, k.scanners);
  if (!asked.empty()) s += " (" + asked + ")";
  return s;
}

}  // namespace jview::simd
