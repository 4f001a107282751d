// core/kernel_choice.hpp: the library's face of the one kernel choice (simd/kernels.hpp), for the executable and
// other embedders, which do not reach simd/ themselves: choose the kernels once by name, describe the choice, and
// the chosen UTF-8 validator.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace jview {

// Chooses every kernel family at once, before any parsing and before threads start. `name` is "auto", "portable",
// "sse2", "ssse3", "avx2", "avx512" or "neon" (empty: automatic); `who` says who asked ("--kernels avx2",
// "JVIEW_KERNELS=portable", ...) and is shown by describe_kernel_choice(). False, with `error` set to a message
// without prefix, for an unknown name or a level this build or CPU cannot run.
bool select_kernels(std::string_view name, std::string_view who, std::string& error);

// One line naming each family's kernel and why ("kernels: utf8=avx512 (cpuid) strings=sse2 (baseline) ...").
std::string describe_kernel_choice();

// The offset of the first byte of the first invalid UTF-8 sequence in [p, p+len), or len if all is valid, by the
// chosen validator.
std::size_t first_invalid_utf8(const char* p, std::size_t len) noexcept;

}  // namespace jview
