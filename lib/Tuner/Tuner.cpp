// rtcuda-tune's driver: resources, model, strategy, measurement, pick, reports (see Tuner.h).
#include "rtcuda/Tuner/Tuner.h"
#include "rtcuda/Support/Files.h"

#include "rtcuda/Tuner/Alternatives.h"

#include "rtcuda/Tuner/Expr.h"
#include "rtcuda/Tuner/Harness.h"
#include "rtcuda/Tuner/Report.h"
#include "rtcuda/Tuner/Selection.h"

#include "Measure.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include <sys/wait.h>
#include <unistd.h>

namespace rtcuda::tune {

volatile bool tuneInterrupted = false;

namespace fs = std::filesystem;

namespace {

// Resources of every variant of every kernel. Kernel.cu holds all kernels and each reads only
// its own macros, so compile j sets every kernel to its j-th variant at once.
// The defines of compile j: every kernel at its j-th variant. Alternative instantiations
// (mm_small_grid, ...) do not change with the tuning point and cost as much to compile as the
// kernel itself: only compile 0 of a measured run has them (their code for the harness), the
// others leave them out (kernel.cu's RTCUDA_TUNE_NO_ALTERNATIVES).
bool hasAlternatives(const std::vector<TuneKernel> &kernels) {
  return std::any_of(kernels.begin(), kernels.end(),
                     [](const TuneKernel &k) { return !k.k.alternatives.empty(); });
}

bool keepsAlternatives(const std::string &cubinDir, size_t j) { return j == 0 && !cubinDir.empty(); }

std::map<std::string, long long> rowDefines(const std::vector<TuneKernel> &kernels,
                                            const std::vector<std::vector<Variant>> &spaces, size_t j,
                                            bool withAlternatives) {
  std::map<std::string, long long> defines;
  for (size_t i = 0; i < kernels.size(); ++i)
    if (j < spaces[i].size())
      for (const auto &[macro, value] : macroValues(kernels[i], spaces[i][j])) defines[macro] = value;
  if (!withAlternatives && hasAlternatives(kernels)) defines["RTCUDA_TUNE_NO_ALTERNATIVES"] = 1;
  return defines;
}

// Where compile j's code is kept for the measurement (`cubinDir` empty: not kept), and the
// kernels' symbols in it (the file <cubin>.sym: "name symbol" lines).
std::string cubinPath(const std::string &cubinDir, const std::string &hash,
                      const std::map<std::string, long long> &defines) {
  if (cubinDir.empty()) return "";
  std::string text = hash;
  for (const auto &[macro, value] : defines) text += " " + macro + "=" + std::to_string(value);
  return cubinDir + "/" + contentHash(text) + ".cubin";
}

std::map<std::string, std::string> readSymbols(const std::string &cubin) {
  std::map<std::string, std::string> symbols;
  std::ifstream in(cubin + ".sym");
  std::string name, symbol;
  while (in >> name >> symbol) symbols[name] = symbol;
  return symbols;
}

// Resources (and, with `cubinDir`, the code for the measurement) of every variant, compiled in
// parallel; each compile's results are cached.
void compileResources(const Manifest &m, const std::vector<TuneKernel> &kernels,
                      const std::vector<std::vector<Variant>> &spaces,
                      std::vector<std::vector<Resources>> &out, const std::string &arch,
                      const ResourceCompiler &rc, Cache &cache, int jobs, Progress &progress,
                      const std::string &cubinDir,
                      std::vector<std::vector<std::pair<std::string, std::string>>> &code) {
  std::vector<std::string> keys;
  size_t rows = 0;
  out.assign(kernels.size(), {});
  code.assign(kernels.size(), {});
  std::vector<std::vector<bool>> need(kernels.size());
  std::string allHash;
  for (const TuneKernel &k : kernels) allHash += kernelHash(m, k);
  allHash = contentHash(allHash + arch + rc.toolkit());
  std::vector<std::string> names, withAlternatives;  // the kernels (and alternatives): symbols
  for (const TuneKernel &k : kernels) {
    names.push_back(k.k.name);
    withAlternatives.push_back(k.k.name);
    for (const ManifestAlternative &a : k.k.alternatives) withAlternatives.push_back(a.name);
  }
  if (!cubinDir.empty()) fs::create_directories(cubinDir);
  for (size_t i = 0; i < kernels.size(); ++i) {
    keys.push_back(resourceKey(kernelHash(m, kernels[i]), arch, rc.toolkit()));
    out[i].resize(spaces[i].size());
    code[i].resize(spaces[i].size());
    need[i].resize(spaces[i].size());
    for (size_t j = 0; j < spaces[i].size(); ++j) {
      auto hit = cache.findResources(keys[i], variantId(kernels[i], spaces[i][j]));
      std::string cubin = cubinPath(cubinDir, allHash, rowDefines(kernels, spaces, j, keepsAlternatives(cubinDir, j)));
      std::map<std::string, std::string> symbols;
      if (!cubin.empty() && fs::exists(cubin)) symbols = readSymbols(cubin);
      if (symbols.count(kernels[i].k.name)) code[i][j] = {cubin, symbols[kernels[i].k.name]};
      if (hit) out[i][j] = *hit;
      if (!hit || (!cubin.empty() && hit->error.empty() && code[i][j].first.empty()))
        need[i][j] = true, rows = std::max(rows, j + 1);
    }
  }
  if (rows == 0) return;
  if (!rc.available()) {
    for (size_t i = 0; i < kernels.size(); ++i)
      for (size_t j = 0; j < spaces[i].size(); ++j)
        if (need[i][j]) {
          Resources &r = out[i][j];
          r.regs = 32;
          r.source = "assumed (no CUDA compiler found: 32 registers, no shared memory)";
        }
    return;
  }
  int n = jobs > 0 ? jobs : int(std::max(1u, std::thread::hardware_concurrency()));
  // Compile j, as JSON: what the compiler used, each kernel's resources and symbols (the code
  // itself goes to its cubin file, the symbols next to it).
  auto compileRow = [&](size_t j) {
    bool alternatives = keepsAlternatives(cubinDir, j);
    std::map<std::string, long long> defines = rowDefines(kernels, spaces, j, alternatives);
    std::string used, cubin = cubinPath(cubinDir, allHash, defines);
    std::map<std::string, std::string> lowered;
    std::map<std::string, Resources> got =
        rc.compile(m, arch, defines, &used, cubin, alternatives ? withAlternatives : names, &lowered);
    if (!lowered.empty()) {
      std::ofstream sym(cubin + ".sym");
      for (const auto &[name, symbol] : lowered) sym << name << " " << symbol << "\n";
    }
    nlohmann::json row = {{"used", used}, {"cubin", cubin}, {"lowered", lowered}, {"resources", nlohmann::json::object()}};
    for (const auto &[name, r] : got) row["resources"][name] = toJson(r);
    return row;
  };
  size_t finished = 0, total = 0;
  for (size_t j = 0; j < rows; ++j)
    for (size_t i = 0; i < kernels.size(); ++i)
      if (j < spaces[i].size() && need[i][j]) {
        ++total;
        break;
      }
  auto compileStart = std::chrono::steady_clock::now();
  std::map<size_t, std::chrono::steady_clock::time_point> startedAt;  // each running compile's start
  double busySeconds = 0;                                             // the finished compiles' time
  // `row` null: the compile died (a crash of the compiler): an error for this run, not cached.
  auto record = [&](size_t j, const nlohmann::json &row, const std::string &died) {
    for (size_t i = 0; i < kernels.size(); ++i) {
      if (j >= spaces[i].size() || !need[i][j]) continue;
      Resources r;
      if (!died.empty()) {
        r.error = died;
        out[i][j] = r;
        continue;
      }
      const nlohmann::json &res = row["resources"];
      if (res.contains(kernels[i].k.name)) r = resourcesFromJson(res[kernels[i].k.name]);
      if (row["used"] != arch) r.source += " (this toolkit cannot compile for " + arch + ")";
      out[i][j] = r;
      if (row["lowered"].contains(kernels[i].k.name))
        code[i][j] = {row["cubin"].get<std::string>(), row["lowered"][kernels[i].k.name].get<std::string>()};
      cache.putResources(keys[i], variantId(kernels[i], spaces[i][j]), r);
    }
    auto now = std::chrono::steady_clock::now();
    auto began = startedAt.find(j);
    busySeconds += std::chrono::duration<double>(now - (began != startedAt.end() ? began->second : compileStart)).count();
    ++finished;
    // The compiles left at the mean compile's time, n at a time: the rate of the first ones to
    // finish (elapsed / finished) counted n in flight as one (gemm's 1024 variants on 16 cores:
    // "ETA 4:29" after the first, 45 s in all).
    const double mean = busySeconds / double(finished);
    progress.show("rtcuda-tune: compiling variants (" + arch + ", " + std::to_string(std::max(1, n)) +
                  " in parallel) " + std::to_string(finished) + "/" + std::to_string(total) +
                  ", ETA " + formatEta(mean * double(total - finished) / double(std::max(1, n))));
  };
  // One child process per compile, n at a time: NVRTC compiles of one process ran one at a time
  // on the H100 machine (64 of gemm's variants in 9.3 s on 16 threads, the first done after
  // 0.3 s). The child writes its row into a temporary file; a failed fork compiles here.
  std::map<pid_t, std::pair<size_t, std::string>> running;
  fs::path tmpDir = fs::temp_directory_path();
  std::string stem = "rtcuda-tune-" + std::to_string(getpid()) + "-row-";
  for (size_t j = 0; j < rows || !running.empty();) {
    if (j < rows && running.size() < size_t(std::max(1, n))) {
      bool any = false;
      for (size_t i = 0; i < kernels.size(); ++i) any = any || (j < spaces[i].size() && need[i][j]);
      if (any) {
        std::string file = (tmpDir / (stem + std::to_string(j) + ".json")).string();
        std::cout << std::flush;
        startedAt[j] = std::chrono::steady_clock::now();
        pid_t pid = fork();
        if (pid == 0) {
          std::string text = compileRow(j).dump();
          std::ofstream(file + ".tmp") << text;
          std::_Exit(std::rename((file + ".tmp").c_str(), file.c_str()) == 0 ? 0 : 1);
        }
        if (pid > 0) running[pid] = {j, file};
        else record(j, compileRow(j), "");
      }
      ++j;
      continue;
    }
    int status = 0;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) break;
    auto it = running.find(pid);
    if (it == running.end()) continue;
    auto [row, file] = it->second;
    running.erase(it);
    nlohmann::json result;
    try {
      result = nlohmann::json::parse(readFile(file));
    } catch (const std::exception &) {
    }
    std::error_code ec;
    fs::remove(file, ec);
    if (result.is_object())
      record(row, result, "");
    else
      record(row, nullptr, "the compiler's process died (" + (WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status)) : "exit " + std::to_string(WEXITSTATUS(status))) + ")");
  }
  cache.save();
}

// Where each variant of `k` is checked: the target sizes scaled down, then --check-size.
std::map<std::string, long long> checkSizesOf(const TuneKernel &k,
                                              const std::map<std::string, long long> &target,
                                              const TuneOptions &options) {
  std::map<std::string, long long> at = checkSizes(k, target, options.checkElements);
  for (const auto &[name, value] : options.checkSizes)
    if (at.count(name)) at[name] = value;
  return withinLimits(k, at);  // a --check-size over a size's at_most is capped there
}

// A host loop's bounds may name sizes of the function that the kernel does not read (a time
// loop's step count): those given with --size, as given.
std::map<std::string, long long> withGivenSizes(std::map<std::string, long long> sizes,
                                                const TuneOptions &options) {
  for (const auto &[name, value] : options.sizes) sizes.emplace(name, value);
  return sizes;
}

// Geometry, occupancy and prediction of every variant; the feasible ones ranked.
void modelKernel(const DeviceLimits &device, KernelResult &kr, const std::vector<Variant> &space,
                 const std::vector<Resources> &resources, const ModelParams &params) {
  const TuneKernel &k = *kr.kernel;
  Variant def = defaultVariant(k);
  for (size_t j = 0; j < space.size(); ++j) {
    VariantRecord r;
    r.v = space[j];
    r.id = variantId(k, r.v);
    r.res = resources[j];
    if (r.v == def) kr.defaultIndex = int(j);
    try {
      r.geo = geometry(k, kr.samples.empty() ? kr.sizes : kr.samples.front(), r.v);
    } catch (const ExprError &e) {
      r.excluded = std::string("cannot compute the launch: ") + e.what();
    }
    if (r.excluded.empty() && !r.res.error.empty()) r.excluded = "does not compile: " + r.res.error;
    if (r.excluded.empty()) {
      OccupancyQuery q;
      q.blockSize = int(std::min<long long>(r.geo.threads, 1 << 30));
      q.regsPerThread = r.res.regs;
      q.staticSmem = r.res.smem;
      r.occ = computeOccupancy(device, q);
      if (r.occ.blocksPerSM == 0) r.excluded = "infeasible: " + r.occ.infeasible;
      else if (r.geo.totalBlocks() == 0) r.excluded = "infeasible: no blocks at these sizes";
    }
    if (r.excluded.empty()) r.feasible = true;
    kr.variants.push_back(r);
  }
  // The loop nest is the same in every variant: the one mapping the most iterations does one
  // per thread, a variant mapping k times fewer does k per thread.
  long long most = 0;
  for (const VariantRecord &r : kr.variants) most = std::max(most, r.geo.totalIterations());
  for (VariantRecord &r : kr.variants)
    if (r.feasible && r.geo.totalIterations() > 0) {
      r.geo.coarsening = double(most) / double(r.geo.totalIterations());
      r.pred = predict(device, r.occ, r.geo, r.res.spillStores + r.res.spillLoads > 0, params);
    }
  std::vector<size_t> order;
  for (size_t j = 0; j < kr.variants.size(); ++j)
    if (kr.variants[j].feasible) order.push_back(j);
  // Ties (same prediction) go to block sizes nearer 256, a safe middle (seeds/002).
  auto distance = [&](size_t j) { return std::fabs(std::log2(double(kr.variants[j].geo.threads) / 256)); };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    double ua = kr.variants[a].pred.units, ub = kr.variants[b].pred.units;
    if (std::fabs(ua - ub) > 1e-9 * std::max(ua, ub)) return ua < ub;
    return distance(a) < distance(b);
  });
  for (size_t r = 0; r < order.size(); ++r) kr.variants[order[r]].rank = int(r + 1);
}

// What the program's launch runs for each feasible variant at the target size: its own kernel
// or an alternative instantiation (launchedAlternative, at every host-loop sample alike; where
// the samples disagree, its own kernel is timed and the report says so).
void setLaunches(KernelResult &kr, long long smCount, const std::string &firstCubin,
                 const std::map<std::string, long long> &firstDefines) {
  const TuneKernel &k = *kr.kernel;
  // Their code: compile 0's (the only one with the alternatives), when kept, and only where
  // compile 0 set the macros the alternative reads to its point. A 64-bit index alternative
  // reads the kernel's own macros, which compile 0 sets to variant 0's values (BLOCKSIZE 32
  // where the alternative launches 256 threads): the harness compiles it at its point instead.
  if (!firstCubin.empty() && !k.k.alternatives.empty()) {
    std::map<std::string, std::string> symbols = readSymbols(firstCubin);
    for (const ManifestAlternative &a : k.k.alternatives) {
      bool atItsPoint = std::all_of(a.point.begin(), a.point.end(), [&](const auto &mv) {
        auto it = firstDefines.find(mv.first);
        return it == firstDefines.end() || it->second == mv.second;
      });
      if (atItsPoint && symbols.count(a.name)) kr.alternativeCode[a.name] = {firstCubin, symbols[a.name]};
    }
  }
  if (k.k.alternatives.empty() || kr.selector <= 0) return;
  for (VariantRecord &r : kr.variants) {
    if (!r.feasible) continue;
    std::set<int> choices;
    try {
      for (const auto &at : kr.samples) choices.insert(launchedAlternative(k, at, r.v, kr.selector, smCount));
    } catch (const ExprError &) {
      continue;
    }
    if (choices.size() > 1) {
      r.launchNote = "the launch takes an alternative at some host-loop samples only: its own kernel timed";
      continue;
    }
    if (choices.empty() || *choices.begin() < 0) continue;
    const ManifestAlternative &alt = k.k.alternatives[size_t(*choices.begin())];
    // The 64-bit kernel is the point's own code in 64 bits, not a fixed point shared by others.
    if (alt.rule == "index_width") {
      r.wideKernel = alt.name;
      r.launchNote = "the launch runs " + alt.name + " (64-bit index arithmetic) at the target size: "
                     "timed as that, at this point";
    } else {
      r.launch = alt.name;
    }
  }
}

std::vector<size_t> ranked(const KernelResult &kr) {
  std::vector<size_t> order;
  for (size_t j = 0; j < kr.variants.size(); ++j)
    if (kr.variants[j].rank > 0) order.push_back(j);
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return kr.variants[a].rank < kr.variants[b].rank; });
  return order;
}

// The model's pick, or (measured) the counts, the exclusions and the calibration; the
// measured pick itself was made by measureKernel against the default point.
void pick(KernelResult &kr, bool measured) {
  if (!measured) {
    auto order = ranked(kr);
    if (!order.empty()) kr.chosen = int(order.front()), kr.chosenBy = "model";
  } else {
    for (size_t j = 0; j < kr.variants.size(); ++j) {
      VariantRecord &r = kr.variants[j];
      if (!r.meas) continue;
      if (r.meas->status != "unsupported") ++kr.timed;
      if (r.occ.blocksPerSM > 0 && r.meas->driverBlocksPerSM >= 0 &&
          r.meas->driverBlocksPerSM != r.occ.blocksPerSM && r.meas->regs == r.res.regs)
        ++kr.occupancyDisagreements;
      if (r.meas->status != "ok" || !r.meas->verified) {
        if (r.excluded.empty()) r.excluded = r.meas->status + ": " + r.meas->reason;
        continue;
      }
    }
    // The model's units in microseconds: the median ratio over the measured variants.
    std::vector<double> ratios;
    for (const VariantRecord &r : kr.variants)
      if (r.meas && r.meas->status == "ok" && r.pred.units > 0) ratios.push_back(r.meas->medianUs / r.pred.units);
    if (!ratios.empty()) {
      std::nth_element(ratios.begin(), ratios.begin() + ratios.size() / 2, ratios.end());
      double f = ratios[ratios.size() / 2];
      for (VariantRecord &r : kr.variants) r.predictedUs = r.pred.units * f;
    }
  }
  if (kr.chosen < 0 && kr.defaultIndex >= 0) {
    kr.chosen = kr.defaultIndex;
    kr.chosenBy = measured ? "the default kept: no variant passed the check" : "the default kept: no feasible variant";
  }
}

}  // namespace

int tuneOutput(const TuneOptions &options) {
  auto start = std::chrono::steady_clock::now();
  TuneRun run;
  run.options = options;
  Progress progress(options.quiet);
  Manifest m;
  try {
    m = readManifest(options.outDir);
  } catch (const ManifestError &e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  std::vector<TuneKernel> kernels;
  for (TuneKernel &k : loadKernels(m))
    if (options.kernels.empty() ||
        std::find(options.kernels.begin(), options.kernels.end(), k.k.name) != options.kernels.end())
      kernels.push_back(k);
  for (const std::string &name : options.kernels)
    if (std::none_of(kernels.begin(), kernels.end(), [&](const TuneKernel &k) { return k.k.name == name; })) {
      std::cerr << "rtcuda-tune: error: " << options.outDir << " has no kernel '" << name << "'\n";
      return 1;
    }
  // The launch's rule for its alternatives is read from the manifest: launch.cuh must agree.
  try {
    for (const TuneKernel &k : kernels) checkLaunchChoice(options.outDir, k);
  } catch (const ManifestError &e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  Cache cache(options.cachePath.empty() ? options.outDir + "/tuning/cache.json" : options.cachePath);
  ResourceCompiler rc(options.cudaPath);
  run.resourceCompiler = rc.available() ? rc.toolkit() : "nothing (no CUDA compiler found)";

  std::string exe;
  if (options.modelOnly) {
    std::string arch = options.arch.empty() ? (m.arch.empty() ? "sm_90" : m.arch) : options.arch;
    auto d = offlineDevice(arch);
    if (!d) {
      std::cerr << "rtcuda-tune: error: no offline device data for '" << arch << "' (known:";
      for (const DeviceLimits &t : offlineDevices()) std::cerr << " " << t.arch();
      std::cerr << ")\n";
      return 1;
    }
    run.device = *d;
    run.toolkit = rc.available() ? rc.toolkit() : "none";
  } else {
    std::string error;
    HarnessToolchain tools = defaultToolchain(options.cudaPath);
    progress.show("rtcuda-tune: building the measurement harness");
    bool built = !options.harness.empty() ? (exe = options.harness, true)
                                          : buildHarness(m, tools, options.outDir + "/tuning/work", &exe, &error);
    if (!built || !queryDevice(exe, &run.device, &run.toolkit, &error)) {
      progress.done();
      std::cerr << "rtcuda-tune: error: cannot measure: " << error
                << "\nrtcuda-tune: without a GPU, use --model-only to pick by the model\n";
      return 1;
    }
    run.measured = true;
  }
  progress.line("rtcuda-tune: " + options.outDir + ": " + std::to_string(kernels.size()) +
                " kernel(s) on " + run.device.name + " (" + run.device.arch() + ", " +
                std::to_string(run.device.smCount) + " SMs" +
                (run.measured ? ")" : ", offline table): model only, nothing will be measured"));

  // Sizes first: a kernel whose arrays have fixed extents is measured only at sizes the user
  // gives (larger ones than the program's would index past the arrays).
  std::vector<std::map<std::string, long long>> sizes(kernels.size());
  std::vector<std::map<std::string, std::string>> origins(kernels.size());
  for (size_t i = 0; i < kernels.size(); ++i) {
    TuneKernel &k = kernels[i];
    sizes[i] = chooseSizes(m, k, options.sizes, &origins[i]);
    std::string fixed;
    for (const ManifestParam &p : k.k.params)
      if (hasFixedExtent(p) && fixed.empty()) fixed = p.name + " (" + p.elements + " elements)";
    std::string guessed;
    for (const auto &[name, origin] : origins[i])
      if (origin == "default") guessed += (guessed.empty() ? "" : ", ") + name;
    // A size over its at_most (given with --size, or main.c's) would index past an array.
    for (const ManifestParam &p : k.k.params)
      if (!p.isArray() && sizes[i].count(p.name) && sizes[i][p.name] > p.atMost && k.notMeasurable.empty())
        k.notMeasurable = p.name + "=" + std::to_string(sizes[i][p.name]) + " (" + origins[i][p.name] +
                          ") is more than " + std::to_string(p.atMost) +
                          ", the constant extent its loops index: give a size of at most that";
    if (!fixed.empty() && !guessed.empty() && k.notMeasurable.empty())
      k.notMeasurable = "its arrays have fixed extents, e.g. " + fixed +
                        ", and no size was given for " + guessed +
                        ": give them with --size, at most the program's own sizes";
    // A kernel that reads a host loop's variable runs at some of the loop's values, at the
    // target size and at the checking size: both must exist.
    if (readsHostLoop(k) && k.notMeasurable.empty()) {
      try {
        for (const auto &at : {sizes[i], checkSizesOf(k, sizes[i], options)})
          if (hostSamples(k, withGivenSizes(at, options)).empty() && k.notMeasurable.empty())
            k.notMeasurable = "the host loops around its launch run no iteration with work for it at " +
                              sizesId(at);
      } catch (const ExprError &e) {
        k.notMeasurable = std::string("the bounds of the host loops around its launch: ") + e.what() +
                          " (give the function's sizes with --size)";
      }
    }
  }
  std::vector<std::vector<Variant>> spaces;
  for (const TuneKernel &k : kernels) {
    std::vector<Variant> all = enumerateSpace(k);
    if (run.measured && !k.notMeasurable.empty()) {  // the default stays
      spaces.push_back({defaultVariant(k)});
      progress.line("rtcuda-tune: " + k.k.name + (k.function.empty() ? "" : " (of " + k.function + ")") +
                    ": not tuned: " + k.notMeasurable);
      continue;
    }
    spaces.push_back(sampleSpace(all, defaultVariant(k), options.maxVariants, options.seed));
    if (spaces.back().size() < all.size())
      progress.line("rtcuda-tune: " + k.k.name + ": " + std::to_string(all.size()) +
                    " points; tuning a sample of " + std::to_string(spaces.back().size()) +
                    " (--max-variants)");
  }
  std::vector<std::vector<Resources>> resources;
  std::vector<std::vector<std::pair<std::string, std::string>>> code;
  auto compileStart = std::chrono::steady_clock::now();
  compileResources(m, kernels, spaces, resources, run.device.arch(), rc, cache, options.jobs, progress,
                   run.measured ? fs::absolute(options.outDir + "/tuning/work/cubin").string() : "", code);
  double compileSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - compileStart).count();
  size_t points = 0;
  for (const auto &s : spaces) points += s.size();

  for (size_t i = 0; i < kernels.size(); ++i) {
    KernelResult kr;
    kr.kernel = &kernels[i];
    kr.sizes = sizes[i];
    kr.sizeOrigin = origins[i];
    kr.checkSizes = checkSizesOf(kernels[i], kr.sizes, options);
    try {
      kr.samples = hostSamples(kernels[i], withGivenSizes(kr.sizes, options));
      kr.checkSamples = hostSamples(kernels[i], withGivenSizes(kr.checkSizes, options));
    } catch (const ExprError &) {  // not measured (above): the model sees the sizes alone
    }
    if (kr.samples.empty() || kr.checkSamples.empty()) kr.samples = {kr.sizes}, kr.checkSamples = {kr.checkSizes};
    modelKernel(run.device, kr, spaces[i], resources[i], options.model);
    for (size_t j = 0; j < kr.variants.size(); ++j)
      std::tie(kr.variants[j].cubin, kr.variants[j].lowered) = code[i][j];
    kr.selector = selectorValue(options.outDir, kernels[i]);
    kr.launchNames = launchNames(options.outDir, kernels[i], run.device.smCount);
    setLaunches(kr, run.device.smCount, code[i].empty() ? "" : code[i][0].first,
                spaces[i].empty() ? std::map<std::string, long long>{} : macroValues(kernels[i], spaces[i][0]));
    // The compile time, shared by the kernels in proportion to their variants.
    kr.compileSeconds = points ? compileSeconds * double(spaces[i].size()) / double(points) : 0;
    kr.seconds = kr.compileSeconds;
    run.kernels.push_back(std::move(kr));
  }

  if (run.measured) {
    Measuring ms{options, m, exe, run.device, run.toolkit, cache, progress, ""};
    for (size_t i = 0; i < run.kernels.size(); ++i) {
      KernelResult &kr = run.kernels[i];
      ms.label = run.kernels.size() > 1
                     ? "[" + std::to_string(i + 1) + "/" + std::to_string(run.kernels.size()) + "] "
                     : "";
      ms.kernelIndex = i;
      ms.kernelCount = run.kernels.size();
      ms.kernelStart = std::chrono::steady_clock::now();
      bool finished = measureKernel(ms, kr, spaces[i]);
      auto altStart = std::chrono::steady_clock::now();
      finished = finished && checkAlternatives(ms, kr);
      kr.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - altStart).count();
      if (!finished) {
        run.interrupted = true;
        break;
      }
      ms.finishedSeconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - ms.kernelStart).count();
    }
    progress.done();
  }
  for (KernelResult &kr : run.kernels) pick(kr, run.measured);

  // Parameter headers: only when the run finished, so an interrupted run changes nothing.
  for (KernelResult &kr : run.kernels) {
    if (kr.chosen < 0 || run.interrupted) continue;
    const VariantRecord &c = kr.variants[size_t(kr.chosen)];
    bool timed = c.meas && c.meas->status == "ok";
    std::string why = c.id + " for " + sizesId(kr.sizes) + " on " + run.device.name + ": " +
                      (kr.chosenBy == "measured" ? kr.why + (timed ? ", " + fmt(c.meas->medianUs) + " us" : "")
                       : kr.chosenBy == "model" ? "best predicted by the model (nothing measured)"
                                                : kr.chosenBy);
    std::string error;
    bool skipped = run.measured && !kr.kernel->notMeasurable.empty();  // its header stays as it is
    if (options.writeParams && !skipped && !writeParamsHeader(options.outDir, *kr.kernel, c.v, why, &error))
      std::cerr << "rtcuda-tune: warning: " << error << "\n";
    std::string line = "rtcuda-tune: " + kr.kernel->k.name + ": " + c.id + " (" +
                       (kr.chosenBy == "measured" ? kr.why : kr.chosenBy);
    if (timed) line += ", " + fmt(c.meas->medianUs) + " us";
    if (kr.defaultIndex >= 0 && kr.defaultIndex != kr.chosen) {
      const VariantRecord &def = kr.variants[size_t(kr.defaultIndex)];
      if (timed && def.meas && def.meas->status == "ok")
        line += "; default " + def.id + " " + fmt(def.meas->medianUs) + " us";
    }
    if (run.measured && !kr.kernel->notMeasurable.empty()) line += "; not measured: " + kr.kernel->notMeasurable;
    // Alternative instantiations: one that fails its check is turned off in the header.
    for (const AlternativeResult &a : kr.alternatives) {
      bool ok = a.meas.status == "ok" || a.meas.status == "slow";
      // Only a wrong result or a failed build or launch is evidence against the code; a timeout
      // or a harness problem says nothing of it (rtcuda verify checked it), so the header stays.
      bool failed = a.meas.status == "wrong" || a.meas.status == "crash" ||
                    a.meas.status == "launch-error" || a.meas.status == "compile-error";
      progress.line("rtcuda-tune: " + kr.kernel->k.name + ": alternative " + a.name + " (" +
                    a.selectMacro + "=" + std::to_string(a.selectValue) + "): " +
                    (ok ? "checked at " + sizesId(kr.checkSizes) + ", " + fmt(a.meas.medianUs) +
                              " us at " + sizesId(kr.sizes)
                        : a.meas.status + (a.meas.reason.empty() ? "" : " (" + a.meas.reason + ")") +
                              (failed ? "" : "; " + a.selectMacro + " left as it is")));
      if (!failed || !options.writeParams) continue;
      std::string why;
      if (!turnOffAlternatives(options.outDir, *kr.kernel, a.selectMacro, &why))
        std::cerr << "rtcuda-tune: warning: " << why << "\n";
      else
        progress.line("rtcuda-tune: " + kr.kernel->k.name + ": " + a.selectMacro + " set to 0 in " +
                      kr.kernel->k.paramsHeader + " (" + a.name + " failed)");
    }
    line += "; timed " + std::to_string(kr.timed) + "/" + std::to_string(kr.variants.size()) +
            (run.measured ? " in " + std::to_string(kr.rounds) + " round(s); " + fmt(kr.seconds, 1) +
                                " s, compiling " + fmt(kr.compileSeconds, 1) + " s" : "") + ")";
    progress.line(line);
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  writeReports(run);
  cache.save();
  progress.line("rtcuda-tune: report: " + options.outDir + "/tuning/report.md" +
                (run.measured ? "" : " (model only: nothing was measured)"));
  if (run.interrupted) {
    progress.line("rtcuda-tune: interrupted; run the same command again to resume (finished "
                  "variants are cached in " + cache.path() + ")");
    return 130;
  }
  return 0;
}

}  // namespace rtcuda::tune
