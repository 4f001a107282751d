// core/kernel_choice.cpp: the kernel choice by name, over simd/kernels.hpp.
#include "core/kernel_choice.hpp"

#include "simd/kernels.hpp"

namespace jview {

bool select_kernels(std::string_view name, std::string_view who, std::string& error) {
  simd::kernel_request req;
  if (!name.empty() && !simd::parse_kernel_request(name, req)) {
    error = "unknown kernels (auto, portable, sse2, ssse3, avx2, avx512, neon)";
    return false;
  }
  if (!name.empty() && !req.automatic) req.set_source(who);
  simd::kernels k;
  if (!simd::choose_kernels(req, k, error)) return false;
  simd::use_kernels(k);
  return true;
}

std::string describe_kernel_choice() { return simd::describe_kernels(simd::active_kernels()); }

std::size_t first_invalid_utf8(const char* p, std::size_t len) noexcept {
  return simd::active_kernels().utf8->validate_utf8(p, len);
}

}  // namespace jview
