// Measuring one kernel: rounds of successive halving at the target size, each variant checked
// at the small size first (see Measure.h, Selection.h and docs/tuner.md).
#include "Measure.h"

#include "rtcuda/Support/Files.h"
#include "rtcuda/Tuner/Alternatives.h"
#include "rtcuda/Tuner/Expr.h"
#include "rtcuda/Tuner/Harness.h"
#include "rtcuda/Tuner/Selection.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <tuple>

#include <unistd.h>

namespace rtcuda::tune {

namespace fs = std::filesystem;

Progress::Progress(bool quiet) : quiet_(quiet), tty_(isatty(STDOUT_FILENO)) {}

void Progress::show(const std::string &text) {
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

void Progress::line(const std::string &text) {
  if (open_) std::cout << "\r\033[K";
  open_ = false;
  std::cout << text << "\n";
}

void Progress::done() {
  if (open_) std::cout << "\n";
  open_ = false;
}

std::string fmt(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

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

namespace {

using Results = std::vector<std::pair<size_t, Measurement>>;

struct RoundState {
  std::vector<Round> plan;
  std::vector<size_t> counts;
  double startSeconds = 0;
  double sumUs = 0;
  size_t timedOk = 0;
  std::chrono::steady_clock::time_point stopAt = std::chrono::steady_clock::time_point::max();
};

// Alternative `alt` launched by its own name, with its grid and threads at its fixed point, at
// the target and the checking size (in host loops: at each sample). Throws ExprError.
VariantLaunch alternativeLaunch(const KernelResult &kr, const ManifestAlternative &alt) {
  Variant v;
  TuneKernel ak = alternativeKernel(*kr.kernel, alt, &v);
  VariantLaunch l;
  l.id = alt.name;
  l.kernel = alt.name;
  for (const auto &[macro, value] : alt.point) l.defines[macro] = value;  // where compiled here
  auto code = kr.alternativeCode.find(alt.name);
  if (code != kr.alternativeCode.end()) std::tie(l.cubin, l.lowered) = code->second;
  // Its grid as the launch computes it: a split instantiation's grid[1] reads the SM count and
  // <NAME>_SPLIT_K (the launch's chunks of k).
  auto at = [&](std::map<std::string, long long> sizes) {
    for (const auto &[name, value] : kr.launchNames) sizes.emplace(name, value);
    return geometry(ak, sizes, v);
  };
  if (!readsHostLoop(*kr.kernel)) {
    l.geo = at(kr.sizes);
    l.checkGeo = at(kr.checkSizes);
    return l;
  }
  for (const auto &b : kr.samples) l.sampleGeo.push_back(at(b));
  for (const auto &b : kr.checkSamples) l.checkSampleGeo.push_back(at(b));
  l.geo = l.sampleGeo.front();
  l.checkGeo = l.checkSampleGeo.front();
  return l;
}

// What variant j's measurement runs: the program's launch at the target size, i.e. its own
// kernel at its point, or the alternative the launch takes for it (VariantRecord::launch),
// named by the alternative (every point that takes it runs the same code). `own`: always its
// own kernel (the default point as the reference of a comparison).
VariantLaunch launchOf(const KernelResult &kr, size_t j, bool own = false) {
  const TuneKernel &k = *kr.kernel;
  const VariantRecord &r = kr.variants[j];
  if (!own && !r.launch.empty())
    for (const ManifestAlternative &alt : k.k.alternatives)
      if (alt.name == r.launch) return alternativeLaunch(kr, alt);
  VariantLaunch l;
  l.id = r.id, l.geo = r.geo, l.defines = macroValues(k, r.v), l.cubin = r.cubin, l.lowered = r.lowered;
  if (!own && !r.wideKernel.empty()) l.kernel = r.wideKernel, l.cubin.clear(), l.lowered.clear();
  if (!readsHostLoop(k)) {
    l.checkGeo = geometry(k, kr.checkSizes, r.v);
    return l;
  }
  for (const auto &b : kr.samples) l.sampleGeo.push_back(geometry(k, b, r.v));
  for (const auto &b : kr.checkSamples) l.checkSampleGeo.push_back(geometry(k, b, r.v));
  l.geo = l.sampleGeo.front();
  l.checkGeo = l.checkSampleGeo.front();
  return l;
}

// ", all kernels ETA 1:10" while more kernels follow this one: this kernel's `left`, then each
// later kernel at the mean measuring time of those finished (this one's so far plus `left`
// before any has).
std::string runEta(const Measuring &ms, double left) {
  if (ms.kernelIndex + 1 >= ms.kernelCount || left < 0) return "";
  double mine = std::chrono::duration<double>(std::chrono::steady_clock::now() - ms.kernelStart).count();
  double each = ms.kernelIndex ? ms.finishedSeconds / double(ms.kernelIndex) : mine + left;
  return ", all kernels ETA " + formatEta(left + each * double(ms.kernelCount - ms.kernelIndex - 1));
}

// Times `which` in round `ri` of `st.plan`; every result goes into kr.variants and `results`.
bool measureRound(Measuring &ms, KernelResult &kr, const std::vector<size_t> &which, size_t ri,
                  RoundState &st, Results &results) {
  const TuneKernel &k = *kr.kernel;
  const Round &round = st.plan[ri];
  std::string hash = kernelHash(ms.m, k);
  std::string sizes = sizesId(kr.sizes) + samplesId(k, kr.samples) + " checked at " +
                      sizesId(kr.checkSizes) + samplesId(k, kr.checkSamples) + " reps " +
                      std::to_string(round.reps) + "+" + std::to_string(round.warmup) +
                      (round.final ? " final" : "");
  std::string key = measurementKey(hash, ms.device.name, ms.toolkit, k.dataType, sizes);
  nlohmann::json about = {{"kernel", k.k.name}, {"device", ms.device.name}, {"toolkit", ms.toolkit},
                          {"data_type", k.dataType}, {"sizes", sizes}, {"hash", hash}};
  MeasureJob job;
  job.kernel = &k;
  job.outDir = fs::absolute(ms.m.dir).string();
  fs::path work = fs::path(ms.m.dir) / "tuning" / "work";
  job.jobPath = fs::absolute(work / (k.k.name + ".job")).string();
  job.refCache = fs::absolute(work / ("ref-" + contentHash(hash + sizesId(kr.checkSizes) + k.dataType +
                                                           std::to_string(ms.opts.seed)) + ".bin")).string();
  job.sizes = kr.sizes;
  job.checkSizes = kr.checkSizes;
  if (readsHostLoop(k)) job.samples = kr.samples, job.checkSamples = kr.checkSamples;
  job.reps = round.reps;
  job.warmup = round.warmup;
  job.flush = ms.opts.flush;
  job.seed = ms.opts.seed;
  job.timeout = ms.opts.timeout;
  job.stopAt = st.stopAt;
  job.crossCheck = round.final;
  job.selfReference = !k.function.empty();
  job.cutoffUs = round.final ? -1 : 0;  // the final round times everything in full
  // The default point is the baseline only when it can run: feasible, and not failed before
  // (a crash there would take every variant of the round with it).
  const VariantRecord *def = kr.defaultIndex >= 0 ? &kr.variants[size_t(kr.defaultIndex)] : nullptr;
  bool runnable = def && def->feasible &&
                  (!def->meas || def->meas->status == "ok" || def->meas->status == "slow");
  if (runnable && (job.crossCheck || job.selfReference)) {
    try {
      job.baseline = launchOf(kr, size_t(kr.defaultIndex), true);
    } catch (const ExprError &) {
      runnable = false;
    }
  }
  if (!runnable) job.crossCheck = false;  // a self-referenced kernel's harness then refuses
  // Points whose launch runs the same alternative run the same code: one of them is measured
  // (the default point when it is one), named by the alternative.
  std::map<std::string, size_t> index, representative;
  auto launchId = [&](size_t j) {
    const VariantRecord &r = kr.variants[j];
    return r.launch.empty() ? r.id : r.launch;
  };
  for (size_t j : which)
    if (!representative.count(launchId(j)) || long(j) == kr.defaultIndex) representative[launchId(j)] = j;
  auto record = [&](size_t j, const Measurement &m, bool cached) {
    VariantRecord &r = kr.variants[j];
    r.meas = m;
    r.cached = cached;
    r.round = int(ri);
    results.push_back({j, m});
    if (m.status == "ok") st.sumUs += m.medianUs, ++st.timedOk;
  };
  for (size_t j : which) {
    VariantRecord &r = kr.variants[j];
    const std::string id = launchId(j);
    if (representative[id] != j) {
      r.launchNote = "runs " + r.launch + " at the target size: timed as " +
                     kr.variants[representative[id]].id;
      continue;
    }
    index[id] = j;
    if (!k.notMeasurable.empty()) {
      record(j, Measurement::failure("unsupported", k.notMeasurable), false);
      continue;
    }
    if (auto hit = ms.cache.find(key, id)) {
      record(j, *hit, true);
      ++kr.fromCache;
      continue;
    }
    try {
      job.variants.push_back(launchOf(kr, j));
    } catch (const ExprError &e) {
      record(j, Measurement::failure("infeasible", std::string("cannot compute the launch at the "
                                                               "checking size: ") + e.what()), false);
    }
  }
  size_t done = 0, total = job.variants.size();
  double best = std::numeric_limits<double>::infinity();
  std::string bestId;
  for (const auto &[j, m] : results)
    if (m.status == "ok" && m.medianUs < best) best = m.medianUs, bestId = launchId(j);
  auto roundStart = std::chrono::steady_clock::now();
  bool started = false;
  auto header = [&]() {
    EtaInput eta;
    eta.rounds = st.plan;
    eta.counts = st.counts;
    eta.counts[ri] = total;
    eta.round = ri;
    eta.done = done;
    eta.roundSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - roundStart).count();
    eta.startSeconds = st.startSeconds;
    eta.meanUs = st.timedOk ? st.sumUs / double(st.timedOk) : 0;
    double left = etaSeconds(eta);
    return "rtcuda-tune: " + ms.label + k.k.name + ": round " + std::to_string(ri + 1) + "/" +
           std::to_string(st.plan.size()) + " (" + std::to_string(round.reps) + " reps) " +
           std::to_string(done) + "/" + std::to_string(total) +
           (bestId.empty() ? "" : ", best " + bestId + " " + fmt(best) + " us") + ", ETA " +
           formatEta(left) + runEta(ms, left);
  };
  if (total == 0) return true;
  ms.progress.show(header());
  bool finished = runMeasurements(
      ms.exe, job, &tuneInterrupted,
      [&](const std::string &) {
        if (!started && st.startSeconds == 0)
          st.startSeconds =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - roundStart).count();
        started = true;
        ms.progress.show(header());
      },
      [&](const std::string &id, const Measurement &meas) {
        record(index[id], meas, false);
        ms.cache.put(key, about, id, meas);
        ++done;
        if (meas.status == "ok" && meas.medianUs < best) best = meas.medianUs, bestId = id;
        if (meas.status != "ok" && meas.status != "slow")
          ms.progress.line("rtcuda-tune: " + k.k.name + " " + id + " excluded: " + meas.status +
                           (meas.reason.empty() ? "" : " (" + meas.reason + ")"));
        ms.progress.show(header());
      });
  return finished;
}

}  // namespace

bool measureKernel(Measuring &ms, KernelResult &kr, const std::vector<Variant> &space) {
  auto start = std::chrono::steady_clock::now();
  std::vector<size_t> order;
  for (size_t j = 0; j < kr.variants.size(); ++j)
    if (kr.variants[j].rank > 0) order.push_back(j);
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return kr.variants[a].rank < kr.variants[b].rank; });
  std::optional<size_t> def;
  if (kr.defaultIndex >= 0 && kr.variants[size_t(kr.defaultIndex)].feasible) def = size_t(kr.defaultIndex);
  RoundState st;
  if (ms.opts.kernelSeconds > 0)
    st.stopAt = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(ms.opts.kernelSeconds));
  Results results;
  std::vector<size_t> candidates = order;
  if (ms.opts.strategy == Strategy::Pruned)
    candidates = prunedSelection(order, kr.variants.size(), ms.opts.fraction, def);
  size_t firstRound = 0;
  bool finished = true;
  if (ms.opts.strategy == Strategy::Budget) {
    // The search's batches are the first round (a few repetitions each).
    size_t budget = std::max<size_t>(ms.opts.budget, 1);
    st.plan = planRounds(budget + 1, std::max(ms.opts.reps, 10), ms.opts.warmup);
    st.counts.assign(st.plan.size(), 0);
    std::vector<bool> feasible;
    std::vector<int> rank;
    for (const VariantRecord &r : kr.variants) feasible.push_back(r.feasible), rank.push_back(r.rank);
    candidates = budgetSearch(*kr.kernel, space, feasible, rank, budget, ms.opts.seed,
                              [&](const std::vector<size_t> &batch) {
                                std::map<size_t, double> times;
                                if (!finished) return times;
                                st.counts[0] = batch.size();
                                Results got;
                                finished = measureRound(ms, kr, batch, 0, st, got);
                                for (const auto &[j, m] : got)
                                  times[j] = m.status == "ok" ? m.medianUs
                                                              : std::numeric_limits<double>::infinity();
                                // A point timed as another that runs the same alternative.
                                for (size_t j : batch)
                                  for (const auto &[o, m] : got)
                                    if (!times.count(j) && !kr.variants[j].launch.empty() &&
                                        kr.variants[j].launch == kr.variants[o].launch)
                                      times[j] = times[o];
                                results.insert(results.end(), got.begin(), got.end());
                                return times;
                              });
    if (def && std::find(candidates.begin(), candidates.end(), *def) == candidates.end()) {
      Results got;
      if (finished) finished = measureRound(ms, kr, {*def}, 0, st, got);
      results.insert(results.end(), got.begin(), got.end());
    }
    firstRound = 1;
    kr.rounds = 1;
  } else {
    if (def && std::find(candidates.begin(), candidates.end(), *def) == candidates.end())
      candidates.push_back(*def);
    st.plan = planRounds(candidates.size(), std::max(ms.opts.reps, 10), ms.opts.warmup);
    st.counts.assign(st.plan.size(), 0);
  }
  st.counts[0] = candidates.size();
  for (size_t r = 1; r < st.plan.size(); ++r) st.counts[r] = st.plan[r].keep + (st.plan[r].final && def ? 1 : 0);
  for (size_t r = firstRound; r < st.plan.size() && finished; ++r) {
    if (std::chrono::steady_clock::now() >= st.stopAt) {
      finished = false;
      break;
    }
    std::vector<size_t> which = candidates;
    if (r > 0) {
      which = survivors(results, st.plan[r].keep);
      if (st.plan[r].final && def && std::find(which.begin(), which.end(), *def) == which.end()) {
        const auto &m = kr.variants[*def].meas;
        if (!m || m->status == "ok" || m->status == "slow") which.push_back(*def);
      }
    }
    if (which.empty()) break;
    st.counts[r] = which.size();
    results.clear();
    finished = measureRound(ms, kr, which, r, st, results);
    kr.rounds = r + 1;
  }
  if (finished && !results.empty()) {
    Decision d = decide(results, kr.defaultIndex);
    if (d.chosen >= 0) kr.chosen = int(d.chosen), kr.chosenBy = "measured";
    kr.why = d.why;
    const std::string &taken = d.chosen >= 0 ? kr.variants[size_t(d.chosen)].launch : "";
    if (!taken.empty() && kr.defaultIndex >= 0 && d.chosen != kr.defaultIndex &&
        kr.variants[size_t(kr.defaultIndex)].launch == taken) {
      kr.chosen = kr.defaultIndex;  // the same program: nothing to change
      kr.why = "the default point kept: the launch runs " + taken + " for it too";
    } else if (!taken.empty()) {
      kr.why += " (the launch runs " + taken + " for it at the target size)";
    }
  }
  kr.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!finished && !tuneInterrupted) {
    // The --kernel-seconds limit: the last round, which compares the candidates with the
    // default point in one run, did not finish, so nothing may replace the default.
    double limit = ms.opts.kernelSeconds;
    kr.chosen = kr.defaultIndex;
    kr.chosenBy = "the default kept: measuring stopped at the --kernel-seconds limit (" +
                  fmt(limit, limit == std::floor(limit) ? 0 : 1) + " s) in round " +
                  std::to_string(kr.rounds) + " of " + std::to_string(st.plan.size());
    return true;
  }
  return finished;
}

bool checkAlternatives(Measuring &ms, KernelResult &kr) {
  const TuneKernel &k = *kr.kernel;
  if (k.k.alternatives.empty() || !k.notMeasurable.empty()) return true;
  MeasureJob job;
  job.kernel = &k;
  job.outDir = fs::absolute(ms.m.dir).string();
  fs::path work = fs::path(ms.m.dir) / "tuning" / "work";
  job.jobPath = fs::absolute(work / (k.k.name + ".alternatives.job")).string();
  std::string hash = kernelHash(ms.m, k);
  job.refCache = fs::absolute(work / ("ref-" + contentHash(hash + sizesId(kr.checkSizes) + k.dataType +
                                                           std::to_string(ms.opts.seed)) + ".bin")).string();
  job.sizes = kr.sizes;
  job.checkSizes = kr.checkSizes;
  job.reps = std::max(ms.opts.reps, 10);
  job.warmup = ms.opts.warmup;
  job.flush = ms.opts.flush;
  job.seed = ms.opts.seed;
  job.timeout = ms.opts.timeout;
  job.cutoffUs = -1;
  // An outlined kernel's reference is its default point's output (checked by rtcuda verify
  // through the function), as in the rounds.
  job.selfReference = !k.function.empty();
  if (readsHostLoop(k)) job.samples = kr.samples, job.checkSamples = kr.checkSamples;
  if (job.selfReference) {
    if (kr.defaultIndex < 0) return true;
    try {
      job.baseline = launchOf(kr, size_t(kr.defaultIndex), true);
    } catch (const ExprError &) {
      return true;
    }
  }
  std::map<std::string, size_t> index;
  for (const ManifestAlternative &alt : k.k.alternatives) {
    AlternativeResult r{alt.name, alt.selectMacro, alt.selectValue, {}};
    try {
      job.variants.push_back(alternativeLaunch(kr, alt));
      index[alt.name] = kr.alternatives.size();
    } catch (const ExprError &e) {
      r.meas = Measurement::failure("infeasible", std::string("cannot compute its launch: ") + e.what());
    }
    kr.alternatives.push_back(r);
  }
  if (job.variants.empty()) return true;
  ms.progress.show("rtcuda-tune: " + ms.label + k.k.name + ": checking its alternative instantiations");
  return runMeasurements(
      ms.exe, job, &tuneInterrupted, [](const std::string &) {},
      [&](const std::string &id, const Measurement &meas) {
        if (index.count(id)) kr.alternatives[index[id]].meas = meas;
      });
}

}  // namespace rtcuda::tune
