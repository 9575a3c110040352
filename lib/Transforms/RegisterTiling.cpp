// RegisterTiling: merge x skew with both operands of a contraction staged in shared memory.
//
// After BlockMerge and BlockSkew each thread of a matrix multiply owns MERGE_LEVEL rows x
// SKEW_LEVEL columns of C, but a block is still a run of BLOCKSIZE collapsed indices, so every
// thread reads A and B from global memory. RegisterTiling gives each block a rectangle of C
// instead: THREAD_COLS x (BLOCKSIZE / THREAD_COLS) threads covering BM = (BLOCKSIZE /
// THREAD_COLS) * MERGE_LEVEL rows and BN = THREAD_COLS * SKEW_LEVEL columns. For each slab of
// `depth` (TILE_K) values of k the block copies A's BM x depth slab and B's depth x BN slab into
// shared memory with coalesced loads, waits, and every thread runs its merge x skew loops over
// the slab; RedundantLoadElim then keeps a column of A and a row of B in registers, so each
// staged element feeds MERGE_LEVEL or SKEW_LEVEL multiply-adds:
//
//   for i_merged, j_skewed (parallel)       i_merged, j_skewed from blockIdx.x and threadIdx.x
//     float sum[M * S]; (init)              float sum[M * S]; (init)
//     for (k = 0; k < K; k++)      ==>      for (k_tile = 0; k_tile < K; k_tile += depth) {
//       for m, s: if (i < n, j < p)           A_tile <- A[row0 .. row0+BM)[k_tile .. +depth)
//         sum[m][s] += A[i][k] * B[k][j]      B_tile <- B[k_tile .. +depth)[col0 .. col0+BN)
//     (store, guarded)                        __syncthreads();
//                                             for (k = k_tile; k < k_tile + depth; k++)
//                                               for m, s: sum[m][s] += A_tile[..] * B_tile[..]
//                                             __syncthreads();
//                                           }
//                                           (store, guarded)
//
// The staging is double-buffered (RegisterTilingStaging.cpp): the next slab is loaded into
// registers, 128-bit where the launch's arrays allow, while the block multiplies the current one,
// and a thread's columns come in groups of 4 (conflict-free vector reads of B_tile).
// A is stored transposed (A_tile[k][row]) with a pitch that is a multiple of 4 floats, so a
// thread's rows of one k are one aligned run that nvcc reads with 128-bit loads; B_tile[k][col]
// is read the same way with blocked skew (a thread's columns consecutive), and by consecutive
// threads at consecutive columns with striped skew. Elements outside the matrices are staged as zero, a partial slab at the
// end of k runs a shorter loop, and the depth is capped so that both tiles fit in 48 KB of
// static shared memory at every point of the tuning space. The guards of the multiply-adds go
// (they only touch the thread's own accumulators; rows and columns past the edge read staged
// zeros and are never stored), the guards of loads and stores stay.
#include "RegisterTiling.h"
#include "RegisterTilingStaging.h"
#include "RegisterTilingSplit.h"
#include "StripMineJam.h"

#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

namespace rtcuda {

using namespace ir;

namespace {

const Type kInt = Type::of(ScalarKind::Int);


// Statements whose guard may go: they write only the thread's own arrays and read no array
// of the kernel's parameters.
bool onlyThreadLocal(const Kernel &k, const Stmt &body) {
  bool local = true;
  std::vector<std::string> declared;
  visitStmt(body, [&](const Stmt &s) {
    if (s->kind == StmtKind::Decl) declared.push_back(s->name);
    bool atomic = !s->op.empty() && std::isalpha(static_cast<unsigned char>(s->op[0]));
    if (s->kind == StmtKind::Store && (k.findParam(s->name) || atomic)) local = false;
    if (s->kind == StmtKind::Assign &&
        std::find(declared.begin(), declared.end(), s->name) == declared.end())
      local = false;
  }, [&](const Expr &e) {
    visitExpr(e, [&](const Expr &n) {
      if (n->kind == ExprKind::Load && k.findParam(n->name)) local = false;
    });
  });
  return local;
}

// Grids with fewer blocks than the GPU has SMs leave SMs idle and give the others one block of
// 8 warps, too few to hide latency. Measured on an H100 (docs/performance/matmul.md, session 7): at
// 1000 x 1100 the default 128 x 128 tile ran 0.54-0.59x cuBLAS SGEMM, a 96 x 128 tile of 384
// threads with 8 x 4 results each and TILE_K 16 (99 blocks of 12 warps) 0.677x, a 128 x 64 tile
// of 256 threads, 8 x 4, TILE_K 16 (144 blocks) 0.618x; at 997 x 1009 the 96 x 128 tile (88
// blocks) 0.525x, the 128 x 64 one (128 blocks) 0.626x, the default 0.39-0.46x; at 4096^3 both
// ran 0.60-0.69x against the default's 0.81x. A third, 80 x 128 of 320 threads (8 x 4, TILE_K
// 16), makes 117 blocks at 1000 x 1100 with a sixth less work per block than 96 x 128: 0.1226
// ms there against 0.1267 (session 9; 96 x 96 of 288 threads, 132 blocks, ran 0.1297: fewer
// warps per SM cost more than the whole wave gained). So the kernel gets these points as
// alternative instantiations, and the launch takes, where the default grid is small, the one
// whose grid fills most SMs without passing their count (LaunchFunction.cpp). A point whose values are
// not all in the kernel's tuning space (a config that narrows it) is left out. The macro
// <PREFIX>_SMALL_GRID (not a tuning parameter: it would multiply a space the tuner already
// samples) set to 0 turns them off; verify and the tuner check each instantiation.
void addSmallGridPoints(Kernel &k, const KernelOptions &o) {
  using Point = std::vector<std::pair<std::string, int>>;
  const std::vector<Point> points = {
      {{"BLOCKSIZE", 384}, {"MERGE_LEVEL", 8}, {"SKEW_LEVEL", 4}, {"THREAD_COLS", 32}, {"TILE_K", 16}},
      {{"BLOCKSIZE", 256}, {"MERGE_LEVEL", 8}, {"SKEW_LEVEL", 4}, {"THREAD_COLS", 16}, {"TILE_K", 16}},
      {{"BLOCKSIZE", 320}, {"MERGE_LEVEL", 8}, {"SKEW_LEVEL", 4}, {"THREAD_COLS", 32}, {"TILE_K", 16},
       {"MIN_BLOCKS", 2}}};
  if (k.finish || !k.deviceArrays.empty() || !k.buffers.empty() || k.grid.size() != 1) return;
  std::string names;
  for (const Point &point : points) {
    bool inSpace = true;
    for (const auto &[name, value] : point) {
      if (name == "MIN_BLOCKS") continue;  // __launch_bounds__'s blocks per SM, not tuned
      if (name == "BLOCKSIZE") {  // its space is built after the passes (Pipeline.cpp)
        inSpace &= value >= o.blockSize.min && value <= (o.blockSize.max == 0 ? 1024 : o.blockSize.max);
        continue;
      }
      auto t = std::find_if(k.tuning.begin(), k.tuning.end(),
                            [&](const TuningParam &p) { return p.name == name; });
      inSpace &= t != k.tuning.end() &&
                 std::find(t->values.begin(), t->values.end(), value) != t->values.end();
    }
    if (!inSpace) continue;
    k.alternatives.push_back(point);
    std::string text;
    for (const auto &[name, value] : point) text += (text.empty() ? "" : ", ") + name + " " + std::to_string(value);
    names += std::string(names.empty() ? "" : "; ") + k.name + "_small_grid" +
             (k.alternatives.size() > 1 ? std::to_string(k.alternatives.size()) : "") + " at " + text;
  }
  if (!names.empty())
    k.remarks.push_back("register tiling: where the grid has fewer blocks than the GPU has SMs, "
                        "the launch takes the instantiation whose grid fills most SMs without "
                        "passing their count: " + names + " (" + k.macro("SMALL_GRID") + "=0: never)");
}

// A product of staged tile elements (at least one) and numeric constants: zero wherever a tile
// element is one of the zeros staged past the end of k, since 0 times a finite constant is 0.
bool productOfTiles(const Expr &e, const std::vector<std::string> &tiles, bool &tile) {
  if (e->kind == ExprKind::IntImm || e->kind == ExprKind::FloatImm) return true;
  if (e->kind == ExprKind::Cast) return productOfTiles(e->operands[0], tiles, tile);
  if (e->kind == ExprKind::Load) {
    bool staged = std::find(tiles.begin(), tiles.end(), e->name) != tiles.end();
    tile |= staged;
    return staged;
  }
  return e->kind == ExprKind::Binary && e->name == "*" &&
         productOfTiles(e->operands[0], tiles, tile) && productOfTiles(e->operands[1], tiles, tile);
}

// The slab body only adds (subtracts) such products to the thread's own variables, beside loops
// and integer declarations that read no array: past the end of k it adds zeros, so the partial
// last slab may run the whole unrolled loop over the staged zeros, with no separate tail loop
// (one copy of the multiply-adds: fewer registers, and ptxas interleaves its shared loads).
bool zeroPastEnd(const Kernel &k, const Stmt &body, const std::vector<std::string> &tiles) {
  bool ok = true;
  visitStmt(body, [&](const Stmt &s) {
    switch (s->kind) {
    case StmtKind::Block:
    case StmtKind::For:
      break;
    case StmtKind::Decl: {
      const bool reads = s->value && hasLoad(s->value);
      ok &= !s->shared && !s->arraySize && s->type.kind == ScalarKind::Int && !reads;
      break;
    }
    case StmtKind::Assign:
    case StmtKind::Store: {
      bool tile = false;
      ok &= (s->op == "+=" || s->op == "-=") && !k.findParam(s->name) &&
            productOfTiles(s->value, tiles, tile) && tile;
      for (const Expr &i : s->indices) ok &= !hasLoad(i);
      break;
    }
    default:
      ok = false;
    }
  });
  return ok;
}

}  // namespace

bool findStrip(const Stmt &within, LoopKind kind, Strip &out) {
  Stmt loop;
  visitStmt(within, [&](const Stmt &n) {
    if (!loop && n->kind == StmtKind::For && n->loopKind == kind) loop = n;
  });
  if (!loop) return false;
  StripView v = viewStrip(loop);
  if (v.header.size() != 1 || !v.guard || v.guard->kind != ExprKind::Binary ||
      v.guard->name != "<" || !isVar(v.guard->operands[0], v.header[0]->name))
    return false;
  out = {loop, v.header[0], v.guard, v.guard->operands[1]};
  return true;
}

Kernel registerTiling(const Kernel &input, const PassContext &ctx) {
  // Tiles keep 32-bit indices (the launch checks their range): the strips' clamps go.
  const Kernel k = unclampStrips(input);
  Contraction c;
  Strip rows, cols;
  std::string why;
  if (!findContraction(k, ctx.options, &c, &why) ||
      !findStrip(c.reduceLoop->body, LoopKind::Merge, rows) ||
      !findStrip(c.reduceLoop->body, LoopKind::Skew, cols)) {
    if (!ctx.options.merge || !ctx.options.skew || ctx.options.prefetch.empty()) return input;
    Kernel out = input;
    out.remarks.push_back("register tiling: not a contraction (" +
                          (why.empty() ? "no strips of merged rows and skewed columns in the "
                                         "serial loop" : why) + "); not tiled");
    return out;
  }
  std::vector<Stmt> loops = parallelLoops(k);
  const Stmt &rowsLoop = loops[0], &colsLoop = loops[1], &kLoop = c.reduceLoop;

  Expr blockSize = var(k.macro("BLOCKSIZE")), threadCols = var(k.macro("THREAD_COLS"));
  Expr threadRows = div(blockSize, threadCols);
  Expr tileRows = mul(threadRows, var(k.macro("MERGE_LEVEL")));
  Expr tileCols = mul(threadCols, var(k.macro("SKEW_LEVEL")));
  // A multiple of 4 above BM: a thread's MERGE_LEVEL consecutive rows of a slab start 16-byte
  // aligned, so nvcc reads them with 128-bit loads (an odd pitch would avoid the 2-way bank
  // conflicts of the staging stores, but those are 1/32 as many as the compute loads).
  Expr pitch = add(sub(tileRows, mod(tileRows, intImm(4))), intImm(4));
  Expr tileK = var(k.macro("TILE_K"));
  // Two buffers of each tile (the next slab is staged while the block multiplies the current
  // one), all four in the 48 KB of static shared memory.
  // The cap is a multiple of 4 (so are the powers of two of TILE_K from 4): whole groups of 4
  // along k, read with 128-bit loads.
  // Bytes of one k-row of every tile: a row operand's tile is `pitch` wide, a column's BN.
  Expr rowBytes;
  for (const ContractionOperand &op : c.operands) {
    Expr bytes = mul(op.column ? tileCols : pitch, intImm(k.findParam(op.array)->type.bytes()));
    rowBytes = rowBytes ? add(rowBytes, bytes) : bytes;
  }
  Expr capAny = div(intImm(48 * 1024), mul(intImm(2), rowBytes));


  auto fresh = [&](const std::string &base) { return freshName(k, base); };
  std::string tx = fresh("thread_col"), ty = fresh("thread_row"), colTiles = fresh("col_tiles");
  std::string tileRow = fresh("tile_row"), tileCol = fresh("tile_col");
  std::string row0 = fresh("row0"), col0 = fresh("col0"), depth = fresh("depth");
  std::string aPitch = fresh(c.rowArray + "_pitch");
  // A tile per operand: `A_tile`, or `A_rows_tile` / `A_cols_tile` where one array is several.
  std::vector<OperandNames> opNames;
  for (size_t n = 0; n < c.operands.size(); ++n) {
    const ContractionOperand &op = c.operands[n];
    int uses = 0;
    for (const ContractionOperand &o : c.operands) uses += o.array == op.array;
    std::string base = op.array + (uses == 1 ? "" : op.column ? "_cols" : "_rows");
    if (uses > 2) base += op.kMajor ? "_k" : "";
    opNames.push_back({fresh(base + "_tile"), fresh(base + "_next"), fresh(base + "_vec"),
                       fresh(std::string(1, char('a' + n)) + "_quads")});
  }
  std::string kt = fresh(kLoop->name + "_tile"), t = fresh("t"), r = fresh("r"), q = fresh("q");

  // The sizes by name in the kernel (kernel.cu declares each once, as a constant:
  // lib/CodeGen/NamedSizes.cpp); the launch computes them from the macros.
  std::string rowsOfThreads = fresh("rows_of_threads"), blockRows = fresh("block_rows");
  std::string blockCols = fresh("block_cols"), maxDepth = fresh("max_depth");
  std::string fitDepth = fresh("fit_depth");
  Expr cap = select(binary(">=", var(fitDepth), intImm(4)),
                    sub(var(fitDepth), mod(var(fitDepth), intImm(4))), var(fitDepth));
  std::vector<Stmt> sizes{decl(rowsOfThreads, kInt, threadRows), decl(blockRows, kInt, tileRows),
                          decl(blockCols, kInt, tileCols), decl(fitDepth, kInt, capAny),
                          decl(maxDepth, kInt, cap)};
  const Expr hostThreadRows = threadRows;
  const Expr depthValue = select(lt(tileK, var(maxDepth)), tileK, var(maxDepth));
  threadRows = var(rowsOfThreads);
  tileRows = var(blockRows);
  tileCols = var(blockCols);

  Expr rowsExtent = simplify(tripCount(rowsLoop)), colsExtent = simplify(tripCount(colsLoop));
  Expr blockIndex = cast(kInt, gpuBuiltin("blockIdx.x")), tid = cast(kInt, gpuBuiltin("threadIdx.x"));
  std::vector<Stmt> head = sizes;
  head.insert(head.end(), {
      comment("the block's tile of rows x columns; its threads are " + k.macro("THREAD_COLS") +
              " wide"),
      decl(tx, kInt, cast(kInt, binary("%", gpuBuiltin("threadIdx.x"), threadCols))),
      decl(ty, kInt, cast(kInt, binary("/", gpuBuiltin("threadIdx.x"), threadCols))),
      decl(colTiles, kInt, simplify(div(add(colsExtent, sub(threadCols, intImm(1))), threadCols))),
      decl(tileRow, kInt, div(blockIndex, var(colTiles))),
      decl(tileCol, kInt, mod(blockIndex, var(colTiles))),
      withLoc(decl(rowsLoop->name, kInt, add(mul(var(tileRow), threadRows), var(ty))), rowsLoop->loc),
      withLoc(decl(colsLoop->name, kInt, add(mul(var(tileCol), threadCols), var(tx))), colsLoop->loc),
      decl(row0, kInt, simplify(substitute(rows.decl->value,
                                           {{rowsLoop->name, mul(var(tileRow), threadRows)},
                                            {rows.loop->name, intImm(0)}}))),
      decl(col0, kInt, simplify(substitute(cols.decl->value,
                                           {{colsLoop->name, mul(var(tileCol), threadCols)},
                                            {cols.loop->name, intImm(0)}}))),
      decl(depth, kInt, depthValue),
      decl(aPitch, kInt, pitch)});
  // A row operand's tile is `pitch` wide, a column operand's BN.
  auto widthOf = [&](const ContractionOperand &op) { return op.column ? tileCols : var(aPitch); };
  for (size_t n = 0; n < c.operands.size(); ++n) {
    const ContractionOperand &op = c.operands[n];
    Expr size = mul(intImm(2), mul(var(depth), widthOf(op)));
    auto shared = std::make_shared<StmtNode>(
        *decl(opNames[n].tile, k.findParam(op.array)->type, nullptr, size));
    shared->shared = true;
    head.push_back(shared);
  }

  StagingNames names{opNames, fresh("v"), fresh("e"), t, r, q, fresh("stage"),
                     fresh("col_group")};
  StagingShape shape{blockSize, tileRows, tileCols, threadCols, var(depth), var(aPitch),
                     var(row0), var(col0), rows.end, cols.end, kLoop->min, kLoop->end};
  Staging staging = buildStaging(k, c, names, shape);
  head.insert(head.end(), staging.head.begin(), staging.head.end());

  // Columns in groups of 4 consecutive ones, THREAD_COLS * 4 apart: a warp's reads of a B_tile
  // row are consecutive 16-byte vectors (no bank conflict), its stores to C consecutive too.
  Expr colOfThread = add(add(var(col0), mul(div(var(cols.loop->name), var(names.colGroup)),
                                            mul(threadCols, var(names.colGroup)))),
                         add(mul(var(tx), var(names.colGroup)),
                             mod(var(cols.loop->name), var(names.colGroup))));
  auto relayout = [&](const Stmt &s) -> Stmt {
    if (s->kind != StmtKind::Decl || s->name != cols.decl->name || !s->value ||
        !equal(s->value, cols.decl->value))
      return s;
    return withLoc(decl(s->name, s->type, colOfThread), s->loc);
  };

  // The loop body over one slab: reads from the current buffers, multiply-add guards gone where
  // safe.
  const Expr &kEnd = kLoop->end;
  // Split k where the loop's body allows it (RegisterTilingSplit.cpp): the block's chunk.
  SplitPlan split;
  std::string whyNoSplit;
  const bool splits = planSplitK(k, kLoop, var(depth), blockSize, tileK, fresh, split, whyNoSplit);
  const Expr kBegin = splits ? split.kBegin : kLoop->min, kStop = splits ? split.kStop : kEnd;
  Expr kk = var(kt);
  Expr kOffset = sub(var(kLoop->name), kk);
  Stmt slabBody = mapStmt(kLoop->body, [&](const Stmt &s) -> Stmt {
    bool stripGuard = s->kind == StmtKind::If && !s->elseBody &&
                      (equal(s->cond, rows.guard) || equal(s->cond, cols.guard));
    return relayout(stripGuard && onlyThreadLocal(k, s->body) ? s->body : s);
  }, [&](const Expr &e) -> Expr {
    if (e->kind != ExprKind::Load || e->operands.size() != 2) return e;
    for (size_t n = 0; n < c.operands.size(); ++n) {
      const ContractionOperand &op = c.operands[n];
      const std::string &x = op.column ? c.colVar : c.rowVar;
      const Expr &kSub = e->operands[op.kMajor ? 0 : 1], &xSub = e->operands[op.kMajor ? 1 : 0];
      if (e->name == op.array && isVar(kSub, kLoop->name) && isVar(xSub, x))
        return load(opNames[n].tile, {add(add(var(staging.offsets[n]), mul(kOffset, widthOf(op))),
                                          sub(var(x), var(op.column ? col0 : row0)))},
                    e->type);
    }
    return e;
  });
  Stmt fullSlab = forLoop(kLoop->name, kLoop->type, kk, add(kk, var(depth)), intImm(1), slabBody,
                          LoopKind::Unrolled);
  Stmt lastSlab = forLoop(kLoop->name, kLoop->type, kk, kEnd, intImm(1), slabBody);
  Expr more = lt(add(kk, var(depth)), kStop);
  std::string staged;
  for (size_t n = 0; n < c.operands.size(); ++n)
    staged += std::string(n == 0 ? "" : n + 1 == c.operands.size() ? " and of " : ", of ") +
              c.operands[n].array +
              (opNames[n].tile == c.operands[n].array + "_tile" ? ""
               : c.operands[n].column                             ? " (columns)"
                                                                  : " (rows)");
  std::vector<Stmt> slab;
  for (size_t n = 0; n < c.operands.size(); ++n)
    slab.push_back(decl(staging.offsets[n], kInt,
                        mul(var(names.stage), mul(var(depth), widthOf(c.operands[n])))));
  std::vector<std::string> tiles;
  for (const OperandNames &names : opNames) tiles.push_back(names.tile);
  const bool wholeSlabs = zeroPastEnd(k, slabBody, tiles);
  slab.insert(slab.end(), {ifThen(more, staging.fetch(add(kk, var(depth)))),
                           wholeSlabs ? fullSlab
                                      : ifThen(binary("<=", add(kk, var(depth)), kEnd), fullSlab,
                                               lastSlab),
                           ifThen(more, staging.put(sub(intImm(1), var(names.stage)))), barrier(),
                           assign(names.stage, "=", sub(intImm(1), var(names.stage)))});
  Stmt slabs = block({
      comment("stage the first slab of " + staged + "; each later one goes to registers"),
      comment("while the block multiplies the one before, then into the other buffer"),
      decl(names.stage, kInt, intImm(0)), staging.fetch(kBegin), staging.put(intImm(0)),
      barrier(),
      forLoop(kt, kInt, kBegin, kStop, var(depth),
              block(slab),
              LoopKind::Tile)});

  // A triangle's tiles that hold no stored element skip their slabs (block uniform: every
  // thread of the block passes or skips the barriers together).
  std::vector<Stmt> colsBody = statementsOf(colsLoop->body), afterK;
  for (auto at = std::find(colsBody.begin(), colsBody.end(), kLoop); at != colsBody.end(); ++at)
    if (*at != kLoop) afterK.push_back(*at);
  bool kStores = false;
  visitStmt(kLoop->body, [&](const Stmt &s) {
    kStores |= s->kind == StmtKind::Store && (k.findParam(s->name) || !s->op.empty() &&
                                              std::isalpha(static_cast<unsigned char>(s->op[0])));
  });
  Expr mayStore = kStores ? nullptr
                          : tileMayStore(k, afterK, c.rowVar, c.colVar, var(row0),
                                         sub(add(var(row0), tileRows), intImm(1)), var(col0),
                                         sub(add(var(col0), tileCols), intImm(1)));
  if (mayStore)
    slabs = block({comment("a block whose rectangle holds no stored element skips its slabs"),
                   ifThen(simplify(mayStore), slabs)});

  std::vector<Stmt> body;
  for (const Stmt &s : k.body->stmts) {
    if (s != rowsLoop) {
      body.push_back(s);
      continue;
    }
    body.insert(body.end(), head.begin(), head.end());
    if (splits) body.insert(body.end(), split.range.begin(), split.range.end());
    std::vector<Stmt> after;  // the statements after k: only the last block of a split tile
    bool past = false;
    for (const Stmt &inner : statementsOf(colsLoop->body)) {
      if (inner != kLoop) {
        (past && splits ? after : body).push_back(mapStmt(inner, relayout));
        continue;
      }
      past = true;
      if (splits) body.push_back(split.reset);
      body.push_back(withLoc(slabs, kLoop->loc));
      if (splits) body.insert(body.end(), split.combine.begin(), split.combine.end());
    }
    if (splits && !after.empty()) body.push_back(ifThen(var(split.last), block(after)));
  }
  Kernel out = k;
  out.body = withLoc(block(body), k.body->loc);
  Expr rowTiles = div(add(rowsExtent, sub(hostThreadRows, intImm(1))), hostThreadRows);
  Expr colTilesHost = div(add(colsExtent, sub(threadCols, intImm(1))), threadCols);
  // Counted in threads (a block per tile), so the tuner's model sees every thread at work.
  out.grid = {LaunchDim{simplify(mul(mul(rowTiles, colTilesHost), blockSize)), blockSize,
                        2147483647}};
  out.blockThreads = blockSize;
  out.passes.push_back("RegisterTiling");
  // Defaults at the best point measured on an H100 (docs/performance/matmul.md): 8 x 8 results per
  // thread, blocked columns (their B values are one aligned run: 128-bit loads); the tuner
  // searches the rest of the space.
  for (TuningParam &t : out.tuning) {
    if (t.name == "MERGE_LEVEL" || t.name == "SKEW_LEVEL") t.defaultValue = closestValue(t.values, 8);
    if (t.name == "SKEW_STRIPED") t.defaultValue = 0;
  }
  out.tuning.push_back({"THREAD_COLS", k.macro("THREAD_COLS"), {8, 16, 32}, 16});
  std::vector<int> depths;
  for (int v = 1; v <= ctx.options.tileK.max; v *= 2)
    if (v >= ctx.options.tileK.min) depths.push_back(v);
  if (depths.empty()) depths.push_back(ctx.options.tileK.max);
  // With two buffers 8 measured best on an H100 (128 registers: two blocks of 256 threads per
  // SM; 16 needs 172, one block), bench/results/h100-2026-11-24-sgemm-3.
  out.tuning.push_back({"TILE_K", k.macro("TILE_K"), depths, closestValue(depths, 8)});
  addSmallGridPoints(out, ctx.options);
  if (splits) {
    out.splitK = split.info;
    out.deviceArrays.insert(out.deviceArrays.end(), split.arrays.begin(), split.arrays.end());
    out.remarks.push_back("register tiling: split k: where the tiles' grid has fewer blocks than "
                          "the GPU has SMs, loop '" + kLoop->name + "' runs in chunks, a block per "
                          "tile and chunk; the last block of a tile adds the chunks' sums (" +
                          k.macro("SPLIT_K") + ": 0 never, 1 the rule, N always N chunks)");
  } else if (!whyNoSplit.empty()) {
    out.remarks.push_back("register tiling: k is not split: " + whyNoSplit);
  }
  out.remarks.push_back("register tiling: a block computes (" + k.macro("BLOCKSIZE") + " / " +
                        k.macro("THREAD_COLS") + " * " + k.macro("MERGE_LEVEL") + ") x (" +
                        k.macro("THREAD_COLS") + " * " + k.macro("SKEW_LEVEL") + ") of loops '" +
                        c.rowVar + "' x '" + c.colVar + "', each thread " +
                        k.macro("MERGE_LEVEL") + " x " + k.macro("SKEW_LEVEL") + " of them");
  if (mayStore)
    out.remarks.push_back("register tiling: a block whose rectangle holds no element that the "
                          "guard of the stores passes (checked at its corners) skips its slabs");
  std::string arrays;
  for (size_t n = 0; n < c.operands.size(); ++n)
    arrays += std::string(n == 0 ? "" : n + 1 == c.operands.size() ? " and " : ", ") +
              c.operands[n].array +
              (c.operands[n].kMajor != c.operands[n].column ? " (transposed)" : "");
  out.remarks.push_back("prefetch: " + arrays + " staged in shared "
                        "memory in slabs of " + k.macro("TILE_K") + " along '" + kLoop->name +
                        "' (fewer where 48 KB would not hold them), coalesced loads");
  return out;
}

}  // namespace rtcuda
