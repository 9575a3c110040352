// The frontend: C sources (standard C99 or RT-CUDA's legacy dialect) → kernel IR, with Clang.
#pragma once

#include "rtcuda/Config/Options.h"
#include "rtcuda/IR/Program.h"
#include "rtcuda/Support/Diagnostics.h"

#include <map>
#include <string>
#include <vector>

namespace rtcuda {

// Where Clang's builtin headers are; set once by the driver.
void setClangResourceDir(const std::string &dir);
const std::string &clangResourceDir();
// The path users see for a file: relative to the working folder when below it.
std::string displayPath(const std::string &path);

// The user's Clang arguments for parsing `file`: its compile_commands.json entry's -I, -D, -U,
// -include and -std flags (Options::compileCommandsDir), then Options::clangArgs.
std::vector<std::string> userClangArgs(const Options &options, const std::string &file);
// Loads the compile_commands.json of `dir`; false with a message if it cannot.
bool checkCompileCommands(const std::string &dir, std::string &error);

// Adds the headers the main file (when it is not a kernel file) and the extra sources read
// from the user's folders to `headers`, as parseKernels does for the kernel files
// (SingleSource.cpp).
void addProgramHeaders(const Options &options, std::map<std::string, std::string> &headers,
                       Diagnostics &diags);

// Parses every kernel file of `options`. Reports problems through `diags`; returns false if any.
bool parseKernels(const Options &options, Diagnostics &diags, ParsedProgram &out);

// Legacy dialect: rewrites two subscripts on 1-D pointer parameters (C[i][j] on float *C)
// into standard C with a pointer-to-row view whose row width is the kernel's row_dim.
// Lines are kept, so diagnostics still point at the user's text. `shadowed` receives, per
// kernel, the parameters that were given a view.
struct LegacyView {
  std::string kernel, param, flatName, rowDim;
};
bool normalizeLegacyDialect(const std::string &text, const std::string &displayName,
                            const Options &options, Diagnostics &diags, std::string &out,
                            std::vector<LegacyView> &views);

// `#pragma rtcuda <directive> [args]` lines of a source text: line number → directive text.
std::vector<std::pair<unsigned, std::string>> findRtcudaPragmas(const std::string &text);

}  // namespace rtcuda
