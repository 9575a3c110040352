// rtcuda: sequential C loop nests → CUDA.
#include "Commands.h"
#include "Paths.h"

#include "rtcuda/CodeGen/CodeGen.h"
#include "rtcuda/Frontend/Frontend.h"
#include "rtcuda/Support/CommandLine.h"

#include <iostream>

namespace {

void usage(std::ostream &os) {
  os << "usage: rtcuda <command> [arguments]\n\n"
        "commands:\n"
        "  translate <config>... -o <outdir>  C kernels + main.c -> CUDA project (several\n"
        "                                     configs: one folder each under <outdir>)\n"
        "  verify <outdir>...                 check every kernel against its sequential C\n"
        "                                     on the CPU emulator (sizes, tuning points)\n"
        "  run <outdir> [args...]             build the program for the CPU emulator, run it\n"
        "  explain <config> -o <report.html>  one HTML page explaining each kernel's\n"
        "                                     analysis, passes, mapping, tuning and copies\n"
        "  help                               this text\n\n"
        "Run 'rtcuda <command> --help' for a command's options, 'rtcuda --version' for the\n"
        "version. Exit status: 0 ok, 1 error, 2 usage error.\n";
}

int dispatch(int argc, char **argv);

}  // namespace

// Every failure reaches the user as a message and status 1, never as an abort.
int main(int argc, char **argv) {
  try {
    return dispatch(argc, argv);
  } catch (const std::exception &e) {
    std::cerr << "rtcuda: error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "rtcuda: error: unexpected failure\n";
  }
  return 1;
}

namespace {

int dispatch(int argc, char **argv) {
  using namespace rtcuda;
  setClangResourceDir(RTCUDA_CLANG_RESOURCE_DIR);
  setRuntimeDirs(toolPaths().runtimeInclude, toolPaths().rtapiInclude);
  if (argc < 2) {
    usage(std::cerr);
    return cli::ExitUsage;
  }
  std::string command = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  if (command == "translate") return translateCommand(args);
  if (command == "verify") return verifyCommand(args);
  if (command == "run") return runCommand(args);
  if (command == "explain") return explainCommand(args);
  if (command == "help" || command == "--help" || command == "-h") {
    usage(std::cout);
    return cli::ExitOk;
  }
  if (command == "--version") {
    std::cout << cli::versionLine("rtcuda") << "\n";
    return cli::ExitOk;
  }
  std::cerr << "rtcuda: error: unknown command '" << command << "'\n";
  usage(std::cerr);
  return cli::ExitUsage;
}

}  // namespace
