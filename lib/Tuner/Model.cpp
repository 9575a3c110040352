// The wave/tail model (see Model.h). Units: the time one warp needs for one block's share of
// work when the SM is latency-bound; only ratios between variants of a kernel matter.
#include "rtcuda/Tuner/Model.h"

#include <algorithm>
#include <cmath>

namespace rtcuda::tune {

Prediction predict(const DeviceLimits &d, const Occupancy &occ, const Geometry &g, bool spills,
                   const ModelParams &params) {
  Prediction p;
  p.blocks = g.totalBlocks();
  if (p.blocks <= 0 || occ.blocksPerSM <= 0 || g.threads <= 0 || d.smCount <= 0) return p;

  const double warpSize = d.warpSize;
  const double warpsPerBlock = std::ceil(g.threads / warpSize);
  // Threads of the last block in x that have iterations to do; the rest exit at once.
  long long restX = g.iterations[0] - (g.blocks[0] - 1) * g.perBlock[0];
  if (g.blocks[0] * g.perBlock[0] < g.iterations[0]) restX = g.perBlock[0];  // capped grid
  double lastThreads = std::ceil(double(restX) * g.threads / g.perBlock[0]);
  double lastWarps = std::ceil(std::min<double>(lastThreads, g.threads) / warpSize);
  double activeWarps = g.blocks[1] * ((g.blocks[0] - 1) * warpsPerBlock + lastWarps);
  double activePerBlock = activeWarps / double(p.blocks);
  p.activeThreadFraction =
      double(g.iterations[0]) * g.iterations[1] /
      (double(g.blocks[0]) * g.perBlock[0] * g.blocks[1] * g.perBlock[1]);
  p.activeThreadFraction = std::min(1.0, p.activeThreadFraction);

  // Work of one warp in a block: iterations per thread, including grid-stride rows in y.
  double rowsPerBlock = std::ceil(double(g.iterations[1]) / double(g.blocks[1]));
  double perThread = double(g.perBlock[0]) / double(g.threads) * std::max(1.0, rowsPerBlock);

  const double resident = occ.blocksPerSM;
  const double sms = d.smCount;
  const double saturation = std::max(1.0, params.saturationFraction * d.maxWarpsPerSM());
  // A wave of `warps` resident warps on one SM takes one latency (a warp alone) plus its share
  // of the SM's throughput: more warps hide latency, up to `saturation` warps' worth.
  auto wave = [&](double blocks) {
    if (blocks <= 0) return 0.0;
    return perThread * (1 + blocks * activePerBlock / saturation);
  };

  double perWave = resident * sms;
  p.waves = double(p.blocks) / perWave;
  double fullWaves = std::floor(p.waves);
  double rest = double(p.blocks) - fullWaves * perWave;
  p.lastWaveFill = rest > 0 ? rest / perWave : 1.0;

  // Optimistic: the active warps spread evenly, as if blocks could be split.
  double warpsPerSM = activeWarps / sms;
  double busy = std::min(warpsPerSM, resident * activePerBlock);
  p.optimistic = perThread * (warpsPerSM / saturation + warpsPerSM / busy);
  // Whole waves, then the remainder one block per SM round-robin.
  p.spread = fullWaves * wave(resident) + wave(std::ceil(rest / sms));
  // Whole waves, then the remainder handed out in buckets of `resident` blocks.
  p.bucket = fullWaves * wave(resident) + wave(std::min(rest, resident));

  // Buckets is the interval's pessimistic end: it gives a partial wave's blocks to one SM,
  // which the block scheduler does not do, so it is reported but not averaged in.
  p.units = (p.optimistic + p.spread) / 2;
  if (spills) p.units *= 1 + params.spillPenalty;
  return p;
}

}  // namespace rtcuda::tune
