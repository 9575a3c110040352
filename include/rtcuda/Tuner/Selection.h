// How rtcuda-tune spends its time at the target size and what it writes: successive halving
// (every candidate timed with a few repetitions, the fastest quarter again with more, ..., the
// last few and the default point with the full count, in one harness run), the decision
// against the default point (a variant replaces it only when it is faster by more than the
// noise of both), and the ETA of a kernel's measurement. Pure functions, tested without a GPU.
#pragma once

#include "rtcuda/Tuner/Cache.h"

#include <string>
#include <utility>
#include <vector>

namespace rtcuda::tune {

struct Round {
  size_t keep = 0;          // the best verified variants of the previous round (0: all candidates)
  int reps = 3, warmup = 0;
  bool final = false;       // the full repetitions, the default point, the target-size check
};

// The rounds for `candidates` variants: one final round when there are at most 6, else 3
// repetitions each, then the best quarter with more while more than 16 are left, then the
// best 3 and the default point with `reps`.
std::vector<Round> planRounds(size_t candidates, int reps, int warmup);

// The survivors of a round: the `keep` fastest verified variants of `results` (index, its
// measurement), best first; the default point is added by the caller.
std::vector<size_t> survivors(const std::vector<std::pair<size_t, Measurement>> &results, size_t keep);

struct Decision {
  long chosen = -1;         // index into the candidates' indices, or the default's
  bool keptDefault = false;
  double margin = 0;        // the share by which a variant must beat the default
  std::string why;
};

// Picks among the final round's verified measurements (index, measurement): the fastest
// median, unless the default point (`defaultIndex`, -1 when it has none) was measured too and
// the fastest is not faster than it by more than max(`minMargin`, the mean of both relative
// interquartile ranges): then the default stays. A variant that is not "ok" and verified never
// wins.
Decision decide(const std::vector<std::pair<size_t, Measurement>> &finals, long defaultIndex,
                double minMargin = 0.01);

struct EtaInput {
  std::vector<Round> rounds;
  std::vector<size_t> counts;  // variants timed in each round (the plan's estimate ahead)
  size_t round = 0, done = 0;  // the current round and its variants finished
  double roundSeconds = 0;     // since the current round's harness started
  double startSeconds = 0;     // what starting a harness took (inputs, reference)
  double meanUs = 0;           // mean median of the variants timed so far
};

// Seconds left for this kernel's measurement, or -1 before anything is known: the current
// round's remaining variants at its observed rate, each later round's variants at the same
// per-variant overhead plus their runs at the target size (one checked run, the first run,
// warm-up and repetitions, at the mean time so far), plus a harness start per round.
double etaSeconds(const EtaInput &in);

// "1:05", "12 s", or "?".
std::string formatEta(double seconds);

}  // namespace rtcuda::tune
