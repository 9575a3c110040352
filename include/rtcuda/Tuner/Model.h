// The ranking model: before anything is timed, each variant gets a predicted time in symbolic
// units from its occupancy and its launch (waves of blocks over the SMs, the partial last wave,
// idle threads of the last block), after the interval model of Duemmler & Egerland (seeds/001):
// an optimistic mapping (work spread evenly over the SMs) and two block-granular ones (whole
// waves of resident blocks, the remainder spread round-robin or given to one SM as a bucket);
// the prediction is the mean of the optimistic and round-robin ones, buckets being the
// interval's pessimistic end. A wave of resident blocks on an SM costs the latency of a thread
// plus the SM's throughput for their warps and the cost of starting the blocks, so more resident
// warps hide more latency (the thesis' S-cycles idea, seeds/004 §4.1.3), a partial last wave or
// a grid too small to fill the SMs shows, and many tiny blocks or threads with little work pay
// their fixed costs (what merge and skew levels save).
#pragma once

#include "rtcuda/Tuner/Device.h"
#include "rtcuda/Tuner/Occupancy.h"
#include "rtcuda/Tuner/Space.h"

#include <string>

namespace rtcuda::tune {

// The constants were fitted to exhaustive measurements of the examples on an H100
// (bench/tune_on_gpu.sh); `--model PARAMS` overrides them.
struct ModelParams {
  double saturationFraction = 0.0625; // resident warps, as a share of the SM's warp slots, whose
                                      // iterations the SM completes per latency
  double threadOverhead = 4;          // fixed cost of a thread, in iterations
  double blockOverhead = 0.5;         // cost of starting a block on an SM, in latencies
  double blockDrain = 0.004;          // per extra warp in a block: slots idle while it retires
  double iterationLatency = 0.25;     // latency of each further iteration of a thread (overlap)
  double spillPenalty = 0.25;         // extra cost of a variant that spills registers
};
// "saturation=0.25,thread=2,block=1,drain=0.004,latency=0.25,spill=0.25" (any subset); false on
// an unknown name or a bad number.
bool parseModelParams(const std::string &text, ModelParams *params);

struct Prediction {
  long long blocks = 0;         // blocks in the grid
  double waves = 0;             // blocks / (resident blocks per SM x SMs)
  double lastWaveFill = 0;      // how full the last wave is (1 = no partial wave)
  double activeThreadFraction = 0;  // threads with work / threads launched
  double optimistic = 0, spread = 0, bucket = 0;  // the three mappings, in units
  double units = 0;             // the prediction
};

Prediction predict(const DeviceLimits &device, const Occupancy &occupancy, const Geometry &geo,
                   bool spills, const ModelParams &params = {});

}  // namespace rtcuda::tune
