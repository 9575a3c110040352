// Internal to the passes: recognizing the nests that RegisterTiling turns into register tiles
// (ContractionMatch.cpp) and putting them in the form it reads (ContractionForm.cpp).
#pragma once

#include "rtcuda/Transforms/Pass.h"

namespace rtcuda {

// One operand of a contraction: an array the serial loop k reads with the row variable i (a
// row operand: R[i][k], or R[k][i] when `kMajor`) or the column variable j (a column operand:
// C[k][j], or C[j][k] when not `kMajor`). `kMajor`: k is the first subscript, so consecutive
// elements of a memory row are consecutive rows (columns) of the tile.
struct ContractionOperand {
  std::string array;
  bool column = false;
  bool kMajor = false;
};

// A contraction nest: two parallel loops (rows i, columns j) around a serial loop k whose body
// reads at least one row operand and one column operand (a matrix multiply). `rowVar` and
// `colVar` are the variables those subscripts use: the rows of a BlockMerge strip, and the
// columns of a BlockSkew strip (or, before BlockSkew, the column loop's own variable).
struct Contraction {
  ir::Stmt reduceLoop;      // the serial k loop, a statement of the column loop's body
  std::vector<ContractionOperand> operands;  // row operands first, then column operands
  std::string rowArray, colArray;            // the first row and the first column operand
  std::string rowVar, colVar;
};

// True when the kernel is such a nest and its options ask for merge, skew and the prefetch of
// its operands. BlockSkew asks before skewing (its striped columns are then THREAD_COLS apart,
// the width of a tile, instead of BLOCKSIZE); RegisterTiling asks again after. `why` (may be
// null) says what was found when it is not.
bool findContraction(const ir::Kernel &k, const KernelOptions &o, Contraction *out = nullptr,
                     std::string *why = nullptr);

// Where every store after the k loop (`after`) is under one guard of the rows and columns that
// is a conjunction of affine comparisons (a triangle's, ContractionForm): whether some element of
// the rectangle [row0, rowLast] x [col0, colLast] passes it, checked at the corners (block
// uniform; a block where it is false skips its slabs). Null where there is no such guard.
ir::Expr tileMayStore(const ir::Kernel &k, const std::vector<ir::Stmt> &after,
                      const std::string &rowVar, const std::string &colVar, const ir::Expr &row0,
                      const ir::Expr &rowLast, const ir::Expr &col0, const ir::Expr &colLast);

// The operands of `loop`'s body among `candidates` (arrays the kernel does not write), read
// with rows `rowVar` and columns `colVar`. An array also read any other way is no operand;
// `why` collects what was found about the arrays left out.
std::vector<ContractionOperand> contractionOperands(const ir::Kernel &k, const ir::Stmt &loop,
                                                    const std::string &rowVar,
                                                    const std::string &colVar,
                                                    const std::vector<std::string> &candidates,
                                                    std::string *why = nullptr);

// ContractionForm on a nest as ParallelLoops left it (rows i and columns j parallel): an
// element C[i][j] accumulated in the k loop becomes a scalar (read or initialized before,
// stored once after), and a guard around the whole body of j (BoundingBox's triangle) stays
// only on the initialization and the store. Returns the kernel unchanged (with a remark
// saying why when `remarks`) where it does not apply.
ir::Kernel contractionForm(const ir::Kernel &k, const PassContext &ctx);
// The same rewrite, with what blocked it in `why`; the kernel unchanged where it did not apply.
ir::Kernel formContraction(const ir::Kernel &k, std::string *why);

// The first strip loop of `kind` in `within` with one index variable and its guard:
// `for f { int v = index(f); if (v < end) { ... } }` (BlockMerge's rows, BlockSkew's columns).
struct Strip {
  ir::Stmt loop, decl;
  ir::Expr guard, end;
};
bool findStrip(const ir::Stmt &within, ir::LoopKind kind, Strip &out);

// The options that give a nest the register-tiled mapping when the config left merge, skew and
// prefetch to the analysis (KernelOptions::autoMapping): merge and skew on, the operands
// prefetched. False where the nest is no contraction.
bool contractionMapping(const ir::Kernel &k, const KernelOptions &o, KernelOptions &out,
                        std::string *why = nullptr);

}  // namespace rtcuda
