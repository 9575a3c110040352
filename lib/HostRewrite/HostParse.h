// main.c parsed as the host rewriter sees it: after a prelude with the standard headers, the
// RT-API and the kernels' prototypes (HostRewriter.cpp).
#pragma once

#include "rtcuda/Config/Options.h"
#include "rtcuda/Frontend/Frontend.h"
#include "rtcuda/Support/Diagnostics.h"

#include <clang/Frontend/ASTUnit.h>

#include <memory>
#include <string>

namespace rtcuda {

// Null (errors reported unless `quiet`) when main.c cannot be read or parsed; `text` receives
// its contents.
std::unique_ptr<clang::ASTUnit> parseMain(const Options &options, const ParsedProgram &program,
                                          Diagnostics &diags, std::string &text, bool quiet);

}  // namespace rtcuda
