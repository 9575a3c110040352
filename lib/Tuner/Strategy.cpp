// Search strategies (see Strategy.h).
#include "rtcuda/Tuner/Strategy.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>

namespace rtcuda::tune {

std::optional<Strategy> parseStrategy(const std::string &name) {
  if (name == "exhaustive") return Strategy::Exhaustive;
  if (name == "pruned") return Strategy::Pruned;
  if (name == "budget") return Strategy::Budget;
  return std::nullopt;
}

std::string strategyName(Strategy s) {
  switch (s) {
  case Strategy::Exhaustive: return "exhaustive";
  case Strategy::Pruned: return "pruned";
  case Strategy::Budget: return "budget";
  }
  return "?";
}

std::vector<size_t> prunedSelection(const std::vector<size_t> &ranked, size_t spaceSize,
                                    double fraction, std::optional<size_t> defaultIndex) {
  size_t keep = static_cast<size_t>(std::floor(fraction * double(spaceSize) + 1e-9));
  keep = std::min(std::max<size_t>(keep, 1), ranked.size());
  std::vector<size_t> chosen(ranked.begin(), ranked.begin() + keep);
  if (defaultIndex && !chosen.empty() &&
      std::find(ranked.begin(), ranked.end(), *defaultIndex) != ranked.end() &&
      std::find(chosen.begin(), chosen.end(), *defaultIndex) == chosen.end())
    chosen.back() = *defaultIndex;
  return chosen;
}

std::vector<size_t> budgetSearch(const TuneKernel &k, const std::vector<Variant> &space,
                                 const std::vector<bool> &feasible, const std::vector<int> &rank,
                                 size_t budget, unsigned seed, const MeasureBatch &measure) {
  const auto &tuning = k.k.tuning;
  std::map<Variant, size_t> indexOf;
  for (size_t i = 0; i < space.size(); ++i) indexOf[space[i]] = i;
  // Position of each value in its parameter's list.
  auto position = [&](size_t param, int value) {
    const auto &vals = tuning[param].values;
    return static_cast<long>(std::find(vals.begin(), vals.end(), value) - vals.begin());
  };
  std::map<size_t, double> timed;
  std::vector<size_t> order;
  std::mt19937 rng(seed);
  auto untimed = [&]() {
    std::vector<size_t> left;
    for (size_t i = 0; i < space.size(); ++i)
      if (feasible[i] && !timed.count(i)) left.push_back(i);
    return left;
  };
  auto run = [&](std::vector<size_t> batch) {
    if (batch.size() > budget - order.size()) batch.resize(budget - order.size());
    if (batch.empty()) return;
    std::map<size_t, double> got = measure(batch);
    for (size_t i : batch) {
      timed[i] = got.count(i) ? got[i] : std::numeric_limits<double>::infinity();
      order.push_back(i);
    }
  };
  auto best = [&]() {
    size_t b = timed.begin()->first;
    for (const auto &[i, t] : timed)
      if (t < timed[b]) b = i;
    return b;
  };
  long maxLen = 1;
  for (const auto &t : tuning) maxLen = std::max<long>(maxLen, long(t.values.size()));
  long firstStep = 1;
  while (firstStep * 4 < maxLen) firstStep *= 2;

  while (order.size() < budget) {
    std::vector<size_t> left = untimed();
    if (left.empty()) break;
    // A (re)start: a random feasible variant not timed yet.
    run({left[std::uniform_int_distribution<size_t>(0, left.size() - 1)(rng)]});
    for (long step = firstStep; step >= 1 && order.size() < budget && !timed.empty();) {
      size_t center = best();
      if (std::isinf(timed[center])) break;
      std::vector<size_t> moves;
      for (size_t p = 0; p < tuning.size(); ++p) {
        long at = position(p, space[center][p]);
        for (long dir : {-1L, 1L}) {
          long to = at + dir * step;
          if (to < 0 || to >= long(tuning[p].values.size())) continue;
          Variant v = space[center];
          v[p] = tuning[p].values[size_t(to)];
          auto it = indexOf.find(v);
          if (it != indexOf.end() && feasible[it->second] && !timed.count(it->second))
            moves.push_back(it->second);
        }
      }
      std::sort(moves.begin(), moves.end(), [&](size_t a, size_t b) { return rank[a] < rank[b]; });
      if (moves.empty()) {
        step /= 2;
        continue;
      }
      double before = timed[center];
      run(moves);
      if (!(timed[best()] < before)) step /= 2;
    }
  }
  return order;
}

}  // namespace rtcuda::tune
