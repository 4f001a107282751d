/* tests/benchmarks/hello.c: the start-up floor of `make bench` (tests/benchmarks/startup_rows.py): a C program that
   writes what `jview -n 1` writes, built with the same hardening flags as jview (cmake/hardening.cmake: PIE, full
   RELRO and BIND_NOW, stack protector, _FORTIFY_SOURCE, CET) and linked against the same libc. */
#include <stdio.h>

int main(void) {
  puts("1");
  return 0;
}
