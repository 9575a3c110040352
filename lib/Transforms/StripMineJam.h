// Internal to the passes: strip-mine-and-jam of one parallel loop (see StripMineJam.cpp).
#pragma once

#include "rtcuda/Transforms/Pass.h"

#include <set>

namespace rtcuda {

struct StripSpec {
  ir::Expr factor;            // iterations per thread: a tuning macro (MERGE_LEVEL, SKEW_LEVEL)
  ir::Expr striped;           // null: consecutive iterations; else a macro (1 = BLOCKSIZE apart)
  ir::Expr blockSize;         // threads per block (for the striped arrangement)
  ir::LoopKind kind;          // Merge or Skew: the kind of the per-thread loops
  std::string stripVarBase;   // name of the per-thread loop variable
  std::string outerSuffix;    // appended to the loop variable for the thread-level loop
};

// Returns the loop that replaces `loop` (a parallel loop with step 1).
ir::Stmt stripMineAndJam(const ir::Kernel &k, const ir::Stmt &loop, const StripSpec &spec);

// Reading a strip back: BlockMerge and BlockSkew build `for f { int v = index(f); if (v < end)
// { ... } }`, and later passes look inside it through this view.
struct StripView {
  ir::Stmt loop;
  std::vector<ir::Stmt> header;   // leading scalar declarations (the strip's index)
  ir::Expr guard;                 // null when there is none
  std::vector<ir::Stmt> rest;     // the statements after the header, inside the guard if any
  std::set<std::string> names;    // the loop variable and the header's variables
  ir::Expr guardAtFirst() const;  // the guard in the loop's first iteration
};
bool isStrip(const ir::Stmt &s);  // a Merge or Skew loop
StripView viewStrip(const ir::Stmt &loop);
// The index a strip's header declares, without the clamp to the loop's end that a loop
// variable narrower than 64 bits gets (`int j = (int)llmin(index, (long long)end)`).
ir::Expr stripIndex(const ir::Stmt &header);
// `k` with every strip header's clamp removed (RegisterTiling: its tiles keep 32-bit indices).
ir::Kernel unclampStrips(const ir::Kernel &k);

// `body` (a parallel loop's body holding strips) as `if (every strip whole) { the strips without
// guards and clamps } else { body }`: a strip is whole where its last iteration's index is below
// the loop's end (its indices grow with the iteration, so all are). The whole case is straight
// code: the compiler issues every copy's loads together and reads a value two copies share once
// (the guards kept it from doing either). `body` itself when a strip is not of the form
// stripMineAndJam builds, or its index depends on another strip's variables.
ir::Stmt wholeStripsFirst(const ir::Stmt &body);

// A per-thread work factor's tuning parameter: the powers of two in the configured range and
// its maximum, defaulting to the value closest to `wanted`.
ir::TuningParam factorParam(const ir::Kernel &k, const std::string &name, const TuningRange &r,
                            int wanted);

// Replaces the loop named `var` in the parallel nest by `replacement`.
ir::Kernel replaceParallelLoop(const ir::Kernel &k, const std::string &var,
                               const ir::Stmt &replacement);

}  // namespace rtcuda
