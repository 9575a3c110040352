// The IR verifier: structural invariants every kernel satisfies between two passes. The
// pipeline runs it after each step when asked (debug builds, RTCUDA_VERIFY_IR, the lit tests)
// and names the step that broke one (docs/architecture.md, "The IR verifier").
#pragma once

#include "rtcuda/IR/IR.h"

#include <string>
#include <vector>

namespace rtcuda::ir {

struct VerifierProblem {
  SourceLoc loc;        // the offending node's location (may be invalid for built nodes)
  std::string message;  // "variable 'x' is used but not declared"
};

// The invariants, each reported where it fails:
//  - nodes are complete: a For has min, end, a step (not the constant 0) and a body; an If and a
//    While a condition and a body; Assign, Store and Decl a name; an expression has the number
//    of operands its kind takes;
//  - every variable used is a parameter, a device buffer, a declaration or loop variable in
//    scope, a GPU built-in (threadIdx.x, blockIdx.y, ...) or one of the kernel's macros
//    (<macroPrefix>_...); Assign names a scalar, Load and Store an array in scope;
//  - a loop variable is not the variable of an enclosing loop and is not assigned in its loop;
//    no name is declared twice in one scope (a loop body counts as its loop's scope, as in C++);
//    parameter names are distinct;
//  - every access of one array uses the same number of subscripts: its declared rank, or 1
//    once flattened; a local array takes 1;
//  - loop kinds other than Serial appear only on For statements;
//  - Break and Continue appear only inside a loop;
//  - the finish statements see the parameters and the body's top-level declarations, and only
//    the parameters once ParallelReduction (which moves what they need into them) has run.
std::vector<VerifierProblem> verifyKernel(const Kernel &k);

}  // namespace rtcuda::ir
