// tests/unit/simd/dispatch_test.cpp: run-time dispatch: which kernel each mode picks, the describe_kernels() line,
// and that the mode switch takes effect (the choice is cached, set_mode must reset it). Restores automatic mode.
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "simd/kernels.hpp"
#include "simd/minify.hpp"
#include "simd/structural.hpp"

namespace jview::simd {
namespace {

// Puts the process back in automatic mode however a test case ends (other test files rely on it).
struct mode_guard {
  ~mode_guard() { set_mode(mode::automatic); }
};

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

TEST_CASE("dispatch: automatic picks the first kernel of the table this CPU runs") {
  mode_guard guard;
  set_mode(mode::automatic);
  CHECK(current_mode() == mode::automatic);
  const kernel_set* best = nullptr;
  for (const kernel_set& k : all_utf8_kernels()) {
    if (cpu_supports(k.level)) {
      best = &k;
      break;
    }
  }
  REQUIRE(best != nullptr);
  CHECK(&utf8_kernels() == best);
  const std::string line = describe_kernels();
  MESSAGE(line);
  CHECK(starts_with(line, std::string("kernels: utf8=") + best->name + " ("));
#if defined(JVIEW_NO_SIMD)
  CHECK(line == "kernels: utf8=portable (JVIEW_NO_SIMD) strings=portable (JVIEW_NO_SIMD) "
                "whitespace=portable (JVIEW_NO_SIMD) structure=one-pass (JVIEW_NO_SIMD) "
                "minify=portable (JVIEW_NO_SIMD)");
  CHECK_FALSE(vector_strings());
#elif defined(__x86_64__)
  // The CPUs here have AVX-512 and AVX2; anything from SSSE3 up is found by CPUID.
  if (best->level >= isa::ssse3) CHECK(line.find(" (cpuid) ") != std::string::npos);
  CHECK(line.find(" strings=sse2 (baseline) whitespace=sse2 (baseline) structure=") != std::string::npos);
  if (structural_kernel() != nullptr)
    CHECK(line.find(std::string(" structure=") + structural_kernel()->name + " (cpuid) ") != std::string::npos);
  else
    CHECK(line.find(" structure=one-pass (no AVX-512) ") != std::string::npos);
  CHECK(line.ends_with(std::string(" minify=") + minify_kernel_for_cpu().name +
                       (minify_kernel_for_cpu().run == &detail::minify_portable ? " (baseline)" : " (cpuid)")));
  CHECK(vector_strings());
  CHECK(vector_whitespace());
#elif defined(__aarch64__)
  CHECK(line == "kernels: utf8=neon (baseline) strings=neon (baseline) whitespace=neon (baseline) "
                "structure=one-pass (no AVX-512) minify=portable (no vector kernel)");
  CHECK(vector_strings());
#endif
}

TEST_CASE("dispatch: --no-simd selects the portable code everywhere") {
  mode_guard guard;
  set_mode(mode::portable);
  CHECK(current_mode() == mode::portable);
  CHECK(std::string_view(utf8_kernels().name) == "portable");
  CHECK((utf8_kernels().validate_utf8 == &validate_utf8_portable));
  CHECK_FALSE(vector_strings());
  CHECK_FALSE(vector_whitespace());
#if defined(JVIEW_NO_SIMD)
  CHECK(describe_kernels() == "kernels: utf8=portable (JVIEW_NO_SIMD) strings=portable (JVIEW_NO_SIMD) "
                              "whitespace=portable (JVIEW_NO_SIMD) structure=one-pass (JVIEW_NO_SIMD) "
                "minify=portable (JVIEW_NO_SIMD)");
#else
  CHECK(describe_kernels() == "kernels: utf8=portable (--no-simd) strings=portable (--no-simd) "
                              "whitespace=portable (--no-simd) structure=one-pass (--no-simd) minify=portable (--no-simd)");
#endif
}

TEST_CASE("dispatch: --force-ssse3 uses the SSSE3 kernel without asking the CPU") {
  mode_guard guard;
  set_mode(mode::force_ssse3);
#if defined(__x86_64__) && !defined(JVIEW_NO_SIMD)
  CHECK(std::string_view(utf8_kernels().name) == "ssse3");
  CHECK(describe_kernels() == "kernels: utf8=ssse3 (forced) strings=sse2 (baseline) whitespace=sse2 (baseline) "
                              "structure=one-pass (--force-ssse3) minify=ssse3 (forced)");
  CHECK(vector_strings());
#else
  // No SSSE3 kernel in this build: the mode behaves like automatic.
  CHECK(&utf8_kernels() == &all_utf8_kernels().front());
#endif
}

TEST_CASE("dispatch: set_mode resets the cached choice, and validate_utf8 follows it") {
  mode_guard guard;
  const std::string_view bad = "abc\xe2\x82(";
  set_mode(mode::portable);
  CHECK(std::string_view(utf8_kernels().name) == "portable");
  CHECK(validate_utf8(bad.data(), bad.size()) == 3);
  set_mode(mode::automatic);
#if !defined(JVIEW_NO_SIMD) && (defined(__x86_64__) || defined(__aarch64__))
  CHECK(std::string_view(utf8_kernels().name) != "portable");  // a vector kernel always runs where one is built
#endif
  CHECK(validate_utf8(bad.data(), bad.size()) == 3);
  set_mode(mode::portable);
  set_mode(mode::automatic);
  CHECK(current_mode() == mode::automatic);
}

TEST_CASE("dispatch: cpu_supports is consistent with the ISA order on x86-64") {
#if defined(__x86_64__) && !defined(JVIEW_NO_SIMD)
  CHECK(cpu_supports(isa::sse2));
  if (cpu_supports(isa::avx512)) CHECK(cpu_supports(isa::avx2));
  if (cpu_supports(isa::avx2)) CHECK(cpu_supports(isa::ssse3));
  CHECK_FALSE(cpu_supports(isa::neon));
  MESSAGE("ssse3 ", cpu_supports(isa::ssse3), " avx2 ", cpu_supports(isa::avx2), " avx512 ",
          cpu_supports(isa::avx512));
#else
  CHECK(cpu_supports(isa::portable));
#endif
}

}  // namespace
}  // namespace jview::simd
