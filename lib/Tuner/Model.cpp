// The wave/tail model (see Model.h). Units: the latency of one iteration of one thread; only
// ratios between variants of a kernel matter.
#include "rtcuda/Tuner/Model.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

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

  // Iterations per thread: the block's share over its threads, grid-stride rows in y, and the
  // iterations a merged or skewed thread does for one mapped iteration.
  double rowsPerBlock = std::ceil(double(g.iterations[1]) / double(g.blocks[1]));
  double perThread = double(g.perBlock[0]) / double(g.threads) * std::max(1.0, rowsPerBlock) *
                     std::max(1.0, g.coarsening);

  const double resident = occ.blocksPerSM;
  const double sms = d.smCount;
  const double saturation = std::max(1.0, params.saturationFraction * d.maxWarpsPerSM());
  // Throughput cost of one warp: its iterations plus the fixed cost of a thread (start, index
  // arithmetic, bounds check), with the SM doing `saturation` warps' iterations per latency.
  // Big blocks retire only when their last warp does, which idles the finished warps' slots.
  const double drain = 1 + params.blockDrain * (warpsPerBlock - 1);
  const double warpCost = (params.threadOverhead + perThread) / saturation * drain;
  // Latency of one thread: its iterations, overlapped when a thread does several (merge, skew).
  const double latency = 1 + (perThread - 1) * params.iterationLatency;
  // A wave of `blocks` resident blocks on one SM: the latency of a thread, then the SM's
  // throughput for all their warps, and the cost of starting the blocks.
  auto wave = [&](double blocks) {
    if (blocks <= 0) return 0.0;
    return latency + blocks * activePerBlock * warpCost + blocks * params.blockOverhead;
  };

  double perWave = resident * sms;
  p.waves = double(p.blocks) / perWave;
  double fullWaves = std::floor(p.waves);
  double rest = double(p.blocks) - fullWaves * perWave;
  p.lastWaveFill = rest > 0 ? rest / perWave : 1.0;

  // Optimistic: the work spread evenly, as if blocks could be split between SMs.
  double warpsPerSM = activeWarps / sms;
  double busy = std::min(warpsPerSM, resident * activePerBlock);
  p.optimistic = latency * warpsPerSM / busy + warpsPerSM * warpCost +
                 double(p.blocks) / sms * params.blockOverhead;
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

namespace rtcuda::tune {

bool parseModelParams(const std::string &text, ModelParams *params) {
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find(',', at);
    std::string item = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    at = end == std::string::npos ? text.size() : end + 1;
    size_t eq = item.find('=');
    if (eq == std::string::npos) return false;
    std::string name = item.substr(0, eq);
    char *stop = nullptr;
    double value = std::strtod(item.c_str() + eq + 1, &stop);
    if (!stop || *stop || value < 0) return false;
    if (name == "saturation") params->saturationFraction = value;
    else if (name == "thread") params->threadOverhead = value;
    else if (name == "block") params->blockOverhead = value;
    else if (name == "drain") params->blockDrain = value;
    else if (name == "latency") params->iterationLatency = value;
    else if (name == "spill") params->spillPenalty = value;
    else return false;
  }
  return true;
}

}  // namespace rtcuda::tune
