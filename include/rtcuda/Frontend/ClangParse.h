// Internal: parse C text with Clang into an ASTUnit.
#pragma once

#include <clang/Frontend/ASTUnit.h>

#include <memory>
#include <string>
#include <vector>

namespace rtcuda {

// Parses `code` as C (gnu11) under the name `fileName`. Clang prints its own diagnostics
// (file:line:col: error: ...) unless `quiet`. `hadErrors` tells whether any error occurred.
std::unique_ptr<clang::ASTUnit> parseC(const std::string &code, const std::string &fileName,
                                       bool quiet, bool &hadErrors,
                                       const std::vector<std::string> &extraArgs = {},
                                       const std::vector<std::pair<std::string, std::string>>
                                           &virtualFiles = {});

}  // namespace rtcuda
