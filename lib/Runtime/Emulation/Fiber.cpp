// Fiber.cpp: context switching with sanitizer annotations, and guarded stacks.
#include "Fiber.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef RTCUDA_EMU_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef RTCUDA_EMU_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace rtcuda {
namespace emu {
namespace detail {

static size_t page_size() {
  static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

RTCUDA_EMU_NO_TSAN Stack stack_alloc(size_t size) {
  const size_t page = page_size();
  size = (size + page - 1) / page * page;
  Stack stack;
  void *map =
      mmap(nullptr, size + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) return stack;
  // Stacks grow down: a kernel that overflows its stack faults on the guard page.
  if (mprotect(map, page, PROT_NONE) != 0) {
    munmap(map, size + page);
    return stack;
  }
  stack.map = map;
  stack.map_size = size + page;
  stack.lo = static_cast<char *>(map) + page;
  stack.size = size;
  return stack;
}

RTCUDA_EMU_NO_TSAN void stack_free(Stack &stack) {
  if (!stack.map) return;
  stack_forget_frames(stack);
  munmap(stack.map, stack.map_size);
  stack = Stack();
}

RTCUDA_EMU_NO_TSAN void stack_forget_frames(const Stack &stack) {
#ifdef RTCUDA_EMU_ASAN
  // Redzones of frames that never returned would read as errors for the next user.
  if (stack.lo) __asan_unpoison_memory_region(stack.lo, stack.size);
#else
  (void)stack;
#endif
}

void hb_release(void *addr) {
#ifdef RTCUDA_EMU_TSAN
  __tsan_release(addr);
#else
  (void)addr;
#endif
}

void hb_acquire(void *addr) {
#ifdef RTCUDA_EMU_TSAN
  __tsan_acquire(addr);
#else
  (void)addr;
#endif
}

RTCUDA_EMU_NO_TSAN void context_init_thread(Context &ctx) {
  ctx = Context();
#ifdef RTCUDA_EMU_TSAN
  ctx.tsan_fiber = __tsan_get_current_fiber();
#endif
}

void *tsan_identity_create() {
#ifdef RTCUDA_EMU_TSAN
  return __tsan_create_fiber(0);
#else
  return nullptr;
#endif
}

void tsan_identity_destroy(void *identity) {
#ifdef RTCUDA_EMU_TSAN
  if (identity) __tsan_destroy_fiber(identity);
#else
  (void)identity;
#endif
}

#ifdef RTCUDA_EMU_UCONTEXT

namespace {
// makecontext passes int arguments only: the pointers travel in halves.
void ucontext_entry(unsigned fn_hi, unsigned fn_lo, unsigned arg_hi, unsigned arg_lo) {
  auto join = [](unsigned hi, unsigned lo) {
    return (static_cast<uintptr_t>(hi) << 16 << 16) | static_cast<uintptr_t>(lo);
  };
  auto entry = reinterpret_cast<void (*)(void *)>(join(fn_hi, fn_lo));
  entry(reinterpret_cast<void *>(join(arg_hi, arg_lo)));
}
} // namespace

RTCUDA_EMU_NO_TSAN void context_make(Context &ctx, const Stack &stack, void (*entry)(void *),
                                     void *arg, void *tsan_identity, unsigned color) {
  ctx = Context();
  // A pooled stack still has the redzones of the last frames of its previous fiber, which never
  // returned (they ended with a switch).
  stack_forget_frames(stack);
  getcontext(&ctx.uc);
  ctx.uc.uc_stack.ss_sp = stack.lo;
  ctx.uc.uc_stack.ss_size = stack.size - (color % 64) * 64;
  ctx.uc.uc_link = nullptr;
  const uintptr_t fn = reinterpret_cast<uintptr_t>(entry);
  const uintptr_t a = reinterpret_cast<uintptr_t>(arg);
  makecontext(&ctx.uc, reinterpret_cast<void (*)()>(ucontext_entry), 4,
              static_cast<unsigned>(fn >> 16 >> 16), static_cast<unsigned>(fn),
              static_cast<unsigned>(a >> 16 >> 16), static_cast<unsigned>(a));
  ctx.stack_lo = stack.lo;
  ctx.stack_size = stack.size;
  ctx.tsan_fiber = tsan_identity;
}

RTCUDA_EMU_NO_TSAN static inline void raw_switch(Context &from, Context &to) {
  swapcontext(&from.uc, &to.uc);
}

#else // x86-64

// rtcuda_emu_switch(save, load): saves the callee-saved registers on the current stack, stores
// the stack pointer in *save, and resumes the stack `load`. The FP control words (MXCSR, x87 CW)
// are not switched: all fibers share the thread's (ldmxcsr/fldcw took most of a switch), and
// device code has no way to change them.
// rtcuda_emu_start: first frame of a new context; r12 = argument, r13 = entry function.
extern "C" void rtcuda_emu_switch(void **save, void *load);
extern "C" void rtcuda_emu_start();
asm(R"(
  .pushsection .text
  .p2align 4
  .globl rtcuda_emu_switch
  .hidden rtcuda_emu_switch
  .type rtcuda_emu_switch, @function
rtcuda_emu_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size rtcuda_emu_switch, .-rtcuda_emu_switch

  .p2align 4
  .globl rtcuda_emu_start
  .hidden rtcuda_emu_start
  .type rtcuda_emu_start, @function
rtcuda_emu_start:
  .cfi_startproc
  .cfi_undefined rip
  movq %r12, %rdi
  callq *%r13
  ud2
  .cfi_endproc
  .size rtcuda_emu_start, .-rtcuda_emu_start
  .popsection
)");

RTCUDA_EMU_NO_TSAN void context_make(Context &ctx, const Stack &stack, void (*entry)(void *),
                                     void *arg, void *tsan_identity, unsigned color) {
  ctx = Context();
  // A pooled stack still has the redzones of the last frames of its previous fiber, which never
  // returned (they ended with a switch).
  stack_forget_frames(stack);
  uintptr_t top =
      reinterpret_cast<uintptr_t>(stack.lo + stack.size - (color % 64) * 64) & ~uintptr_t(15);
  void **sp = reinterpret_cast<void **>(top);
  // `ret` in rtcuda_emu_switch pops the start address and leaves rsp 16-byte aligned, as a call
  // in rtcuda_emu_start needs it.
  *--sp = reinterpret_cast<void *>(&rtcuda_emu_start);
  *--sp = nullptr;                         // rbp: ends frame-pointer walks here
  *--sp = nullptr;                         // rbx
  *--sp = arg;                             // r12
  *--sp = reinterpret_cast<void *>(entry); // r13
  *--sp = nullptr;                         // r14
  *--sp = nullptr;                         // r15
  ctx.sp = sp;
  ctx.stack_lo = stack.lo;
  ctx.stack_size = stack.size;
  ctx.tsan_fiber = tsan_identity;
}

RTCUDA_EMU_NO_TSAN static inline void raw_switch(Context &from, Context &to) {
  rtcuda_emu_switch(&from.sp, to.sp);
}

#endif

RTCUDA_EMU_NO_TSAN void context_switch(Context &from, Context &to, bool sync, bool last) {
#ifdef RTCUDA_EMU_ASAN
  __sanitizer_start_switch_fiber(last ? nullptr : &from.fake_stack, to.stack_lo, to.stack_size);
#else
  (void)last;
#endif
#ifdef RTCUDA_EMU_TSAN
  __tsan_switch_to_fiber(to.tsan_fiber, sync ? 0u : __tsan_switch_to_fiber_no_sync);
#else
  (void)sync;
#endif
  raw_switch(from, to);
#ifdef RTCUDA_EMU_ASAN
  const void *lo = nullptr;
  size_t size = 0;
  __sanitizer_finish_switch_fiber(from.fake_stack, &lo, &size);
#endif
}

RTCUDA_EMU_NO_TSAN void context_started(Context &from) {
#ifdef RTCUDA_EMU_ASAN
  // Learns the switcher's stack bounds (the OS thread's stack), needed to switch back to it.
  __sanitizer_finish_switch_fiber(nullptr, &from.stack_lo, &from.stack_size);
#else
  (void)from;
#endif
}

} // namespace detail
} // namespace emu
} // namespace rtcuda
