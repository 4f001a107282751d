// tests/unit/thread_stack.hpp: runs a function on a new thread with a stack of a given size and waits for it (the
// unit tests' own 512 MiB thread in main.cpp; a small stack where a test shows that something needs little).
#pragma once
#include <pthread.h>

#include <cstddef>

namespace jview::test {

// fn(arg) on a thread with a `bytes` stack, joined before returning; false when the thread could not be made.
inline bool run_with_stack(std::size_t bytes, void* (*fn)(void*), void* arg) {
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) return false;
  pthread_t thread;
  const bool made = pthread_attr_setstacksize(&attr, bytes) == 0 && pthread_create(&thread, &attr, fn, arg) == 0;
  pthread_attr_destroy(&attr);
  if (made) pthread_join(thread, nullptr);
  return made;
}

}  // namespace jview::test
