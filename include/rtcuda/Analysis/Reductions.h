// Recognizes read-modify-write updates with a commutative, associative operator, on array
// elements (A[x] += v, A[x] = fmaxf(A[x], v)) and on scalars declared before the loop nest
// (s += x[i], m = fmaxf(m, x[i]), if (x[i] > m) m = x[i]). Such updates may run in any order:
// across threads they become atomics (arrays) or a parallel reduction (scalars).
#pragma once

#include "rtcuda/IR/IR.h"

#include <optional>
#include <string>

namespace rtcuda {

struct UpdateForm {
  std::string op;      // "+", "*", "min", "max", "|", "&", "^"
  ir::Expr value;      // the operand combined into the element
  bool negate = false; // "-=" and "x - v": the element gets op "+" with -value
};

// The update form of a Store to an array (`A[x] op= v` or `A[x] = A[x] op v`), when `v` does
// not read A[x] itself (it may read other elements of A, which the dependence analysis tests
// as ordinary reads); nullopt otherwise.
std::optional<UpdateForm> arrayUpdate(const ir::Stmt &store);

// How a scalar declared before the loop nest is used inside it.
struct ScalarUse {
  bool assigned = false;          // some statement of the nest assigns it
  std::optional<std::string> op;  // every use is an update with this operator: a reduction
  ir::Stmt blocker;               // otherwise: the first statement that reads it differently
};
ScalarUse classifyScalar(const ir::Stmt &nest, const std::string &var);

// Whether a reduction (or an atomic update) with `op` on this type can be generated.
bool reducibleType(const ir::Type &t, const std::string &op);

}  // namespace rtcuda
