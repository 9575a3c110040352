// HaloTile's pieces shared by its files: HaloTile.cpp (the analysis, tiles of one and two
// dimensions), HaloTileFill.cpp (their load phase), HaloTileSlide.cpp (three dimensions: a 2-D
// tile sliding along the outermost loop, 2.5-D blocking) and the others named in
// docs/passes/HaloTile.md.
#ifndef RTCUDA_LIB_TRANSFORMS_HALOTILEPARTS_H
#define RTCUDA_LIB_TRANSFORMS_HALOTILEPARTS_H

#include "rtcuda/Analysis/Footprint.h"
#include "rtcuda/IR/IR.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace rtcuda::halo {

constexpr int64_t kWarp = 32, kSharedBytes = 48 * 1024, kMaxWindowWords = 96,
                  kOtherRegisters = 20, kMaxDepth = 3, kSlideMaxBlock = 512;
// The sliding tile's row widths (WIDTH, HaloTileSlide.cpp).
constexpr int64_t kSlideWidths[] = {32, 64, 128, 256};

// array -> (its local array, its window): the filter taps a thread keeps in registers.
using Taps = std::map<std::string, std::pair<std::string, ReadWindow>>;
using Tiled = std::vector<std::pair<std::string, ReadWindow>>;

// c = (o / stride) % extent, without the division by 1 or the outermost modulo.
ir::Expr coordinate(const ir::Expr &o, const std::vector<ir::Expr> &extents, size_t d);

// A read of a tap array, rewritten to a read of its local array; nullptr for other reads.
ir::Expr tapRead(const ir::Expr &load, const Taps &taps);

// An int constant of the kernel (`const int name = value;`).
ir::Stmt constantDecl(const std::string &name, const ir::Expr &value);

// One tiled array of a tile that a block copies into shared memory (HaloTileSlide.cpp,
// HaloTileStream.cpp): its name, window and type, and fresh names for its tile, the thread's
// window and the copies per thread.
struct TileArray {
  std::string array, tile, win, loads;
  ReadWindow w;
  ir::Type elem;
};
TileArray tileArray(const ir::Kernel &k, const std::string &array, const ReadWindow &w);

// The asynchronous copies' bookkeeping (HaloTileFill.cpp): a shared word declared onto `top`
// whose name anchors the commits and waits in the IR (they do not touch it), a commit of the
// copies issued since the last one, and a wait until at most `pending` commit groups remain.
std::string asyncAnchor(const ir::Kernel &k, std::vector<ir::Stmt> &top);
ir::Stmt asyncCommit(const std::string &anchor);
ir::Stmt asyncWait(const std::string &anchor, const ir::Expr &pending);

// One array's tile to fill (HaloTileFill.cpp): `size` elements, `widths` per dimension, the
// first at `base` (names of the origin per dimension); the last element the nest reads per
// dimension (`lastRead`, exclusive); the nest's loops and variables; BLOCKSIZE, the thread; and
// in two dimensions the condition (ASYNC_FILL) under which the row form's cp.async copies fill
// the tile instead of the element form (none: the element form only).
struct TileFill {
  std::string array, tile;
  ir::Type elem;
  ir::Expr size;
  std::vector<ir::Expr> widths;
  std::vector<std::string> base;
  std::vector<ir::Expr> lastRead;
  std::vector<ir::Stmt> loops;
  std::vector<std::string> vars;
  ir::Expr bs, tid, asyncFill;
};
// The load phase of one tile: elements by threads through registers, or (two dimensions, where
// `asyncFill` holds) rows by warps and columns by lanes through cp.async. Constants go to `top`.
ir::Stmt fillTile(const ir::Kernel &k, const TileFill &f, std::vector<ir::Stmt> &top);

// Every For of `s` unrolled (constant subscripts of the local arrays: registers).
ir::Stmt unrollAll(const ir::Stmt &s);

// Three dimensions: whether every tiled array has one window along the outermost loop (the
// planes slide together).
bool canSlide(const Tiled &tiled);

// Registers a thread of the sliding kernel holds at `items` rows: the live part of the windows,
// the taps, plus kOtherRegisters (the copies in flight go to shared memory, not registers). Also
// the shared bytes of its tiles at `blockSize` threads (kMaxDepth + 1 slots of a plane each).
int64_t slideRegisters(const ir::Kernel &k, const ir::Stmt &body,
                       const std::vector<std::string> &vars, const Tiled &tiled, const Taps &taps,
                       int64_t items);
int64_t slideSharedBytes(const ir::Kernel &k, const Tiled &tiled, int64_t items, int64_t blockSize);
// WIDTH's default for the element copies (BULK = 0) at `items` rows and `blockSize` threads
// (fewest sectors per tile plane).
int64_t slideElementWidth(const ir::Kernel &k, const Tiled &tiled, int64_t items, int64_t blockSize);
int64_t slideWindowWords(const ir::Kernel &k, const Tiled &tiled, int64_t items);
// The window words a thread holds: the halo planes' window, or a linear body's plane and sums.
int64_t slideHeldWords(const ir::Kernel &k, const ir::Stmt &body,
                       const std::vector<std::string> &vars, const Tiled &tiled, int64_t items);

// The sliding kernel's body: taps (already in `top`) stay; pushes the tiles and the loop over
// tiles onto `top` and returns the number of tiles.
ir::Expr slidePlanes(const ir::Kernel &k, const std::vector<ir::Stmt> &loops, const Tiled &tiled,
                     const Taps &taps, std::vector<ir::Stmt> &top);

// One dimension with staged outputs (HaloTileStream.cpp): TILES tiles per block, the next
// tile's copies in flight; pushes the tiles and the loop onto `top`, returns the number of tiles.
ir::Expr streamLine(const ir::Kernel &k, const ir::Stmt &loop, const Tiled &tiled,
                    const Taps &taps, const std::string &staged, std::vector<ir::Stmt> &top);

}  // namespace rtcuda::halo

#endif
