// rtcuda-tune: picks the tuning parameters of every kernel of an rtcuda output folder, by
// measuring the variants on the GPU (checked against the sequential C first), or by the
// occupancy and wave model alone with --model-only. See docs/tuner.md.
#include "rtcuda/Support/CommandLine.h"
#include "rtcuda/Tuner/Tuner.h"

#include <csignal>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <string>

namespace {

void onInterrupt(int) {
  rtcuda::tune::tuneInterrupted = true;
  std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C ends the process at once
}

int tuneMain(int argc, char **argv);

}  // namespace

// Every failure reaches the user as a message and status 1, never as an abort.
int main(int argc, char **argv) {
  try {
    return tuneMain(argc, argv);
  } catch (const std::exception &e) {
    std::cerr << "rtcuda-tune: error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "rtcuda-tune: error: unexpected failure\n";
  }
  return 1;
}

namespace {

int tuneMain(int argc, char **argv) {
  using namespace rtcuda::tune;
  using rtcuda::cli::parseNumber;
  TuneOptions base;
  bool listArchs = false;
  rtcuda::cli::ArgParser args(
      "rtcuda-tune", "<outdir>... [options]",
      "Tunes every kernel of each output folder of `rtcuda translate`: the picked values are\n"
      "written into each kernel's <kernel>_params.h, the report into <outdir>/tuning/report.md\n"
      "and report.json.");
  // A numeric option's handler: stores the value (not below `min`) through `set`.
  auto numeric = [](double min, std::function<void(double)> set) {
    return [min, set](const std::string &v) {
      double d = 0;
      std::string error = parseNumber(v, min, &d);
      if (error.empty()) set(d);
      return error;
    };
  };
  auto text = [](std::string *out) {
    return [out](const std::string &v) { *out = v; return std::string(); };
  };
  args.section("options:");
  args.option("--size", "NAME=VALUE", "problem size to tune for (default: main.c's default, if known)",
              [&](const std::string &v) {
                size_t eq = v.find('=');
                double d = 0;
                if (eq == std::string::npos || eq == 0 ||
                    !parseNumber(v.substr(eq + 1), 0, &d).empty())
                  return "expects NAME=VALUE, not '" + v + "'";
                base.sizes[v.substr(0, eq)] = static_cast<long long>(d);
                return std::string();
              });
  args.option("--check-size", "NAME=VALUE",
              "size every variant is checked at against the sequential C (default: the target\n"
              "sizes scaled down until the largest array has --check-elements elements)",
              [&](const std::string &v) {
                size_t eq = v.find('=');
                double d = 0;
                if (eq == std::string::npos || eq == 0 ||
                    !parseNumber(v.substr(eq + 1), 1, &d).empty())
                  return "expects NAME=VALUE, not '" + v + "'";
                base.checkSizes[v.substr(0, eq)] = static_cast<long long>(d);
                return std::string();
              });
  args.option("--check-elements", "N", "largest array at the default checking size (default 262144)",
              numeric(1, [&](double d) { base.checkElements = static_cast<long long>(d); }));
  args.option("--harness", "PROGRAM",
              "measure with this harness program instead of building one (for testing)",
              text(&base.harness));
  args.flag("--model-only", "pick by the occupancy/wave model; nothing is run (no GPU needed)",
            [&] { base.modelOnly = true; });
  args.option("--arch", "sm_XX",
              "device of --model-only (default: the output's arch; see --list-archs)",
              text(&base.arch));
  args.option("--strategy", "S", "exhaustive | pruned (default) | budget",
              [&](const std::string &v) {
                auto s = parseStrategy(v);
                if (!s) return "unknown strategy '" + v + "' (exhaustive, pruned, budget)";
                base.strategy = *s;
                return std::string();
              });
  args.option("--fraction", "F", "pruned: time the model's best F of each space (default 0.25)",
              [&](const std::string &v) {
                double d = 0;
                std::string error = parseNumber(v, 0, &d);
                if (error.empty() && d > 1) error = "is a share between 0 and 1";
                if (error.empty()) base.fraction = d;
                return error;
              });
  args.option("--max-variants", "N", "sample spaces larger than N variants (default 256; 0: never)",
              numeric(0, [&](double d) { base.maxVariants = static_cast<size_t>(d); }));
  args.option("--budget", "N",
              "budget search (random start + local moves), N variants per kernel",
              numeric(1, [&](double d) {
                base.budget = static_cast<size_t>(d);
                base.strategy = Strategy::Budget;
              }));
  args.option("--kernel", "NAME", "tune only this kernel (repeatable)", [&](const std::string &v) {
    base.kernels.push_back(v);
    return std::string();
  });
  args.option("--reps", "N", "timed runs per variant (default 20, at least 10)",
              numeric(10, [&](double d) { base.reps = static_cast<int>(d); }));
  args.option("--warmup", "N", "untimed runs before them (default 2)",
              numeric(0, [&](double d) { base.warmup = static_cast<int>(d); }));
  args.option("--timeout", "SECONDS", "per variant, after which it is killed (default 30)",
              numeric(0.1, [&](double d) { base.timeout = d; }));
  args.option("--kernel-seconds", "SECONDS",
              "stop measuring a kernel after this long and keep its default point (default: no\n"
              "limit)",
              numeric(0, [&](double d) { base.kernelSeconds = d; }));
  args.flag("--no-flush", "do not flush the L2 cache before each timed run",
            [&] { base.flush = false; });
  args.option("--seed", "N", "inputs and budget search (default 1)",
              numeric(0, [&](double d) { base.seed = static_cast<unsigned>(d); }));
  args.option("--cache", "FILE", "results cache (default <outdir>/tuning/cache.json)",
              text(&base.cachePath));
  args.option("--cuda-path", "DIR", "CUDA toolkit for the harness and nvcc (default: the build's)",
              text(&base.cudaPath));
  args.option("--jobs", "N", "parallel compiles (default: one per core)",
              numeric(1, [&](double d) { base.jobs = static_cast<int>(d); }));
  args.flag("--no-write", "leave the parameter headers unchanged", [&] { base.writeParams = false; });
  args.option("--model", "PARAMS",
              "the ranking model's constants, e.g. saturation=0.25,thread=2,block=1\n"
              "(see docs/tuner.md; for calibrating on a new GPU)",
              [&](const std::string &v) {
                if (parseModelParams(v, &base.model)) return std::string();
                return "expects NAME=VALUE,... (saturation, thread, block, drain, latency, "
                       "spill), not '" + v + "'";
              });
  args.flag("--quiet", "no progress line", [&] { base.quiet = true; });
  args.flag("--list-archs", "print the offline device table and exit", [&] { listArchs = true; });
  if (std::optional<int> status = args.parse(argc, argv)) return *status;
  if (listArchs) {
    for (const DeviceLimits &d : offlineDevices())
      std::cout << d.arch() << "  " << d.name << ", " << d.smCount << " SMs, "
                << d.maxThreadsPerSM << " threads/SM, " << d.smemPerSM / 1024 << " KB shared/SM\n";
    return 0;
  }
  const std::vector<std::string> &outDirs = args.positionals();
  if (outDirs.empty()) return args.usageError("no output folder given");
  std::signal(SIGINT, onInterrupt);
  int status = 0;
  for (const std::string &dir : outDirs) {
    TuneOptions options = base;
    options.outDir = dir;
    while (options.outDir.size() > 1 && options.outDir.back() == '/') options.outDir.pop_back();
    int s = tuneOutput(options);
    if (s == 130) return s;
    status = std::max(status, s);
  }
  return status;
}

}  // namespace
