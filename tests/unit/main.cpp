// tests/unit/main.cpp: the doctest main of the single unit_tests binary (every tests/unit/**/*.cpp links into it).
// The tests run on a thread with a 512 MiB stack: the filter tables hold jq 1.8's 10,000-level comparisons, which
// jview evaluates on its own large stack (core/filter/eval.cpp), except in ASan builds (no stack switch there, and
// bigger frames), where the 8 MiB main stack overflows.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "thread_stack.hpp"

namespace {

struct run_args {
  int argc;
  char** argv;
  int result;
};

void* run_tests(void* p) {
  auto* a = static_cast<run_args*>(p);
  a->result = doctest::Context(a->argc, a->argv).run();
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  run_args args{argc, argv, 1};
  if (!jview::test::run_with_stack(std::size_t{512} << 20, &run_tests, &args)) run_tests(&args);  // no big stack: here
  return args.result;
}
