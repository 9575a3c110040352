// Fission (loop distribution) of a kernel function's loops, before Outline: a loop whose
// statements have different parallel structure becomes one loop per structure, when the
// dependence analysis proves it legal and some new loop is more parallel or needs no atomics
// (docs/passes/Fission.md).
#pragma once

#include "rtcuda/IR/IR.h"

#include <string>
#include <utility>
#include <vector>

namespace rtcuda {

struct FissionResult {
  ir::Kernel kernel;  // the function, its loops distributed (the same when none was)
  std::vector<std::pair<ir::SourceLoc, std::string>> remarks;
};

FissionResult distributeLoops(const ir::Kernel &fn);

}  // namespace rtcuda
