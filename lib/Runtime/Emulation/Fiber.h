// Fiber.h: execution contexts (one per emulated GPU thread) and their stacks.
//
// A hand-written switch on x86-64 (a swapcontext costs a signal-mask system call per switch);
// ucontext elsewhere, or with -DRTCUDA_EMU_UCONTEXT. Every switch is announced to AddressSanitizer
// and ThreadSanitizer, which otherwise take a fiber's stack for a corrupted one.
#pragma once

#include <stddef.h>

#if defined(__SANITIZE_ADDRESS__)
#define RTCUDA_EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RTCUDA_EMU_ASAN 1
#endif
#endif

#if defined(__SANITIZE_THREAD__)
#define RTCUDA_EMU_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RTCUDA_EMU_TSAN 1
#endif
#endif

#if !defined(__x86_64__) && !defined(RTCUDA_EMU_UCONTEXT)
#define RTCUDA_EMU_UCONTEXT 1
#endif
#ifdef RTCUDA_EMU_UCONTEXT
#include <ucontext.h>
#endif

// Scheduler bookkeeping that fibers and the scheduler both touch is ordered by the emulator, not
// by happens-before edges that ThreadSanitizer could see (adding those would hide real races).
#if defined(__clang__)
#define RTCUDA_EMU_NO_TSAN __attribute__((no_sanitize("thread")))
#else
#define RTCUDA_EMU_NO_TSAN __attribute__((no_sanitize_thread))
#endif

namespace rtcuda {
namespace emu {
namespace detail {

struct Stack {
  void *map = nullptr; // whole mapping, guard page included
  size_t map_size = 0;
  char *lo = nullptr; // usable stack: [lo, lo + size)
  size_t size = 0;
};

// A stack of `size` bytes (rounded up to pages) above a guard page; map == nullptr on failure.
Stack stack_alloc(size_t size);
void stack_free(Stack &stack);
// Clears sanitizer state left by frames that never returned (a fiber abandoned mid-kernel).
void stack_forget_frames(const Stack &stack);

struct Context {
#ifdef RTCUDA_EMU_UCONTEXT
  ucontext_t uc;
#else
  void *sp = nullptr; // saved stack pointer while not running
#endif
  const void *stack_lo = nullptr; // AddressSanitizer: bounds of this context's stack
  size_t stack_size = 0;
  void *fake_stack = nullptr;
  void *tsan_fiber = nullptr; // ThreadSanitizer: this context's identity
};

// The running OS thread's own context (the scheduler side).
void context_init_thread(Context &ctx);
// A ThreadSanitizer identity for a fiber (nullptr without TSan). Creating one costs about a
// millisecond, so callers keep them for reuse.
void *tsan_identity_create();
void tsan_identity_destroy(void *identity);
// A new context that runs entry(arg) on `stack` when first switched to; entry must not return
// (it ends with context_switch(..., last = true)). It runs as `tsan_identity` under TSan.
// Different colors start the stack at different cache sets: page-aligned stack tops would all
// compete for one set.
void context_make(Context &ctx, const Stack &stack, void (*entry)(void *), void *arg,
                  void *tsan_identity, unsigned color);
// From the running context `from` to `to`. sync: `to` inherits everything `from` did, for
// ThreadSanitizer. last: `from` will never run again.
void context_switch(Context &from, Context &to, bool sync, bool last);
// First call in a new context's entry function; `from` is the context that switched to it.
void context_started(Context &from);

// Happens-before edges for ThreadSanitizer (no-ops otherwise).
void hb_release(void *addr);
void hb_acquire(void *addr);

} // namespace detail
} // namespace emu
} // namespace rtcuda
