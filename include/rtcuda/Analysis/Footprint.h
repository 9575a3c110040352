// Which arrays a kernel reads and writes, and how many elements of each it touches, as
// expressions of the kernel's scalar parameters. The host copies exactly that much.
#pragma once

#include "rtcuda/IR/IR.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

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

// Visits every array access of a kernel (loads and stores, `write` for a store) with the
// symbolic range of any integer expression at that place, as computeFootprints bounds them.
using AccessVisitor =
    std::function<void(const std::string &array, const std::vector<ir::Expr> &indices, bool write,
                       const std::function<SymRange(const ir::Expr &)> &rangeAt)>;
void visitAccessRanges(const ir::Kernel &k, const AccessVisitor &visit);

// The window a parallel nest reads of an array around each of its iterations: every read of
// the array is [p_0 + a_0]...[p_{D-1} + a_{D-1}], one parallel loop variable per subscript in
// nest order, each a_d within the constants [lo_d, hi_d] as the body's serial loops (constant
// bounds) run. `points` counts the reads one iteration makes (sites times serial trips). An
// array read only at subscripts that name no parallel loop (a filter's taps w[t]) has
// `invariant` set, and lo/hi bound the subscripts themselves, one per dimension it has.
struct ReadWindow {
  std::vector<int64_t> lo, hi;
  int64_t points = 0;
  bool invariant = false;
};

// The read windows of the arrays that `body` (the innermost parallel loop's body) reads only
// that way; arrays read any other way, and arrays it also writes, are absent. `why` (optional)
// gets, per array left out, the reason.
std::map<std::string, ReadWindow> readWindows(const ir::Stmt &body,
                                              const std::vector<std::string> &parallelVars,
                                              std::map<std::string, std::string> *why = nullptr);

}  // namespace rtcuda
