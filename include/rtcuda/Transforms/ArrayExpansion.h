// ArrayExpansion of a kernel function's private arrays, before Fission and Outline: an array
// private to each iteration of a chain of loops, written by a loop nest and read after it,
// becomes a device array with a slice per iteration, and the loops are distributed so that its
// writers and its readers are separate nests (docs/passes/ArrayExpansion.md). The temporary is a
// function-level array Decl whose `indices` hold its dimensions (more than one); LocalArrays'
// localArrayTemporary and the dependence analysis read them.
#pragma once

#include "rtcuda/IR/IR.h"

#include <string>
#include <utility>
#include <vector>

namespace rtcuda {

struct ExpansionResult {
  ir::Kernel kernel;  // the function (the same when nothing was expanded)
  std::vector<std::pair<ir::SourceLoc, std::string>> remarks;
};

ExpansionResult expandArrays(const ir::Kernel &fn);

}  // namespace rtcuda
