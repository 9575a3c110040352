// rtcuda's command-line layer on llvm::cl: each command declares its options in its own
// llvm::cl subcommand (so that names LLVM itself registers, such as -print-after, do not clash)
// and category, and parses its arguments here, so --help, --version and the exit status of a
// usage error (2) are the same everywhere.
#pragma once

#include "rtcuda/Support/CommandLine.h"

#include <llvm/Support/CommandLine.h>

#include <optional>
#include <string>
#include <vector>

namespace rtcuda {

// The llvm::cl subcommand of `rtcuda <command>` (one object per name, made on first use).
llvm::cl::SubCommand &subcommand(const std::string &command);

// Parses `args` (the words after `rtcuda <command>`) into the options of `category`. Returns
// the status to exit with (--help and --version: 0; a usage error: 2, message on stderr), or
// nothing when the command should run.
std::optional<int> parseCommandLine(const std::string &command,
                                    const std::vector<std::string> &args,
                                    llvm::cl::OptionCategory &category,
                                    const std::string &overview);

// The options of a command that takes several inputs (Batch.h): -j, --keep-going, --summary.
struct BatchFlags {
  // `inputs` names what the command takes ("configs", "folders").
  BatchFlags(llvm::cl::OptionCategory &category, llvm::cl::SubCommand &sub,
             const std::string &inputs, const std::string &summaryDefault);
  // llvm::cl keeps references to the descriptions: they live here, before the options.
  std::string jobsHelp, keepGoingHelp, summaryHelp;
  llvm::cl::opt<unsigned> jobs;
  llvm::cl::opt<bool> keepGoing;
  llvm::cl::opt<std::string> summary;
};

// A usage error found after parsing (a bad value): "rtcuda <command>: error: ..." on stderr,
// returns 2.
int usageError(const std::string &command, const std::string &message);

}  // namespace rtcuda
