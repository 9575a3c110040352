// ElementReduction (lib/Transforms/ElementReduction.cpp, docs/passes/ElementReduction.md): a
// nest whose iterations all add into one array element (`*out += x[i] * x[i]`) sums in a scalar
// declared before it, added to the element once after it, so that the legality analysis finds
// a scalar reduction instead of an atomic update per iteration. A step of outlineProgram.
#pragma once

#include "rtcuda/IR/IR.h"

#include <string>
#include <utility>
#include <vector>

namespace rtcuda {

struct ElementReductionResult {
  ir::Kernel kernel;  // the function, its element updates summed in scalars (or the same)
  std::vector<std::pair<ir::SourceLoc, std::string>> remarks;
};

ElementReductionResult elementReduction(const ir::Kernel &fn);

}  // namespace rtcuda
