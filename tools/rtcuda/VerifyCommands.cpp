// `rtcuda verify <outdir>...` and `rtcuda run <outdir> [args...]`.
#include "Batch.h"
#include "CommandLine.h"
#include "Commands.h"
#include "Paths.h"

#include "rtcuda/Verify/Verify.h"

#include <cmath>
#include <filesystem>
#include <iostream>

namespace rtcuda {

namespace cl = llvm::cl;

static EmulationToolchain toolchain() {
  const ToolPaths &paths = toolPaths();
  EmulationToolchain t;
  t.emuInclude = paths.emuInclude;
  t.verifyInclude = paths.verifyInclude;
  t.emuAsanLib = paths.emuAsanLib;
  t.emuTsanLib = paths.emuTsanLib;
  t.rtapiCpuLibs = paths.rtapiCpuLibs;
  return t;
}

static bool parseAssignment(const std::string &text, std::string &name, long long &value) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  name = text.substr(0, eq);
  try {
    size_t used = 0;
    value = std::stoll(text.substr(eq + 1), &used);
    return used == text.size() - eq - 1;
  } catch (...) {
    return false;
  }
}

int verifyCommand(const std::vector<std::string> &args) {
  cl::OptionCategory category("rtcuda verify options");
  cl::SubCommand &sub = subcommand("verify");
  cl::list<std::string> outDirs(cl::Positional, cl::OneOrMore, cl::desc("<outdir>..."),
                                cl::cat(category), cl::sub(sub));
  cl::list<std::string> sizes("size", cl::value_desc("NAME=VALUE"), cl::cat(category), cl::sub(sub),
                              cl::desc("a problem size to verify at (repeatable)"));
  cl::list<long long> bases("sizes", cl::CommaSeparated, cl::value_desc("A,B,..."),
                            cl::cat(category), cl::sub(sub),
                            cl::desc("the size bases every size is derived from "
                                     "(default 1,31,33,100)"));
  cl::list<std::string> points("point", cl::value_desc("NAME=VALUE"), cl::cat(category), cl::sub(sub),
                               cl::desc("verify only tuning points with this value (repeatable)"));
  cl::opt<unsigned> seed("seed", cl::value_desc("N"), cl::cat(category), cl::sub(sub),
                         cl::desc("the random inputs' seed"));
  cl::opt<unsigned> maxPoints("max-points", cl::init(12), cl::value_desc("N"), cl::cat(category), cl::sub(sub),
                              cl::desc("tuning points per kernel (default 12)"));
  cl::opt<bool> noRaceCheck("no-race-check", cl::cat(category), cl::sub(sub),
                            cl::desc("skip the second run under ThreadSanitizer"));
  cl::opt<double> tolerance("tolerance", cl::init(1.0), cl::value_desc("F"), cl::cat(category),
                            cl::sub(sub),
                            cl::desc("multiply the floating-point tolerance by F >= 1 "
                                     "(default 1)"));
  cl::opt<bool> keep("keep", cl::cat(category), cl::sub(sub), cl::desc("keep the build folder"));
  BatchFlags batchFlags(category, sub, "folders", "default: none");
  if (auto status = parseCommandLine(
          "verify", args, category,
          "checks every kernel of an output folder against its sequential C on the CPU "
          "emulator; --version prints the version"))
    return *status;

  VerifyOptions options;
  std::string name;
  long long value = 0;
  for (const std::string &s : sizes) {
    if (!parseAssignment(s, name, value))
      return usageError("verify", "--size expects NAME=VALUE, got '" + s + "'");
    options.sizes[name] = value;
  }
  for (const std::string &s : points) {
    if (!parseAssignment(s, name, value))
      return usageError("verify", "--point expects NAME=VALUE, got '" + s + "'");
    options.point[name] = int(value);
  }
  if (!bases.empty()) options.sizeBases.assign(bases.begin(), bases.end());
  if (seed.getNumOccurrences()) {
    options.seed = seed;
    options.seedGiven = true;
  }
  if (maxPoints < 1) return usageError("verify", "--max-points expects N >= 1, got '0'");
  options.maxPointsPerKernel = maxPoints;
  options.raceCheck = !noRaceCheck;
  options.keep = keep;
  if (!(tolerance >= 1) || !std::isfinite(tolerance))
    return usageError("verify", "--tolerance expects a factor >= 1, got '" +
                                    std::to_string(double(tolerance)) + "'");
  options.tolerance = tolerance;
  if (outDirs.size() == 1) return verifyOutput(outDirs[0], options, toolchain());

  // Several folders: one child each, with the same options.
  std::vector<BatchJob> batch;
  for (const std::string &dir : outDirs) {
    BatchJob job;
    std::filesystem::path p = std::filesystem::path(dir).lexically_normal();
    job.name = (p.filename().empty() ? p.parent_path() : p).filename().string();
    job.input = dir;
    job.args = {"verify", dir};
    for (const std::string &s : sizes) job.args.push_back("--size=" + s);
    for (const std::string &s : points) job.args.push_back("--point=" + s);
    if (!bases.empty()) {
      std::string list;
      for (long long b : bases) list += (list.empty() ? "" : ",") + std::to_string(b);
      job.args.push_back("--sizes=" + list);
    }
    if (seed.getNumOccurrences()) job.args.push_back("--seed=" + std::to_string(seed));
    job.args.push_back("--max-points=" + std::to_string(maxPoints));
    if (noRaceCheck) job.args.push_back("--no-race-check");
    if (keep) job.args.push_back("--keep");
    if (tolerance.getNumOccurrences()) job.args.push_back("--tolerance=" + std::to_string(tolerance));
    batch.push_back(std::move(job));
  }
  BatchSettings settings;
  settings.command = "verify";
  settings.jobs = int(batchFlags.jobs);
  settings.keepGoing = batchFlags.keepGoing;
  settings.summaryPath = batchFlags.summary;
  return runBatch(batch, settings);
}

int runCommand(const std::vector<std::string> &args) {
  cl::OptionCategory category("rtcuda run options");
  cl::SubCommand &sub = subcommand("run");
  cl::opt<std::string> outDir(cl::Positional, cl::Required, cl::desc("<outdir>"),
                              cl::cat(category), cl::sub(sub));
  cl::list<std::string> programArgs(cl::ConsumeAfter, cl::desc("<program arguments>..."),
                                    cl::cat(category), cl::sub(sub));
  if (auto status = parseCommandLine(
          "run", args, category,
          "builds the program of an output folder for the CPU emulator and runs it with the "
          "given arguments; --version prints the version"))
    return *status;
  return runOutput(outDir, std::vector<std::string>(programArgs.begin(), programArgs.end()),
                   toolchain());
}

}  // namespace rtcuda
