// tests/benchmarks/engines/simdjson_ondemand.cpp: the On-Demand adapter in a translation unit of its own, compiled
// with -march=native where the compiler allows it: On-Demand's value walk (string unescaping, number parsing) is
// compiled into the caller for simdjson's "builtin" kernel, which a baseline x86-64 build makes `fallback`.
// simdjson documents this; compiling it for the machine is what its users are told to do.
#include "engines/simdjson_ondemand.hpp"

#include <memory>

namespace jview::bench {

std::unique_ptr<engine> make_simdjson_ondemand() { return std::make_unique<simdjson_ondemand_engine>(); }

// The kernel this file was compiled for (simdjson::builtin_implementation() answers for the shared library instead).
#define JVIEW_BENCH_STR2(x) #x
#define JVIEW_BENCH_STR(x) JVIEW_BENCH_STR2(x)
const char* simdjson_ondemand_builtin() { return JVIEW_BENCH_STR(SIMDJSON_BUILTIN_IMPLEMENTATION); }

}  // namespace jview::bench
