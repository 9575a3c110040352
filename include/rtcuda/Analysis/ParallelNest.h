// Finds the loops of a kernel that are mapped onto the GPU: the outer perfectly nested loops of
// its one loop nest. Marks them LoopKind::Parallel and checks what the mapping needs: bounds
// over scalar parameters only, no scalar carrying a value between iterations. Problems are
// CompileErrors at the user's line.
#pragma once

#include "rtcuda/Config/Options.h"
#include "rtcuda/IR/IR.h"
#include "rtcuda/Support/Diagnostics.h"

namespace rtcuda {

// Returns the kernel with its parallel loops marked; throws CompileError.
ir::Kernel markParallelLoops(const ir::Kernel &k, const KernelOptions &options,
                             Diagnostics &diags);

}  // namespace rtcuda
