// The subcommands of the rtcuda command line.
#pragma once

#include <string>
#include <vector>

namespace rtcuda {

int translateCommand(const std::vector<std::string> &args);
int verifyCommand(const std::vector<std::string> &args);
int runCommand(const std::vector<std::string> &args);

}  // namespace rtcuda
