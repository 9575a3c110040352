// Starting other programs (compilers, built harnesses) with an argument vector: never through
// a shell, so no file name, manifest value or config value can become a command.
#pragma once

#include <string>
#include <vector>

namespace rtcuda {

struct ProcessOptions {
  std::vector<std::string> env;  // NAME=VALUE added to (or replacing in) this environment
  std::string logPath;           // stdout and stderr go to this file (truncated)...
  std::string *output = nullptr; // ...or are captured here; neither: inherited
  bool quietErrors = false;      // stderr to /dev/null (with `output` only)
};

// Runs argv[0] (looked up in PATH when it holds no '/') with argv[1..]. Returns its exit
// status, 128 + signal when killed, or 127 when it cannot be started (reason in the output).
int runProcess(const std::vector<std::string> &argv, const ProcessOptions &options = {});

// A command given as text by the user's environment (CC="ccache gcc"): split at blanks.
std::vector<std::string> splitCommand(const std::string &text);

// The full path of `name` found in PATH, or "".
std::string findProgram(const std::string &name);

}  // namespace rtcuda
