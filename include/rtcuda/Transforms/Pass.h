// A kernel pass: one transformation of the kernel IR, in a file named after it.
#pragma once

#include "rtcuda/Config/Options.h"
#include "rtcuda/IR/IR.h"
#include "rtcuda/Support/Diagnostics.h"

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace rtcuda {

// What the host program's calls of a kernel tell about its array arguments.
struct CallSites {
  bool known = false;               // a host program was analyzed
  int calls = 0;                    // calls of the kernel found in it
  std::set<std::string> mayAlias;   // array parameters that may share memory with another one
  // Calls whose arguments for two array parameters may overlap (the same variable, pointer
  // arithmetic, anything but two different variables), and where the kernel is used other
  // than by a direct call (a function pointer, its address taken).
  struct Overlap {
    std::string first, second;  // the parameters
    ir::SourceLoc call;
    std::string args;           // "'a' and 'a + 1'"
    bool same = false;          // one plain variable for both: the very same array
  };
  std::vector<Overlap> overlaps;
  std::vector<ir::SourceLoc> indirectUses;
};

// Refuses (CompileError at the call) a kernel whose calls pass overlapping arrays to two
// parameters, one of them written, neither restrict: the launch copies each parameter to the
// GPU separately, so what one writes is not what the other reads as in C. Also refuses a
// kernel used through a function pointer. docs/legality.md.
void checkCallAliasing(const ir::Kernel &k, const CallSites &sites);

struct PassContext {
  const KernelOptions &options;
  Diagnostics &diags;
  const CallSites *callSites = nullptr;
};

// A pass returns the transformed kernel, or the same kernel when it does not apply. It throws
// CompileError for input it cannot handle correctly.
using PassFunction = ir::Kernel (*)(const ir::Kernel &, const PassContext &);

struct Pass {
  const char *name;
  const char *summary;
  PassFunction run;
};

ir::Kernel blockMerge(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel blockSkew(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel registerTiling(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel laneReduction(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel laneScan(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel reductionSplit(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel redundantLoadElim(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel loopCollapse(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel arrayFlatten(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel loopPartition(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel elementwiseItems(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel sharedPrefetch(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel readOnlyCache(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel atomicUpdates(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel parallelReduction(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel accumulatorPromotion(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel sharedHistogram(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel tiledTranspose(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel neighbourReuse(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel haloTile(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel batchBlocks(const ir::Kernel &k, const PassContext &ctx);  // BatchSlices.cpp

// Before ParallelLoops, on loops as written (lowerKernel keeps their result only where it
// gives the nest more parallel loops). Each appends a remark per loop it changes or declines.
// `triangular`: also loops whose inner bounds use the outer variable with slope 1.
ir::Kernel interchangeLoops(const ir::Kernel &k, bool triangular = false);  // Interchange.cpp
ir::Kernel fuseLoops(const ir::Kernel &k);         // Fusion.cpp
ir::Kernel boundingBox(const ir::Kernel &k);       // BoundingBox.cpp
ir::Kernel batchCollapse(const ir::Kernel &k);     // BatchCollapse.cpp, after ParallelLoops
// The nest of one slice of a batch (its outer parallel loop taken out), or `k` where the loop is
// no batch; lowerKernel keeps it where the passes tile the slice. BatchSlices.cpp.
ir::Kernel batchSlices(const ir::Kernel &k);
ir::Kernel loopOrder(const ir::Kernel &k, const KernelOptions &o);  // LoopOrder.cpp, after ParallelLoops

// Helpers shared by passes.
// The outer parallel loops of the kernel's nest, outermost first.
std::vector<ir::Stmt> parallelLoops(const ir::Kernel &k);
// The value of `values` closest to `wanted` (the first of equally close ones).
int closestValue(const std::vector<int> &values, int wanted);
// The statements of a block, or the statement itself; empty for null.
std::vector<ir::Stmt> statementsOf(const ir::Stmt &s);
// Why the iterations of a loop with body `body` may not be reordered by Interchange or Fusion
// beyond what array dependences say: a scalar it assigns but does not declare (its value flows
// between iterations), a break or continue of the loop, an array read in the bounds of
// `loop`. Empty when there is none.
std::string reorderBlocker(const ir::Stmt &loop);
// How far an index moves when `v` grows by one: a constant, or nullopt when the step depends on
// the problem size (a row apart) or is not affine.
std::optional<int64_t> stride(const ir::Expr &index, const std::string &v);
// Whether `e` reads any array element.
bool hasLoad(const ir::Expr &e);
// Every array access of `s` (null: none), stores and loads, in visitStmt's order: the array and
// its subscripts.
void visitAccesses(const ir::Stmt &s,
                   const std::function<void(const std::string &, const std::vector<ir::Expr> &)> &f);
// Whether `loop` runs from 0 in steps of 1.
bool countsFromZero(const ir::Stmt &loop);
// Whether any statement of `s` (null: none) stores to `array`.
bool storesTo(const ir::Stmt &s, const std::string &array);
// Whether `e` is the variable `name`.
bool isVar(const ir::Expr &e, const std::string &name);
// The one-thread-per-iteration mapping LoopPartition writes at the top of a kernel body:
// the index of `int i = ... threadIdx.x ...;` directly followed by `if (i < end) { ... }`, or
// the number of statements when there is none.
size_t threadGuardIndex(const ir::Kernel &k);
// The 64-bit type for index arithmetic derived from a loop of type `t`: `t` itself when it is
// 64-bit already, else long long.
ir::Type wideIndexType(const ir::Type &t);
// `e` with the kernel's integer scalar parameters cast to `wide`, so that its arithmetic is
// 64-bit from the first operation on (extents that round up past 2^31 - 1).
ir::Expr widenParams(const ir::Expr &e, const ir::Kernel &k, const ir::Type &wide);
// LoopPartition's one-dimensional mapping (`mapping`: the index and its guarded body, from
// threadGuardIndex on) with blockIdx.x replaced by `block`, for a loop over blocks of iterations.
std::vector<ir::Stmt> withBlockIndex(const std::vector<ir::Stmt> &mapping, const ir::Expr &block);
// An update of one array element by an addend: `X[e] += v`, `X[e] = X[e] + v`, `X[e] = v + X[e]`
// (subtract false), `X[e] -= v`, `X[e] = X[e] - v` (subtract true); nullopt for any other statement.
struct ElementUpdate {
  ir::Expr addend;
  bool subtract = false;
};
std::optional<ElementUpdate> elementUpdate(const ir::Stmt &s);
// The kernel's integer scalar parameters that its body and finish never assign or redeclare.
std::set<std::string> unassignedIntegerParams(const ir::Kernel &k);
// Whether `e` is made of the variables `names` and constants only (no loads, no calls).
bool madeOf(const ir::Expr &e, const std::set<std::string> &names);
// The one statement of the kernel body besides comments (the nest), or null.
ir::Stmt soleStatement(const ir::Kernel &k);
// A CUDA built-in index such as threadIdx.x or blockIdx.x (unsigned).
ir::Expr gpuBuiltin(const std::string &name);
// Returns a name not used by any variable, parameter or loop of the kernel.
std::string freshName(const ir::Kernel &k, const std::string &base);
// The comment LoopCollapse puts before the declarations that recover the loop indices.
extern const char *const kRecoveryComment;
// The atomic update of an element with a reduction operator ("+", "min", ...): atomicAdd, or a
// compare-and-swap helper (rtcuda_atomic_max, ...) that kernel.cu defines.
std::string atomicFunction(const std::string &op, const ir::Type &t);

}  // namespace rtcuda
