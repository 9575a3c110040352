// rtcuda: sequential C loop nests → CUDA.
#include "Commands.h"

#include "rtcuda/CodeGen/CodeGen.h"
#include "rtcuda/Frontend/Frontend.h"

#include <iostream>

namespace {

void usage() {
  std::cout << "usage: rtcuda <command> [arguments]\n\n"
               "commands:\n"
               "  translate <config> -o <outdir>   C kernels + main.c -> CUDA project\n"
               "  verify <outdir>                  check every kernel against its sequential C\n"
               "                                   on the CPU emulator (sizes, tuning points)\n"
               "  run <outdir> [args...]           build the program for the CPU emulator, run it\n"
               "  explain <config> -o <report.html>  one HTML page explaining each kernel's\n"
               "                                   analysis, passes, mapping, tuning and copies\n"
               "  help                             this text\n\n"
               "Run 'rtcuda <command> --help' for a command's options.\n";
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
  rtcuda::setClangResourceDir(RTCUDA_CLANG_RESOURCE_DIR);
  rtcuda::setRuntimeDirs(RTCUDA_RUNTIME_INCLUDE_DIR, RTCUDA_RTAPI_INCLUDE_DIR);
  if (argc < 2) {
    usage();
    return 1;
  }
  std::string command = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  if (command == "translate") return rtcuda::translateCommand(args);
  if (command == "verify") return rtcuda::verifyCommand(args);
  if (command == "run") return rtcuda::runCommand(args);
  if (command == "explain") return rtcuda::explainCommand(args);
  if (command == "help" || command == "--help" || command == "-h") {
    usage();
    return 0;
  }
  std::cerr << "rtcuda: error: unknown command '" << command << "'\n";
  usage();
  return 1;
}

}  // namespace
