// rtcuda-tune: picks the tuning parameters of every kernel of an rtcuda output folder, by
// measuring the variants on the GPU (checked against the sequential C first), or by the
// occupancy and wave model alone with --model-only. See docs/tuner.md.
#include "rtcuda/Tuner/Tuner.h"

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <string>

namespace {

const char *usage =
    "usage: rtcuda-tune <outdir>... [options]\n"
    "\n"
    "Tunes every kernel of each output folder of `rtcuda translate`: the picked values are\n"
    "written into each kernel's <kernel>_params.h, the report into <outdir>/tuning/report.md\n"
    "and report.json.\n"
    "\n"
    "  --size NAME=VALUE    problem size to tune for (default: main.c's default, if known)\n"
    "  --model-only         pick by the occupancy/wave model; nothing is run (no GPU needed)\n"
    "  --arch sm_XX         device of --model-only (default: the output's arch; see --list-archs)\n"
    "  --strategy S         exhaustive | pruned (default) | budget\n"
    "  --fraction F         pruned: time the model's best F of each space (default 0.25)\n"
    "  --max-variants N     sample spaces larger than N variants (default 256; 0: never)\n"
    "  --budget N           budget search (random start + local moves), N variants per kernel\n"
    "  --kernel NAME        tune only this kernel (repeatable)\n"
    "  --reps N             timed runs per variant (default 20, at least 10)\n"
    "  --warmup N           untimed runs before them (default 2)\n"
    "  --timeout SECONDS    per variant, after which it is killed (default 30)\n"
    "  --no-flush           do not flush the L2 cache before each timed run\n"
    "  --seed N             inputs and budget search (default 1)\n"
    "  --cache FILE         results cache (default <outdir>/tuning/cache.json)\n"
    "  --cuda-path DIR      CUDA toolkit for the harness and nvcc (default: the build's)\n"
    "  --jobs N             parallel compiles (default: one per core)\n"
    "  --no-write           leave the parameter headers unchanged\n"
    "  --model PARAMS       the ranking model's constants, e.g. saturation=0.25,thread=2,block=1\n"
    "                       (see docs/tuner.md; for calibrating on a new GPU)\n"
    "  --quiet              no progress line\n"
    "  --list-archs         print the offline device table and exit\n";

void onInterrupt(int) {
  rtcuda::tune::tuneInterrupted = true;
  std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C ends the process at once
}

bool number(const std::string &text, double *out) {
  char *end = nullptr;
  *out = std::strtod(text.c_str(), &end);
  return !text.empty() && end && *end == '\0';
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
  TuneOptions base;
  std::vector<std::string> outDirs;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](std::string *out) {
      if (i + 1 >= argc) {
        std::cerr << "rtcuda-tune: error: " << a << " needs a value\n";
        std::exit(2);
      }
      *out = argv[++i];
    };
    auto numeric = [&](double lo) {
      std::string v;
      value(&v);
      double d = 0;
      if (!number(v, &d) || d < lo) {
        std::cerr << "rtcuda-tune: error: " << a << " expects a number >= " << lo << ", not '" << v << "'\n";
        std::exit(2);
      }
      return d;
    };
    std::string v;
    if (a == "-h" || a == "--help") {
      std::cout << usage;
      return 0;
    } else if (a == "--list-archs") {
      for (const DeviceLimits &d : offlineDevices())
        std::cout << d.arch() << "  " << d.name << ", " << d.smCount << " SMs, "
                  << d.maxThreadsPerSM << " threads/SM, " << d.smemPerSM / 1024 << " KB shared/SM\n";
      return 0;
    } else if (a == "--size") {
      value(&v);
      size_t eq = v.find('=');
      double d = 0;
      if (eq == std::string::npos || eq == 0 || !number(v.substr(eq + 1), &d) || d < 0) {
        std::cerr << "rtcuda-tune: error: --size expects NAME=VALUE, not '" << v << "'\n";
        return 2;
      }
      base.sizes[v.substr(0, eq)] = static_cast<long long>(d);
    } else if (a == "--model-only") {
      base.modelOnly = true;
    } else if (a == "--arch") {
      value(&base.arch);
    } else if (a == "--strategy") {
      value(&v);
      auto s = parseStrategy(v);
      if (!s) {
        std::cerr << "rtcuda-tune: error: unknown strategy '" << v << "' (exhaustive, pruned, budget)\n";
        return 2;
      }
      base.strategy = *s;
    } else if (a == "--fraction") {
      base.fraction = numeric(0);
      if (base.fraction > 1) {
        std::cerr << "rtcuda-tune: error: --fraction is a share between 0 and 1\n";
        return 2;
      }
    } else if (a == "--max-variants") {
      base.maxVariants = static_cast<size_t>(numeric(0));
    } else if (a == "--budget") {
      base.budget = static_cast<size_t>(numeric(1));
      base.strategy = Strategy::Budget;
    } else if (a == "--kernel") {
      value(&v);
      base.kernels.push_back(v);
    } else if (a == "--reps") {
      base.reps = static_cast<int>(numeric(10));
    } else if (a == "--warmup") {
      base.warmup = static_cast<int>(numeric(0));
    } else if (a == "--timeout") {
      base.timeout = numeric(0.1);
    } else if (a == "--no-flush") {
      base.flush = false;
    } else if (a == "--seed") {
      base.seed = static_cast<unsigned>(numeric(0));
    } else if (a == "--cache") {
      value(&base.cachePath);
    } else if (a == "--cuda-path") {
      value(&base.cudaPath);
    } else if (a == "--jobs") {
      base.jobs = static_cast<int>(numeric(1));
    } else if (a == "--model") {
      value(&v);
      if (!parseModelParams(v, &base.model)) {
        std::cerr << "rtcuda-tune: error: --model expects NAME=VALUE,... (saturation, thread, "
                     "block, drain, latency, spill), not '" << v << "'\n";
        return 2;
      }
    } else if (a == "--no-write") {
      base.writeParams = false;
    } else if (a == "--quiet") {
      base.quiet = true;
    } else if (!a.empty() && a[0] == '-') {
      std::cerr << "rtcuda-tune: error: unknown option " << a << "\n" << usage;
      return 2;
    } else {
      outDirs.push_back(a);
    }
  }
  if (outDirs.empty()) {
    std::cerr << usage;
    return 2;
  }
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
