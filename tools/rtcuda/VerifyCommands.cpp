// `rtcuda verify <outdir>` and `rtcuda run <outdir> [args...]`.
#include "Commands.h"

#include "rtcuda/Verify/Verify.h"

#include <iostream>

namespace rtcuda {

static EmulationToolchain toolchain() {
  EmulationToolchain t;
  t.emuInclude = RTCUDA_EMU_INCLUDE_DIR;
  t.verifyInclude = RTCUDA_VERIFY_INCLUDE_DIR;
  t.emuAsanLib = RTCUDA_EMU_ASAN_LIB;
  t.emuTsanLib = RTCUDA_EMU_TSAN_LIB;
  std::string rtapi = RTCUDA_RTAPI_CPU_LIBS;
  for (size_t start = 0; start < rtapi.size();) {
    size_t end = rtapi.find('|', start);
    if (end == std::string::npos) end = rtapi.size();
    if (end > start) t.rtapiCpuLibs.push_back(rtapi.substr(start, end - start));
    start = end + 1;
  }
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
  VerifyOptions options;
  std::string outDir;
  bool basesGiven = false;
  auto usage = [] {
    std::cerr << "usage: rtcuda verify <outdir> [--size NAME=VALUE]... [--sizes A,B,...] "
                 "[--point NAME=VALUE]... [--seed N] [--max-points N] [--no-race-check] [--keep]\n";
    return 1;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    std::string name;
    long long value;
    bool hasValue = i + 1 < args.size();
    if ((a == "--size" || a == "--point") && hasValue) {
      if (!parseAssignment(args[++i], name, value)) {
        std::cerr << "rtcuda verify: error: " << a << " expects NAME=VALUE, got '" << args[i] << "'\n";
        return 1;
      }
      if (a == "--size") options.sizes[name] = value;
      else options.point[name] = int(value);
    } else if (a == "--sizes" && hasValue) {
      if (!basesGiven) options.sizeBases.clear();
      basesGiven = true;
      std::string list = args[++i];
      for (size_t p = 0; p < list.size();) {
        size_t c = list.find(',', p);
        options.sizeBases.push_back(std::atoll(list.substr(p, c - p).c_str()));
        p = c == std::string::npos ? list.size() : c + 1;
      }
    } else if (a == "--seed" && hasValue) {
      options.seed = unsigned(std::atoll(args[++i].c_str()));
      options.seedGiven = true;
    } else if (a == "--max-points" && hasValue) {
      options.maxPointsPerKernel = size_t(std::atoll(args[++i].c_str()));
    } else if (a == "--no-race-check") {
      options.raceCheck = false;
    } else if (a == "--keep") {
      options.keep = true;
    } else if (!a.empty() && a[0] != '-' && outDir.empty()) {
      outDir = a;
    } else {
      return usage();
    }
  }
  if (outDir.empty()) return usage();
  return verifyOutput(outDir, options, toolchain());
}

int runCommand(const std::vector<std::string> &args) {
  if (args.empty()) {
    std::cerr << "usage: rtcuda run <outdir> [program arguments...]\n";
    return 1;
  }
  return runOutput(args[0], std::vector<std::string>(args.begin() + 1, args.end()), toolchain());
}

}  // namespace rtcuda
