// HaloTile: a stencil or convolution, where neighbouring iterations of the parallel nest read
// the same elements (A[i][j + 1] of one thread is A[i][j] of the next, x[i + t] of a 16-tap
// filter is read by 16 threads), goes through a shared-memory tile: a block reads its tile of
// the array plus the halo the window needs once, coalesced, then computes ITEMS outputs per
// thread from shared memory.
//
//   for (i = 1; i < n - 1; i++)  // parallel        RTCUDA_SHARED_ARRAY(float, A_tile, (T0 + 2) * 34);
//     for (j = 1; j < m - 1; j++)  // parallel      for (tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
//       B[i][j] = A[i-1][j] + ... + A[i][j+1];  ==>     i_first = ...; j_first = ...;   // the tile's origin
//                                                    for (e = threadIdx.x; e < (T0 + 2) * 34; e += BLOCKSIZE)
//                                                      A_tile[e] = A[i_first - 1 + e / 34][j_first - 1 + e % 34];
//                                                    __syncthreads();
//                                                    for (q = 0; q < ITEMS; q++) {   // unrolled
//                                                      o = threadIdx.x + q * BLOCKSIZE;
//                                                      i = i_first + o / 32; j = j_first + o % 32;
//                                                      if (i < n - 1 && j < m - 1) B[i][j] = A_tile[...] + ...;
//                                                    }
//                                                    __syncthreads();
//                                                  }
//
// Tiles of outputs: BLOCKSIZE * ITEMS along the loop (one parallel loop); BLOCKSIZE * ITEMS / 32
// rows of 32 (two); ITEMS planes of BLOCKSIZE / 32 rows of 32 (three, where the arrays' windows
// along the planes differ; otherwise a 2-D tile slides along the planes: HaloTileSlide.cpp,
// with at least 9 reads per output as in two dimensions). The load phase issues a
// thread's loads (up to 16) before it stores them. A thread's ITEMS outputs are consecutive
// along the outermost loop (the one loop in one dimension), so they share most of their reads:
// the thread copies its window of the tile into registers once and the outputs read those
// (shown above in its first form, one output per read of the tile, which one dimension keeps
// when its outputs cannot be staged). One dimension stages the outputs through the tile and
// copies them out coalesced. docs/passes/HaloTile.md has the generated code.
//
// The analysis (readWindows, lib/Analysis/Footprint.cpp) gives each array's read window; an
// array read at more than one place of its window goes through a tile. Applies when the kernel
// is one perfect nest of one to three parallel loops of step 1 with bounds that name no other
// parallel loop, the config turns neither merge nor skew on, and the body has no branches (an
// `if`, `?:`, `&&` or `||` might skip reads the tile makes) and only serial loops of constant
// bounds. Every tile element the block loads lies between two elements the nest reads, in each
// dimension, so no load leaves the array.
#include "HaloTileParts.h"
#include "HaloTileRows.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

#include <algorithm>

namespace rtcuda {

using namespace ir;
using namespace halo;

namespace halo {

Stmt constantDecl(const std::string &name, const Expr &value) {
  auto c = std::make_shared<StmtNode>(*decl(name, Type::of(ScalarKind::Int), value));
  c->constant = true;
  return Stmt(c);
}

TileArray tileArray(const Kernel &k, const std::string &array, const ReadWindow &w) {
  return {array, freshName(k, array + "_tile"), freshName(k, array + "_win"),
          freshName(k, array + "_loads"), w, k.findParam(array)->type};
}

Expr coordinate(const Expr &o, const std::vector<Expr> &extents, size_t d) {
  Expr stride;
  for (size_t e = d + 1; e < extents.size(); ++e) stride = stride ? mul(stride, extents[e]) : extents[e];
  Expr c = stride ? div(o, stride) : o;
  return d == 0 ? c : mod(c, extents[d]);
}

Expr tapRead(const Expr &n, const Taps &taps) {
  auto tap = taps.find(n->name);
  if (n->kind != ExprKind::Load || tap == taps.end()) return nullptr;
  const ReadWindow &w = tap->second.second;
  Expr index;
  for (size_t d = 0; d < w.lo.size(); ++d) {
    Expr c = sub(n->operands[d], intImm(w.lo[d]));
    index = index ? add(mul(index, intImm(w.hi[d] - w.lo[d] + 1)), c) : c;
  }
  return load(tap->second.first, {simplify(index)}, n->type);
}

Stmt unrollAll(const Stmt &s) {
  return mapStmt(s, [](const Stmt &x) {
    if (x->kind != StmtKind::For) return x;
    auto u = std::make_shared<StmtNode>(*x);
    u->loopKind = LoopKind::Unrolled;
    return Stmt(u);
  });
}

}  // namespace halo

namespace {

constexpr int64_t kMaxTaps = 64, kFewPoints = 9, kRowsMaxBlock = 256,
                  kManyTerms = 32;

Stmt only(const Stmt &s) {
  Stmt x = s;
  while (x && x->kind == StmtKind::Block && x->stmts.size() == 1) x = x->stmts[0];
  return x;
}

// Why the body cannot be tiled: a branch, or a loop without constant bounds; empty if none.
std::string bodyBlocker(const Stmt &body) {
  std::string why;
  visitStmt(
      body,
      [&](const Stmt &s) {
        switch (s->kind) {
        case StmtKind::Block: case StmtKind::Decl: case StmtKind::Assign: case StmtKind::Store:
        case StmtKind::Comment:
          if (s->kind == StmtKind::Decl && s->arraySize) why = "a local array";
          return;
        case StmtKind::For: {
          int64_t c;
          if (s->loopKind != LoopKind::Serial || !constantDifference(s->min, intImm(0), &c) ||
              !constantDifference(s->step, intImm(0), &c) ||
              !constantDifference(tripCount(s), intImm(0), &c))
            why = "a loop without constant bounds";
          return;
        }
        default:
          why = "a branch or jump";
        }
      },
      [&](const Expr &e) {
        visitExpr(e, [&](const Expr &n) {
          bool conditional = n->kind == ExprKind::Select ||
                             (n->kind == ExprKind::Binary && (n->name == "&&" || n->name == "||"));
          if (!conditional) return;
          for (const Expr &o : n->operands)
            visitExpr(o, [&](const Expr &m) {
              if (m->kind == ExprKind::Load) why = "a read under a condition";
            });
        });
      });
  return why;
}

// One dimension: the array every store of the body writes, when each store is `Y[p] = ...` at
// the parallel loop's variable itself and the body never reads Y; empty otherwise. Its outputs
// can then go through shared memory (a thread computes consecutive ones; the block writes them
// out coalesced).
std::string stagedOutput(const Kernel &k, const Stmt &body, const std::string &p) {
  std::string y;
  bool ok = true;
  visitStmt(body, [&](const Stmt &s) {
    if (s->kind != StmtKind::Store) return;
    const Param *a = k.findParam(s->name);
    ok &= a && a->isArray && s->op == "=" && s->indices.size() == 1 &&
          s->indices[0]->kind == ExprKind::Var && s->indices[0]->name == p &&
          (y.empty() || y == s->name);
    y = s->name;
  });
  visitStmt(body, nullptr, [&](const Expr &e) {
    visitExpr(e, [&](const Expr &n) { ok &= !(n->kind == ExprKind::Load && n->name == y); });
  });
  return ok ? y : std::string();
}

// Rows of a window (along the outermost loop) that a thread holds at once: the whole window,
// or `span` rows where it reads them as the outputs need them.
int64_t liveRows(bool rowByRow, int64_t items, int64_t span) {
  return rowByRow ? span : items + span - 1;
}

// Registers a thread holds at `items` outputs: the live windows, the taps, staged outputs, plus
// about kOtherRegisters of indices and sums (what ptxas reported for the measured kernels,
// within a few).
int64_t threadRegisters(const Kernel &k, const Tiled &tiled, const Taps &taps,
                        const std::string &staged, size_t depth, int64_t items, bool rowByRow) {
  int64_t words = kOtherRegisters;
  for (const auto &[name, w] : tiled) {
    int64_t n = liveRows(rowByRow, items, w.hi[0] - w.lo[0] + 1);
    for (size_t d = 1; d < depth; ++d) n *= w.hi[d] - w.lo[d] + 1;
    words += n * k.findParam(name)->type.bytes() / 4;
  }
  for (const auto &[name, t] : taps) {
    int64_t n = 1;
    for (size_t d = 0; d < t.second.lo.size(); ++d) n *= t.second.hi[d] - t.second.lo[d] + 1;
    words += n * k.findParam(name)->type.bytes() / 4;
  }
  if (!staged.empty()) words += items * k.findParam(staged)->type.bytes() / 4;
  return words;
}

// Output tile extents, outermost first, as expressions and at given values of the macros.
std::vector<Expr> tileExtents(size_t depth, const Expr &bs, const Expr &items) {
  if (depth == 1) return {mul(bs, items)};
  if (depth == 2) return {div(mul(bs, items), intImm(kWarp)), intImm(kWarp)};
  return {items, div(bs, intImm(kWarp)), intImm(kWarp)};
}
std::vector<int64_t> tileExtents(size_t depth, int64_t bs, int64_t items) {
  if (depth == 1) return {bs * items};
  if (depth == 2) return {bs * items / kWarp, kWarp};
  return {items, bs / kWarp, kWarp};
}

}  // namespace

Kernel haloTile(const Kernel &k, const PassContext &ctx) {
  if (ctx.options.merge || ctx.options.skew || !k.grid.empty() || !k.reductions.empty() ||
      !k.atomicArrays.empty() || k.finish)
    return k;
  const Stmt nest = soleStatement(k);
  if (!nest) return k;
  // The perfect nest of parallel loops, outermost first.
  std::vector<Stmt> loops;
  for (Stmt s = only(nest); s && s->kind == StmtKind::For && s->loopKind == LoopKind::Parallel;
       s = only(s->body))
    loops.push_back(s);
  if (loops.empty() || loops.size() > 3) return k;
  std::vector<std::string> vars;
  for (const Stmt &l : loops) vars.push_back(l->name);
  std::set<std::string> parallel(vars.begin(), vars.end());
  for (const Stmt &l : loops) {
    int64_t step = 0;
    if (!isConst(l->step, &step) || step != 1 || !l->type.isInteger() || l->type.bytes() > 4 ||
        mentionsAny(l->min, parallel) || mentionsAny(l->end, parallel))
      return k;
  }
  const Stmt body = loops.back()->body;
  std::map<std::string, ReadWindow> windows = readWindows(body, vars);
  // Arrays read at more than one place of their window (neighbours share elements).
  std::vector<std::pair<std::string, ReadWindow>> tiled;
  for (const auto &[name, w] : windows) {
    const Param *p = k.findParam(name);
    bool wide = false;
    for (size_t d = 0; d < vars.size(); ++d) wide |= w.hi[d] > w.lo[d];
    if (p && p->isArray && wide && !w.invariant) tiled.push_back({name, w});
  }
  if (tiled.empty()) return k;
  // Few reads per output in two or three dimensions: the halo (34 x (T + 2) elements for
  // 32 x T outputs) and the load phase cost more than the shared reads save, and NeighbourReuse's
  // outputs in registers are faster (H100, docs/performance/kinds-runs.md: the 5-point stencil 0.70x copy
  // bandwidth with the tile, 0.91x with NeighbourReuse; the 3 x 3 convolution 0.77x, 0.66x;
  // the 7-point 3-D stencil 0.68x with the sliding tile, 0.78x with NeighbourReuse).
  // Three dimensions slide a 2-D tile along the outermost loop (HaloTileSlide.cpp) when the
  // arrays' windows along it agree: every plane is then loaded once.
  const bool slide = loops.size() == 3 && canSlide(tiled);
  int64_t points = 0;
  for (const auto &t : tiled) points += t.second.points;
  if (loops.size() > 1 && points < kFewPoints) {
    Kernel out = k;
    out.remarks.push_back("halo tile: '" + tiled[0].first + "' is read at " +
                          std::to_string(points) + " places around each iteration, fewer than " +
                          std::to_string(kFewPoints) + " in " + std::to_string(loops.size()) +
                          " dimensions; not applied");
    return out;
  }
  std::string blocker = bodyBlocker(body);
  if (!blocker.empty()) {
    Kernel out = k;
    out.remarks.push_back("halo tile: '" + tiled[0].first + "' is read around each iteration, " +
                          "but the nest has " + blocker + "; not applied");
    return out;
  }
  const size_t depth = loops.size();
  // One dimension, one output array of the tile's type: outputs staged through the first tile.
  std::string staged;
  if (depth == 1) {
    staged = stagedOutput(k, body, vars[0]);
    if (!staged.empty() && k.findParam(staged)->type.kind != k.findParam(tiled[0].first)->type.kind)
      staged.clear();
  }
  // ITEMS values whose tiles fit in 48 KB of static shared memory at the largest block size.
  int64_t maxBlock = ctx.options.blockSize.max == 0 ? 1024 : ctx.options.blockSize.max;
  // The sliding tile bounds the block size (kSlideMaxBlock, unless the config asks for more) so
  // that more rows per thread fit (HaloTileSlide.cpp).
  if (slide)
    maxBlock = std::min<int64_t>(maxBlock, std::max<int64_t>({kSlideMaxBlock, ctx.options.blockSize.min,
                                                              ctx.options.defaultBlockSize}));
  std::vector<int> itemValues;
  bool sharedFits = false;
  for (int items : {1, 2, 4, 8}) {
    if (slide) {
      int64_t bytes = slideSharedBytes(k, tiled, items, maxBlock);
      sharedFits |= bytes <= kSharedBytes;
      if (bytes <= kSharedBytes && slideHeldWords(k, body, vars, tiled, items) <= kMaxWindowWords)
        itemValues.push_back(items);
      continue;
    }
    int64_t bytes = 0, windowBytes = 0;
    std::vector<int64_t> t = tileExtents(depth, maxBlock, items);
    for (const auto &[name, w] : tiled) {
      int64_t n = k.findParam(name)->type.bytes(),
              m = n * liveRows(depth > 1, items, w.hi[0] - w.lo[0] + 1);
      for (size_t d = 0; d < depth; ++d) n *= t[d] + w.hi[d] - w.lo[d];
      if (!staged.empty()) n += n / kWarp + k.findParam(name)->type.bytes();  // the padding
      for (size_t d = 1; d < depth; ++d) m *= w.hi[d] - w.lo[d] + 1;
      bytes += n;
      windowBytes += m;
    }
    // Two or three dimensions: the windows live in registers (below); more than
    // kMaxWindowWords of them would spill.
    sharedFits |= bytes <= kSharedBytes;
    if (bytes <= kSharedBytes && ((depth == 1 && staged.empty()) || windowBytes <= 4 * kMaxWindowWords))
      itemValues.push_back(items);
  }
  if (itemValues.empty()) {
    Kernel out = k;
    out.remarks.push_back(
        sharedFits ? "halo tile: the windows of the arrays read around each iteration need more "
                     "than " + std::to_string(kMaxWindowWords) + " registers per thread; not applied"
                   : "halo tile: the tiles of the arrays read around each iteration need more than "
                     "48 KB of shared memory at block size " + std::to_string(maxBlock) +
                         "; not applied");
    return out;
  }

  const Type kInt = Type::of(ScalarKind::Int);
  std::vector<Stmt> top;
  if (!slide)
    top.push_back(comment("halo tile: a block reads its tile of " + std::to_string(tiled.size()) +
                          " array(s) plus the halo once, then computes " + k.macro("ITEMS") +
                          " outputs per thread"));
  // Filter taps (a small window no parallel loop moves): read once per thread into a local
  // array that the unrolled constant loops index with constants, i.e. registers.
  std::map<std::string, std::pair<std::string, ReadWindow>> tapsOf;
  for (const auto &[name, w] : windows) {
    const Param *p = k.findParam(name);
    int64_t n = 1;
    for (size_t d = 0; d < w.lo.size(); ++d) n *= w.hi[d] - w.lo[d] + 1;
    if (!p || !p->isArray || !w.invariant || n > kMaxTaps || w.points <= 1) continue;
    std::string r = freshName(k, name + "_reg"), e = freshName(k, "e");
    std::vector<Expr> widths, at;
    for (size_t d = 0; d < w.lo.size(); ++d) widths.push_back(intImm(w.hi[d] - w.lo[d] + 1));
    for (size_t d = 0; d < w.lo.size(); ++d)
      at.push_back(simplify(add(intImm(w.lo[d]), coordinate(var(e), widths, d))));
    top.push_back(decl(r, p->type, nullptr, intImm(n)));
    top.push_back(forLoop(e, kInt, intImm(0), intImm(n), intImm(1),
                          store(r, {var(e)}, "=", load(name, at, p->type)), LoopKind::Unrolled));
    tapsOf[name] = {r, w};
  }
  // Two dimensions whose whole windows would not stay in registers, with a linear body: row sums
  // (HaloTileRows.cpp), COLS outputs per thread along the row. Blocks of at most kRowsMaxBlock
  // threads (unless the config asks for more), so that 4 columns per thread fit.
  std::optional<SlideSums> sums;
  std::vector<int> rowItems, colValues;
  const int64_t rowsBlock = std::min<int64_t>(
      maxBlock, std::max<int64_t>({kRowsMaxBlock, ctx.options.blockSize.min, ctx.options.defaultBlockSize}));
  if (depth == 2 &&
      threadRegisters(k, tiled, tapsOf, "", depth, std::min(itemValues.back(), 8), false) > 64)
    sums = slideSums(k, body, vars, tiled, tapsOf);
  if (sums) {
    auto fits = [&](int64_t items, int64_t cols) {
      int64_t bytes = 0;
      for (const auto &[name, w] : tiled)
        bytes += (rowsBlock * items / kWarp + w.hi[0] - w.lo[0]) * rowsPitch(w, cols) *
                 k.findParam(name)->type.bytes();
      bytes += 2 * rowsBlock * cols * sums->elem.bytes();  // the staged outputs' two rows
      // The words held for the sums (accumulators, rows) fit in kMaxWindowWords, as windows do.
      return bytes <= kSharedBytes &&
             rowsRegisters(k, *sums, tiled, {}, cols) - kOtherRegisters <= kMaxWindowWords;
    };
    for (int items : {1, 2, 4, 8})
      if (fits(items, 1)) rowItems.push_back(items);
    for (int cols : {1, 2, 4})
      if (!rowItems.empty() && fits(rowItems.back(), cols)) colValues.push_back(cols);
    if (colValues.empty()) sums.reset();
  }
  Expr bs = var(k.macro("BLOCKSIZE")), items = var(k.macro("ITEMS"));
  std::vector<Expr> extents = tileExtents(depth, bs, items), tiles, trips;
  if (sums) extents = {div(mul(bs, items), intImm(kWarp)), mul(intImm(kWarp), var(k.macro("COLS")))};
  for (size_t d = 0; d < depth; ++d) {
    trips.push_back(simplify(tripCount(loops[d])));
    tiles.push_back(simplify(div(add(trips[d], sub(extents[d], intImm(1))), extents[d])));
  }
  Expr allTiles = tiles[0];
  for (size_t d = 1; d < depth; ++d) allTiles = mul(allTiles, tiles[d]);
  allTiles = simplify(allTiles);

  std::vector<Stmt> perTile;
  std::string tile = freshName(k, "tile");
  Expr tid = cast(kInt, gpuBuiltin("threadIdx.x"));
  // The tile's origin: tiles numbered with the innermost loop fastest.
  std::vector<std::string> first;
  for (size_t d = 0; d < depth; ++d) {
    first.push_back(freshName(k, vars[d] + "_first"));
    Expr c = coordinate(var(tile), tiles, d);
    perTile.push_back(decl(first[d], loops[d]->type, simplify(add(loops[d]->min, mul(c, extents[d])))));
  }
  // The remark per tiled array: its window and how it is staged.
  auto windowRemarks = [&](Kernel &out, const std::string &how) {
    for (const auto &[name, w] : tiled) {
      std::string window;
      for (size_t d = 0; d < depth; ++d)
        window += (d ? " x " : "") + std::string("[") + std::to_string(w.lo[d]) + ", " +
                  std::to_string(w.hi[d]) + "]";
      out.remarks.push_back("halo tile: '" + name + "' is read at " + std::to_string(w.points) +
                            " places around each iteration (offsets " + window + "); " + how);
    }
  };
  if (slide) {
    Kernel out = k;
    Expr allTiles = slidePlanes(k, loops, tiled, tapsOf, top);
    out.body = withLoc(block(top), k.body->loc);
    out.grid = {LaunchDim{allTiles, intImm(1), 2147483647}};
    out.blockThreads = bs;
    // BULK (a plane's rows by the bulk-copy engine, HaloTileSlide.cpp) by default where 4 rows
    // per thread fit: one row of threads and 4 rows of outputs copy few, long rows (H100, session
    // 18, docs/passes/HaloTile.md: the five 3-D filters of the kinds 1.01-1.17x faster than with
    // the element copies' defaults). Where only 2 rows fit (the windows' registers), a tile of
    // one row of threads would carry as many halo rows as rows: the element copies then, at 2
    // rows and the fewest sectors per plane (the 3-D diffusion with a coefficient field: 0.80x
    // and 0.73x copy bandwidth so, 0.70x and 0.60x with the bulk copies at 256 columns).
    const bool bulk = std::find(itemValues.begin(), itemValues.end(), 4) != itemValues.end();
    // ITEMS: 4 rows per thread with the bulk copies; the element copies ran best at 2 (session 9:
    // the 27-point box 0.71x copy bandwidth at 2 rows, 0.58x at 4). Blocks of 128 where a thread
    // holds more than 80 registers by the estimate with the bulk copies (a block's width is its
    // rows' length: it gives it up only where 256 threads would leave 2 blocks, 512 threads, an
    // SM, 128 threads 5 or more; session 18, 128 against 256 threads, 257 x 509 x 513 and 131 x
    // 1021 x 1031: the 27-tap filter, 87 by the estimate, 0.70x and 0.76x against 0.59x and
    // 0.73x; the 13-point star, 76, 0.68x and 0.72x against 0.64x and 0.76x; the 5 x 3 x 3
    // boxes, 71 and 73, 0.71x and 0.68x against 0.79x and 0.75x at their first shapes), more
    // than 64 with the element copies (session 9, the 27-tap filter at 2 rows: 0.67x at 128,
    // 0.63x at 256).
    int chosen = bulk ? 4 : std::min(itemValues.back(), 2);
    out.tuning.push_back({"ITEMS", k.macro("ITEMS"), itemValues, chosen});
    out.maxBlockSize = int(maxBlock);
    if (slideRegisters(k, body, vars, tiled, tapsOf, chosen) > (bulk ? 80 : 64))
      out.preferredBlockSize = 128;
    // PLANES: a block's column of planes; its first (halo) planes are loaded twice.
    out.tuning.push_back({"PLANES", k.macro("PLANES"), {8, 16, 32, 64}, 32});
    // DEPTH: planes in flight (asynchronous copies) per block (the box 0.49x at 1, 0.63x at 2,
    // 0.68x at 3).
    out.tuning.push_back({"DEPTH", k.macro("DEPTH"), {1, 2, 3}, 2});
    // BULK: a plane's rows copied by the bulk-copy engine, one copy a row (sm_90), or 0: its
    // elements by cp.async, one copy an element (above).
    out.tuning.push_back({"BULK", k.macro("BULK"), {0, 1}, bulk ? 1 : 0});
    // GROUP: planes per barrier (HaloTileSlide.cpp). Two where a plane of the window holds
    // fewer than 4 of an output's reads on average, so that a step's work is short next to its
    // wait and barrier (H100, session 10, same job: the 13-point star, 2.6 reads per plane,
    // 0.61x and 0.63x copy bandwidth at 2 against 0.58x and 0.56x at 1; the 45-point box of 5
    // planes and the 27-point box, 9 per plane, 0.67x and 0.69x at 2 against 0.69x and 0.70x).
    int64_t reads = 0;
    for (const auto &[name, w] : tiled) reads += w.points;
    const int64_t span0 = tiled[0].second.hi[0] - tiled[0].second.lo[0] + 1;
    out.tuning.push_back({"GROUP", k.macro("GROUP"), {1, 2}, reads < 4 * span0 ? 2 : 1});
    // WIDTH: columns of a tile row (32 where the block size is no multiple of it or the slots
    // would not fit). With the element copies 64 was often best (H100, session 11, 32 / 64 /
    // 128: the 27-point box 0.70x / 0.76x / 0.79x copy bandwidth, the 13-point star 0.61x /
    // 0.60x / 0.46x, the 27-tap filter 0.67x / 0.63x / 0.45x at 257 x 509 x 513).
    const int64_t defaultBlock = ctx.options.defaultBlockSize ? ctx.options.defaultBlockSize
                                 : out.preferredBlockSize     ? out.preferredBlockSize
                                                              : 256;
    // With the bulk copies one row of threads: the widest width that divides the default block
    // size, the fewest and longest rows to copy (session 18, 257 x 509 x 513 and 131 x 1021 x
    // 1031: the box 0.77x and 0.77x copy bandwidth at 256 columns and 4 rows, 0.74x at 128
    // columns and 2 rows; the 13-point star 0.69x and 0.76x against 0.59x and 0.65x). With the
    // element copies the fewest sectors per tile plane.
    int64_t width = bulk ? kWarp : slideElementWidth(k, tiled, chosen, defaultBlock);
    for (int64_t w : kSlideWidths)
      if (bulk && defaultBlock % w == 0) width = w;
    out.tuning.push_back({"WIDTH", k.macro("WIDTH"),
                          std::vector<int>(std::begin(kSlideWidths), std::end(kSlideWidths)),
                          int(width)});
    out.passes.push_back("HaloTile");
    windowRemarks(out, "a block slides its tile and halo through shared memory along '" + vars[0] +
                           "', " + k.macro("PLANES") + " planes, " + k.macro("ITEMS") +
                           " rows per thread, the halo planes in registers");
    return out;
  }
  if (!staged.empty()) {
    Kernel out = k;
    top.erase(top.begin());  // streamLine says what it does
    Expr allTiles = streamLine(k, loops[0], tiled, tapsOf, staged, top);
    out.body = withLoc(block(top), k.body->loc);
    // TILES: tiles per block, whose copies overlap the computation of the one before (hand-
    // written variants, H100, the 16-tap filter at 33554467 elements: 0.87x copy bandwidth at
    // 2, 0.91x at 4, 0.88x at 8; 0.87x with one tile per block and no copies in flight).
    out.grid = {LaunchDim{allTiles, var(k.macro("TILES")), 2147483647}};
    out.blockThreads = bs;
    int chosen = itemValues.back() < 8 ? itemValues.back() : 8;
    out.tuning.push_back({"ITEMS", k.macro("ITEMS"), itemValues, chosen});
    out.tuning.push_back({"TILES", k.macro("TILES"), {1, 2, 4, 8}, 4});
    if (threadRegisters(k, tiled, tapsOf, staged, 1, chosen, false) > 64)
      out.preferredBlockSize = 128;
    out.passes.push_back("HaloTile");
    windowRemarks(out, "a block copies its tile and halo into shared memory asynchronously, " +
                           k.macro("TILES") + " tiles per block, the next in flight, " +
                           k.macro("ITEMS") + " outputs per thread");
    return out;
  }
  std::map<std::string, std::pair<std::string, ReadWindow>> tileOf;  // array -> (tile, window)
  std::map<std::string, std::vector<std::string>> baseOf;            // array -> origin per dim
  // Two dimensions: the tiles copied asynchronously by rows, or through registers by elements
  // (ASYNC_FILL, HaloTileFill.cpp).
  const Expr asyncFill = depth == 2 ? var(k.macro("ASYNC_FILL")) : nullptr;
  const std::string anchor = asyncFill ? asyncAnchor(k, top) : "";
  for (const auto &[name, w] : tiled) {
    const Param *p = k.findParam(name);
    std::string t = freshName(k, name + "_tile"), e = freshName(k, "e");
    std::vector<Expr> widths;
    Expr size;
    for (size_t d = 0; d < depth; ++d) {
      widths.push_back(sums && d == 1 ? rowsPitch(k, w)
                                      : simplify(add(extents[d], intImm(w.hi[d] - w.lo[d]))));
      size = size ? mul(size, widths[d]) : widths[d];
    }
    auto shared = std::make_shared<StmtNode>(*decl(t, p->type, nullptr, simplify(size)));
    shared->shared = true;
    top.push_back(shared);
    // Coalesced: element e of the tile is loaded by thread e % BLOCKSIZE, rows of it one after
    // another (HaloTileFill.cpp).
    std::vector<Expr> lastRead;  // the last element the nest reads per dimension: end - 1 + hi
    for (size_t d = 0; d < depth; ++d) {
      std::string base = freshName(k, name + "_" + vars[d] + "0");
      baseOf[name].push_back(base);
      perTile.push_back(decl(base, loops[d]->type, simplify(add(var(first[d]), intImm(w.lo[d])))));
      lastRead.push_back(simplify(add(loops[d]->end, intImm(w.hi[d]))));
    }
    perTile.push_back(fillTile(k, {name, t, p->type, simplify(size), widths, baseOf[name], lastRead,
                                   loops, vars, bs, tid, asyncFill},
                               top));
    tileOf[name] = {t, w};
  }
  if (asyncFill) {
    perTile.push_back(asyncCommit(anchor));
    perTile.push_back(asyncWait(anchor, intImm(0)));
  }
  perTile.push_back(barrier());
  // The loop over tiles around `perTile` (the outputs, then a barrier), and the kernel with it.
  auto tiledKernel = [&]() {
    perTile.push_back(barrier());
    top.push_back(withLoc(forLoop(tile, kInt, cast(kInt, gpuBuiltin("blockIdx.x")), allTiles,
                                  cast(kInt, gpuBuiltin("gridDim.x")), block(perTile),
                                  LoopKind::Block),
                          loops[0]->loc));
    Kernel out = k;
    out.body = withLoc(block(top), k.body->loc);
    out.grid = {LaunchDim{allTiles, intImm(1), 2147483647}};
    out.blockThreads = bs;
    // ASYNC_FILL: 1 where the body has many terms (row sums of more than kManyTerms), whose
    // issue the fill's instructions compete with (H100, session 15, 8191 x 8193 against copy
    // bandwidth, bench/results/h100-2026-11-25-s15-fill-3, same job: the 7 x 7 filter 0.76x by
    // elements, 0.84x by rows; 6 x 6 0.79x, 0.87x; 9 x 9 0.58x, 0.61x); else 0 (3 x 5 0.95x by
    // elements, 0.89x by rows; 3 x 3 0.89x, 0.85x; two 3 x 5 inputs 0.99x, 0.82x).
    if (asyncFill)
      out.tuning.push_back({"ASYNC_FILL", k.macro("ASYNC_FILL"), {0, 1},
                            sums && sums->terms.size() > kManyTerms ? 1 : 0});
    return out;
  };
  if (sums) {
    top[0] = comment("halo tile: a block reads its tile of " + std::to_string(tiled.size()) +
                     " array(s) plus the halo once, then computes " + k.macro("ITEMS") + " x " +
                     k.macro("COLS") + " outputs per thread from row sums");
    for (Stmt &st : rowSums(k, *sums, loops, tileOf, first)) perTile.push_back(st);
    Kernel out = tiledKernel();
    out.maxBlockSize = int(rowsBlock);
    // ITEMS: 4 rows per thread for bodies of at most kManyTerms terms, 8 for more (H100, session
    // 11, the kinds at 8191 x 8193, bench/results/h100-2026-11-24-s11-conv11-2: at 4 rows and
    // the default COLS the 3 x 5 filter 0.86x copy bandwidth against 0.73x at 8, 5 x 3 0.88x
    // against 0.74x, the 5 x 5 box 0.86x against 0.74x, two 3 x 5 inputs 0.84x against 0.77x,
    // the 5 x 5 filter 0.82x against 0.85x; the 7 x 7 filter 0.70x against 0.75x, 6 x 6 0.78x
    // against 0.74x). Shorter tiles cost more halo rows yet ran faster; ncu did not show why
    // (docs/passes/HaloTile.md, "Limits in one and two dimensions").
    const bool many = sums->terms.size() > kManyTerms;
    int itemsTarget = many ? 8 : 4, itemsChosen = rowItems.front();
    for (int v : rowItems)
      if (v <= itemsTarget) itemsChosen = v;
    out.tuning.push_back({"ITEMS", k.macro("ITEMS"), rowItems, itemsChosen});
    // COLS: 4 outputs per thread along the row where the body has many terms, else 2 (H100, the
    // kinds, bench/results/h100-2026-11-24-s10-halo10-2: the 7 x 7 filter, 49 terms, 0.74x copy
    // bandwidth at 4, 0.69x at 2, 0.63x at 1: its FMAs and the per-tile work bound the issue,
    // and 4 columns share a row's reads and the tile's index work; the 3 x 5 filter 0.73x at 2,
    // 0.68x at 1; 5 x 3 0.74x, 0.67x; 5 x 5 0.85x, 0.84x, 0.77x at 4).
    int cols = std::min(colValues.back(), many ? 4 : 2);
    out.tuning.push_back({"COLS", k.macro("COLS"), colValues, cols});
    // STAGE_STORES: a warp's row of outputs through shared memory, stored 32 consecutive
    // elements an instruction (hand-written 7 x 7 filters on an H100: strided stores of each
    // thread's 4 neighbours cost 0.13-0.17 of copy bandwidth, bench/results/h100-2026-11-25-s14-filters2d-1).
    out.tuning.push_back({"STAGE_STORES", k.macro("STAGE_STORES"), {0, 1}, 1});
    if (rowsRegisters(k, *sums, tiled, tapsOf, cols) > 64) out.preferredBlockSize = 128;
    out.passes.push_back("HaloTile");
    windowRemarks(out, "a block stages its tile and halo in shared memory; a thread reads each "
                       "row of its window once and adds it to the sums of " + k.macro("ITEMS") +
                       " x " + k.macro("COLS") + " outputs");
    return out;
  }

  // The outputs. One dimension: ITEMS per thread, BLOCKSIZE apart in the tile. Two or three:
  // a thread's ITEMS outputs are consecutive along the outermost dimension (rows, planes), its
  // column is threadIdx.x % 32, so a warp still reads and writes 32 neighbouring elements; the
  // thread copies the part of each tile its outputs read (its window: ITEMS + the halo along the
  // outermost dimension, the halo across the others) into a local array once, and the outputs
  // read it with constant subscripts (all loops unrolled): registers, each shared element read
  // once per thread instead of once per output that reads it. (One dimension with a staged
  // output: HaloTileStream.cpp.)
  const bool windowed = depth > 1;
  std::string q = freshName(k, "q"), o = freshName(k, "o");
  std::vector<Expr> origin;  // the thread's first output in the tile, per dimension
  if (windowed) {
    std::string col = freshName(k, "col"), grp = freshName(k, "grp");
    perTile.push_back(decl(col, kInt, mod(tid, intImm(kWarp))));
    perTile.push_back(decl(grp, kInt, div(tid, intImm(kWarp))));
    origin = depth == 2 ? std::vector<Expr>{mul(var(grp), items), var(col)}
                        : std::vector<Expr>{intImm(0), var(grp), var(col)};
  }
  std::map<std::string, std::string> windowOf;  // array -> its window's local array
  std::vector<Stmt> lazyRows;                   // rows read per output (rowByRow)
  // 8 outputs per thread where the tiles fit: each load phase and barrier serve more outputs
  // (H100: the 16-tap filter 0.65x copy bandwidth at 4, 0.81x at 8; the 3 x 3 convolution
  // 0.53x, 0.77x).
  const int chosen = itemValues.back() < 8 ? itemValues.back() : 8;
  // The whole window where the thread's registers stay within 64 at the default ITEMS (its
  // reads are then in flight together); else row by row as the outputs need them (fewer
  // registers, more blocks per SM). H100, same job: the 3 x 3 convolution (59 registers whole)
  // 0.87x copy bandwidth whole, 0.69x row by row; the 5 x 5 one (92 registers whole, 56 row by
  // row) 0.69x whole, 0.85x row by row.
  const bool rowByRow =
      windowed && threadRegisters(k, tiled, tapsOf, "", depth, chosen, false) > 64;
  if (windowed)
    for (const auto &[name, w] : tiled) {
      const Param *p = k.findParam(name);
      std::string wn = freshName(k, name + "_win"), e = freshName(k, "e");
      std::vector<Expr> wwidths{simplify(add(items, intImm(w.hi[0] - w.lo[0])))}, twidths;
      for (size_t d = 1; d < depth; ++d) wwidths.push_back(intImm(w.hi[d] - w.lo[d] + 1));
      Expr wsize = wwidths[0], tindex;
      for (size_t d = 1; d < depth; ++d) wsize = mul(wsize, wwidths[d]);
      // Window row `r`, element `e` of the row (the other dimensions, innermost fastest).
      std::string r = freshName(k, "r");
      std::vector<Expr> rowWidths(wwidths.begin() + 1, wwidths.end());
      for (size_t d = 0; d < depth; ++d) {
        int64_t one = 0;  // a window one element wide in this dimension: no e % 1
        Expr c = d == 0 ? add(origin[0], var(r))
                 : isConst(wwidths[d], &one) && one == 1
                     ? origin[d]
                     : add(origin[d], coordinate(var(e), rowWidths, d - 1));
        Expr width = simplify(add(extents[d], intImm(w.hi[d] - w.lo[d])));
        tindex = tindex ? add(mul(tindex, width), c) : c;
      }
      perTile.push_back(decl(wn, p->type, nullptr, simplify(wsize)));
      if (!rowByRow) {  // the whole window, before the outputs
        Expr whole;
        for (size_t d = 0; d < depth; ++d) {
          int64_t one = 0;  // a window one element wide in this dimension: no e % 1
          Expr c = isConst(wwidths[d], &one) && one == 1
                       ? origin[d]
                       : add(origin[d], coordinate(var(e), wwidths, d));
          Expr width = simplify(add(extents[d], intImm(w.hi[d] - w.lo[d])));
          whole = whole ? add(mul(whole, width), c) : c;
        }
        perTile.push_back(forLoop(e, kInt, intImm(0), simplify(wsize), intImm(1),
                                  store(wn, {var(e)}, "=", load(tileOf[name].first, {whole}, p->type)),
                                  LoopKind::Unrolled));
        windowOf[name] = wn;
        continue;
      }
      // Column-sliding: output q reads window rows q .. q + span - 1, so row q + span - 1 is
      // read from the tile just before it (all of rows 0 .. span - 1 before output 0). Once
      // the loops are unrolled only span rows are live, not ITEMS + span - 1: the 5 x 5
      // convolution's thread holds 56 registers instead of 92 (ptxas, sm_90; a loop over the
      // window's elements instead of rows and columns kept 94, and the 7 x 7 window in local
      // memory).
      int64_t span = w.hi[0] - w.lo[0] + 1;
      Expr rowWords = intImm(1);
      for (size_t d = 1; d < depth; ++d) rowWords = mul(rowWords, wwidths[d]);
      rowWords = simplify(rowWords);
      Expr from = select(lt(var(q), intImm(1)), intImm(0), add(var(q), intImm(span - 1)));
      Stmt row = forLoop(e, kInt, intImm(0), rowWords, intImm(1),
                         store(wn, {add(mul(var(r), rowWords), var(e))}, "=",
                               load(tileOf[name].first, {tindex}, p->type)),
                         LoopKind::Unrolled);
      lazyRows.push_back(forLoop(r, kInt, from, add(var(q), intImm(span)), intImm(1), row,
                                 LoopKind::Unrolled));
      windowOf[name] = wn;
    }
  std::vector<Stmt> item = lazyRows;
  if (!windowed) item.push_back(decl(o, kInt, add(tid, mul(var(q), bs))));
  Expr valid;
  for (size_t d = 0; d < depth; ++d) {
    Expr at = !windowed ? coordinate(var(o), extents, d)
                        : d == 0 ? add(origin[0], var(q)) : origin[d];
    item.push_back(withLoc(decl(vars[d], loops[d]->type, add(var(first[d]), at)), loops[d]->loc));
    Expr ok = lt(var(vars[d], loops[d]->type), loops[d]->end);
    valid = valid ? land(valid, ok) : ok;
  }
  Stmt computed = mapStmt(body, nullptr, [&](const Expr &e) {
    return mapExpr(e, [&](const Expr &n) -> Expr {
      if (n->kind != ExprKind::Load) return n;
      if (Expr t = tapRead(n, tapsOf)) return t;
      auto it = tileOf.find(n->name);
      if (it == tileOf.end()) return n;
      const ReadWindow &w = it->second.second;
      Expr index;
      if (windowed) {  // window (q + a_0 - lo_0, a_1 - lo_1, ...) for a read [p_0 + a_0]...
        for (size_t d = 0; d < depth; ++d) {
          Expr c = simplify(sub(sub(n->operands[d], var(vars[d], loops[d]->type)), intImm(w.lo[d])));
          if (d == 0) c = add(var(q), c);
          index = index ? add(mul(index, intImm(w.hi[d] - w.lo[d] + 1)), c) : c;
        }
        return load(windowOf[n->name], {index}, n->type);
      }
      for (size_t d = 0; d < depth; ++d) {
        Expr c = sub(n->operands[d], var(baseOf[n->name][d], loops[d]->type));
        index = index ? add(mul(index, simplify(add(extents[d], intImm(w.hi[d] - w.lo[d])))), c) : c;
      }
      return load(it->second.first, {index}, n->type);
    });
  });
  if (!tapsOf.empty() || windowed) computed = unrollAll(computed);  // registers
  item.push_back(ifThen(valid, computed));
  perTile.push_back(forLoop(q, kInt, intImm(0), items, intImm(1), block(item), LoopKind::Unrolled));
  Kernel out = tiledKernel();
  out.tuning.push_back({"ITEMS", k.macro("ITEMS"), itemValues, chosen});
  // Registers a thread holds at the default ITEMS: windows, taps, staged outputs, plus about
  // kOtherRegisters of indices and sums (what ptxas reported for the measured kernels, within
  // a few). Above 64, blocks of 256 threads fit 3 to an SM instead of 4 and the barriers of the
  // few resident blocks leave the SM idle: blocks of 128 then (H100, the 16-tap filter 0.78x
  // copy bandwidth at 256, 0.89x at 128; the 5 x 5 convolution 0.53x, 0.69x; the 3 x 3
  // convolution, 59 registers, 0.88x at 256; read row by row, the 5 x 5 convolution 0.85x at 128,
  // 0.81x at 256). Three dimensions keep 256 (not measured at 128).
  if (windowed && depth < 3 && threadRegisters(k, tiled, tapsOf, "", depth, chosen, rowByRow) > 64)
    out.preferredBlockSize = 128;
  out.passes.push_back("HaloTile");
  windowRemarks(out, "a block stages its tile and halo in shared memory, " + k.macro("ITEMS") +
                         " outputs per thread");
  return out;
}

}  // namespace rtcuda
