// Emulator.cpp: kernel launches on the CPU.
//
// Every GPU thread is a fiber. A block runs in barrier intervals: in each interval every thread of
// the block runs, in an order shuffled by a seeded generator, until it reaches __syncthreads() or
// returns. Blocks run one after another on the launching thread, or on a few worker threads in
// threads mode. A kernel without barriers runs all threads of a block on one fiber stack, one
// after another, so it costs two switches per block.
//
// Under ThreadSanitizer each fiber is its own TSan thread and the scheduler adds happens-before
// edges only where CUDA has them (barriers, launch start and end): a non-atomic update of one
// location by two threads of a block between two barriers is reported as a race.
#include "Fiber.h"
#include "Internal.h"

#include <signal.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <numeric>
#include <thread>
#include <vector>

namespace rtcuda {
namespace emu {
namespace detail {

// ---- settings --------------------------------------------------------------------------------

namespace {
constexpr unsigned long long kDefaultSeed = 0x5eedULL;
constexpr unsigned kDefaultStackKb = 64;
constexpr unsigned kDefaultWorkers = 4;

std::once_flag g_env_once;
std::atomic<unsigned long long> g_seed{kDefaultSeed};
std::atomic<bool> g_threads_mode{false};
std::atomic<unsigned> g_workers{kDefaultWorkers};
std::atomic<unsigned> g_stack_kb{kDefaultStackKb};
std::atomic<bool> g_verbose{false};
std::atomic<unsigned long long> g_launches{0};
std::atomic<bool> g_announced{false};

bool env_number(const char *name, unsigned long long &value) {
  const char *text = getenv(name);
  if (!text || !*text) return false;
  char *end = nullptr;
  const unsigned long long parsed = strtoull(text, &end, 0);
  if (*end != '\0') {
    fprintf(stderr, "rtcuda-emu: warning: ignoring %s=%s (not a number)\n", name, text);
    return false;
  }
  value = parsed;
  return true;
}

void load_env() {
  std::call_once(g_env_once, [] {
    unsigned long long v = 0;
    if (env_number("RTCUDA_EMU_SEED", v)) g_seed = v;
    if (env_number("RTCUDA_EMU_THREADS", v)) g_threads_mode = v != 0;
    if (env_number("RTCUDA_EMU_WORKERS", v) && v > 0) g_workers = static_cast<unsigned>(v);
    if (env_number("RTCUDA_EMU_STACK_KB", v) && v > 0) g_stack_kb = static_cast<unsigned>(v);
    if (env_number("RTCUDA_EMU_VERBOSE", v)) g_verbose = v != 0;
  });
}
} // namespace

// ---- random orders ---------------------------------------------------------------------------

namespace {
inline uint64_t mix64(uint64_t x) { // splitmix64 finalizer
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

struct Rng {
  uint64_t state;
  explicit Rng(uint64_t seed) : state(seed) {}
  uint64_t next() { return mix64(state += 0x9e3779b97f4a7c15ULL); }
  uint64_t below(uint64_t n) { // Lemire's multiply-shift; the bias is irrelevant here
    return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }
};

void shuffle(std::vector<unsigned> &v, Rng &rng) {
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(i)]);
}
} // namespace

// ---- launch and worker state -----------------------------------------------------------------

namespace {
enum : unsigned char { kNotStarted, kRunning, kWaiting, kDone };

struct Worker;

struct Slot { // one GPU thread of the current block
  uint3 tid;
  struct Fiber *fiber;
  unsigned char state;
};

struct Fiber {
  Context ctx;
  Stack stack;
  Worker *worker = nullptr;
  Slot *slot = nullptr;     // the thread it runs; nullptr when idle
  void *identity = nullptr; // for ThreadSanitizer
  bool exit = false;
};

struct Launch {
  Trampoline run;
  const void *call;
  dim3 grid, block;
  uint64_t blocks;
  unsigned threads;
  uint64_t seed;
  uint64_t perm_mul, perm_add; // block order: (mul * i + add) mod blocks
  size_t stack_bytes;
  bool reuse_stacks; // a thread that returns hands its stack to the next one (not under TSan)
  std::atomic<uint64_t> next_block{0};
  mutable std::atomic<int> error{cudaSuccess}; // the first failure stops the launch
  mutable std::atomic<bool> reported{false};
};

// The scheduler of one OS thread. Fibers persist for a launch; stacks and TSan identities
// persist across launches.
struct Worker {
  Context main;
  std::vector<Stack> free_stacks;
  std::vector<void *> free_identities;
  std::vector<std::unique_ptr<Fiber>> fibers;
  std::vector<Fiber *> idle, spent;
  Fiber *current = nullptr;
  const Launch *launch = nullptr;
  unsigned n = 0; // threads per block
  std::vector<Slot> slots;
  std::vector<unsigned> order;
  // Written by fibers, read by the scheduler: relaxed atomics, see the file comment.
  unsigned next_start = 0, waiting = 0, done = 0, bar_acc = 0, bar_result = 0;
  unsigned interval = 0; // barriers passed in this block
  // Addresses for TSan happens-before edges. Arrivals at barrier k release into hb_barrier[k % 2]
  // and leavers acquire from it: one object would also pass on what threads that already ran in
  // the next interval did.
  char hb_barrier[2] = {0, 0}, hb_block_end = 0;

  ~Worker();
};

thread_local Worker *tl_active = nullptr; // the worker of this OS thread while it runs a launch

template <class T> inline T ld(const T &x) { return __atomic_load_n(&x, __ATOMIC_RELAXED); }
template <class T, class V> inline void st(T &x, V v) {
  __atomic_store_n(&x, static_cast<T>(v), __ATOMIC_RELAXED);
}

Worker::~Worker() {
  if (tl_active == this) return; // exit() called from a kernel: its stack is in use
  for (Stack &s : free_stacks) stack_free(s);
  for (void *identity : free_identities) tsan_identity_destroy(identity);
}

// Fiber mode: each launching thread has its worker.
Worker &this_thread_worker() {
  thread_local std::unique_ptr<Worker> worker;
  if (!worker) worker.reset(new Worker);
  return *worker;
}

// Threads mode: worker k runs on the k-th OS thread of every launch, so that its stacks and
// identities outlive the thread. One threads-mode launch at a time.
std::mutex g_threads_mode_mutex;
std::vector<std::unique_ptr<Worker>> g_pool_workers;

// The built-in variables are written outside TSan's view: kernels only read them.
RTCUDA_EMU_NO_TSAN void set_thread_idx(uint3 t) { threadIdx = t; }
RTCUDA_EMU_NO_TSAN void set_block_idx(uint3 b) { blockIdx = b; }
RTCUDA_EMU_NO_TSAN void set_dims(dim3 grid, dim3 block) {
  gridDim = grid;
  blockDim = block;
}

void fail(const Launch &launch, cudaError_t error) {
  int expected = cudaSuccess;
  launch.error.compare_exchange_strong(expected, error);
}

// ---- fibers ----------------------------------------------------------------------------------

RTCUDA_EMU_NO_TSAN void run_thread(Worker &w, Slot *t) {
  st(t->state, kRunning);
  set_thread_idx(t->tid);
  w.launch->run(w.launch->call);
  st(t->state, kDone);
  st(w.done, ld(w.done) + 1);
}

RTCUDA_EMU_NO_TSAN void fiber_entry(void *arg) {
  Fiber *f = static_cast<Fiber *>(arg);
  Worker &w = *f->worker;
  context_started(w.main);
  while (!ld(f->exit)) {
    Slot *t = ld(f->slot);
    for (;;) {
      run_thread(w, t);
      if (!w.launch->reuse_stacks) break;
      const unsigned k = ld(w.next_start);
      if (k >= w.n) break;
      st(w.next_start, k + 1);
      t = &w.slots[w.order[k]];
      st(t->fiber, f);
      st(f->slot, t);
    }
    st(f->slot, static_cast<Slot *>(nullptr));
    hb_release(&w.hb_block_end);
    context_switch(f->ctx, w.main, false, false);
  }
  // Synchronizing: the scheduler frees this fiber next.
  context_switch(f->ctx, w.main, true, true);
  __builtin_unreachable();
}

Fiber *take_fiber(Worker &w) {
  if (!w.idle.empty()) {
    Fiber *f = w.idle.back();
    w.idle.pop_back();
    return f;
  }
  Stack stack;
  if (!w.free_stacks.empty()) {
    stack = w.free_stacks.back();
    w.free_stacks.pop_back();
  } else {
    stack = stack_alloc(w.launch->stack_bytes);
    if (!stack.map) return nullptr;
  }
  std::unique_ptr<Fiber> f(new Fiber);
  f->stack = stack;
  f->worker = &w;
  if (!w.free_identities.empty()) {
    f->identity = w.free_identities.back();
    w.free_identities.pop_back();
  } else {
    f->identity = tsan_identity_create();
  }
  context_make(f->ctx, f->stack, &fiber_entry, f.get(), f->identity,
               static_cast<unsigned>(w.fibers.size()));
  w.fibers.push_back(std::move(f));
  return w.fibers.back().get();
}

// Runs fiber f until its thread reaches a barrier or it runs out of threads.
RTCUDA_EMU_NO_TSAN void resume(Worker &w, Fiber *f) {
  w.current = f;
  context_switch(w.main, f->ctx, true, false);
  w.current = nullptr;
  if (!ld(f->slot)) (w.launch->reuse_stacks ? w.idle : w.spent).push_back(f);
}

// ---- stack overflow message (the sanitizers report overflows themselves) ---------------------

#if !defined(RTCUDA_EMU_ASAN) && !defined(RTCUDA_EMU_TSAN)
struct sigaction g_previous_segv;

void on_segv(int, siginfo_t *info, void *context) {
  const Worker *w = tl_active;
  if (w && w->current) {
    const Stack &s = w->current->stack;
    // A large frame skips the guard page: look at the stack pointer too.
    const char *a = static_cast<const char *>(info->si_addr);
#if defined(__x86_64__)
    a = std::min(a, reinterpret_cast<const char *>(
                        static_cast<ucontext_t *>(context)->uc_mcontext.gregs[REG_RSP]));
#else
    (void)context;
#endif
    if (a < s.lo && s.lo - a < (ptrdiff_t(1) << 30)) {
      static const char msg[] = "rtcuda-emu: error: a GPU thread overflowed its fiber stack; "
                                "raise RTCUDA_EMU_STACK_KB\n";
      ssize_t ignored = write(2, msg, sizeof msg - 1);
      (void)ignored;
    }
  }
  // The fault repeats on return and goes to the previous handler (by default: the crash).
  sigaction(SIGSEGV, &g_previous_segv, nullptr);
}

// The handler runs on its own stack: the faulting one is full.
struct AltStack {
  void *memory = nullptr;
  ~AltStack() {
    if (!memory) return;
    stack_t off;
    memset(&off, 0, sizeof off);
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
    free(memory);
  }
};

void install_overflow_message() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &g_previous_segv);
  });
  thread_local AltStack alt;
  if (alt.memory) return;
  stack_t current;
  if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return; // has one
  const size_t size = 64 * 1024;
  alt.memory = malloc(size);
  if (!alt.memory) return;
  stack_t ss;
  memset(&ss, 0, sizeof ss);
  ss.ss_sp = alt.memory;
  ss.ss_size = size;
  sigaltstack(&ss, nullptr);
}
#else
void install_overflow_message() {}
#endif

void begin_launch(Worker &w, const Launch &launch) {
  install_overflow_message();
  context_init_thread(w.main);
  w.launch = &launch;
  w.n = launch.threads;
  w.slots.assign(w.n, Slot{});
  w.order.resize(w.n);
  for (unsigned i = 0; i < w.n; ++i) {
    const unsigned x = i % launch.block.x, y = i / launch.block.x % launch.block.y,
                   z = i / launch.block.x / launch.block.y;
    w.slots[i].tid = uint3{x, y, z};
  }
  // Stacks of another size (the setting changed) are not reused.
  for (Stack &s : w.free_stacks)
    if (s.size < launch.stack_bytes) stack_free(s);
  w.free_stacks.erase(std::remove_if(w.free_stacks.begin(), w.free_stacks.end(),
                                     [](const Stack &s) { return s.map == nullptr; }),
                      w.free_stacks.end());
  set_dims(launch.grid, launch.block);
  tl_active = &w;
}

RTCUDA_EMU_NO_TSAN void end_launch(Worker &w) {
  // The launch is over: everything its threads did happens before what comes next here.
  hb_acquire(&w.hb_barrier[0]);
  hb_acquire(&w.hb_barrier[1]);
  hb_acquire(&w.hb_block_end);
  for (std::unique_ptr<Fiber> &f : w.fibers) {
    if (ld(f->slot)) {
      // Its thread never finishes (a launch stopped early): forget its frames and its stack,
      // whose reuse TSan would take for a race.
      tsan_identity_destroy(f->identity);
      stack_free(f->stack);
      continue;
    }
    st(f->exit, true);
    w.current = f.get();
    context_switch(w.main, f->ctx, true, false);
    w.current = nullptr;
    w.free_identities.push_back(f->identity);
    w.free_stacks.push_back(f->stack);
  }
  w.fibers.clear();
  w.idle.clear();
  w.spent.clear();
  w.launch = nullptr;
  tl_active = nullptr;
}

// ---- blocks ----------------------------------------------------------------------------------

void report_divergence(const Launch &launch, uint3 b, unsigned reached, unsigned threads) {
  if (launch.reported.exchange(true)) return;
  fprintf(stderr,
          "rtcuda-emu: error: barrier divergence in block (%u,%u,%u): %u of %u threads reached "
          "__syncthreads()\n",
          b.x, b.y, b.z, reached, threads);
}

// Runs one block; false when the launch must stop.
RTCUDA_EMU_NO_TSAN bool run_block(Worker &w, uint64_t linear) {
  const Launch &launch = *w.launch;
  const uint64_t gx = launch.grid.x, gy = launch.grid.y;
  const uint3 b = uint3{static_cast<unsigned>(linear % gx), static_cast<unsigned>(linear / gx % gy),
                        static_cast<unsigned>(linear / gx / gy)};
  set_block_idx(b);
  for (Slot &s : w.slots) {
    s.fiber = nullptr;
    s.state = kNotStarted;
  }
  std::iota(w.order.begin(), w.order.end(), 0u);
  Rng rng(mix64(launch.seed ^ mix64(linear)));
  shuffle(w.order, rng);
  st(w.next_start, 0u);
  st(w.waiting, 0u);
  st(w.done, 0u);
  st(w.bar_acc, 0u);
  st(w.bar_result, 0u);
  st(w.interval, 0u);

  // First interval: start every thread, in shuffled order.
  for (;;) {
    const unsigned k = ld(w.next_start);
    if (k >= w.n) break;
    st(w.next_start, k + 1);
    Slot *t = &w.slots[w.order[k]];
    Fiber *f = take_fiber(w);
    if (!f) {
      fprintf(stderr, "rtcuda-emu: error: cannot allocate a %zu KB fiber stack\n",
              launch.stack_bytes / 1024);
      fail(launch, cudaErrorLaunchOutOfResources);
      return false;
    }
    st(t->fiber, f);
    st(f->slot, t);
    resume(w, f);
  }
  // Later intervals: every thread waits at the same barrier, or the block is done.
  while (ld(w.waiting) != 0) {
    if (ld(w.done) != 0) {
      report_divergence(launch, b, ld(w.waiting), w.n);
      fail(launch, cudaErrorLaunchFailure);
      return false;
    }
    st(w.bar_result, ld(w.bar_acc));
    st(w.bar_acc, 0u);
    st(w.waiting, 0u);
    st(w.interval, ld(w.interval) + 1);
    shuffle(w.order, rng);
    for (unsigned i : w.order) {
      Slot *t = &w.slots[i];
      st(t->state, kRunning);
      resume(w, ld(t->fiber));
    }
  }
  hb_acquire(&w.hb_block_end);
  w.idle.insert(w.idle.end(), w.spent.begin(), w.spent.end());
  w.spent.clear();
  return true;
}

void run_blocks(Launch &launch, Worker &w) {
  begin_launch(w, launch);
  while (launch.error.load(std::memory_order_relaxed) == cudaSuccess) {
    // Relaxed: taking a block must not order it after another worker's block.
    const uint64_t i = launch.next_block.fetch_add(1, std::memory_order_relaxed);
    if (i >= launch.blocks) break;
    const uint64_t linear = static_cast<uint64_t>(
        (static_cast<unsigned __int128>(launch.perm_mul) * i + launch.perm_add) % launch.blocks);
    if (!run_block(w, linear)) break;
  }
  end_launch(w);
}

bool valid_config(dim3 grid, dim3 block) {
  if (block.x == 0 || block.y == 0 || block.z == 0) return false;
  if (block.x > 1024 || block.y > 1024 || block.z > 64) return false;
  if (uint64_t(block.x) * block.y * block.z > 1024) return false;
  if (grid.x == 0 || grid.y == 0 || grid.z == 0) return false;
  return grid.x <= 2147483647u && grid.y <= 65535u && grid.z <= 65535u;
}
} // namespace

// ---- barrier ---------------------------------------------------------------------------------

namespace {
RTCUDA_EMU_NO_TSAN int barrier(int predicate) {
  Worker *w = tl_active;
  if (!w || !w->current) return predicate; // host code: nothing to wait for
  Fiber *f = w->current;
  Slot *t = ld(f->slot);
  st(w->bar_acc, ld(w->bar_acc) + (predicate ? 1u : 0u));
  st(t->state, kWaiting);
  st(w->waiting, ld(w->waiting) + 1);
  char *hb = &w->hb_barrier[ld(w->interval) % 2];
  hb_release(hb);
  context_switch(f->ctx, w->main, false, false);
  hb_acquire(hb);
  set_thread_idx(t->tid);
  return static_cast<int>(ld(w->bar_result));
}
} // namespace

// ---- launch ----------------------------------------------------------------------------------

void launch_kernel(Trampoline run, const void *call, dim3 grid, dim3 block) {
  load_env();
  if (const cudaError_t sticky = sticky_error()) {
    record_error(sticky);
    return;
  }
  if (!valid_config(grid, block)) {
    record_error(cudaErrorInvalidConfiguration);
    return;
  }
  if (tl_active) { // a launch from inside a kernel (dynamic parallelism)
    record_error(cudaErrorNotSupported);
    return;
  }
  const unsigned long long number = g_launches.fetch_add(1);
  const bool verbose = g_verbose.load();
  const bool threads_mode = g_threads_mode.load();
  const unsigned workers = threads_mode ? std::max(1u, g_workers.load()) : 1u;

  Launch launch;
  launch.run = run;
  launch.call = call;
  launch.grid = grid;
  launch.block = block;
  launch.blocks = uint64_t(grid.x) * grid.y * grid.z;
  launch.threads = block.x * block.y * block.z;
  launch.seed = mix64(g_seed.load() ^ mix64(number));
  launch.stack_bytes = size_t(std::max(16u, g_stack_kb.load())) * 1024;
#ifdef RTCUDA_EMU_TSAN
  launch.reuse_stacks = false; // each GPU thread must be its own TSan thread
#else
  launch.reuse_stacks = true;
#endif
  Rng rng(launch.seed);
  launch.perm_mul = 1;
  launch.perm_add = 0;
  if (launch.blocks > 1) { // a random affine permutation: blocks run in no fixed order
    do launch.perm_mul = 1 + rng.below(launch.blocks - 1);
    while (std::gcd(launch.perm_mul, launch.blocks) != 1);
    launch.perm_add = rng.below(launch.blocks);
  }

  if (verbose) {
    if (!g_announced.exchange(true))
      fprintf(stderr, "rtcuda-emu: seed %#llx, %s, %u KB fiber stacks\n", g_seed.load(),
              threads_mode ? "threads mode" : "fiber mode", g_stack_kb.load());
    fprintf(stderr, "rtcuda-emu: launch #%llu grid (%u,%u,%u) block (%u,%u,%u)\n", number, grid.x,
            grid.y, grid.z, block.x, block.y, block.z);
  }

  if (threads_mode && launch.blocks > 1) {
    std::lock_guard<std::mutex> lock(g_threads_mode_mutex);
    const size_t count = size_t(std::min<uint64_t>(workers, launch.blocks));
    while (g_pool_workers.size() < count) g_pool_workers.emplace_back(new Worker);
    std::vector<std::thread> pool;
    try {
      for (size_t k = 0; k < count; ++k)
        pool.emplace_back(run_blocks, std::ref(launch), std::ref(*g_pool_workers[k]));
    } catch (const std::exception &) {
      // Fewer threads than asked for: those that started take all blocks.
    }
    if (pool.empty()) run_blocks(launch, this_thread_worker());
    for (std::thread &t : pool) t.join();
  } else {
    run_blocks(launch, this_thread_worker());
  }

  const cudaError_t error = static_cast<cudaError_t>(launch.error.load());
  if (error == cudaErrorLaunchFailure)
    set_sticky_error(error);
  else if (error != cudaSuccess)
    record_error(error);
}

} // namespace detail

void set_seed(unsigned long long seed) {
  detail::load_env();
  detail::g_seed = seed;
}
unsigned long long seed() {
  detail::load_env();
  return detail::g_seed;
}
void set_threads_mode(bool on, unsigned workers) {
  detail::load_env();
  detail::g_threads_mode = on;
  if (workers) detail::g_workers = workers;
}
void set_stack_kb(unsigned kb) {
  detail::load_env();
  if (kb) detail::g_stack_kb = kb;
}
void set_verbose(bool on) {
  detail::load_env();
  detail::g_verbose = on;
}
unsigned long long launch_count() { return detail::g_launches; }

} // namespace emu
} // namespace rtcuda

void __syncthreads(void) { rtcuda::emu::detail::barrier(0); }
int __syncthreads_count(int predicate) { return rtcuda::emu::detail::barrier(predicate); }
int __syncthreads_and(int predicate) {
  const int count = rtcuda::emu::detail::barrier(predicate);
  return blockDim.x * blockDim.y * blockDim.z == static_cast<unsigned>(count);
}
int __syncthreads_or(int predicate) { return rtcuda::emu::detail::barrier(predicate) != 0; }
