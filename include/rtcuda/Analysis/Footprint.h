// Which arrays a kernel reads and writes, and how many elements of each it touches, as
// expressions of the kernel's scalar parameters. The host copies exactly that much.
#pragma once

#include "rtcuda/IR/IR.h"

#include <map>
#include <string>

namespace rtcuda {

struct ArrayFootprint {
  bool read = false;
  bool written = false;
  // Elements of the outermost dimension touched (max index + 1), or null if unknown.
  ir::Expr rows;
  // Total elements: rows times the inner dimensions; null if unknown.
  ir::Expr elements;
};

// Symbolic bounds [lo, hi] of an integer expression (both inclusive), null when unknown.
struct SymRange {
  ir::Expr lo, hi;
};

// Computes footprints of every array parameter. Scalar parameters are treated as unknown but
// non-negative when they multiply an index (they are sizes); loop variables range over their
// loops; locals with one definition take the range of that definition.
std::map<std::string, ArrayFootprint> computeFootprints(const ir::Kernel &k);

}  // namespace rtcuda
