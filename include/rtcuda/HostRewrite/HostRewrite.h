// The host program: main.c read with Clang, rewritten into main.cu (launches instead of calls,
// arrays kept on the GPU across resident loops), and what its calls say about aliasing. The one
// part of code generation that needs Clang (docs/architecture.md, layering).
#pragma once

#include "rtcuda/CodeGen/CodeGen.h"
#include "rtcuda/Config/Options.h"
#include "rtcuda/IR/Program.h"
#include "rtcuda/Support/Diagnostics.h"
#include "rtcuda/Transforms/Pass.h"
#include "rtcuda/Transforms/Pipeline.h"

#include <map>
#include <string>
#include <vector>

namespace rtcuda {

// What each kernel's calls in main.c say about aliasing of its array arguments (an argument
// that is not a plain variable may alias anything). Empty when there is no main file.
std::map<std::string, CallSites> analyzeCallSites(const Options &options,
                                                  const ParsedProgram &program,
                                                  Diagnostics &diags);

// main.c → main.cu, with Clang's Rewriter. Returns false (diagnostics reported) on failure.
bool rewriteHost(const Options &options, const ParsedProgram &program,
                 const std::vector<LoweredKernel> &kernels, Diagnostics &diags,
                 std::string &mainCu);

// Where main.c calls each kernel and which of its loops keep their arrays on the GPU
// (resident loops), for rtcuda explain. Empty when there is no main file or it does not parse.
HostSummary hostSummary(const Options &options, const ParsedProgram &program, Diagnostics &diags);

}  // namespace rtcuda
