// Translate never succeeds with a main.cu that does not build: main.c is C and main.cu is C++,
// and C has constructs the host rewriting does not turn into C++ (a variable named `new`,
// `char s[3] = "abc"`, ...). Before the output is written, the host C++ compiler checks main.cu
// against the emulation headers, as `rtcuda run` builds it.
#include "Commands.h"
#include "Paths.h"

#include "rtcuda/Frontend/Frontend.h"
#include "rtcuda/Support/Files.h"
#include "rtcuda/Support/Process.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <unistd.h>

namespace rtcuda {

namespace fs = std::filesystem;

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
  std::string messages;
  ProcessOptions capture;
  capture.output = &messages;
  // runProcess: 127 when the compiler could not start, 128 + signal when it was killed.
  int status = written ? runProcess(argv, capture) : 127;
  fs::remove_all(dir, ec);
  if (status == 127 || status > 128) {
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
