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
  std::string acc;             // the thread's scalar it only adds into, declared before it
  LaneMapping mapping = LaneMapping::None;  // chosen from the loop's loads
};

// The reduction loop of `k` (no reductions across threads, no atomics), or nullopt.
std::optional<LaneLoop> findLaneLoop(const ir::Kernel &k);

}  // namespace rtcuda
