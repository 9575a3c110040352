// Internal to RegisterTiling: split k, chunks of a contraction's k loop in blocks of their own.
#pragma once

#include "rtcuda/IR/IR.h"

#include <functional>
#include <string>
#include <vector>

namespace rtcuda {

// What RegisterTiling inserts where the launch may split k (RegisterTilingSplit.cpp).
struct SplitPlan {
  std::vector<ir::Stmt> range;   // declares kBegin and kStop: the block's chunk of k
  ir::Expr kBegin, kStop;        // the slab loop runs from kBegin to kStop
  ir::Stmt reset;                // before the slabs: a later chunk's sums start from zero
  std::vector<ir::Stmt> combine; // after the slabs: partial sums in, the last block adds them
  std::string last;              // 1 where the statements after k run (the last block)
  ir::Kernel::SplitK info;       // for the launch (ir::Kernel::splitK)
  std::vector<ir::DeviceArray> arrays;  // the workspace and the arrival counts
};

// A plan where `kLoop`'s body only adds (subtracts) to the thread's own variables declared
// outside it, reads none of them, and stores nothing else outside itself: the sum over k is then
// the sum of its chunks' sums. False (and `why`) otherwise.
bool planSplitK(const ir::Kernel &k, const ir::Stmt &kLoop, const ir::Expr &depth,
                const ir::Expr &blockSize, const ir::Expr &tileK,
                const std::function<std::string(const std::string &)> &fresh, SplitPlan &plan,
                std::string &why);

}  // namespace rtcuda
