// LaunchFusion: adjacent parallel nests of a kernel function at the same host level that do not
// depend on each other become one nest over a box holding both domains, before Outline, so one
// kernel is launched where two were (docs/passes/LaunchFusion.md).
#pragma once

#include "rtcuda/IR/IR.h"
#include "rtcuda/Transforms/Reschedule.h"

#include <string>
#include <utility>
#include <vector>

namespace rtcuda {

struct LaunchFusionResult {
  ir::Kernel kernel;  // the function, nests fused (the same when none was)
  std::vector<std::pair<ir::SourceLoc, std::string>> remarks;
};

// Fuses pairs of adjacent perfect nests of `fn` (at its top level or in the bodies of its loops)
// when isl proves that no instance of one touches an element an instance of the other writes at
// another point, the fused box launches no more threads than the two nests' boxes at extents of
// 64, and `shape` of the result has fewer launches and no more one-thread kernels.
LaunchFusionResult fuseLaunches(const ir::Kernel &fn, const LaunchShapeFn &shape);

}  // namespace rtcuda
