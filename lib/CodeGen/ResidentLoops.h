// Resident loops: host loops of main.c whose arrays can stay on the GPU from their first kernel
// launch to the loop's end (docs/translate.md, "Arrays across host loops").
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>

#include <set>
#include <string>
#include <vector>

namespace rtcuda {

// The outermost loops of the main file that launch a kernel and otherwise leave array contents
// alone: no element access or dereference, no call other than kernels and a few scalar library
// functions, no return or goto, and every array a kernel gets is a variable.
std::vector<const clang::Stmt *> findResidentLoops(clang::ASTContext &ctx,
                                                   const std::set<std::string> &kernels);

} // namespace rtcuda
