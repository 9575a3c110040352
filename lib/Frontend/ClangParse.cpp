#include "rtcuda/Frontend/ClangParse.h"

#include "rtcuda/Frontend/Frontend.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Tooling/Tooling.h>

#include <filesystem>

namespace rtcuda {

static std::string &resourceDir() {
  static std::string dir;
  return dir;
}

void setClangResourceDir(const std::string &dir) { resourceDir() = dir; }
const std::string &clangResourceDir() { return resourceDir(); }

std::string displayPath(const std::string &path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path rel = fs::relative(path, fs::current_path(), ec);
  if (!ec && !rel.empty() && rel.native().rfind("..", 0) != 0) return rel.string();
  return path;
}

std::unique_ptr<clang::ASTUnit> parseC(const std::string &code, const std::string &fileName,
                                       bool quiet, bool &hadErrors,
                                       const std::vector<std::string> &extraArgs,
                                       const std::vector<std::pair<std::string, std::string>>
                                           &virtualFiles) {
  std::vector<std::string> args = {"-x", "c", "-std=gnu11", "-fsyntax-only",
                                   "-Wno-unknown-pragmas", "-ferror-limit=20"};
  if (!clangResourceDir().empty()) {
    args.push_back("-resource-dir");
    args.push_back(clangResourceDir());
  }
  args.insert(args.end(), extraArgs.begin(), extraArgs.end());
  clang::tooling::FileContentMappings mappings(virtualFiles.begin(), virtualFiles.end());
  clang::IgnoringDiagConsumer ignore;
  auto ast = clang::tooling::buildASTFromCodeWithArgs(
      code, args, fileName, "rtcuda", std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), mappings,
      quiet ? &ignore : nullptr);
  hadErrors = !ast || ast->getDiagnostics().hasErrorOccurred();
  if (ast && quiet) ast->getDiagnostics().setClient(new clang::IgnoringDiagConsumer(), true);
  return ast;
}

}  // namespace rtcuda
