// Dependence analysis of a kernel's loop nest: which of its outer loops carry a dependence
// between accesses to the kernel's arrays (one iteration reads or writes an element that
// another iteration writes). Exact, with isl, when subscripts and bounds are affine in the loop
// variables and scalar parameters -- linearized subscripts such as A[i * n + j] included, when
// the inner part provably stays within the row -- and conservative otherwise: a subscript the
// analysis cannot follow (hist[data[i] & 63]) may touch any element. docs/legality.md.
#pragma once

#include "rtcuda/IR/IR.h"

#include <optional>
#include <string>
#include <vector>

namespace rtcuda {

struct Dependence {
  int level = 0;            // the loop of the nest that carries it (0 = outermost)
  std::string array;
  // Both accesses are updates with the same commutative operator (A[x] += v): any order of
  // them gives the same result, so atomic updates remove the dependence.
  bool commutative = false;
  bool exact = true;        // false: a subscript was not affine (it may be a false alarm)
  ir::SourceLoc loc;        // the statement to name: the later access of the two
  std::string message;      // "'a[i] = a[i - 1] + b[i];' reads a[i - 1], written by ..."
  ir::SourceLoc otherLoc;   // the statement of the other access (rtcuda explain shows both)
  // isl failed on these accesses (message says "could not analyze ..." with isl's message):
  // nothing is known, the loop is not run in parallel unless the user asserts it.
  bool failed = false;
};

// The dependences carried by each loop of `loops` (a perfect nest, outermost first, loops[0]
// being the whole nest), between accesses anywhere inside it. At most one per loop and pair
// of accesses; the most informative first.
std::vector<Dependence> carriedDependences(const ir::Kernel &k, const std::vector<ir::Stmt> &loops);

// For reordering transformations (Interchange, Fusion): the first pair of accesses, one inside
// `source` and one inside `sink` (statements under loops[0]; each access under at least
// loops.size() loops, counted from loops[0], whose positions stand for x0, x1, ... and y0, ...),
// that touch one element, at least one of them writing, at iterations x of the source's and y
// of the sink's loops with `order` (isl constraints over x0.. and y0.., e.g.
// "x0 = y0 and x1 < y1 and x2 > y2"). `phrase` says where x is relative to y in the message
// ("in an earlier iteration of loop 'k' and a later one of loop 'j'"). An access isl cannot
// follow touches any element; a failed isl call gives a Dependence with `failed` set.
std::optional<Dependence> orderedDependence(const ir::Kernel &k, const std::vector<ir::Stmt> &loops,
                                            const ir::Stmt &source, const ir::Stmt &sink,
                                            const std::string &order, const std::string &phrase);

// The start of an `order` for orderedDependence: the first `depth` loops at the same iteration
// ("x0 = y0 and x1 = y1 and "; empty for depth 0).
std::string sameIterationsOrder(size_t depth);

}  // namespace rtcuda
