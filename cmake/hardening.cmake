# cmake/hardening.cmake: the hardening flags Debian builds its packages with (`dpkg-buildflags` with
# DEB_BUILD_MAINT_OPTIONS=hardening=+all), for every target of the project:
#   -fPIE / -pie                      position-independent executable: the kernel randomises where it is loaded
#   -Wl,-z,relro -Wl,-z,now           full RELRO: every symbol bound at start, then the GOT made read-only
#   -fstack-protector-strong          a canary in functions with arrays or addresses of locals
#   -D_FORTIFY_SOURCE=3 (or 2)        glibc's checked memcpy/snprintf/read... where sizes are known (3: also sizes
#                                     known only at run time, GCC 12 and later); needs optimisation, so not at -O0
#   -Wl,-z,noexecstack                a non-executable stack
#   -fcf-protection                   Intel CET (IBT + shadow stack markers), x86 only, where the compiler has it
#   -Wformat -Werror=format-security  printf formats that are not literals are errors
# JVIEW_HARDENING=OFF turns all of it off (to measure what it costs).
option(JVIEW_HARDENING "Build with Debian's hardening flags (cmake/hardening.cmake)" ON)
if(NOT JVIEW_HARDENING)
  return()
endif()

include(CheckCXXCompilerFlag)
include(CheckCXXSourceCompiles)

set(CMAKE_POSITION_INDEPENDENT_CODE ON)
add_compile_options(-fPIE -fstack-protector-strong -Wformat -Werror=format-security)
add_link_options(-Wl,-z,relro -Wl,-z,now -Wl,-z,noexecstack)
# The sanitized build (JVIEW_SANITIZE) is a test build, never shipped: it links without PIE. ASan's and UBSan's
# metadata make ~700,000 relative relocations in a PIE, applied at every start (~100 ms a process here, paid by
# each of the ~1,000 runs of its CLI tests); the code is the same position-independent code.
if(JVIEW_SANITIZE)
  add_link_options(-no-pie)
else()
  add_link_options(-pie)
endif()

check_cxx_compiler_flag(-fcf-protection JVIEW_HAVE_CF_PROTECTION)
if(JVIEW_HAVE_CF_PROTECTION AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|i.86")
  add_compile_options(-fcf-protection)
endif()

# _FORTIFY_SOURCE=3 needs __builtin_dynamic_object_size (GCC 12, Clang 9 in practice) and a glibc that knows level 3
# (2.34); an earlier glibc silently treats 3 as 2, so the compiler test is the one that matters.
check_cxx_source_compiles("
#if !defined(__has_builtin) || !__has_builtin(__builtin_dynamic_object_size)
#error no __builtin_dynamic_object_size
#endif
int main() { return 0; }" JVIEW_HAVE_FORTIFY3)
if(JVIEW_HAVE_FORTIFY3)
  set(_jview_fortify 3)
else()
  set(_jview_fortify 2)
endif()
# Fortification works on the optimiser's knowledge of object sizes: glibc warns and does nothing at -O0 (Debug, the
# sanitizer build), so it is defined for the optimised configurations only. -U first: a toolchain may predefine it.
add_compile_options("$<$<NOT:$<CONFIG:Debug>>:-U_FORTIFY_SOURCE;-D_FORTIFY_SOURCE=${_jview_fortify}>")
