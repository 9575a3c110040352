#include "rtcuda/Frontend/ClangParse.h"

#include "rtcuda/Frontend/Frontend.h"
#include "rtcuda/Frontend/SingleSource.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Tooling/JSONCompilationDatabase.h>
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

static std::unique_ptr<clang::tooling::CompilationDatabase>
loadCompileCommands(const std::string &dir, std::string &error) {
  return clang::tooling::JSONCompilationDatabase::loadFromFile(
      (std::filesystem::path(dir) / "compile_commands.json").string(), error,
      clang::tooling::JSONCommandLineSyntax::AutoDetect);
}

bool checkCompileCommands(const std::string &dir, std::string &error) {
  return loadCompileCommands(dir, error) != nullptr;
}

std::vector<std::string> userClangArgs(const Options &options, const std::string &file) {
  namespace fs = std::filesystem;
  std::vector<std::string> args = sourceArgs(options);   // the config's, before the command line's
  std::string error;
  std::unique_ptr<clang::tooling::CompilationDatabase> db;
  if (!options.compileCommandsDir.empty())
    db = loadCompileCommands(options.compileCommandsDir, error);
  std::vector<clang::tooling::CompileCommand> commands;
  if (db) commands = db->getCompileCommands(fs::absolute(file).string());
  if (!commands.empty()) {
    const clang::tooling::CompileCommand &c = commands.front();
    // Paths in the entry are relative to its own folder.
    auto absolute = [&](const std::string &p) {
      return fs::path(p).is_absolute() ? p : (fs::path(c.Directory) / p).lexically_normal().string();
    };
    const std::vector<std::string> &cmd = c.CommandLine;
    for (size_t i = 1; i < cmd.size(); ++i) {
      const std::string &a = cmd[i];
      bool takesPath = a == "-I" || a == "-isystem" || a == "-iquote" || a == "-include";
      if ((takesPath || a == "-D" || a == "-U") && i + 1 < cmd.size()) {
        args.push_back(a);
        args.push_back(takesPath ? absolute(cmd[++i]) : cmd[++i]);
      } else if (a.rfind("-I", 0) == 0) {
        args.push_back("-I" + absolute(a.substr(2)));
      } else if (a.rfind("-D", 0) == 0 || a.rfind("-U", 0) == 0 || a.rfind("-std=", 0) == 0) {
        args.push_back(a);
      }
    }
  }
  args.insert(args.end(), options.clangArgs.begin(), options.clangArgs.end());
  return args;
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
