// Batch mode: one child `rtcuda <command>` per program, N at a time, a summary table on stdout
// and a JSON summary file. Used by `rtcuda translate` over several configs and `rtcuda verify`
// over several output folders.
#pragma once

#include <string>
#include <vector>

namespace rtcuda {

struct BatchJob {
  std::string name;               // the program's name (a row of the table)
  std::string input;              // the config or output folder it works on
  std::string output;             // the folder it writes (translate), empty otherwise
  std::vector<std::string> args;  // the child's arguments after `rtcuda`
  std::string resultFile;         // a JSON file the child writes (kernels, passes), or empty
};

struct BatchSettings {
  std::string command;          // "translate" or "verify"
  int jobs = 1;                 // children at a time
  bool keepGoing = false;       // after a failure, go on with the programs not started yet
  bool replayStdout = false;    // print each child's stdout (e.g. --print-after dumps)
  std::string summaryPath;      // JSON summary
};

// Runs every job; returns 0 when all succeeded, 1 otherwise.
int runBatch(const std::vector<BatchJob> &jobs, const BatchSettings &settings);

// The rtcuda executable, for the children.
std::string selfExecutable();

}  // namespace rtcuda
