#include "CommandLine.h"

#include <llvm/Support/raw_ostream.h>

#include <iostream>
#include <map>
#include <memory>

namespace rtcuda {

namespace cl = llvm::cl;

cl::SubCommand &subcommand(const std::string &command) {
  static std::map<std::string, std::unique_ptr<cl::SubCommand>> commands;
  auto it = commands.try_emplace(command).first;
  // SubCommand keeps a reference to its name: the map's key lives as long as it.
  if (!it->second) it->second = std::make_unique<cl::SubCommand>(it->first);
  return *it->second;
}

std::optional<int> parseCommandLine(const std::string &command,
                                    const std::vector<std::string> &args,
                                    cl::OptionCategory &category, const std::string &overview) {
  std::string tool = "rtcuda " + command;
  std::vector<const char *> argv = {"rtcuda", command.c_str()};
  for (const std::string &a : args) argv.push_back(a == "-h" ? "--help" : a.c_str());
  // LLVM's own options (linked in with Clang) stay usable but out of the help text.
  cl::HideUnrelatedOptions(category, subcommand(command));
  cl::SetVersionPrinter(
      [](llvm::raw_ostream &os) { os << cli::versionLine("rtcuda") << "\n"; });
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  // --help and --version print and exit with status 0 inside this call.
  if (!cl::ParseCommandLineOptions(int(argv.size()), argv.data(), overview, &errorStream)) {
    errorStream.flush();
    std::cerr << errors;
    std::cerr << "see '" << tool << " --help'\n";
    return cli::ExitUsage;
  }
  return std::nullopt;
}

BatchFlags::BatchFlags(cl::OptionCategory &category, cl::SubCommand &sub,
                       const std::string &inputs, const std::string &summaryDefault)
    : jobsHelp("several " + inputs + ": work on N at a time"),
      keepGoingHelp("several " + inputs + ": go on after one fails"),
      summaryHelp("several " + inputs + ": the JSON summary (" + summaryDefault + ")"),
      jobs("j", cl::init(1), cl::value_desc("N"), cl::cat(category), cl::sub(sub),
           cl::desc(jobsHelp)),
      keepGoing("keep-going", cl::cat(category), cl::sub(sub), cl::desc(keepGoingHelp)),
      summary("summary", cl::value_desc("file"), cl::cat(category), cl::sub(sub),
              cl::desc(summaryHelp)) {}

int usageError(const std::string &command, const std::string &message) {
  std::cerr << "rtcuda " << command << ": error: " << message << "\n"
            << "see 'rtcuda " << command << " --help'\n";
  return cli::ExitUsage;
}

}  // namespace rtcuda
