// Successive halving, the decision against the default point, and the ETA (see Selection.h).
#include "rtcuda/Tuner/Selection.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace rtcuda::tune {

std::vector<Round> planRounds(size_t candidates, int reps, int warmup) {
  std::vector<Round> rounds;
  if (candidates <= 6) {
    rounds.push_back({0, reps, warmup, true});
    return rounds;
  }
  rounds.push_back({0, 3, 0, false});
  size_t left = candidates;
  int r = 5;
  while (left > 16) {
    left = std::max<size_t>(4, (left + 3) / 4);
    if (left <= 4) break;
    rounds.push_back({left, std::min(r, reps), std::min(1, warmup), false});
    r *= 2;
  }
  rounds.push_back({3, reps, warmup, true});
  return rounds;
}

static bool usable(const Measurement &m) { return m.status == "ok" && m.verified; }

std::vector<size_t> survivors(const std::vector<std::pair<size_t, Measurement>> &results, size_t keep) {
  std::vector<std::pair<double, size_t>> ok;
  for (const auto &[index, m] : results)
    if (usable(m)) ok.push_back({m.medianUs, index});
  std::stable_sort(ok.begin(), ok.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  std::vector<size_t> out;
  for (size_t i = 0; i < ok.size() && (keep == 0 || i < keep); ++i) out.push_back(ok[i].second);
  return out;
}

static double relativeSpread(const Measurement &m) {
  return m.medianUs > 0 ? std::max(0.0, m.q3Us - m.q1Us) / m.medianUs : 0;
}

static std::string percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * share);
  return buf;
}

Decision decide(const std::vector<std::pair<size_t, Measurement>> &finals, long defaultIndex,
                double minMargin) {
  Decision d;
  const Measurement *best = nullptr, *def = nullptr;
  for (const auto &[index, m] : finals) {
    if (!usable(m)) continue;
    if (long(index) == defaultIndex) def = &m;
    if (!best || m.medianUs < best->medianUs) best = &m, d.chosen = long(index);
  }
  if (!best) {
    d.why = "no variant passed the check";
    return d;
  }
  if (!def) {
    d.why = defaultIndex < 0 ? "fastest verified variant" : "fastest verified variant (the default point failed)";
    return d;
  }
  d.margin = std::max(minMargin, (relativeSpread(*best) + relativeSpread(*def)) / 2);
  if (d.chosen == defaultIndex) {
    d.keptDefault = true;
    d.why = "the default point is the fastest";
  } else if (best->medianUs <= def->medianUs * (1 - d.margin)) {
    d.why = "fastest verified variant, " + percent(1 - best->medianUs / def->medianUs) +
            " faster than the default point (noise " + percent(d.margin) + ")";
  } else {
    d.chosen = defaultIndex;
    d.keptDefault = true;
    d.why = "the default point kept: nothing beats it by more than the noise (" +
            percent(d.margin) + ")";
  }
  return d;
}

double etaSeconds(const EtaInput &in) {
  if (in.round >= in.rounds.size() || in.done == 0 || in.meanUs <= 0) return -1;
  auto runs = [](const Round &r) { return double(2 + r.warmup + r.reps); };
  double perVariant = in.roundSeconds / double(in.done);
  double overhead = std::max(0.0, perVariant - runs(in.rounds[in.round]) * in.meanUs * 1e-6);
  size_t count = in.round < in.counts.size() ? in.counts[in.round] : in.done;
  double left = double(count > in.done ? count - in.done : 0) * perVariant;
  for (size_t r = in.round + 1; r < in.rounds.size(); ++r) {
    double n = r < in.counts.size() ? double(in.counts[r]) : double(in.rounds[r].keep + 1);
    left += in.startSeconds + n * (overhead + runs(in.rounds[r]) * in.meanUs * 1e-6);
  }
  return left;
}

std::string formatEta(double seconds) {
  if (seconds < 0 || !std::isfinite(seconds)) return "?";
  long s = std::lround(seconds);
  char buf[32];
  if (s < 60) std::snprintf(buf, sizeof buf, "%ld s", s);
  else std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

}  // namespace rtcuda::tune
