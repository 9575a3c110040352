// The ranking model: before anything is timed, each variant gets a predicted time in symbolic
// units from its occupancy and its launch (waves of blocks over the SMs, the partial last wave,
// idle threads of the last block), after the interval model of Duemmler & Egerland (seeds/001):
// an optimistic mapping (work spread evenly over the SMs) and two block-granular ones (whole
// waves of resident blocks, the remainder spread round-robin or given to one SM as a bucket);
// the prediction is the mean of the optimistic and round-robin ones, buckets being the
// interval's pessimistic end. A wave of k resident warps on an SM costs one latency plus k /
// saturation throughput units, so more resident warps hide more latency (the thesis' S-cycles
// idea, seeds/004 §4.1.3) and a partial last wave or a grid too small to fill the SMs shows.
#pragma once

#include "rtcuda/Tuner/Device.h"
#include "rtcuda/Tuner/Occupancy.h"
#include "rtcuda/Tuner/Space.h"

namespace rtcuda::tune {

struct ModelParams {
  double saturationFraction = 0.25; // resident warps, as a fraction of the SM's warp slots,
                                    // that keep the SM's throughput busy (latency hidden)
  double spillPenalty = 0.25;       // extra cost of a variant that spills registers
};

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
