// Delinearize (lib/Transforms/Delinearize.cpp, docs/passes/Delinearize.md): arrays passed as
// flat pointers and indexed a row at a time (A[i * cols + j]) become arrays of rows
// (A[i][j]), so that every analysis and mapping after it sees the nest as if it had been
// written with two- or three-dimensional arrays. The first step of outlineProgram.
#pragma once

#include "rtcuda/IR/IR.h"

#include <string>
#include <utility>
#include <vector>

namespace rtcuda {

struct DelinearizeResult {
  ir::Kernel kernel;  // the function, its flat arrays split into rows (the same when none was)
  std::vector<std::pair<ir::SourceLoc, std::string>> remarks;
};

DelinearizeResult delinearize(const ir::Kernel &fn);

}  // namespace rtcuda
