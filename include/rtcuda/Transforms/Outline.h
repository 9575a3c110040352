// Outlining: a kernel function that is more than one parallel loop nest (a sequence of nests,
// scalar code between them, parallel nests inside sequential time or pivot loops) becomes a
// host function that launches several kernels (docs/passes/Outline.md).
#pragma once

#include "rtcuda/IR/Program.h"
#include "rtcuda/Support/Diagnostics.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rtcuda {

// The user's function after outlining. `host` is what runs on the CPU: serial loops, ifs,
// scalar declarations and assignments, and launch points -- Comment statements whose `name` is
// the kernel launched and whose `text` is "launch". A kernel's parameters are named after what
// the host passes: a function array A (its device copy), a host scalar (its value),
// rtcuda_in_<v> (the value of scalar v) or rtcuda_cell_<v> (the one-element device buffer the
// kernel leaves v's new value in, copied back into v after the launch).
struct OutlinedFunction {
  ir::Kernel function;                 // the function as written (name, parameters, body)
  ir::Stmt host;
  std::vector<std::string> kernels;    // its kernels, in launch order
  std::vector<ir::Param> cells;        // scalars that device kernels compute
  std::vector<ir::Param> temporaries;  // local arrays outside the parallel loops: device arrays
                                       // of the call (LocalArrays), sized by their declaration
  KernelOptions options;
  std::vector<std::string> singleThread;  // kernels of statements that run in one thread
  // on_dependence: host and no loop could run in parallel: `host` is the whole body, arrays
  // flattened, run on the host's own arrays; `warnings` say why, loop by loop.
  bool hostOnly = false;
  std::vector<std::pair<ir::SourceLoc, std::string>> warnings;
};

std::string outlineCellName(const std::string &scalar);
std::string outlineInName(const std::string &scalar);

// Whether `source` is outlined, and into what: nullopt when it is one parallel nest that
// lowerKernel handles as it always did (or must refuse: then the original refusal is thrown).
// Otherwise the outlined function, and its kernels appended to `kernels` (each lowered by
// lowerKernel like any other). Throws CompileError with the reason when neither works.
std::optional<OutlinedFunction> outlineFunction(const KernelSource &source,
                                                std::vector<KernelSource> &kernels);

// Every kernel function of a program: the ones lowerKernel takes as they are, and the outlined
// functions with their kernels. Problems are reported through `diags`.
struct OutlinedProgram {
  std::vector<KernelSource> sources;             // what lowerKernel lowers, in order
  std::vector<OutlinedFunction> functions;
  std::map<std::string, std::string> parentOf;   // outlined kernel -> its function
  bool singleThread(const std::string &kernel) const;
};
OutlinedProgram outlineProgram(const std::vector<KernelSource> &kernels, Diagnostics &diags);

}  // namespace rtcuda
