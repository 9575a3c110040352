// Prints kernel IR as readable C/CUDA: minimal parentheses, two-space indentation.
#pragma once

#include "rtcuda/IR/IR.h"

#include <string>

namespace rtcuda::ir {

enum class PrintMode {
  Dump,  // --print-after: loops annotated with their kind, parameters with their extents
  Cuda,  // the text written to kernel.cu
  C,     // plain sequential C
};

std::string print(const Expr &e);
std::string print(const Stmt &s, PrintMode mode = PrintMode::Dump, int indent = 0);
std::string printKernel(const Kernel &k, PrintMode mode = PrintMode::Dump);
std::string printSignature(const Kernel &k, PrintMode mode);

}  // namespace rtcuda::ir
