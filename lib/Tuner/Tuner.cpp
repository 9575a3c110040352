// rtcuda-tune's driver: resources, model, strategy, measurement, pick, reports (see Tuner.h).
#include "rtcuda/Tuner/Tuner.h"
#include "rtcuda/Support/Files.h"

#include "rtcuda/Tuner/Expr.h"
#include "rtcuda/Tuner/Harness.h"
#include "rtcuda/Tuner/Report.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <mutex>
#include <sstream>
#include <thread>

#include <unistd.h>

namespace rtcuda::tune {

volatile bool tuneInterrupted = false;

namespace fs = std::filesystem;

namespace {

// One status line, rewritten in place on a terminal.
class Progress {
public:
  explicit Progress(bool quiet) : quiet_(quiet), tty_(isatty(STDOUT_FILENO)) {}
  // Off a terminal (CI logs) at most one line every few seconds.
  void show(const std::string &text) {
    if (quiet_) return;
    auto now = std::chrono::steady_clock::now();
    if (tty_) {
      std::cout << "\r\033[K" << text << std::flush;
      open_ = true;
    } else if (now - last_ > std::chrono::seconds(5)) {
      std::cout << text << "\n" << std::flush;
      last_ = now;
    }
  }
  void line(const std::string &text) {
    if (open_) std::cout << "\r\033[K";
    open_ = false;
    std::cout << text << "\n";
  }
  void done() {
    if (open_) std::cout << "\n";
    open_ = false;
  }

private:
  bool quiet_, tty_, open_ = false;
  std::chrono::steady_clock::time_point last_{};
};

std::string fmt(double v, int digits = 2) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// What identifies a kernel's code for the caches: kernel.cu, the reference C, the kernel's
// name and tuning space (not the header's default, which the tuner itself rewrites).
std::string kernelHash(const Manifest &m, const TuneKernel &k) {
  std::string text = readFile((fs::path(m.dir) / "kernel.cu").string());
  for (const std::string &ref : m.referenceSources) text += readFile((fs::path(m.dir) / ref).string());
  text += "\n" + k.k.name;
  for (const ManifestTuning &t : k.k.tuning) {
    text += " " + t.name + ":" + t.macro;
    for (int v : t.values) text += "," + std::to_string(v);
  }
  return contentHash(text);
}

// Resources of every variant of every kernel. Kernel.cu holds all kernels and each reads only
// its own macros, so compile j sets every kernel to its j-th variant at once.
void compileResources(const Manifest &m, const std::vector<TuneKernel> &kernels,
                      const std::vector<std::vector<Variant>> &spaces,
                      std::vector<std::vector<Resources>> &out, const std::string &arch,
                      const ResourceCompiler &rc, Cache &cache, int jobs, Progress &progress) {
  std::vector<std::string> keys;
  size_t rows = 0;
  out.assign(kernels.size(), {});
  std::vector<std::vector<bool>> need(kernels.size());
  for (size_t i = 0; i < kernels.size(); ++i) {
    keys.push_back(resourceKey(kernelHash(m, kernels[i]), arch, rc.toolkit()));
    out[i].resize(spaces[i].size());
    need[i].resize(spaces[i].size());
    for (size_t j = 0; j < spaces[i].size(); ++j) {
      auto hit = cache.findResources(keys[i], variantId(kernels[i], spaces[i][j]));
      if (hit) out[i][j] = *hit;
      else need[i][j] = true, rows = std::max(rows, j + 1);
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
  std::atomic<size_t> next{0}, finished{0};
  std::mutex lock;
  auto worker = [&]() {
    for (size_t j; (j = next++) < rows;) {
      std::map<std::string, long long> defines;
      for (size_t i = 0; i < kernels.size(); ++i)
        if (j < spaces[i].size())
          for (const auto &[macro, value] : macroValues(kernels[i], spaces[i][j])) defines[macro] = value;
      std::string used;
      auto got = rc.compile(m, arch, defines, &used);
      std::lock_guard<std::mutex> guard(lock);
      for (size_t i = 0; i < kernels.size(); ++i)
        if (j < spaces[i].size() && need[i][j]) {
          Resources r = got[kernels[i].k.name];
          if (used != arch) r.source += " (this toolkit cannot compile for " + arch + ")";
          out[i][j] = r;
          cache.putResources(keys[i], variantId(kernels[i], spaces[i][j]), r);
        }
      progress.show("rtcuda-tune: compiling variants for their resources (" + arch + ") " +
                    std::to_string(++finished) + "/" + std::to_string(rows));
    }
  };
  int n = jobs > 0 ? jobs : int(std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (int t = 0; t < std::min<int>(n, int(rows)); ++t) pool.emplace_back(worker);
  for (std::thread &t : pool) t.join();
  cache.save();
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
      r.geo = geometry(k, kr.sizes, r.v);
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

std::vector<size_t> ranked(const KernelResult &kr) {
  std::vector<size_t> order;
  for (size_t j = 0; j < kr.variants.size(); ++j)
    if (kr.variants[j].rank > 0) order.push_back(j);
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return kr.variants[a].rank < kr.variants[b].rank; });
  return order;
}

struct Measuring {
  const TuneOptions &opts;
  const Manifest &m;
  const std::string &exe;
  const DeviceLimits &device;
  const std::string &toolkit;
  Cache &cache;
  Progress &progress;
};

// Times `which` (cached results are reused); returns false when interrupted.
bool measureBatch(Measuring &ms, KernelResult &kr, const std::vector<size_t> &which) {
  const TuneKernel &k = *kr.kernel;
  std::string hash = kernelHash(ms.m, k);
  std::string key = measurementKey(hash, ms.device.name, ms.toolkit, k.dataType, sizesId(kr.sizes));
  nlohmann::json about = {{"kernel", k.k.name}, {"device", ms.device.name}, {"toolkit", ms.toolkit},
                          {"data_type", k.dataType}, {"sizes", sizesId(kr.sizes)}, {"hash", hash}};
  MeasureJob job;
  job.kernel = &k;
  job.outDir = fs::absolute(ms.m.dir).string();
  fs::path work = fs::path(ms.m.dir) / "tuning" / "work";
  job.jobPath = fs::absolute(work / (k.k.name + ".job")).string();
  job.refCache = fs::absolute(work / ("ref-" + contentHash(key + std::to_string(ms.opts.seed)) + ".bin")).string();
  job.sizes = kr.sizes;
  job.reps = std::max(ms.opts.reps, 10);
  job.warmup = ms.opts.warmup;
  job.flush = ms.opts.flush;
  job.seed = ms.opts.seed;
  job.timeout = ms.opts.timeout;
  std::map<std::string, size_t> index;
  for (size_t j : which) {
    VariantRecord &r = kr.variants[j];
    index[r.id] = j;
    if (!k.notMeasurable.empty()) {
      r.meas = Measurement::failure("unsupported", k.notMeasurable);
      continue;
    }
    if (auto hit = ms.cache.find(key, r.id)) {
      r.meas = *hit;
      r.cached = true;
      ++kr.fromCache;
      continue;
    }
    job.variants.push_back({r.id, r.geo, macroValues(k, r.v)});
  }
  size_t done = 0, total = job.variants.size();
  double best = std::numeric_limits<double>::infinity();
  std::string bestId;
  for (size_t j : which)
    if (kr.variants[j].meas && kr.variants[j].meas->status == "ok" && kr.variants[j].meas->medianUs < best)
      best = kr.variants[j].meas->medianUs, bestId = kr.variants[j].id;
  auto header = [&]() {
    return "rtcuda-tune: " + k.k.name + " " + std::to_string(done) + "/" + std::to_string(total) +
           (bestId.empty() ? "" : ", best " + bestId + " " + fmt(best) + " us");
  };
  if (total == 0) return true;
  bool finished = runMeasurements(
      ms.exe, job, &tuneInterrupted,
      [&](const std::string &id) { ms.progress.show(header() + ", timing " + id + " ..."); },
      [&](const std::string &id, const Measurement &meas) {
        VariantRecord &r = kr.variants[index[id]];
        r.meas = meas;
        ms.cache.put(key, about, id, meas);
        ++done;
        if (meas.status == "ok" && meas.medianUs < best) best = meas.medianUs, bestId = id;
        if (meas.status != "ok")
          ms.progress.line("rtcuda-tune: " + k.k.name + " " + id + " excluded: " + meas.status +
                           (meas.reason.empty() ? "" : " (" + meas.reason + ")"));
        ms.progress.show(header());
      });
  return finished;
}

void pick(KernelResult &kr, bool measured) {
  if (!measured) {
    auto order = ranked(kr);
    if (!order.empty()) kr.chosen = int(order.front()), kr.chosenBy = "model";
  } else {
    double best = std::numeric_limits<double>::infinity();
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
      if (r.meas->medianUs < best) best = r.meas->medianUs, kr.chosen = int(j);
    }
    if (kr.chosen >= 0) kr.chosenBy = "measured";
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
    if (!buildHarness(m, tools, options.outDir + "/tuning/work", &exe, &error) ||
        !queryDevice(exe, &run.device, &run.toolkit, &error)) {
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

  std::vector<std::vector<Variant>> spaces;
  for (const TuneKernel &k : kernels) {
    std::vector<Variant> all = enumerateSpace(k);
    spaces.push_back(sampleSpace(all, defaultVariant(k), options.maxVariants, options.seed));
    if (spaces.back().size() < all.size())
      progress.line("rtcuda-tune: " + k.k.name + ": " + std::to_string(all.size()) +
                    " points; tuning a sample of " + std::to_string(spaces.back().size()) +
                    " (--max-variants)");
  }
  std::vector<std::vector<Resources>> resources;
  compileResources(m, kernels, spaces, resources, run.device.arch(), rc, cache, options.jobs, progress);

  for (size_t i = 0; i < kernels.size(); ++i) {
    KernelResult kr;
    kr.kernel = &kernels[i];
    kr.sizes = chooseSizes(m, kernels[i], options.sizes, &kr.sizeOrigin);
    modelKernel(run.device, kr, spaces[i], resources[i], options.model);
    run.kernels.push_back(std::move(kr));
  }

  if (run.measured) {
    Measuring ms{options, m, exe, run.device, run.toolkit, cache, progress};
    for (KernelResult &kr : run.kernels) {
      std::vector<size_t> order = ranked(kr);
      bool finished = true;
      if (options.strategy == Strategy::Budget) {
        std::vector<bool> feasible;
        std::vector<int> rank;
        for (const VariantRecord &r : kr.variants) feasible.push_back(r.feasible), rank.push_back(r.rank);
        budgetSearch(*kr.kernel, spaces[size_t(&kr - run.kernels.data())], feasible, rank,
                     options.budget, options.seed, [&](const std::vector<size_t> &batch) {
                       std::map<size_t, double> times;
                       if (!finished) return times;
                       finished = measureBatch(ms, kr, batch);
                       for (size_t j : batch) {
                         const auto &meas = kr.variants[j].meas;
                         times[j] = meas && meas->status == "ok" ? meas->medianUs
                                                                 : std::numeric_limits<double>::infinity();
                       }
                       return times;
                     });
      } else {
        std::vector<size_t> which = order;
        if (options.strategy == Strategy::Pruned)
          which = prunedSelection(order, kr.variants.size(), options.fraction,
                                  kr.defaultIndex >= 0 ? std::optional<size_t>(size_t(kr.defaultIndex))
                                                       : std::nullopt);
        finished = measureBatch(ms, kr, which);
      }
      if (!finished) {
        run.interrupted = true;
        break;
      }
    }
    progress.done();
  }
  for (KernelResult &kr : run.kernels) pick(kr, run.measured);

  // Parameter headers: only when the run finished, so an interrupted run changes nothing.
  for (KernelResult &kr : run.kernels) {
    if (kr.chosen < 0 || run.interrupted) continue;
    const VariantRecord &c = kr.variants[size_t(kr.chosen)];
    std::string why = c.id + " for " + sizesId(kr.sizes) + " on " + run.device.name + ": " +
                      (kr.chosenBy == "measured" ? "fastest verified variant, " + fmt(c.meas->medianUs) + " us"
                       : kr.chosenBy == "model" ? "best predicted by the model (nothing measured)"
                                                : kr.chosenBy);
    std::string error;
    if (options.writeParams && !writeParamsHeader(options.outDir, *kr.kernel, c.v, why, &error))
      std::cerr << "rtcuda-tune: warning: " << error << "\n";
    std::string line = "rtcuda-tune: " + kr.kernel->k.name + ": " + c.id + " (" + kr.chosenBy;
    if (c.meas && c.meas->status == "ok") line += ", " + fmt(c.meas->medianUs) + " us";
    if (kr.defaultIndex >= 0 && kr.defaultIndex != kr.chosen) {
      const VariantRecord &def = kr.variants[size_t(kr.defaultIndex)];
      if (c.meas && def.meas && c.meas->status == "ok" && def.meas->status == "ok")
        line += "; default " + def.id + " " + fmt(def.meas->medianUs) + " us";
    }
    line += "; timed " + std::to_string(kr.timed) + "/" + std::to_string(kr.variants.size()) + ")";
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
