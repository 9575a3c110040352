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

// Whether the pipeline verifies the IR after each step unless told otherwise: in debug builds,
// and wherever the environment sets RTCUDA_VERIFY_IR (to anything but 0; the lit tests do).
bool verifyIRByDefault();

struct DumpOptions {
  std::set<std::string> after;  // pass names given to --print-after
  bool all = false;             // --print-after-all
  std::ostream *out = nullptr;
  // --stop-after: the step after which lowering ends (the IR is printed then, as with
  // --print-after); empty: run every step.
  std::string stopAfter;
  // Run the IR verifier (rtcuda/IR/Verifier.h) after every step; a broken invariant is a
  // CompileError that names the step.
  bool verify = verifyIRByDefault();
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

// Runs one pass on `k`, then the verifier (dump.verify), then prints or observes the result as
// `dump` asks. Throws CompileError: the pass's own, or the verifier's naming the pass.
ir::Kernel runPass(const Pass &pass, const ir::Kernel &k, const PassContext &ctx,
                   const DumpOptions &dump);

// Throws CompileError when `k`, as `step` left it, breaks an invariant of the IR verifier.
void verifyAfterStep(const std::string &step, const ir::Kernel &k);

// Lowers one kernel (up to dump.stopAfter, when set); throws CompileError.
// `callSites` (may be null) tells what the host program's calls reveal about aliasing.
LoweredKernel lowerKernel(const KernelSource &source, Diagnostics &diags, const DumpOptions &dump,
                          const CallSites *callSites = nullptr);

}  // namespace rtcuda
