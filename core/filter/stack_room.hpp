// core/filter/stack_room.hpp: whether the running thread's stack has room for more nesting. The compiler's recursive
// steps (the parser's nested expressions, the resolver's nested definitions) fail with "program nests too deeply"
// instead of overflowing a small stack (`ulimit -s`, a sanitizer's larger frames). The evaluator checks its own
// stack the same way (interp::stack_ok in eval.hpp).
#pragma once

namespace jview::filter::detail {

// The lowest address the thread's stack may reach, less a margin for natives and the caller's frames (eval_run.cpp).
char* thread_stack_floor() noexcept;

inline bool stack_has_room() noexcept {
  char probe;
  return &probe > thread_stack_floor();
}

}  // namespace jview::filter::detail
