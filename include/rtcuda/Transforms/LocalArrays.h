// LocalArrays: where each local array of a kernel function lives (docs/passes/LocalArrays.md).
// A local array that each iteration of a loop writes before it reads it moves into that loop:
// private to each iteration, so to each GPU thread when the loop runs in parallel. One that
// stays at the function level is a device temporary the host function allocates for the call
// (outlined functions only).
#pragma once

#include "rtcuda/IR/IR.h"

#include <string>
#include <vector>

namespace rtcuda {

struct LocalArrayPlacement {
  ir::Kernel kernel;                 // declarations moved into the loops that own them
  std::vector<std::string> remarks;  // what moved where, and why the others did not
  bool functionLevel = false;        // some local array stays outside every loop
};
LocalArrayPlacement placeLocalArrays(const ir::Kernel &fn);

// The device temporary for a local array declared at the function level (or in a loop that
// stays on the host): an array parameter of the kernels that use it, sized by its declaration.
// Throws CompileError when its size is not an expression of the function's scalar parameters.
ir::Param localArrayTemporary(const ir::Kernel &fn, const ir::Stmt &decl);

// A variable-length local array inside a loop that runs on the GPU has no per-thread storage
// in CUDA: throws CompileError with the reason when `k` (a kernel to lower) declares one.
void checkKernelLocalArrays(const ir::Kernel &k);

}  // namespace rtcuda
