// Translate never succeeds with a main.cu that does not build: main.c is C and main.cu is C++,
// and C has constructs the host rewriting does not turn into C++ (a variable named `new`,
// `char s[3] = "abc"`, ...). Before the output is written, the host C++ compiler checks main.cu
// against the emulation headers, as `rtcuda run` builds it.
#include "Commands.h"
#include "Paths.h"

#include "rtcuda/Frontend/Frontend.h"
#include "rtcuda/Support/Files.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace rtcuda {

namespace fs = std::filesystem;

namespace {

// Runs argv with stdout and stderr into `log`; the exit status, or -1 if it could not start.
int runTo(const std::vector<std::string> &argv, const std::string &log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char *> args;
  for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  if (!WIFEXITED(status)) return -1;
  return WEXITSTATUS(status) == 127 ? -1 : WEXITSTATUS(status);
}

}  // namespace

bool checkHostBuilds(const Options &options, const FileSet &files, Diagnostics &diags) {
  auto main = files.find("main.cu");
  if (main == files.end()) return true;
  std::string shown = displayPath(options.mainFile);
  std::error_code ec;
  std::string pattern = (fs::temp_directory_path(ec) / "rtcuda-host-XXXXXX").string();
  if (ec || !mkdtemp(pattern.data())) {
    diags.warning(ir::SourceLoc{shown, 0, 0}, "cannot check that main.cu compiles: no temporary folder");
    return true;
  }
  fs::path dir = pattern;
  bool written = true;
  for (const auto &[name, text] : files) {
    if (name.rfind("src/", 0) == 0 || name.rfind("reference/", 0) == 0) continue;
    fs::create_directories((dir / name).parent_path(), ec);
    std::ofstream out(dir / name, std::ios::binary);
    out << text;
    written &= bool(out);
  }
  std::vector<std::string> argv = {"c++", "-std=c++17", "-fsyntax-only", "-w", "-DRTCUDA_EMULATE",
                                   "-I" + dir.string(), "-I" + (dir / "runtime").string(),
                                   "-I" + (dir / "include").string(),
                                   "-I" + (dir / "runtime/rtapi/include").string(),
                                   "-I" + toolPaths().emuInclude};
  for (const std::string &d : programDefines(options)) argv.push_back("-D" + d);
  argv.insert(argv.end(), {"-x", "c++", (dir / "main.cu").string()});
  std::string log = (dir / "check.log").string();
  int status = written ? runTo(argv, log) : -1;
  std::string messages = readFile(log);
  fs::remove_all(dir, ec);
  if (status < 0) {
    diags.warning(ir::SourceLoc{shown, 0, 0}, "cannot check that main.cu compiles: the C++ compiler 'c++' did not run");
    return true;
  }
  if (status == 0) return true;
  // The compiler names main.c's lines (main.cu has #line); the folder is a temporary one.
  for (size_t at; (at = messages.find(dir.string() + "/")) != std::string::npos;)
    messages.erase(at, dir.string().size() + 1);
  std::cerr << messages;
  diags.error(shown, "the main.cu written from this file does not compile as C++ (c++ "
                     "-fsyntax-only, messages above); no output is written");
  return false;
}

}  // namespace rtcuda
