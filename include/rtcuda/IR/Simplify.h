// Integer simplification for index and extent expressions: constant folding and a polynomial
// normal form for +, -, * (so (N-1)*N + (N-1) + 1 prints as N * N). Floating-point arithmetic
// is never reassociated: the user's rounding stays as written.
#pragma once

#include "rtcuda/IR/IR.h"

namespace rtcuda::ir {

Expr simplify(const Expr &e);
Stmt simplify(const Stmt &s);

// True when a - b simplifies to the constant `*diff` (used to compare bounds).
bool constantDifference(const Expr &a, const Expr &b, int64_t *diff);

}  // namespace rtcuda::ir
