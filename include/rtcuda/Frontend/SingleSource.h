// Programs as written (PolyBench's layout): one C file holding main and the kernels, with
// #include lines resolved through the config's include_dirs and defines. docs/config.md.
#pragma once

#include "rtcuda/Config/Options.h"
#include "rtcuda/Support/Diagnostics.h"

#include <clang/AST/Decl.h>
#include <clang/Basic/SourceManager.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace rtcuda {

// The Clang arguments the config's include_dirs and defines give every parse of a source.
std::vector<std::string> sourceArgs(const Options &options);

// Lines holding `#pragma scop`: a function whose body holds one is a kernel.
std::set<unsigned> findScopLines(const std::string &text);

// A header a parse read from the user's folders: the config's include_dirs, or the folder of
// the parsed file (quoted includes).
struct UserHeader {
  std::string path;       // absolute
  std::string relative;   // below the folder it was found in: its place under include/
  unsigned includedAt;    // the line of the main file's #include that read it; 0: nested
};
// `sourcePath` is the parsed file (absolute).
std::vector<UserHeader> userHeaders(const clang::SourceManager &sm, const Options &options,
                                    const std::string &sourcePath);

// Adds the user headers of a parse to `headers` (place under include/ → absolute path);
// two different files for one place are an error.
void addUserHeaders(const clang::SourceManager &sm, const Options &options,
                    const std::string &sourcePath, std::map<std::string, std::string> &headers,
                    Diagnostics &diags);

// The text of a kernel file as verify's reference compiles it next to its own main: `static`
// and `inline` dropped from the kernels (the harness calls them from another file) and a `main`
// renamed rtcuda_program_main. Lines stay where they were.
std::string referenceText(const std::string &text, const clang::SourceManager &sm,
                          const clang::LangOptions &lang,
                          const std::vector<const clang::FunctionDecl *> &kernels,
                          const clang::FunctionDecl *mainFunction);

}  // namespace rtcuda
