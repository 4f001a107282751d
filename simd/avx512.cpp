// simd/avx512.cpp: the AVX-512 UTF-8 kernel (64-byte vectors, AVX512F+BW). Compiled with a target attribute;
// dispatch.cpp picks it only when CPUID reports F and BW and XGETBV shows the OS saves ZMM and mask state.
#include "simd/kernels.hpp"
#include "simd/utf8_detail.hpp"

#if defined(__x86_64__) && !defined(JVIEW_PORTABLE_ONLY)
#include <immintrin.h>

#include <cstring>

#define JVIEW_KERNEL_FN __attribute__((target("avx512f,avx512bw")))
#define JVIEW_KERNEL_INLINE __attribute__((target("avx512f,avx512bw"), always_inline)) inline

namespace jview::simd {
namespace {

#include "simd/generic/avx512_vec.inl"
#include "simd/generic/utf8_lookup.inl"

}  // namespace

std::size_t detail::validate_utf8_avx512(const char* p, std::size_t len) noexcept { return utf8_validate(p, len); }

}  // namespace jview::simd

#undef JVIEW_KERNEL_FN
#undef JVIEW_KERNEL_INLINE
#endif
