// HaloTile in two dimensions, a linear body (HaloTileRows.cpp): row sums into accumulators,
// COLS outputs per thread along the row (docs/passes/HaloTile.md, "Two dimensions: row sums").
#ifndef RTCUDA_LIB_TRANSFORMS_HALOTILEROWS_H
#define RTCUDA_LIB_TRANSFORMS_HALOTILEROWS_H

#include "HaloTileSlide.h"

namespace rtcuda::halo {

// The row of an array's tile, in elements: a thread reads COLS + halo elements from column
// col * COLS on (128-bit reads where COLS is a multiple of 4), so rows are 4-aligned and long
// enough for lane 31's last read.
ir::Expr rowsPitch(const ir::Kernel &k, const ReadWindow &w);
int64_t rowsPitch(const ReadWindow &w, int64_t cols);

// Registers a thread holds at `cols` outputs per row: the accumulators of the output rows in
// flight, each array's row, the taps, plus kOtherRegisters.
int64_t rowsRegisters(const ir::Kernel &k, const SlideSums &s, const Tiled &tiled,
                      const Taps &taps, int64_t cols);

// The outputs of one tile, once its arrays are in shared memory (`tileOf`: array -> its tile):
// window row r of the thread (rows of ITEMS outputs plus the halo) is read once into registers
// and adds each of its row offsets' terms to the output row it belongs to; an output row whose
// last row offset has arrived is stored. `first`: the tile's origin per loop.
std::vector<ir::Stmt> rowSums(const ir::Kernel &k, const SlideSums &s,
                              const std::vector<ir::Stmt> &loops,
                              const std::map<std::string, std::pair<std::string, ReadWindow>> &tileOf,
                              const std::vector<std::string> &first);

}  // namespace rtcuda::halo

#endif
