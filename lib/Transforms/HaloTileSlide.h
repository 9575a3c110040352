// The sliding tile's two files (three dimensions): HaloTileSlide.cpp walks the planes and copies
// them; HaloTileSlideSums.cpp finds a body that is a linear form of the tiled reads and emits its
// sums per plane (docs/passes/HaloTile.md, "Three dimensions: a sliding tile").
#ifndef RTCUDA_LIB_TRANSFORMS_HALOTILESLIDE_H
#define RTCUDA_LIB_TRANSFORMS_HALOTILESLIDE_H

#include "HaloTileParts.h"

#include <optional>

namespace rtcuda::halo {

// One read of a tiled array in the body's linear form: weight * array[p + at] (weight null: 1).
struct SumTerm {
  std::string array;
  std::vector<int64_t> at;
  ir::Expr weight;
};

// A body that stores out[index] = scale * (sum of the terms) + constant, where no weight, scale
// or constant depends on a parallel loop (constants, taps in registers, scalar parameters).
struct SlideSums {
  std::string out;
  std::vector<ir::Expr> index;
  ir::Type elem;
  ir::Expr scale, constant;  // null: none
  std::vector<SumTerm> terms;
};

// The body's linear form, or nothing when it is not one (a product of two reads, a branch, a
// second store, arithmetic in another type than the arrays').
std::optional<SlideSums> slideSums(const ir::Kernel &k, const ir::Stmt &body,
                                   const std::vector<std::string> &vars, const Tiled &tiled,
                                   const Taps &taps);

// The registers a thread holds for the sums at `items` rows: each array's part of the new plane,
// the accumulators of the planes in flight, the shared row and plane sums.
int64_t sumsWords(const ir::Kernel &k, const SlideSums &s, const Tiled &tiled, int64_t items);

// A tiled array's part of the new plane in registers: win[row * wrow + column], rows
// 0 .. ITEMS + hi_1 - lo_1 - 1 of the thread's window.
struct PlanePart {
  std::string array, win;
  ReadWindow w;
  ir::Expr wrow;
};

// One step's sums once the parts hold the new plane: its partial sums added to the accumulators
// `acc` (span planes of ITEMS outputs; plane t holds the outputs t planes after the oldest),
// then, where `ready`, the oldest plane's outputs (`at` declares the loop variables for output
// q, `valid` guards them), then the accumulators move down a plane.
std::vector<ir::Stmt> sumsStep(const ir::Kernel &k, const SlideSums &s,
                               const std::vector<PlanePart> &parts, const std::string &acc,
                               int64_t span, const std::string &q, const std::vector<ir::Stmt> &at,
                               const ir::Expr &valid, const ir::Expr &ready);

}  // namespace rtcuda::halo

#endif
