// tests/unit/simd/dispatch_test.cpp: the one kernel choice: what each request picks in every family, the
// describe_kernels() line that --version prints, requests this build or CPU cannot honour, and that use_kernels()
// reaches the consumers (validate_utf8). Restores the process's choice after each case.
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "simd/kernels.hpp"
#include "simd/minify.hpp"
#include "simd/structural.hpp"

namespace jview::simd {
namespace {

struct choice_guard {
  kernels saved = active_kernels();
  ~choice_guard() { use_kernels(saved); }
};

kernels chosen(std::string_view name, const char* source = "") {
  kernel_request req;
  REQUIRE(parse_kernel_request(name, req));
  if (*source != '\0') req.set_source(source);
  kernels k{};
  std::string why;
  REQUIRE_MESSAGE(choose_kernels(req, k, why), why);
  return k;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

TEST_CASE("dispatch: automatic picks the first kernel of each table this CPU runs") {
  const kernels k = chosen("auto");
  const kernel_set* best = nullptr;
  for (const kernel_set& u : all_utf8_kernels()) {
    if (cpu_supports(u.level)) {
      best = &u;
      break;
    }
  }
  REQUIRE(best != nullptr);
  CHECK(k.utf8 == best);
  CHECK(&active_kernels() != nullptr);
  const std::string line = describe_kernels(k);
  MESSAGE(line);
  CHECK(starts_with(line, std::string("kernels: utf8=") + best->name + " ("));
#if defined(JVIEW_PORTABLE_ONLY)
  CHECK(line == "kernels: utf8=portable strings=portable whitespace=portable structure=one-pass minify=portable "
                "boundary=portable lines=portable numbers=portable (portable-only build)");
  CHECK_FALSE(k.vector_scanners());
#elif defined(__x86_64__)
  if (best->level >= isa::ssse3) CHECK(line.find(" (cpuid) ") != std::string::npos);
  CHECK(line.find(" strings=sse2 (baseline) whitespace=sse2 (baseline) structure=") != std::string::npos);
  CHECK(line.ends_with(" boundary=sse2 (baseline) lines=sse2 (baseline) numbers=sse2 (baseline)"));
  if (k.structure != nullptr)
    CHECK(line.find(std::string(" structure=") + k.structure->name + " (cpuid) ") != std::string::npos);
  else
    CHECK(line.find(" structure=one-pass (no AVX2) ") != std::string::npos);
  CHECK(line.find(std::string(" minify=") + k.minify->name +
                  (k.minify->run == &detail::minify_portable ? " (baseline)" : " (cpuid)")) != std::string::npos);
  CHECK(k.vector_scanners());
#elif defined(__aarch64__)
  CHECK(line == "kernels: utf8=neon (baseline) strings=neon (baseline) whitespace=neon (baseline) "
                "structure=neon (baseline) minify=portable (baseline) boundary=neon (baseline) "
                "lines=neon (baseline) numbers=neon (baseline)");
  CHECK(k.vector_scanners());
#endif
}

TEST_CASE("dispatch: portable selects the portable code in every family") {
  const kernels k = chosen("portable", "--no-simd");
  CHECK(std::string_view(k.utf8->name) == "portable");
  CHECK((k.utf8->validate_utf8 == &validate_utf8_portable));
  CHECK(k.structure == nullptr);
  CHECK((k.minify->run == &detail::minify_portable));
  CHECK_FALSE(k.vector_scanners());
#if defined(JVIEW_PORTABLE_ONLY)
  const std::string why = "portable-only build";
#else
  const std::string why = "--no-simd";
#endif
  CHECK(describe_kernels(k) == "kernels: utf8=portable strings=portable whitespace=portable structure=one-pass "
                                "minify=portable boundary=portable lines=portable numbers=portable (" + why + ")");
  const kernels& p = portable_kernels();
  CHECK(p.utf8 == k.utf8);
  CHECK(p.minify == k.minify);
  CHECK(p.structure == nullptr);
  CHECK_FALSE(p.vector_scanners());
}

TEST_CASE("dispatch: a level is a ceiling for every family") {
#if defined(__x86_64__) && !defined(JVIEW_PORTABLE_ONLY)
  if (cpu_supports(isa::ssse3)) {
    const kernels k = chosen("ssse3", "JVIEW_FORCE_SSSE3");
    CHECK(std::string_view(k.utf8->name) == "ssse3");
    CHECK(k.structure == nullptr);  // no stage-1 kernel at or below SSSE3 beats the one-pass parser
    CHECK(describe_kernels(k) == "kernels: utf8=ssse3 strings=sse2 whitespace=sse2 structure=one-pass minify=ssse3 "
                                 "boundary=sse2 lines=sse2 numbers=sse2 (JVIEW_FORCE_SSSE3)");
  }
  const kernels s = chosen("sse2");
  CHECK(std::string_view(s.utf8->name) == "sse2");
  CHECK((s.minify->run == &detail::minify_portable));
  CHECK(s.vector_scanners());
  if (cpu_supports(isa::avx2)) {
    const kernels a = chosen("avx2");
    CHECK(std::string_view(a.utf8->name) == "avx2");
    CHECK(std::string_view(a.minify->name) != "avx512");
  }
  if (cpu_supports(isa::avx512)) CHECK(chosen("avx512").utf8 == chosen("auto").utf8);
#endif
}

TEST_CASE("dispatch: requests this build or this CPU cannot honour are refused, unknown names too") {
  kernel_request req;
  CHECK_FALSE(parse_kernel_request("avx1024", req));
  CHECK_FALSE(parse_kernel_request("", req));
  kernels k{};
  std::string why;
#if defined(__x86_64__) && !defined(JVIEW_PORTABLE_ONLY)
  REQUIRE(parse_kernel_request("neon", req));
  CHECK_FALSE(choose_kernels(req, k, why));
  CHECK(why == "neon kernels are not in this build (it has: portable sse2 ssse3 avx2 avx512)");
  REQUIRE(parse_kernel_request("avx512", req));
  if (!cpu_supports(isa::avx512)) {
    CHECK_FALSE(choose_kernels(req, k, why));
    CHECK(why == "this CPU cannot run the avx512 kernels");
  }
#elif defined(JVIEW_PORTABLE_ONLY)
  REQUIRE(parse_kernel_request("sse2", req));
  CHECK_FALSE(choose_kernels(req, k, why));
#endif
  REQUIRE(parse_kernel_request("portable", req));
  CHECK(choose_kernels(req, k, why));
}

TEST_CASE("dispatch: use_kernels switches what the consumers reach") {
  choice_guard guard;
  const std::string_view bad = "abc\xe2\x82(";
  use_kernels(chosen("portable"));
  CHECK(std::string_view(active_kernels().utf8->name) == "portable");
  CHECK(validate_utf8(bad.data(), bad.size()) == 3);
  use_kernels(chosen("auto"));
#if !defined(JVIEW_PORTABLE_ONLY) && (defined(__x86_64__) || defined(__aarch64__))
  CHECK(std::string_view(active_kernels().utf8->name) != "portable");  // a vector kernel runs where one is built
#endif
  CHECK(validate_utf8(bad.data(), bad.size()) == 3);
}

TEST_CASE("dispatch: cpu_supports is consistent with the ISA order on x86-64") {
#if defined(__x86_64__) && !defined(JVIEW_PORTABLE_ONLY)
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
