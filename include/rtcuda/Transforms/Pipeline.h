// The whole lowering of one kernel, as one readable list of passes (see Pipeline.cpp).
#pragma once

#include "rtcuda/Analysis/Footprint.h"
#include "rtcuda/IR/Program.h"
#include "rtcuda/Transforms/Pass.h"

#include <functional>
#include <map>
#include <ostream>
#include <set>

namespace rtcuda {

struct DumpOptions {
  std::set<std::string> after;  // pass names given to --print-after
  bool all = false;             // --print-after-all
  std::ostream *out = nullptr;
  // Called after every step with the step's name, its one-line summary and the kernel as the
  // step left it (rtcuda explain keeps these snapshots to show what each step changed).
  std::function<void(const std::string &step, const std::string &summary, const ir::Kernel &)>
      observe;
};

// A remark with the step that made it and the loop it is about (the kernel's outermost loop
// when the text names none).
struct LocatedRemark {
  std::string pass;
  ir::SourceLoc loc;
  std::string text;
};

struct LoweredKernel {
  ir::Kernel source;    // the kernel as written, parallel loops marked
  ir::Kernel kernel;    // after every pass: what kernel.cu holds
  KernelOptions options;
  std::map<std::string, ArrayFootprint> footprints;
  // Trip count of each parallel loop, outermost first. The host launches only when all are
  // positive: their product alone could be positive with two negative factors.
  std::vector<ir::Expr> parallelExtents;
  std::vector<LocatedRemark> remarks;  // k.kernel.remarks, located and tagged
};

// Names of the steps --print-after accepts, in pipeline order.
std::vector<std::string> pipelineStepNames();

// Lowers one kernel; throws CompileError.
// `callSites` (may be null) tells what the host program's calls reveal about aliasing.
LoweredKernel lowerKernel(const KernelSource &source, Diagnostics &diags, const DumpOptions &dump,
                          const CallSites *callSites = nullptr);

}  // namespace rtcuda
