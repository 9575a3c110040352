// Internal to the passes: recognizing the nests that RegisterTiling turns into register tiles.
#pragma once

#include "rtcuda/Transforms/Pass.h"

namespace rtcuda {

// A contraction nest: two parallel loops (rows i, columns j) around a serial loop k that reads
// one prefetched array as R[i][k] and another as C[k][j] (a matrix multiply). `rowVar` and
// `colVar` are the variables those subscripts use: the rows of a BlockMerge strip, and the
// columns of a BlockSkew strip (or, before BlockSkew, the column loop's own variable).
struct Contraction {
  ir::Stmt reduceLoop;      // the serial k loop, a statement of the column loop's body
  std::string rowArray, colArray;
  std::string rowVar, colVar;
};

// True when the kernel is such a nest and its options ask for merge, skew and the prefetch of
// both operands. BlockSkew asks before skewing (its striped columns are then THREAD_COLS apart,
// the width of a tile, instead of BLOCKSIZE); RegisterTiling asks again after.
bool findContraction(const ir::Kernel &k, const KernelOptions &o, Contraction *out = nullptr);

}  // namespace rtcuda
