// Internal to RegisterTiling: the double-buffered staging of a contraction's operands.
#pragma once

#include "RegisterTiling.h"

#include <functional>

namespace rtcuda {

// Names the staging code declares for one operand (fresh in the kernel).
struct OperandNames {
  std::string tile;                  // the shared tile, two buffers
  std::string next;                  // a thread's share of the next slab, in registers
  std::string vec;                   // 1 when 128-bit loads of the operand are aligned
  std::string quads;                 // groups of 4 elements per thread and slab
};

// Names the staging code declares (fresh in the kernel).
struct StagingNames {
  std::vector<OperandNames> operands;  // as Contraction::operands
  std::string v, e, t, r, q;         // loop and index variables
  std::string stage;                 // the buffer the block multiplies from (0 or 1)
  std::string colGroup;              // consecutive columns of a thread
};

// The tile's geometry, as expressions over the kernel's names.
struct StagingShape {
  ir::Expr blockSize, tileRows, tileCols, threadCols, depth, aPitch, row0, col0;
  ir::Expr rowsEnd, colsEnd, kMin, kEnd;
};

struct Staging {
  std::vector<ir::Stmt> head;  // declarations before the slab loop
  std::vector<std::string> offsets;  // names of the current buffers' offsets, declared per slab
  // Loads the slab starting at `k0` into the thread's registers (zero outside the matrices).
  std::function<ir::Stmt(ir::Expr k0)> fetch;
  // Stores the registers into buffer `stage` of every tile.
  std::function<ir::Stmt(ir::Expr stage)> put;
};

Staging buildStaging(const ir::Kernel &k, const Contraction &c, const StagingNames &n,
                     const StagingShape &s);

}  // namespace rtcuda
