// core/sanitizer.hpp: JVIEW_ASAN, 1 in a build with AddressSanitizer (GCC's -fsanitize=address defines
// __SANITIZE_ADDRESS__; clang answers __has_feature), else 0. Code that would hide memory from it (exiting
// without freeing, switching stacks) checks this one macro.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define JVIEW_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define JVIEW_ASAN 1
#endif
#endif
#ifndef JVIEW_ASAN
#define JVIEW_ASAN 0
#endif
