// Resident loops: host loops of main.c whose arrays can stay on the GPU from their first kernel
// launch to the loop's end (docs/translate.md, "Arrays across host loops").
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>

#include <set>
#include <string>
#include <vector>

namespace rtcuda {

struct ResidentLoop {
  const clang::Stmt *loop;
  // Where each RT-API call of the loop names its function (RTdSDOT, or the macro RTspSMV), to
  // be renamed rtcuda_resident_<name> (rtcuda_rtapi.h).
  std::vector<clang::SourceLocation> rtapiCalls;
};

// The outermost loops of the main file that launch a kernel or call the RT-API and otherwise
// leave array contents alone: no element access or dereference, no call other than kernels, the
// RT-API's computing calls and a few scalar library functions, no return or goto, every array
// argument a variable.
std::vector<ResidentLoop> findResidentLoops(clang::ASTContext &ctx,
                                            const std::set<std::string> &kernels);

} // namespace rtcuda
