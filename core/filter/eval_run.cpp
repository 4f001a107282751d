// core/filter/eval_run.cpp: running a compiled program: the evaluation stack (a large reserved region switched to
// for each run, so jq programs recurse as deep as jq's heap-allocated stack lets them), the depth check's floor on
// the thread's own stack where there is no switch, and program_impl::run, which maps the evaluator's status to
// the program interface's results.
#include <pthread.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <new>

#include "core/filter/eval.hpp"
#include "core/filter/stack_room.hpp"
#include "core/sanitizer.hpp"

namespace jview::filter::detail {

namespace {
thread_local char* g_stack_floor_override = nullptr;  // while a run is on its own evaluation stack: that stack's
}  // namespace

// The lowest stack address evaluation (and the compiler's recursion: stack_room.hpp) may use: the thread's stack
// bottom plus a margin for natives (regex, sorting) and the CLI's own frames. Computed once per thread.
char* thread_stack_floor() noexcept {
  if (g_stack_floor_override != nullptr) return g_stack_floor_override;
  static thread_local char* floor = nullptr;
  if (floor != nullptr) return floor;
  char here;
  std::size_t size = 8u << 20;
  if (static_cast<pid_t>(gettid()) == getpid()) {
    // The main thread grows on demand up to RLIMIT_STACK.
    rlimit rl{};
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) size = rl.rlim_cur;
    if (rl.rlim_cur == RLIM_INFINITY) size = 256u << 20;
    const std::size_t margin = 512u << 10;
    floor = &here - (size > 2 * margin ? size - margin : size / 2);
  } else {
    pthread_attr_t attr;
    void* addr = nullptr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      pthread_attr_getstack(&attr, &addr, &size);
      pthread_attr_destroy(&attr);
    }
    const std::size_t margin = size > (1u << 20) ? (256u << 10) : size / 4;
    floor = addr != nullptr ? static_cast<char*>(addr) + margin : &here - size / 2;
  }
  return floor;
}

interp::interp(program_impl& p, input_provider* in, const run_callbacks& c, char* stack_limit, char* stack_deep)
    : prog(p),
      inputs(in),
      cb(c),
      stack_limit_(stack_limit != nullptr ? stack_limit : thread_stack_floor()),
      stack_check_(stack_deep != nullptr ? stack_deep : stack_limit_) {}

st interp::stack_overflow() { return fail("Maximum recursion depth exceeded (stack overflow)"); }

}  // namespace jview::filter::detail

// Switching to the evaluation stack: a call of fn(arg) with the stack pointer at `top` (16-byte aligned), written
// for the two architectures the project builds for. The frame keeps a frame pointer with CFI, so debuggers and
// profilers unwind through it; no C++ exception crosses it (the trampoline catches them).
#if (defined(__x86_64__) || defined(__aarch64__)) && !JVIEW_ASAN && !defined(JVIEW_NO_STACK_SWITCH)
#define JVIEW_STACK_SWITCH 1
extern "C" void jview_filter_call_on_stack(void* top, void (*fn)(void*), void* arg);
#if defined(__x86_64__)
asm(R"(
  .text
  .p2align 4
  .globl jview_filter_call_on_stack
  .hidden jview_filter_call_on_stack
  .type jview_filter_call_on_stack,@function
jview_filter_call_on_stack:
  .cfi_startproc
  pushq %rbp
  .cfi_def_cfa_offset 16
  .cfi_offset %rbp, -16
  movq %rsp, %rbp
  .cfi_def_cfa_register %rbp
  movq %rdi, %rsp
  andq $-16, %rsp
  movq %rdx, %rdi
  callq *%rsi
  movq %rbp, %rsp
  popq %rbp
  .cfi_def_cfa %rsp, 8
  ret
  .cfi_endproc
  .size jview_filter_call_on_stack, .-jview_filter_call_on_stack
)");
#else
asm(R"(
  .text
  .p2align 2
  .globl jview_filter_call_on_stack
  .hidden jview_filter_call_on_stack
  .type jview_filter_call_on_stack,%function
jview_filter_call_on_stack:
  .cfi_startproc
  stp x29, x30, [sp, #-16]!
  .cfi_def_cfa_offset 16
  .cfi_offset x29, -16
  .cfi_offset x30, -8
  mov x29, sp
  .cfi_def_cfa_register x29
  mov sp, x0
  mov x0, x2
  blr x1
  mov sp, x29
  ldp x29, x30, [sp], #16
  .cfi_def_cfa sp, 0
  ret
  .cfi_endproc
  .size jview_filter_call_on_stack, .-jview_filter_call_on_stack
)");
#endif
#endif

namespace jview::filter::detail {

namespace {

#ifdef JVIEW_STACK_SWITCH
// The evaluation stack is reserved, and committed as recursion touches it. A level of recursion of a jq function
// takes about 1.2 KB of it (`def g: if . == 0 then 0 else (.-1|g)+1 end`: 256 MiB held 210,000 levels), so 2 GiB
// hold about 1.7 million, beyond the 10^6 jq 1.8 reaches in about 150 MB of heap. A runaway recursion touches all
// of it before it fails (then frees it): at most half the machine's memory, then, and under `ulimit -v` at most a
// quarter of the address space allowed, but not under 256 MiB (or nothing: the thread's own stack), so that most
// of the address space stays for the data.
constexpr std::size_t k_eval_stack_max = std::size_t{2} << 30;
constexpr std::size_t k_eval_stack_min = std::size_t{256} << 20;
constexpr std::size_t k_eval_stack_margin = std::size_t{2} << 20;  // room for natives below the depth check
// Its first part (from the top), where ordinary programs stay, on ordinary pages; below it on transparent huge pages
// (a deep recursion faults in 2 MiB at a time, not 4 KiB: 10 µs each on the VMs we measure), and given back after
// a run that went there.
constexpr std::size_t k_eval_stack_shallow = std::size_t{8} << 20;

std::size_t eval_stack_size() noexcept {
  std::uint64_t room = ~std::uint64_t{0};
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) room = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) / 2;
  rlimit rl{};
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    room = std::min<std::uint64_t>(room, rl.rlim_cur / 4);
  std::size_t size = k_eval_stack_max;
  while (size > k_eval_stack_min && size > room) size /= 2;
  return size;
}
#endif

struct run_context {
  program_impl* prog = nullptr;
  const value* input = nullptr;
  input_provider* inputs = nullptr;
  const run_callbacks* cb = nullptr;
  char* limit = nullptr;
  char* deep = nullptr;  // below it: the deep part of the evaluation stack
  bool went_deep = false;
  st status = st::ok;
  value err;
  bool halted = false;
  int halt_code = 0;
  std::string halt_message;
  std::exception_ptr exception;
};

void run_body(void* p) {
  auto* ctx = static_cast<run_context*>(p);
  // On the evaluation's own stack, the compiler's checks (a module loaded by modulemeta) are against its floor.
  struct floor_scope {
    char* saved = g_stack_floor_override;
    explicit floor_scope(char* limit) noexcept {
      if (limit != nullptr) g_stack_floor_override = limit;
    }
    ~floor_scope() { g_stack_floor_override = saved; }
  } floor{ctx->limit};
  try {
    interp I(*ctx->prog, ctx->inputs, *ctx->cb, ctx->limit, ctx->deep);
    // A stop for lost output unwinds as `halt` does (nothing catches it) with no halt code: run() sees a normal end.
    auto emit = [&](const value& v) -> st {
      ctx->cb->emit(v);
      if (ctx->cb->output_ok && !ctx->cb->output_ok()) [[unlikely]]
        return st::halt;
      return st::ok;
    };
    ctx->status = I.eval(ctx->prog->main, *ctx->input, nullptr, make_sink(emit));
    ctx->went_deep = I.went_deep();
    ctx->err = std::move(I.err);
    ctx->halted = I.halted;
    ctx->halt_code = I.halt_code;
    ctx->halt_message = std::move(I.halt_message);
  } catch (const comparison_too_deep& x) {  // each comparing operation catches it: this is only a safety net
    ctx->status = st::err;
    ctx->err = value::string(x.message);
  } catch (...) {
    ctx->exception = std::current_exception();
  }
}

}  // namespace

namespace {

// One spare evaluation stack per process, as the parser keeps its key table: the next program takes it instead of
// mapping a fresh one (its first page written again means new page tables), and the last one is left to the
// process's exit, not unmapped (a munmap of the reservation took 20-50 µs of `jview -n 1`).
struct spare_stack {
  char* base;
  std::size_t size;
};
std::atomic<spare_stack*> g_spare_eval_stack{nullptr};

#ifdef JVIEW_STACK_SWITCH
// A fresh evaluation stack: `size` reserved (with a guard page at its bottom), or null.
char* map_eval_stack(std::size_t size) {
  void* mem = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                   -1, 0);
  if (mem == MAP_FAILED) return nullptr;
  char* base = static_cast<char*>(mem);
  mprotect(base, 4096, PROT_NONE);  // guard page
  if (size > 2 * k_eval_stack_shallow) madvise(base, size - k_eval_stack_shallow, MADV_HUGEPAGE);
  return base;
}
#endif

}  // namespace

program_impl::~program_impl() {
  if (eval_stack_ == nullptr) return;
  auto* spare = new (std::nothrow) spare_stack{eval_stack_, eval_stack_size_};
  spare_stack* none = nullptr;
  if (spare == nullptr || !g_spare_eval_stack.compare_exchange_strong(none, spare)) {
    delete spare;
    munmap(eval_stack_, eval_stack_size_);
  }
}

bool program_impl::is_identity() const { return fast_paths && main != nullptr && main->o == op::identity; }

bool program_impl::run(const value& input, input_provider* inputs, const run_callbacks& cb, std::string& error,
                       int& halt_code) {
  halt_code = -1;
  error_not_string_ = false;
  run_context ctx;
  ctx.prog = this;
  ctx.input = &input;
  ctx.inputs = inputs;
  ctx.cb = &cb;
  ctx.limit = nullptr;
#ifdef JVIEW_STACK_SWITCH
  if (eval_stack_ == nullptr) {
    if (spare_stack* spare = g_spare_eval_stack.exchange(nullptr)) {
      eval_stack_ = spare->base;
      eval_stack_size_ = spare->size;
      delete spare;
    }
  }
  // (A smaller one when the mapping fails: strict overcommit accounting counts even a reservation.)
  // (Sized only when one is to be mapped: eval_stack_size()'s system calls cost more than a small program's run.)
  if (eval_stack_ == nullptr) {
    for (std::size_t size = eval_stack_size(); eval_stack_ == nullptr && size >= k_eval_stack_min; size /= 2)
      if ((eval_stack_ = map_eval_stack(size)) != nullptr) eval_stack_size_ = size;
  }
  if (eval_stack_ != nullptr) {
    ctx.limit = eval_stack_ + k_eval_stack_margin;
    char* const top = eval_stack_ + eval_stack_size_;
    if (eval_stack_size_ > 2 * k_eval_stack_shallow) ctx.deep = top - k_eval_stack_shallow;
    jview_filter_call_on_stack(top, run_body, &ctx);
    // A deep recursion's pages go back now (the next inputs rarely need them): the process's size is that of its
    // data again.
    if (ctx.went_deep) madvise(eval_stack_, eval_stack_size_ - k_eval_stack_shallow, MADV_DONTNEED);
  } else {
    run_body(&ctx);
  }
#else
  run_body(&ctx);
#endif
  if (ctx.exception) std::rethrow_exception(ctx.exception);
  struct {
    st status;
    value& err;
    std::string& halt_message;
  } I{ctx.status, ctx.err, ctx.halt_message};
  const st s = ctx.status;
  halt_code_ = 0;
  if (s == st::halt) {
    if (!ctx.halted) return true;  // stopped because the output is gone: the end of the run
    // jq's exit status for a halt: exit(code > 0 ? code : 0) (its code for -e is last_halt_code()).
    halt_code_ = ctx.halt_code;
    halt_code = ctx.halt_code > 0 ? ctx.halt_code : 0;
    error = I.halt_message;
    return I.halt_message.empty();
  }
  if (s == st::err) {
    if (I.err.is_string()) {
      error = I.err.string_copy();
    } else {
      error = to_json(I.err);
      error_not_string_ = true;
    }
    return false;
  }
  if (s == st::brk) {
    error = "break";
    return false;
  }
  return true;
}

}  // namespace jview::filter::detail
