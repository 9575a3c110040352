// `rtcuda verify` and `rtcuda run`: build generated CUDA as C++ against the emulation shim
// (AddressSanitizer + UndefinedBehaviorSanitizer; ThreadSanitizer for the race pass) and run it.
#include "rtcuda/Verify/Verify.h"
#include "rtcuda/Support/Files.h"

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

std::string quote(const std::string &s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs a shell command; its output goes to `log` (or through, if empty). Returns the status.
int shell(const std::string &command, const std::string &log = "") {
  std::string full = command + (log.empty() ? "" : " > " + quote(log) + " 2>&1");
  int status = std::system(full.c_str());
  if (status == -1) return 127;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void writeText(const fs::path &path, const std::string &text) {
  std::ofstream out(path);
  out << text;
}

// Compiles the reference C (kernel names renamed so they do not collide with the kernels).
bool compileReferences(const Manifest &m, const EmulationToolchain &tools, const fs::path &work,
                       const std::string &sanitize, const std::string &tag,
                       std::vector<std::string> &objects) {
  std::string renames;
  for (const ManifestKernel &k : m.kernels) renames += " -D" + k.name + "=rtcuda_ref_" + k.name;
  for (const std::string &ref : m.referenceSources) {
    fs::path object = work / (fs::path(ref).stem().string() + "-" + tag + ".o");
    std::string log = (work / "reference.log").string();
    std::string cmd = tools.cc + " -std=gnu11 -O1 -g -w " + sanitize + renames + " -c " +
                      quote(m.dir + "/" + ref) + " -o " + quote(object.string());
    if (shell(cmd, log) != 0) {
      std::cerr << readFile(log) << "rtcuda verify: error: cannot compile " << ref << "\n";
      return false;
    }
    objects.push_back(object.string());
  }
  return true;
}

std::string includeFlags(const std::string &outDir, const EmulationToolchain &tools) {
  return " -DRTCUDA_EMULATE -I" + quote(outDir) + " -I" + quote(outDir + "/runtime") + " -I" +
         quote(tools.emuInclude) + " -I" + quote(tools.verifyInclude);
}

// Builds and runs the harness under one sanitizer. Returns mismatches (or -1 on a crash).
long long runHarness(const Manifest &m, const VerifyOptions &options,
                     const EmulationToolchain &tools, const fs::path &work, bool threads) {
  std::string sanitize = threads ? "-fsanitize=thread"
                                 : "-fsanitize=address,undefined -fno-sanitize-recover=all";
  std::vector<std::string> objects;
  if (!compileReferences(m, tools, work, sanitize, threads ? "tsan" : "asan", objects)) return -1;
  fs::path exe = work / (threads ? "harness-tsan" : "harness-asan");
  std::string log = (work / "harness-build.log").string();
  std::string cmd = tools.cxx + " -std=c++17 -O1 -g -w " + sanitize + includeFlags(m.dir, tools) +
                    " " + quote((work / "harness.cpp").string());
  for (const std::string &o : objects) cmd += " " + quote(o);
  cmd += " " + quote(threads ? tools.emuTsanLib : tools.emuAsanLib) + " -lpthread -lm -o " +
         quote(exe.string());
  if (shell(cmd, log) != 0) {
    std::cerr << readFile(log) << "rtcuda verify: error: cannot build the harness\n";
    return -1;
  }
  std::string args = " --seed " + std::to_string(options.seed);
  for (const auto &[name, value] : options.sizes)
    args += " --size " + quote(name + "=" + std::to_string(value));
  for (const auto &[name, value] : options.point)
    args += " --point " + quote(name + "=" + std::to_string(value));
  std::string env = "ASAN_OPTIONS=detect_leaks=0 RTCUDA_EMU_SEED=" + std::to_string(options.seed);
  if (threads) {
    // Race pass: real threads per block, one small size, the default point.
    env += " RTCUDA_EMU_THREADS=1 TSAN_OPTIONS='exitcode=66 halt_on_error=1'";
    args += " --base 31";
  } else {
    for (long long b : options.sizeBases) args += " --base " + std::to_string(b);
  }
  fs::path out = work / (threads ? "race.log" : "run.log");
  int status = shell(env + " " + quote(exe.string()) + args, out.string());
  std::string text = readFile(out.string());
  std::smatch match;
  static const std::regex summary(R"(harness: \d+ kernel\(s\) \d+ point\(s\) \d+ size\(s\) (\d+) mismatch)");
  if (!threads || status != 0) std::cout << text;
  if (threads && status == 66) {
    std::cout << "rtcuda verify: error: ThreadSanitizer found a data race between threads of a "
                 "block (report above)\n";
    return -1;
  }
  if (!std::regex_search(text, match, summary)) {
    std::cout << "rtcuda verify: error: the " << (threads ? "race-check" : "checked")
              << " run stopped (status " << status << "); see the report above\n";
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
  std::cout << "\n";
  fs::path work = fs::temp_directory_path() /
                  ("rtcuda-verify-" + std::to_string(getpid()) + "-" + std::to_string(options.seed));
  fs::create_directories(work);
  writeText(work / "harness.cpp", verifyHarness(m, options));

  long long mismatches = runHarness(m, options, tools, work, false);
  bool failed = mismatches != 0;
  if (mismatches >= 0 && options.raceCheck) {
    long long races = runHarness(m, options, tools, work, true);
    if (races < 0) mismatches += 1;
    failed |= races != 0;
  }
  size_t points = 0;
  for (const ManifestKernel &k : m.kernels) {
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
  else fs::remove_all(work);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "rtcuda verify: " << seconds << " s\n";
  long long shown = mismatches < 0 ? 1 : mismatches;
  std::cout << "verified " << m.kernels.size() << " kernel(s) at " << points
            << " parameter point(s) and " << options.sizeBases.size() << " size(s): "
            << (failed && shown == 0 ? 1 : shown) << " mismatch(es)\n";
  return failed ? 1 : 0;
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
  fs::path build = fs::path(outDir) / ".emu";
  fs::create_directories(build);
  fs::path exe = build / "program";
  bool rtapi = fs::exists(fs::path(outDir) / "runtime" / "rtapi");
  std::string cmd = tools.cxx + " -std=c++17 -O1 -g -w -fsanitize=address,undefined "
                    "-fno-sanitize-recover=all" + includeFlags(outDir, tools);
  if (rtapi) cmd += " -I" + quote(outDir + "/runtime/rtapi/include");
  cmd += " -x c++ " + quote(outDir + "/" + m.main) + " -x none " + quote(tools.emuAsanLib);
  if (rtapi)
    for (const std::string &lib : tools.rtapiCpuLibs) cmd += " " + quote(lib);
  cmd += " -lpthread -lm -o " + quote(exe.string());
  std::string log = (build / "build.log").string();
  if (shell(cmd, log) != 0) {
    std::cerr << readFile(log) << "rtcuda run: error: cannot build " << outDir << "/" << m.main
              << " for the emulator\n";
    return 1;
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
