// What LaneReduction matches, shared with ReductionSplit (which splits the same loops across
// blocks first, so that both passes agree on which kernels are column sums).
#pragma once

#include "rtcuda/IR/IR.h"

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace rtcuda {

// Rows: LANES neighbouring threads share a row; Columns: the warps of a block split the rows
// of 32 neighbouring columns; None: one thread per iteration stays.
enum class LaneMapping { None, Rows, Columns };

// A one-thread-per-iteration kernel's reduction loop, as LaneReduction sees it.
struct LaneLoop {
  size_t index = 0;            // `int i = ... threadIdx.x ...;` in the body; its guard follows
  std::vector<ir::Stmt> body;  // the guarded statements
  size_t loop = 0;             // the reduction loop among them (step 1)
  std::string acc;             // the first of accs
  std::vector<std::string> accs;  // the thread's scalars it only adds into, declared before it
  std::vector<std::string> ops;   // each one's operator: "+", or "max" / "min" (fmaxf, max, ...)
  LaneMapping mapping = LaneMapping::None;  // chosen from the loop's loads
  bool stores = false;         // the loop also stores into arrays (independent iterations)
};

// The index of the first serial loop among `body`, or its size where there is none.
size_t firstSerialLoop(const std::vector<ir::Stmt> &body);

// The reduction loop of `k` (no reductions across threads, no atomics), or nullopt.
std::optional<LaneLoop> findLaneLoop(const ir::Kernel &k);

// The iterations of `loop` are independent but for the scalars `sums` it adds into: each stores
// into array elements of its own (subscripts moving with the loop's variable by a constant or by
// a row of the array), loads the arrays it stores only at those elements, and sets no scalar
// declared outside its body.
bool independentIterations(const ir::Kernel &k, const ir::Stmt &loop,
                           const std::vector<std::string> &sums);

// The loop that ends the statements after the reduction loop (`after`, run by lane 0 once the
// lanes' sums are combined), when the lanes may split it instead: its iterations are
// independent (each writes its own elements and reads no element another writes) and touch
// nothing the statements before it in `after` (`pre`, still lane 0's) write, except the stores
// `X[e] = acc` of a sum, whose loads it reads as `acc` (every lane holds the sums by then).
// Returns the loop with those loads replaced, or null (gramschmidt's `A[i][j] -= Q[i][k] *
// R[k][j]` after R[k][j]'s column sum).
// `steps`: the scalar steps among `pre` (scalars set from the sums, the parameters and arrays the
// kernel never writes: colnorm's `s = sqrtf(s)`) that the loop reads; every lane runs them again
// before the loop, in their order.
ir::Stmt splittableEpilogue(const ir::Kernel &k, const std::vector<ir::Stmt> &after,
                            const std::vector<std::string> &accs, std::vector<ir::Stmt> &steps);

// The scalars that `loop` updates with `+=` / `-=`, or whose maxima or minima it takes, or which
// keep the loop's index of a maximum or minimum (`if (v > m) { m = v; k = j; }`), declared in
// `before` (or declared before the thread's index, `outer`, and set by `before` with `=`); their
// operators ("+", "max", "min", "argmax m", "argmin m") in `ops`.
std::vector<std::string> updatedBy(const ir::Stmt &loop, const std::vector<ir::Stmt> &before,
                                   const std::vector<std::string> &outer, std::vector<std::string> &ops);

// The loop's body only adds into `accs` (or takes their maxima or minima, `ops`), reading none
// of them otherwise; every other effect stays inside one iteration.
bool addsInto(const ir::Kernel &k, const ir::Stmt &loop, const std::vector<std::string> &accs,
              const std::vector<std::string> &ops);

// Statements that only set the thread's own scalars (declared among them, or `outer`: declared
// before the thread's index).
bool setsOnlyLocals(const std::vector<ir::Stmt> &stmts, const std::vector<std::string> &outer);

// Nothing in `before` reads a sum of `accs` but the statements that set it (lanes other than 0
// start their sums from zero).
bool startsReadNoSum(const std::vector<ir::Stmt> &before, const std::vector<std::string> &accs);

// The statements before a reduction loop, as the lanes run them: declarations become
// assignments (the declarations, without values, go to `declared`); lane 0 starts each sum from
// its value, the other lanes from zero; a maximum or minimum starts from its value in every lane.
// `accTypes` gets the types of the sums `before` declares.
void startLanes(const std::vector<ir::Stmt> &before, const std::vector<std::string> &accs,
                const std::vector<std::string> &ops, std::vector<ir::Type> &accTypes,
                const std::string &lane, std::vector<ir::Stmt> &declared, std::vector<ir::Stmt> &guarded);

// Types __shfl_xor_sync takes (rtcuda_lane_sum's).
bool shuffleable(const ir::Type &t);

// Zero of a sum's type (0.0f, 0.0, (T)0).
ir::Expr zeroOf(const ir::Type &t);

// `loop` with its iterations dealt out to the lanes: from min + lane, step LANES.
ir::Stmt laneStrided(const ir::Stmt &loop, const ir::Expr &lane, const ir::Expr &lanes);

// The value whose argument maximum (minimum) an index result takes: "m" for the operator
// "argmax m" ("argmin m"); empty for any other operator.
std::string argPartner(const std::string &op);

// The shuffle combine of a row's results (LANES neighbouring threads): the threads past the end
// (`guard` false) take zero, then one rtcuda_lane_sum / _max / _min call each, every thread of
// the block reaching it; with `all` every lane gets its group's result, else lane 0. An argument
// maximum's value goes to every lane first (into a variable named by `fresh`), then its index is
// the smallest among the lanes that hold that value.
std::vector<ir::Stmt> shuffleCombine(const ir::Expr &guard, const ir::Expr &lanes,
                                     const std::vector<std::string> &accs,
                                     const std::vector<std::string> &ops,
                                     const std::vector<ir::Type> &types,
                                     const std::vector<std::string> &partials, bool all,
                                     const std::function<std::string(const std::string &)> &fresh);

// What a statement does (LaneReductionEpilogue.cpp): the scalars it sets (declares, assigns,
// loops over), the arrays it stores and loads, the variables it reads.
struct Effects {
  std::set<std::string> scalars, stored, loaded, vars;
  bool other = false;  // a jump, a barrier, a while loop, an atomic
};
Effects effectsOf(const ir::Stmt &s);

// A row's body after its first reduction loop, as the lanes go on with it once every lane holds
// that loop's results: further reductions (each combined into every lane), loops of independent
// iterations (split), scalar steps (every lane), stores of one element (lane 0), then lane 0's
// rest (LaneReductionPhases.cpp: softmax, layer norm). Null where the lanes would split no loop
// after the first, or where one phase could see another lane's store unordered (then
// splittableEpilogue may still split a last loop).
struct RowPhaseInput {
  ir::Expr guard, lane, lanes;                 // the row's guard, the lane, LANES
  ir::Stmt firstLoop;                          // the first reduction loop, as written
  std::vector<std::string> accs;               // the first loop's results, held by every lane
  std::vector<std::string> partials;           // their shared arrays
  std::vector<std::string> firstLoads;         // arrays the first loop and its starts read
  std::vector<ir::Stmt> locals;                // the scalars the lanes already hold (declarations)
};
struct RowPhases {
  std::vector<ir::Stmt> declared;  // declarations hoisted before the first guarded block
  std::vector<ir::Stmt> shared;    // the phases' partial-result arrays (shared memory)
  std::vector<ir::Stmt> stmts;     // the code after the first loop's combine
  std::string remark;
  // A row read by several phases, staged once in shared memory where it fits
  // (LaneReductionPhases.cpp, "row cache"): `fill` copies it (before the first guarded block,
  // ending with a barrier every thread reaches), and `cached` gives a phase's loop its two
  // forms (the copy's, or the array's where the rows do not fit); null `cached` without one.
  std::vector<ir::Stmt> fill;
  std::function<ir::Stmt(const ir::Stmt &)> cached;
};
std::optional<RowPhases> rowPhases(const ir::Kernel &k, const std::vector<ir::Stmt> &after,
                                   const RowPhaseInput &in);

}  // namespace rtcuda
