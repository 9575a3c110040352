// kernel.cu and the per-kernel parameter headers. Each kernel has its own macros
// (<NAME>_BLOCKSIZE, ...), so two kernels never share a parameter and the tuner can set each.
#include "rtcuda/CodeGen/CodeGen.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"
#include "rtcuda/IR/Simplify.h"

#include <algorithm>
#include <functional>
#include <regex>
#include <set>
#include <sstream>

namespace rtcuda {

std::string paramsHeaderName(const ir::Kernel &k) { return k.name + "_params.h"; }

ir::Kernel alternativeKernel(const ir::Kernel &k, size_t i) {
  const std::string number = i ? std::to_string(i + 1) : "";
  ir::Kernel sg = k;
  sg.name = k.name + "_small_grid" + number;
  sg.macroPrefix = k.macroPrefix + "_SG" + number;
  sg.alternatives.clear();
  sg.tuning.clear();
  for (const auto &[name, value] : k.alternatives.at(i))  // not a tuning parameter
    if (name == "MIN_BLOCKS") sg.minBlocksPerSM = value;
  std::map<std::string, ir::Expr> renamed;
  for (const ir::TuningParam &t : k.tuning) {
    ir::TuningParam p = t;
    p.macro = sg.macro(t.name);
    for (const auto &[name, value] : k.alternatives.at(i))
      if (name == t.name) p.defaultValue = value;
    renamed[t.macro] = ir::var(p.macro);
    sg.tuning.push_back(p);
  }
  sg.body = ir::mapStmt(ir::substitute(k.body, renamed), [&](const ir::Stmt &s) -> ir::Stmt {
    if (s->kind != ir::StmtKind::Comment) return s;
    std::string text = s->text;  // the comments name the macros too
    for (const auto &[from, to] : renamed)
      text = std::regex_replace(text, std::regex("\\b" + from + "\\b"), to->name);
    return ir::withLoc(ir::comment(text), s->loc);
  });
  for (ir::LaunchDim &d : sg.grid) {
    d.iterations = ir::substitute(d.iterations, renamed);
    d.perBlock = ir::substitute(d.perBlock, renamed);
  }
  if (k.blockThreads) sg.blockThreads = ir::substitute(k.blockThreads, renamed);
  if (k.splitK.trip) {  // the instantiations for small grids split k (RegisterTilingSplit.cpp)
    const std::string code = k.macro("SPLIT_CODE");  // SPLIT_CODE ? x : y is x here
    sg.body = ir::mapStmt(sg.body, [](const ir::Stmt &s) { return s; }, [&](const ir::Expr &e) {
      return ir::mapExpr(e, [&](const ir::Expr &n) {
        return n->kind == ir::ExprKind::Select && n->operands[0]->kind == ir::ExprKind::Var &&
                       n->operands[0]->name == code
                   ? n->operands[1]
                   : n;
      });
    });
    sg.splitK.workPerBlock = ir::substitute(k.splitK.workPerBlock, renamed);
    sg.splitK.tileK = ir::substitute(k.splitK.tileK, renamed);
  }
  return sg;
}

// The kernel at its tuning point is never split (RegisterTilingSplit.cpp): its split code
// resolved at <PREFIX>_SPLIT_CODE 0, so it prints as it did before split k.
ir::Kernel unsplitKernel(const ir::Kernel &k) {
  if (!k.splitK.trip) return k;
  const std::string code = k.macro("SPLIT_CODE");
  // Each value a node of its own: `0 + x` where a substituted 0 was added is x, as RegisterTiling
  // wrote it for a loop from 0 (nothing else is rewritten: the rest prints as before split k).
  std::map<std::string, ir::Expr> values;
  for (size_t i = 0; i < k.splitK.names.size(); ++i)
    values[k.splitK.names[i]] = std::make_shared<ir::ExprNode>(*k.splitK.values[i]);
  auto substituted = [&](const ir::Expr &e) {
    int64_t v = 1;
    if (!ir::isConst(e, &v) || v != 0) return false;
    for (const auto &[name, value] : values)
      if (value == e) return true;
    return false;
  };
  // Applied to every node, bottom-up (mapStmt).
  auto fold = [&](const ir::Expr &n) -> ir::Expr {
    if (n->kind == ir::ExprKind::Select && n->operands[0]->kind == ir::ExprKind::Var &&
        n->operands[0]->name == code)
      return n->operands[2];
    if (n->kind == ir::ExprKind::Var && values.count(n->name)) return values.at(n->name);
    if (n->kind == ir::ExprKind::Binary && n->name == "+") {
      if (substituted(n->operands[0])) return n->operands[1];
      if (substituted(n->operands[1])) return n->operands[0];
    }
    return n;
  };
  std::function<void(const ir::Stmt &, std::vector<ir::Stmt> &)> keep;
  keep = [&](const ir::Stmt &s, std::vector<ir::Stmt> &into) {
    int64_t c = 0;
    if (s->kind == ir::StmtKind::Decl && values.count(s->name)) return;
    if (s->kind == ir::StmtKind::Comment && s->text.rfind("split k:", 0) == 0) return;
    if (s->kind == ir::StmtKind::If && ir::isConst(ir::simplify(s->cond), &c)) {
      const ir::Stmt &taken = c ? s->body : s->elseBody;
      if (!taken) return;
      if (taken->kind != ir::StmtKind::Block) return into.push_back(taken);
      for (const ir::Stmt &t : taken->stmts) keep(t, into);
      return;
    }
    into.push_back(s);
  };
  ir::Kernel out = k;
  out.body = ir::mapStmt(k.body, [&](const ir::Stmt &s) -> ir::Stmt {
    if (s->kind != ir::StmtKind::Block) return s;
    std::vector<ir::Stmt> kept;
    for (const ir::Stmt &t : s->stmts) keep(t, kept);
    auto b = std::make_shared<ir::StmtNode>(*s);
    b->stmts = kept;
    return ir::Stmt(b);
  }, fold);
  return out;
}

std::string paramsHeader(const LoweredKernel &lk, const std::map<std::string, int> &values) {
  const ir::Kernel &k = lk.kernel;
  std::ostringstream out;
  out << "// Tuning parameters of kernel '" << k.name << "' (" << k.loc.str() << ").\n"
      << "// Written by rtcuda translate; rtcuda-tune rewrites the values it picks.\n"
      << "#pragma once\n";
  for (const ir::TuningParam &p : k.tuning) {
    auto given = values.find(p.name);
    int value = given != values.end() ? given->second : p.defaultValue;
    out << "\n// " << p.name << ": search space";
    for (size_t i = 0; i < p.values.size() && i < 8; ++i) out << (i ? ", " : " ") << p.values[i];
    if (p.values.size() > 8) out << ", ... " << p.values.back();
    out << "\n#ifndef " << p.macro << "\n#define " << p.macro << " " << value << "\n#endif\n";
  }
  if (indexWidth(lk) == IndexWidth::Both)
    out << "\n// Index arithmetic (LoopCollapse.md, Index width): " << k.macro("WIDE_INDEX")
        << ": 0 always 32-bit\n// (a launch whose counts pass 2^31 - 1 is refused); 1 32-bit "
        << "where they fit, else\n// " << wideIndexKernel(k).name << " (64-bit); 2 always "
        << wideIndexKernel(k).name << " (rtcuda verify and rtcuda-tune\n// check both, "
        << "whatever this value).\n#ifndef " << k.macro("WIDE_INDEX") << "\n#define "
        << k.macro("WIDE_INDEX") << " 1\n#endif\n";
  if (!k.alternatives.empty()) {
    out << "\n// Alternative instantiations (RegisterTiling.md, Tile and size), each at its own point\n"
        << "// (not tuned). " << k.macro("SMALL_GRID") << ": 0 never; 1 where the grid of the point "
        << "above has fewer\n// blocks than the GPU has SMs, the one whose grid fills most SMs "
        << "without passing\n// their count; 2";
    for (size_t i = 1; i < k.alternatives.size(); ++i) out << ", " << i + 2;
    out << ": always " << alternativeKernel(k, 0).name;
    for (size_t i = 1; i < k.alternatives.size(); ++i) out << ", " << alternativeKernel(k, i).name;
    out << " (rtcuda verify and\n// rtcuda-tune check each of them, whatever this value).\n"
        << "#ifndef " << k.macro("SMALL_GRID") << "\n#define " << k.macro("SMALL_GRID") << " 1\n#endif\n";
    for (size_t i = 0; i < k.alternatives.size(); ++i)
      for (const ir::TuningParam &p : alternativeKernel(k, i).tuning)
        out << "#ifndef " << p.macro << "\n#define " << p.macro << " " << p.defaultValue << "\n#endif\n";
  }
  if (k.splitK.trip)
    out << "\n// Split k (RegisterTiling.md). " << k.macro("SPLIT_K") << ": 0 never; 1 where the "
        << "grid of the tiles has\n// fewer blocks than the GPU has SMs, a small-grid "
        << "instantiation runs loop k in chunks,\n// a block per tile and chunk, to fill the SMs; "
        << "N >= 2 always N chunks.\n"
        << "#ifndef " << k.macro("SPLIT_K") << "\n#define " << k.macro("SPLIT_K") << " 1\n#endif\n";
  return out.str();
}

namespace {

// Atomic updates CUDA has no instruction for (multiply; min and max of floating point): a
// compare-and-swap loop on the element's bits. The first read is an atomic too, so that
// ThreadSanitizer (rtcuda verify) sees no plain access racing with the updates.
const char *kAtomicHelpers = R"(
// Atomic read-modify-writes without a CUDA instruction: compare-and-swap on the bits.
// clang-format off
#define RTCUDA_ATOMIC_CAS(NAME, T, BITS, TO_BITS, FROM_BITS, COMBINE)                    \
  static __device__ inline T NAME(T *address, T value) {                                 \
    BITS *bits = (BITS *)address;                                                        \
    BITS old = atomicAdd(bits, (BITS)0), assumed;                                        \
    do {                                                                                 \
      assumed = old;                                                                     \
      T current = FROM_BITS(assumed);                                                    \
      old = atomicCAS(bits, assumed, (BITS)TO_BITS(COMBINE));                            \
    } while (old != assumed);                                                            \
    return FROM_BITS(old);                                                               \
  }
#define RTCUDA_SAME_BITS(x) (x)
#define RTCUDA_LL_AS_DOUBLE(x) __longlong_as_double((long long)(x))
RTCUDA_ATOMIC_CAS(rtcuda_atomic_mul, int, int, RTCUDA_SAME_BITS,
                  RTCUDA_SAME_BITS, current * value)
RTCUDA_ATOMIC_CAS(rtcuda_atomic_mul, unsigned int, unsigned int, RTCUDA_SAME_BITS,
                  RTCUDA_SAME_BITS, current * value)
RTCUDA_ATOMIC_CAS(rtcuda_atomic_mul, float, int, __float_as_int,
                  __int_as_float, current * value)
RTCUDA_ATOMIC_CAS(rtcuda_atomic_min, float, int, __float_as_int,
                  __int_as_float, fminf(current, value))
RTCUDA_ATOMIC_CAS(rtcuda_atomic_max, float, int, __float_as_int,
                  __int_as_float, fmaxf(current, value))
RTCUDA_ATOMIC_CAS(rtcuda_atomic_mul, double, unsigned long long, __double_as_longlong,
                  RTCUDA_LL_AS_DOUBLE, current * value)
RTCUDA_ATOMIC_CAS(rtcuda_atomic_min, double, unsigned long long, __double_as_longlong,
                  RTCUDA_LL_AS_DOUBLE, fmin(current, value))
RTCUDA_ATOMIC_CAS(rtcuda_atomic_max, double, unsigned long long, __double_as_longlong,
                  RTCUDA_LL_AS_DOUBLE, fmax(current, value))
// clang-format on
)";

// ReductionSplit's row chunks without a launch to zero the outputs first
// (docs/passes/ReductionSplit.md): each block adds its partial sum of a column into the column's
// slot of a __device__ array and counts itself in; the last of the column's gridDim.y blocks to
// count in takes the total, and leaves slot and count at zero for the next launch (atomicInc
// wraps to 0 at its limit). Every access to them is atomic, so the race checker sees none.
const char *kSplitHelpers = R"(
// Row chunks that add their partial sums: 1 for the last chunk of a column to arrive.
// clang-format off
template <class T>
static __device__ inline int rtcuda_split_add(T *sum, unsigned int *count, T partial) {
  atomicAdd(sum, partial);
  __threadfence();  // the addition is visible before the count that announces it
  unsigned int last = gridDim.y - 1u;
  return atomicInc(count, last) == last;
}
// RegisterTiling's split k: the block's partial sums are in the workspace; the block counts
// itself in for its tile. 1 in every thread of the last block of the tile to count in (it adds
// the partial sums of all of them, in the order of blockIdx.y), and the count is 0 again.
static __device__ inline int rtcuda_tile_arrive(unsigned int *count) {
  __threadfence();  // every thread's partial sums are visible before the block counts in
  __syncthreads();
  int last = 0;
  if (threadIdx.x == 0) last = atomicInc(count, gridDim.y - 1u) == gridDim.y - 1u;
  last = __syncthreads_or(last);
  if (last) __threadfence();
  return last;
}
// A partial sum into the workspace and out of it, past L1 (the last block reads what other
// SMs wrote). In the CPU emulation an atomic access: the count orders them, and
// ThreadSanitizer does not see the fences that do so on the GPU.
template <class T> static __device__ inline void rtcuda_work_put(T *at, T value) {
#ifdef __CUDA_ARCH__
  __stcg(at, value);
#else
  __atomic_store(at, &value, __ATOMIC_RELEASE);
#endif
}
template <class T> static __device__ inline T rtcuda_work_get(T *at) {
#ifdef __CUDA_ARCH__
  return __ldcg(at);
#else
  T value;
  __atomic_load(at, &value, __ATOMIC_ACQUIRE);
  return value;
#endif
}
// The column's total, its slot set back to zero.
static __device__ inline float rtcuda_split_take(float *sum) {
  __threadfence();
  return atomicExch(sum, 0.0f);
}
static __device__ inline double rtcuda_split_take(double *sum) {
  __threadfence();
  return __longlong_as_double((long long)atomicExch((unsigned long long *)sum, 0ull));
}
static __device__ inline int rtcuda_split_take(int *sum) {
  __threadfence();
  return atomicExch(sum, 0);
}
static __device__ inline unsigned int rtcuda_split_take(unsigned int *sum) {
  __threadfence();
  return atomicExch(sum, 0u);
}
// clang-format on
)";

// LaneReduction's rows (lib/Transforms/LaneReduction.cpp): the sum (maximum, minimum) of each
// group of `lanes` neighbouring threads (a power of two up to 32, so a group lies in one warp)
// for the group's first thread, by warp shuffles. Every thread of the block calls it. The CPU
// emulation, whose warps do not run in lockstep, combines the same pairs in the same order
// through shared memory, as the kernels did before shuffles (same result, bit for bit).
const char *kLaneHelpers = R"(
// The sum (maximum, minimum: max and min, fmaxf's rule for floating point) over each group of
// `lanes` neighbouring threads, in the group's first thread.
// clang-format off
struct rtcuda_lane_add {
  template <class T> __device__ T operator()(T a, T b) const { return a + b; }
};
struct rtcuda_lane_greater {
  template <class T> __device__ T operator()(T a, T b) const { return max(a, b); }
};
struct rtcuda_lane_less {
  template <class T> __device__ T operator()(T a, T b) const { return min(a, b); }
};
template <class T, class Op>
static __device__ __forceinline__ T rtcuda_lane_combine(T v, int lanes, T *slots, Op op, int all) {
#ifdef RTCUDA_EMU
  slots[threadIdx.x] = v;
  __syncthreads();
  // n partial results left in each group, halved rounding up (any group size, a block's too).
  for (int n = lanes; n > 1; n = (n + 1) / 2) {
    if ((int)(threadIdx.x % lanes) < n / 2)
      slots[threadIdx.x] = op(slots[threadIdx.x], slots[threadIdx.x + (n + 1) / 2]);
    __syncthreads();
  }
  if (!all) return slots[threadIdx.x];
  // Every thread takes its group's result; the slots are free again when it returns.
  v = slots[threadIdx.x - threadIdx.x % lanes];
  __syncthreads();
  return v;
#else
  if (lanes <= 32) {
    // Butterfly: every lane ends with the group's result, lane 0 with the same pairs as a tree.
    unsigned int left = blockDim.x - (threadIdx.x & ~31u);  // threads of this warp
    unsigned int mask = left >= 32u ? 0xffffffffu : (1u << left) - 1u;
    for (int w = lanes / 2; w > 0; w /= 2) v = op(v, __shfl_xor_sync(mask, v, w, lanes));
    return v;
  }
  // Several warps a group (whole warps): each warp's result by shuffles, then the group's first
  // thread combines its warps' results (and with `all` hands them back through the slots);
  // every thread of the block calls it, and the slots are free again when it returns.
  for (int w = 16; w > 0; w /= 2) v = op(v, __shfl_xor_sync(0xffffffffu, v, w));
  if (threadIdx.x % 32 == 0) slots[threadIdx.x / 32] = v;
  __syncthreads();
  if ((int)threadIdx.x % lanes == 0) {
    for (int w = 1; w < lanes / 32; w++) v = op(v, slots[threadIdx.x / 32 + w]);
    if (all) slots[threadIdx.x / 32] = v;
  }
  __syncthreads();
  if (all) {
    v = slots[threadIdx.x / lanes * (lanes / 32)];
    __syncthreads();
  }
  return v;
#endif
}
// all = 1: every thread of a group gets its result (LaneReduction's rows of several phases);
// else only the group's first thread.
template <class T>
static __device__ __forceinline__ T rtcuda_lane_sum(T v, int lanes, T *slots, int all = 0) {
  return rtcuda_lane_combine(v, lanes, slots, rtcuda_lane_add(), all);
}
template <class T>
static __device__ __forceinline__ T rtcuda_lane_max(T v, int lanes, T *slots, int all = 0) {
  return rtcuda_lane_combine(v, lanes, slots, rtcuda_lane_greater(), all);
}
template <class T>
static __device__ __forceinline__ T rtcuda_lane_min(T v, int lanes, T *slots, int all = 0) {
  return rtcuda_lane_combine(v, lanes, slots, rtcuda_lane_less(), all);
}
// clang-format on
)";

const char *kScanHelpers = R"(
// clang-format off
// Inclusive prefix sums over each group of `lanes` (at most 32) neighbouring threads, and the
// group's last value in every thread (LaneScan's running sums); every thread of the block calls
// them.
#ifndef RTCUDA_EMU
static __device__ __forceinline__ unsigned int rtcuda_warp_mask() {  // the warp's threads
  unsigned int left = blockDim.x - (threadIdx.x & ~31u);
  return left >= 32u ? 0xffffffffu : (1u << left) - 1u;
}
#endif
template <class T>
static __device__ __forceinline__ T rtcuda_lane_scan(T v, int lanes, T *slots) {
#ifdef RTCUDA_EMU
  slots[threadIdx.x] = v;
  __syncthreads();
  for (int d = 1; d < lanes; d *= 2) {
    T before = (int)(threadIdx.x % lanes) >= d ? slots[threadIdx.x - d] : (T)0;
    __syncthreads();
    slots[threadIdx.x] += before;
    __syncthreads();
  }
  v = slots[threadIdx.x];
  __syncthreads();
  return v;
#else
  (void)slots;
  const unsigned int mask = rtcuda_warp_mask();
  for (int d = 1; d < lanes; d *= 2) {
    T before = __shfl_up_sync(mask, v, d, lanes);
    if ((int)(threadIdx.x % lanes) >= d) v += before;
  }
  return v;
#endif
}
template <class T>
static __device__ __forceinline__ T rtcuda_lane_last(T v, int lanes, T *slots) {
#ifdef RTCUDA_EMU
  slots[threadIdx.x] = v;
  __syncthreads();
  v = slots[threadIdx.x - threadIdx.x % lanes + lanes - 1];
  __syncthreads();
  return v;
#else
  (void)slots;
  return __shfl_sync(rtcuda_warp_mask(), v, lanes - 1, lanes);
#endif
}
// clang-format on
)";

// RegisterTiling's 128-bit loads from global memory (lib/Transforms/RegisterTilingStaging.cpp).
// Both take the element by reference, so that they see its address; an rvalue (a value, not an
// element of an array) does not compile rather than testing a temporary's address.
const char *kVectorHelpers = R"(
// 128-bit loads of 4 consecutive floats, where the kernel checked that they are aligned.
// clang-format off
static __device__ __forceinline__ int rtcuda_aligned16(const float &first) {
  return (int)(((unsigned long long)&first & 15ull) == 0ull);
}
static __device__ __forceinline__ void rtcuda_load4(float *to, const float &first) {
#ifdef __CUDA_ARCH__
  float4 v = *(const float4 *)&first;
  to[0] = v.x; to[1] = v.y; to[2] = v.z; to[3] = v.w;
#else
  for (int e = 0; e < 4; e++) to[e] = (&first)[e];
#endif
}
// 4 consecutive floats (a thread's registers) into an aligned run of shared memory, 128-bit.
static __device__ __forceinline__ void rtcuda_store4(float *to, const float &first) {
#ifdef __CUDA_ARCH__
  *(float4 *)to = make_float4((&first)[0], (&first)[1], (&first)[2], (&first)[3]);
#else
  for (int e = 0; e < 4; e++) to[e] = (&first)[e];
#endif
}
int rtcuda_aligned16(const float &&) = delete;
void rtcuda_load4(float *, const float &&) = delete;
void rtcuda_store4(float *, const float &&) = delete;
// clang-format on
)";

// HaloTile's asynchronous copies from global to shared memory (lib/Transforms/HaloTileSlide.cpp):
// cp.async where the device has it (sm_80 on), else, and in the CPU emulation, a plain copy,
// which the same waits and barriers order. The source is taken by reference so that its address
// is the element's; an rvalue does not compile. The anchor (a word of shared memory) gives the
// commit and the wait a place in the IR; they do not touch it.
const char *kAsyncHelpers = R"(
// Asynchronous copies into shared memory: copy, commit a group, wait until `pending` groups remain.
// clang-format off
template <class T> static __device__ __forceinline__ void rtcuda_copy_async(T *to, const T &from) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if (sizeof(T) == 4 || sizeof(T) == 8) {
    unsigned s = (unsigned)__cvta_generic_to_shared(to);
    if (sizeof(T) == 4) asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" :: "r"(s), "l"(&from) : "memory");
    else asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" :: "r"(s), "l"(&from) : "memory");
    return;
  }
#endif
  *to = from;
}
template <class T> void rtcuda_copy_async(T *, const T &&) = delete;
static __device__ __forceinline__ void rtcuda_async_commit(int *, int) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
static __device__ __forceinline__ void rtcuda_async_wait(int *, int pending) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if (pending <= 0) asm volatile("cp.async.wait_group 0;\n" ::: "memory");
  else if (pending == 1) asm volatile("cp.async.wait_group 1;\n" ::: "memory");
  else if (pending == 2) asm volatile("cp.async.wait_group 2;\n" ::: "memory");
  else asm volatile("cp.async.wait_group 3;\n" ::: "memory");
#else
  (void)pending;
#endif
}
// clang-format on
)";

// HaloTile's rows copied by the bulk-copy engine (lib/Transforms/HaloTileSlide.cpp, BULK).
const char *kBulkHelpers = R"(
// clang-format off
// Rows copied by the Hopper bulk-copy engine (sm_90), completing on an mbarrier in shared memory
// (lib/Transforms/HaloTileSlide.cpp, BULK): rtcuda_bulk_engine(), whether the device has the
// engine (1 in the CPU emulation, which copies plainly); rtcuda_bulk_init(bars, arrivals) by one
// thread (4 barriers); rtcuda_copy_row(&bar, rtcuda_row(to, shift, from, count, first, last))
// copies elements from .. from + count - 1 to `to` + shift, where shift places `from` at its
// 16-byte offset: the copy runs from the 16 bytes holding `from` to the 16 bytes after the row,
// within first .. last (the first and last elements the nest reads; elements past a 16-byte
// boundary there by plain copies), and arrives on the barrier once; rtcuda_bulk_wait(&bar,
// parity) until that phase of the barrier has completed. The kernel's barriers order the
// copies in the CPU emulation.
template <class T> struct rtcuda_row_copy { T *to; int *shift; const T *from; int count; const T *first, *last; };
template <class T> static __device__ __forceinline__ rtcuda_row_copy<T> rtcuda_row(T &to, int &shift, const T &from, int count,
                                                                              const T &first, const T &last) {
  return rtcuda_row_copy<T>{&to, &shift, &from, count, &first, &last};
}
template <class T> rtcuda_row_copy<T> rtcuda_row(T &, int &, const T &&, int, const T &, const T &) = delete;
static __device__ __forceinline__ int rtcuda_bulk_engine() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  return 0;
#else
  return 1;
#endif
}
static __device__ __forceinline__ void rtcuda_bulk_init(unsigned long long *bars, int arrivals) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  for (int b = 0; b < 4; b++)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(bars + b)), "r"(arrivals) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#else
  (void)bars; (void)arrivals;
#endif
}
template <class T> static __device__ __forceinline__ void rtcuda_copy_row(unsigned long long *bar, rtcuda_row_copy<T> r) {
  const int shift = (int)(((unsigned long long)r.from & 15ull) / sizeof(T));
  const T *end = r.last + 1 < r.from + r.count ? r.last + 1 : r.from + r.count;
  *r.shift = shift;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const T *from16 = r.from - shift, *end16 = (const T *)(((unsigned long long)end + 15ull) & ~15ull);
  if (from16 < r.first) {  // the array's first row, where the array starts inside 16 bytes
    from16 = (const T *)(((unsigned long long)r.first + 15ull) & ~15ull);
    for (const T *t = r.from; t < end && t < from16; t++) r.to[shift + (t - r.from)] = *t;
  }
  if (end16 > r.last + 1) {  // the array's last row, where it ends inside 16 bytes
    end16 = (const T *)((unsigned long long)(r.last + 1) & ~15ull);
    for (const T *t = end16 > r.from ? end16 : r.from; t < end; t++) r.to[shift + (t - r.from)] = *t;
  }
  const unsigned bytes = end16 > from16 ? (unsigned)((end16 - from16) * sizeof(T)) : 0u;
  const unsigned b = (unsigned)__cvta_generic_to_shared(bar);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(b), "r"(bytes) : "memory");
  if (bytes)
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"((unsigned)__cvta_generic_to_shared(r.to + (from16 - (r.from - shift)))), "l"(from16), "r"(bytes), "r"(b)
                 : "memory");
#else
  (void)bar;
  for (const T *t = r.from; t < end; t++) r.to[shift + (t - r.from)] = *t;
#endif
}
static __device__ __forceinline__ void rtcuda_bulk_wait(unsigned long long *bar, unsigned parity) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const unsigned b = (unsigned)__cvta_generic_to_shared(bar);
  unsigned done = 0;
  while (!done)
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done) : "r"(b), "r"(parity) : "memory");
#else
  (void)bar; (void)parity;
#endif
}
// clang-format on
)";

// Whether a store of `k` (its body, and its finish) calls a helper whose name `named` accepts.
bool storesWith(const ir::Kernel &k, const std::function<bool(const std::string &)> &named) {
  bool found = false;
  for (const ir::Stmt &s : {k.body, k.finish})
    ir::visitStmt(s, [&](const ir::Stmt &n) { found |= n->kind == ir::StmtKind::Store && named(n->op); });
  return found;
}

bool usesAsyncHelpers(const ir::Kernel &k) {
  return storesWith(k, [](const std::string &op) { return op == "rtcuda_copy_async"; });
}

bool usesBulkHelpers(const ir::Kernel &k) {
  return storesWith(k, [](const std::string &op) { return op == "rtcuda_copy_row"; });
}

// Whether the kernel calls one of `names`.
bool callsAny(const ir::Kernel &k, const std::set<std::string> &names) {
  bool found = false;
  ir::visitStmt(k.body, nullptr, [&](const ir::Expr &e) {
    ir::visitExpr(e, [&](const ir::Expr &n) { found |= n->kind == ir::ExprKind::Call && names.count(n->name); });
  });
  return found;
}

bool usesLaneHelpers(const ir::Kernel &k) {
  return callsAny(k, {"rtcuda_lane_sum", "rtcuda_lane_max", "rtcuda_lane_min"});
}

bool usesScanHelpers(const ir::Kernel &k) { return callsAny(k, {"rtcuda_lane_scan", "rtcuda_lane_last"}); }

bool usesVectorHelpers(const ir::Kernel &k) {
  return storesWith(k, [](const std::string &op) { return op == "rtcuda_load4" || op == "rtcuda_store4"; });
}

bool usesAtomicHelpers(const ir::Kernel &k) {
  return storesWith(k, [](const std::string &op) { return op.rfind("rtcuda_atomic_", 0) == 0; });
}

// `// text` in lines of at most 100 columns, continued lines indented.
std::string wrapComment(const std::string &text) {
  std::string out, line = "//";
  std::istringstream words(text);
  for (std::string w; words >> w;) {
    if (line.size() + 1 + w.size() > 100 && line != "//" && line != "//  ") {
      out += line + "\n";
      line = "//  ";
    }
    line += " " + w;
  }
  return out + line + "\n";
}

}  // namespace

std::string kernelFile(const std::vector<LoweredKernel> &kernels) {
  std::ostringstream out;
  out << "// Generated by rtcuda from the kernel functions of the input program.\n"
      << "// Each kernel's tuning parameters are in its own <kernel>_params.h.\n"
      << "#pragma once\n#include <math.h>\n"
      << "// Shared arrays sized by tuning macros (rtcuda verify sizes them at run time).\n"
      << "#ifndef RTCUDA_SHARED_ARRAY\n"
      << "#define RTCUDA_SHARED_ARRAY(type, name, size) __shared__ __align__(16) type name[size]\n"
      << "#endif\n";
  for (const LoweredKernel &lk : kernels) out << "#include \"" << paramsHeaderName(lk.kernel) << "\"\n";
  if (std::any_of(kernels.begin(), kernels.end(),
                  [](const LoweredKernel &lk) { return usesAtomicHelpers(lk.kernel); }))
    out << kAtomicHelpers;
  if (std::any_of(kernels.begin(), kernels.end(),
                  [](const LoweredKernel &lk) { return !lk.kernel.deviceArrays.empty(); }))
    out << kSplitHelpers;
  if (std::any_of(kernels.begin(), kernels.end(),
                  [](const LoweredKernel &lk) { return usesLaneHelpers(lk.kernel); }))
    out << kLaneHelpers;
  if (std::any_of(kernels.begin(), kernels.end(),
                  [](const LoweredKernel &lk) { return usesScanHelpers(lk.kernel); }))
    out << kScanHelpers;
  if (std::any_of(kernels.begin(), kernels.end(),
                  [](const LoweredKernel &lk) { return usesVectorHelpers(lk.kernel); }))
    out << kVectorHelpers;
  if (std::any_of(kernels.begin(), kernels.end(),
                  [](const LoweredKernel &lk) { return usesAsyncHelpers(lk.kernel); }))
    out << kAsyncHelpers;
  if (std::any_of(kernels.begin(), kernels.end(),
                  [](const LoweredKernel &lk) { return usesBulkHelpers(lk.kernel); }))
    out << kBulkHelpers;
  for (const LoweredKernel &lk : kernels) {
    const IndexWidth width = indexWidth(lk);
    const ir::Kernel k = nameDerivedSizes(
        unsplitKernel(width == IndexWidth::Only64 ? lk.kernel : narrowIndexKernel(lk.kernel)));
    out << "\n// Kernel '" << k.name << "' from " << k.loc.str() << ".\n// Passes:";
    for (const std::string &p : k.passes) out << " " << p;
    out << "\n";
    for (const std::string &r : k.remarks) out << wrapComment("Note: " + r);
    // A kernel of its own after k (its _finish): k's parameters.
    auto companion = [&](const std::string &suffix, const ir::Stmt &body) {
      ir::Kernel f = k;
      f.name = k.name + suffix;
      f.body = body;
      f.finish = nullptr;
      return ir::printKernel(f, ir::PrintMode::Cuda);
    };
    for (const ir::DeviceArray &a : k.deviceArrays)
      out << "__device__ " << a.type.cName() << " " << a.name << "[" << a.elements << "];\n";
    out << ir::printKernel(k, ir::PrintMode::Cuda);
    if (width == IndexWidth::Both) {
      const ir::Kernel wide = nameDerivedSizes(unsplitKernel(wideIndexKernel(lk.kernel)));
      // Three short lines: kernel.cu keeps to 100 columns (test/e2e/kernel_layout.sh).
      out << "\n// Kernel '" << wide.name << "': 64-bit index arithmetic, launched instead of\n// '"
          << k.name << "' where the problem's counts pass 2^31 - 1\n// ("
          << k.macro("WIDE_INDEX") << " in " << paramsHeaderName(k) << ").\n"
          << "#ifndef RTCUDA_TUNE_NO_ALTERNATIVES\n"
          << ir::printKernel(wide, ir::PrintMode::Cuda) << "#endif\n";
    }
    for (size_t i = 0; i < lk.kernel.alternatives.size(); ++i) {
      const ir::Kernel sg = nameDerivedSizes(alternativeKernel(lk.kernel, i));
      // rtcuda-tune compiles most variants for their resources alone, without these.
      out << "\n// Kernel '" << sg.name << "': '" << k.name << "' at the point " << sg.macroPrefix
          << "_* (" << paramsHeaderName(k) << "),\n// launched instead of it by the rule of "
          << k.macro("SMALL_GRID") << " there.\n#ifndef RTCUDA_TUNE_NO_ALTERNATIVES\n"
          << ir::printKernel(sg, ir::PrintMode::Cuda) << "#endif\n";
    }
    if (k.finish)
      out << "\n// Kernel '" << k.name << "_finish': the statements after the loop nest of '"
          << k.name << "',\n// run once, by one thread, after every block of '" << k.name << "'.\n"
          << companion("_finish", k.finish);
  }
  return out.str();
}

}  // namespace rtcuda
