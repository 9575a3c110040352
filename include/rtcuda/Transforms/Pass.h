// A kernel pass: one transformation of the kernel IR, in a file named after it.
#pragma once

#include "rtcuda/Config/Options.h"
#include "rtcuda/IR/IR.h"
#include "rtcuda/Support/Diagnostics.h"

#include <string>
#include <vector>

namespace rtcuda {

struct PassContext {
  const KernelOptions &options;
  Diagnostics &diags;
};

// A pass returns the transformed kernel, or the same kernel when it does not apply. It throws
// CompileError for input it cannot handle correctly.
using PassFunction = ir::Kernel (*)(const ir::Kernel &, const PassContext &);

struct Pass {
  const char *name;
  const char *summary;
  PassFunction run;
};

ir::Kernel loopCollapse(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel arrayFlatten(const ir::Kernel &k, const PassContext &ctx);
ir::Kernel loopPartition(const ir::Kernel &k, const PassContext &ctx);

// Helpers shared by passes.
// Returns a name not used by any variable, parameter or loop of the kernel.
std::string freshName(const ir::Kernel &k, const std::string &base);

}  // namespace rtcuda
