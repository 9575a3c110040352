// `rtcuda verify` and `rtcuda run`: build generated CUDA as C++ against the emulation shim
// (AddressSanitizer + UndefinedBehaviorSanitizer; ThreadSanitizer for the race pass) and run it.
#include "rtcuda/Verify/Verify.h"
#include "rtcuda/Support/Files.h"
#include "rtcuda/Support/Process.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <regex>
#include <sstream>

#include <unistd.h>

namespace rtcuda {

namespace fs = std::filesystem;

namespace {

using Args = std::vector<std::string>;

// Runs a compiler or a built program (argument vector, no shell); output to `log`.
int run(const Args &argv, const std::string &log, const Args &env = {}) {
  ProcessOptions options;
  options.logPath = log;
  options.env = env;
  return runProcess(argv, options);
}

Args operator+(Args a, const Args &b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

void writeText(const fs::path &path, const std::string &text) {
  std::ofstream out(path);
  out << text;
}

// The config's include folders and definitions (manifest.json), as compiler flags.
Args programFlags(const Manifest &m) {
  Args flags;
  for (const std::string &d : m.includeDirs) flags.push_back("-I" + m.dir + "/" + d);
  for (const std::string &d : m.defines) flags.push_back("-D" + d);
  return flags;
}

// Compiles C files of the output (`sources`, relative to it) with `flags` into `objects`.
bool compileC(const Manifest &m, const EmulationToolchain &tools, const fs::path &work,
              const std::vector<std::string> &sources, const Args &flags,
              const std::string &suffix, std::vector<std::string> &objects) {
  for (const std::string &src : sources) {
    fs::path object = work / (fs::path(src).stem().string() + "-" + suffix + ".o");
    std::string log = (work / "compile.log").string();
    Args cmd = splitCommand(tools.cc) + Args{"-std=gnu11", "-O1", "-g", "-w"} + flags +
               Args{"-c", m.dir + "/" + src, "-o", object.string()};
    if (run(cmd, log) != 0) {
      std::cerr << readFile(log) << "rtcuda: error: cannot compile " << src << "\n";
      return false;
    }
    objects.push_back(object.string());
  }
  return true;
}

// Compiles the extra C sources of the program (PolyBench's polybench.c) into `objects`.
bool compileExtraSources(const Manifest &m, const EmulationToolchain &tools, const fs::path &work,
                         const std::string &sanitize, const std::string &tag,
                         std::vector<std::string> &objects) {
  return compileC(m, tools, work, m.extraSources, splitCommand(sanitize) + programFlags(m),
                  "extra-" + tag, objects);
}

// Compiles the reference C (kernel names renamed so they do not collide with the kernels),
// with the program's extra sources.
bool compileReferences(const Manifest &m, const EmulationToolchain &tools, const fs::path &work,
                       const std::string &sanitize, const std::string &tag,
                       std::vector<std::string> &objects) {
  Args renames = programFlags(m);
  for (const ManifestKernel &k : m.verified()) renames.push_back("-D" + k.name + "=rtcuda_ref_" + k.name);
  return compileExtraSources(m, tools, work, sanitize, tag, objects) &&
         compileC(m, tools, work, m.referenceSources, splitCommand(sanitize) + renames, tag,
                  objects);
}

Args includeFlags(const std::string &outDir, const EmulationToolchain &tools) {
  return {"-DRTCUDA_EMULATE", "-I" + outDir, "-I" + outDir + "/runtime", "-I" + tools.emuInclude,
          "-I" + tools.verifyInclude};
}

}  // namespace

// The size base of the race pass: one of the checked run's, so that it runs only sizes the
// checked run has shown valid (before, always 31: with --sizes 1,7,13 on doitgen, np = 31
// indexed past A's 16 columns and two blocks wrote one element of the temporary), the largest
// up to 31 (ThreadSanitizer is slow), else the smallest.
long long raceCheckBase(const std::vector<long long> &bases) {
  long long best = -1, smallest = -1;
  for (long long b : bases) {
    if (b <= 31 && b > best) best = b;
    if (smallest < 0 || b < smallest) smallest = b;
  }
  return best >= 0 ? best : smallest >= 0 ? smallest : 31;
}

namespace {

// Builds and runs the harness under one sanitizer. Returns mismatches (or -1 on a crash).
long long runHarness(const Manifest &m, const VerifyOptions &options,
                     const EmulationToolchain &tools, const fs::path &work, bool threads) {
  std::string sanitize = threads ? "-fsanitize=thread"
                                 : "-fsanitize=address,undefined -fno-sanitize-recover=all";
  Args objects;
  if (!compileReferences(m, tools, work, sanitize, threads ? "tsan" : "asan", objects)) return -1;
  fs::path exe = work / (threads ? "harness-tsan" : "harness-asan");
  std::string log = (work / "harness-build.log").string();
  Args cmd = splitCommand(tools.cxx) + Args{"-std=c++17", "-O1", "-g", "-w"} +
             splitCommand(sanitize) + includeFlags(m.dir, tools) +
             Args{(work / "harness.cpp").string()} + objects +
             Args{threads ? tools.emuTsanLib : tools.emuAsanLib, "-lpthread", "-lm", "-o",
                  exe.string()};
  if (run(cmd, log) != 0) {
    std::cerr << readFile(log) << "rtcuda verify: error: cannot build the harness\n";
    return -1;
  }
  Args args{exe.string(), "--seed", std::to_string(options.seed)};
  if (options.tolerance != 1) {
    char factor[64];
    snprintf(factor, sizeof factor, "%.17g", options.tolerance);
    args = args + Args{"--tolerance", factor};
  }
  for (const auto &[name, value] : options.sizes)
    args = args + Args{"--size", name + "=" + std::to_string(value)};
  for (const auto &[name, value] : options.point)
    args = args + Args{"--point", name + "=" + std::to_string(value)};
  Args env{"ASAN_OPTIONS=detect_leaks=0", "RTCUDA_EMU_SEED=" + std::to_string(options.seed)};
  if (threads) {
    // Race pass: real threads per block, one small size of the checked run's, the same points.
    env = env + Args{"RTCUDA_EMU_THREADS=1", "TSAN_OPTIONS=exitcode=66 halt_on_error=1"};
    args = args + Args{"--base", std::to_string(raceCheckBase(options.sizeBases))};
  } else {
    for (long long b : options.sizeBases) args = args + Args{"--base", std::to_string(b)};
  }
  fs::path out = work / (threads ? "race.log" : "run.log");
  int status = run(args, out.string(), env);
  std::string text = readFile(out.string());
  std::smatch match;
  static const std::regex summary(R"(harness: \d+ kernel\(s\) \d+ point\(s\) \d+ size\(s\) (\d+) mismatch)");
  if (!threads || status != 0) std::cout << text;
  if (threads && status == 66) {
    std::cout << "rtcuda verify: error: ThreadSanitizer found a data race between GPU threads "
                 "(of one block or of two; report above)\n";
    return -1;
  }
  if (!std::regex_search(text, match, summary)) {
    std::cout << "rtcuda verify: error: the " << (threads ? "race-check" : "checked")
              << " run stopped (status " << status << "); see the report above\n";
    // The sanitizer stopped in the sequential C (reference/): no generated code was at fault.
    static const std::regex inReference(
        R"(SUMMARY: \w+Sanitizer: .* in rtcuda_ref_(\w+)|/reference/[^:\s]+:\d+:\d+: runtime error)");
    if (std::regex_search(text, match, inReference))
      std::cout << "rtcuda verify: error: the report is in the sequential C"
                << (match[1].matched ? " of '" + match[1].str() + "'" : std::string())
                << " (the reference), not in generated code: it failed on verify's random inputs "
                   "(integer arrays get values in [-1000, 1000] unless translate finds them used as "
                   "plain subscripts or loop bounds: docs/verify.md#index-arrays)\n";
    return -1;
  }
  return std::stoll(match[1]);
}

// Reads the output's manifest; reports a problem and returns false.
bool loadManifest(const std::string &outDir, Manifest &m) {
  try {
    m = readManifest(outDir);
    return true;
  } catch (const ManifestError &e) {
    std::cerr << e.what() << "\n";
    return false;
  }
}

}  // namespace

int verifyOutput(const std::string &outDir, const VerifyOptions &given,
                 const EmulationToolchain &tools) {
  Manifest m;
  if (!loadManifest(outDir, m)) return 1;
  VerifyOptions options = given;
  if (!options.seedGiven) options.seed = std::random_device{}() % 1000000;
  auto start = std::chrono::steady_clock::now();
  std::cout << "rtcuda verify: " << outDir << ", seed " << options.seed << " (repeat with --seed "
            << options.seed << "), sizes";
  for (long long b : options.sizeBases) std::cout << " " << b;
  if (options.raceCheck) std::cout << ", race check at " << raceCheckBase(options.sizeBases);
  if (options.tolerance != 1) std::cout << ", tolerance x" << options.tolerance;
  std::cout << "\n";
  // A fresh folder of our own (mkdtemp): removing it at the end removes nothing of anyone else.
  std::string pattern = (fs::temp_directory_path() / "rtcuda-verify-XXXXXX").string();
  if (!mkdtemp(pattern.data())) {
    std::cerr << "rtcuda verify: error: cannot create a temporary folder (" << pattern << ")\n";
    return 1;
  }
  fs::path work = pattern;
  writeText(work / "harness.cpp", verifyHarness(m, options));

  long long mismatches = runHarness(m, options, tools, work, false);
  bool failed = mismatches != 0;
  if (mismatches >= 0 && options.raceCheck) {
    long long races = runHarness(m, options, tools, work, true);
    if (races < 0) mismatches += 1;
    failed |= races != 0;
  }
  size_t points = 0;
  for (const ManifestKernel &k : m.verified()) {
    size_t n = 0;
    for (const auto &p : verifyPoints(k, options.maxPointsPerKernel)) {
      bool selected = true;
      for (const auto &[name, value] : options.point)
        if (p.count(name) && p.at(name) != value) selected = false;
      n += selected;
    }
    points += n;
  }
  if (options.keep) std::cout << "rtcuda verify: build folder kept: " << work.string() << "\n";
  else {
    std::error_code ec;
    fs::remove_all(work, ec);
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "rtcuda verify: " << seconds << " s\n";
  long long shown = mismatches < 0 ? 1 : mismatches;
  std::cout << "verified " << m.verified().size() << " kernel(s) at " << points
            << " parameter point(s) and " << options.sizeBases.size() << " size(s): "
            << (failed && shown == 0 ? 1 : shown) << " mismatch(es)\n";
  return failed ? 1 : 0;
}

// What a build of the output depends on: the compiler command, every file of the output
// (outside .emu) and the emulation library, by path, size and modification time. `rtcuda run`
// rebuilds only when this changes (running one output at several sizes builds it once).
std::string buildStamp(const fs::path &outDir, const Args &cmd, const EmulationToolchain &tools) {
  std::ostringstream stamp;
  for (const std::string &a : cmd) stamp << a << '\n';
  auto add = [&](const fs::path &file) {
    std::error_code ec;
    auto size = fs::file_size(file, ec);
    auto time = fs::last_write_time(file, ec).time_since_epoch().count();
    stamp << file.string() << ' ' << size << ' ' << time << '\n';
  };
  add(tools.emuAsanLib);
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(outDir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().filename() == ".emu") {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec)) files.push_back(it->path());
  }
  if (ec) return "";  // unreadable: always rebuild
  std::sort(files.begin(), files.end());
  for (const fs::path &f : files) add(f);
  return stamp.str();
}

int runOutput(const std::string &outDir, const std::vector<std::string> &args,
              const EmulationToolchain &tools) {
  Manifest m;
  if (!loadManifest(outDir, m)) return 1;
  if (m.main.empty()) {
    std::cerr << outDir << ": error: this output has no main program (the config names no "
                           "main file)\n";
    return 1;
  }
  // .emu is rtcuda's own build folder inside the output; anything else there is not touched.
  fs::path build = fs::path(outDir) / ".emu";
  std::error_code ec;
  fs::file_status status = fs::symlink_status(build, ec);
  if (fs::exists(status) && !fs::is_directory(status)) {
    std::cerr << build.string() << ": error: exists and is not a folder; rtcuda run builds the "
                 "program there (remove or rename it)\n";
    return 1;
  }
  fs::create_directories(build, ec);
  if (ec) {
    std::cerr << build.string() << ": error: cannot create folder: " << ec.message() << "\n";
    return 1;
  }
  fs::path exe = build / "program";
  bool rtapi = fs::exists(fs::path(outDir) / "runtime" / "rtapi");
  Args cmd = splitCommand(tools.cxx) +
             Args{"-std=c++17", "-O1", "-g", "-w", "-fsanitize=address,undefined",
                  "-fno-sanitize-recover=all"} +
             includeFlags(outDir, tools);
  if (rtapi) cmd.push_back("-I" + outDir + "/runtime/rtapi/include");
  cmd = cmd + programFlags(m);
  std::string stamp = buildStamp(outDir, cmd, tools);
  fs::path stampFile = build / "program.stamp";
  if (stamp.empty() || !fs::exists(exe) || readFile(stampFile.string()) != stamp) {
    fs::remove(stampFile, ec);
    std::vector<std::string> extra;
    if (!compileExtraSources(m, tools, build, "-fsanitize=address,undefined "
                             "-fno-sanitize-recover=all", "run", extra))
      return 1;
    cmd = cmd + Args{"-x", "c++", outDir + "/" + m.main, "-x", "none", tools.emuAsanLib} + extra;
    if (rtapi) cmd = cmd + tools.rtapiCpuLibs;
    cmd = cmd + Args{"-lpthread", "-lm", "-o", exe.string()};
    std::string log = (build / "build.log").string();
    if (run(cmd, log) != 0) {
      std::cerr << readFile(log) << "rtcuda run: error: cannot build " << outDir << "/"
                << m.main << " for the emulator\n";
      return 1;
    }
    writeText(stampFile, stamp);
  }
  setenv("ASAN_OPTIONS", "detect_leaks=0", 0);
  std::vector<char *> argv;
  std::string program = exe.string();
  argv.push_back(program.data());
  std::vector<std::string> copies = args;
  for (std::string &a : copies) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::cout.flush();
  execv(program.c_str(), argv.data());
  std::perror("rtcuda run: cannot start the program");
  return 1;
}

}  // namespace rtcuda
