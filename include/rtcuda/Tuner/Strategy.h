// Which variants to time. Exhaustive: every feasible one. Pruned: the best-ranked fraction by
// the model (plus the default point, as a baseline). Budgeted: a random start, then local
// moves (pattern search over each parameter's value list, steps halving when nothing improves,
// a random restart when the steps are used up) until N variants have been timed.
#pragma once

#include "rtcuda/Tuner/Space.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rtcuda::tune {

enum class Strategy { Exhaustive, Pruned, Budget };
std::optional<Strategy> parseStrategy(const std::string &name);
std::string strategyName(Strategy s);

// `ranked`: feasible variant indices, best predicted first. Keeps the first
// max(1, floor(fraction * spaceSize)) of them, the default index among them (replacing the last
// one kept) when it is feasible.
std::vector<size_t> prunedSelection(const std::vector<size_t> &ranked, size_t spaceSize,
                                    double fraction, std::optional<size_t> defaultIndex);

// Times variants through `measure` (a batch of indices in, a median time per index out;
// +infinity for a variant that failed) until `budget` have been timed or none is left.
// Returns the indices in the order they were timed.
using MeasureBatch = std::function<std::map<size_t, double>(const std::vector<size_t> &)>;
std::vector<size_t> budgetSearch(const TuneKernel &k, const std::vector<Variant> &space,
                                 const std::vector<bool> &feasible, const std::vector<int> &rank,
                                 size_t budget, unsigned seed, const MeasureBatch &measure);

}  // namespace rtcuda::tune
