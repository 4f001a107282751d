// simd/baseline.hpp: which vector unit the compiler may use without a target attribute (SSE2 on x86-64, NEON on
// AArch64), as JVIEW_HAVE_SSE2 / JVIEW_HAVE_NEON, plus their intrinsics headers. The header-only scanners build on
// it; JVIEW_PORTABLE_ONLY turns both off.
#pragma once
#if defined(__SSE2__) && !defined(JVIEW_PORTABLE_ONLY)
#include <emmintrin.h>
#define JVIEW_HAVE_SSE2 1
#endif
#if defined(__ARM_NEON) && !defined(JVIEW_PORTABLE_ONLY)
#include <arm_neon.h>
#define JVIEW_HAVE_NEON 1
#endif
