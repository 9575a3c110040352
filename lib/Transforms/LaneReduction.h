// What LaneReduction matches, shared with ReductionSplit (which splits the same loops across
// blocks first, so that both passes agree on which kernels are column sums).
#pragma once

#include "rtcuda/IR/IR.h"

#include <optional>
#include <string>
#include <vector>

namespace rtcuda {

// Rows: LANES neighbouring threads share a row; Columns: the warps of a block split the rows
// of 32 neighbouring columns; None: one thread per iteration stays.
enum class LaneMapping { None, Rows, Columns };

// A one-thread-per-iteration kernel's reduction loop, as LaneReduction sees it.
struct LaneLoop {
  size_t index = 0;            // `int i = ... threadIdx.x ...;` in the body; its guard follows
  std::vector<ir::Stmt> body;  // the guarded statements
  size_t loop = 0;             // the reduction loop among them (step 1)
  std::string acc;             // the first of accs
  std::vector<std::string> accs;  // the thread's scalars it only adds into, declared before it
  std::vector<std::string> ops;   // each one's operator: "+", or "max" / "min" (fmaxf, max, ...)
  LaneMapping mapping = LaneMapping::None;  // chosen from the loop's loads
  bool stores = false;         // the loop also stores into arrays (independent iterations)
};

// The reduction loop of `k` (no reductions across threads, no atomics), or nullopt.
std::optional<LaneLoop> findLaneLoop(const ir::Kernel &k);

// The iterations of `loop` are independent but for the scalars `sums` it adds into: each stores
// into array elements of its own (subscripts moving with the loop's variable by a constant or by
// a row of the array), loads the arrays it stores only at those elements, and sets no scalar
// declared outside its body.
bool independentIterations(const ir::Kernel &k, const ir::Stmt &loop,
                           const std::vector<std::string> &sums);

// The loop that ends the statements after the reduction loop (`after`, run by lane 0 once the
// lanes' sums are combined), when the lanes may split it instead: its iterations are
// independent (each writes its own elements and reads no element another writes) and touch
// nothing the statements before it in `after` (`pre`, still lane 0's) write, except the stores
// `X[e] = acc` of a sum, whose loads it reads as `acc` (every lane holds the sums by then).
// Returns the loop with those loads replaced, or null (gramschmidt's `A[i][j] -= Q[i][k] *
// R[k][j]` after R[k][j]'s column sum).
ir::Stmt splittableEpilogue(const ir::Kernel &k, const std::vector<ir::Stmt> &after,
                            const std::vector<std::string> &accs);

}  // namespace rtcuda
