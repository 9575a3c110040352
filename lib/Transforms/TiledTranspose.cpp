// TiledTranspose: a two-dimensional parallel nest that reads A[x][y] and writes B[y][x] goes
// through a 32 x 32 tile in shared memory, so that both the reads and the writes are coalesced.
//
// Collapsed onto one index, either the reads or the writes of neighbouring threads land a row
// apart (0.13x cublasSgeam on an H200). A block of BLOCKSIZE threads owns a 32 x 32 tile: it
// reads the tile with threadIdx along y, and writes it with threadIdx along x. Each tile row is
// padded to 33 elements, so a warp reading a tile column touches 32 different banks.
//
//   for (x = 0; x < X; x++)  // parallel        RTCUDA_SHARED_ARRAY(float, tile, 32 * 33);
//     for (y = 0; y < Y; y++)  // parallel      for (ty = blockIdx.y; ty < ceil(Y / 32); ty += gridDim.y) {
//       B[y][x] = f(A[x][y]);         ==>          for (r = threadIdx.x / 32; r < 32; r += BLOCKSIZE / 32) {
//                                                    x = blockIdx.x * 32 + r; y = ty * 32 + threadIdx.x % 32;
//                                                    if (x < X && y < Y) tile[r * 33 + threadIdx.x % 32] = f(A[x][y]);
//                                                  }
//                                                  __syncthreads();
//                                                  for (r0 = 0; r0 < 32; r0 += BLOCKSIZE / 32) {
//                                                    r = r0 + threadIdx.x / 32;
//                                                    y = ty * 32 + r; x = blockIdx.x * 32 + threadIdx.x % 32;
//                                                    if (r < 32 && x < X && y < Y) B[y][x] = tile[(threadIdx.x % 32) * 33 + r];
//                                                  }
//                                                  __syncthreads();
//                                                }
//
// Applies when the kernel body is the nest alone (two parallel loops of step 1 in either order,
// bounds of the parameters), its body is one plain store B[y][x] = value, and every load in the
// value that depends on the loops reads A[x][y] (any arrays, the same two subscripts; B itself
// too, in place, since the loops are parallel). The value is computed where the reads are
// coalesced. A triangular nest, which BoundingBox runs over its bounding box with the original
// bounds as a guard around the store, keeps that guard in both steps: a tile on the diagonal
// moves its half. Where the guard makes a triangle of tiles (tileTriangleSign), the grid is
// one-dimensional and runs over those tiles only (triangleTiles), neighbours along x first.
//
// Batched: a third parallel loop of step 1 (outside, between or inside the two) whose variable
// b is the first or second subscript of the store and of those loads (B[b][y][x] =
// f(A[b][x][y]), B[y][b][x] = f(A[b][x][y])) gives each batch its own tiles: the grid's y
// dimension walks the batches' tile rows together (t = b * ceil(Y / 32) + ty).
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

namespace rtcuda {

using namespace ir;

namespace {

const Type kInt = Type::of(ScalarKind::Int);
constexpr int64_t kTile = 32, kPitch = kTile + 1;

Stmt only(const Stmt &s) {
  Stmt x = s;
  while (x && x->kind == StmtKind::Block && x->stmts.size() == 1) x = x->stmts[0];
  return x;
}

bool parallelUnitLoop(const Stmt &s) {
  int64_t step = 0;
  return s && s->kind == StmtKind::For && s->loopKind == LoopKind::Parallel &&
         isConst(s->step, &step) && step == 1;
}

// `indices` end with `second`; the others are `first` and the batch's variable (when there is
// one), in either order ([b][first][second], [first][b][second]).
bool subscripts(const std::vector<Expr> &indices, const std::string &batch,
                const std::string &first, const std::string &second) {
  size_t b = batch.empty() ? 0 : 1;
  if (indices.size() != b + 2 || !isVar(indices.back(), second)) return false;
  if (!b) return isVar(indices[0], first);
  return (isVar(indices[0], batch) && isVar(indices[1], first)) ||
         (isVar(indices[0], first) && isVar(indices[1], batch));
}

// Every load of `value` that depends on x or y reads [b][x][y] or [x][b][y] ([x][y] without a
// batch: transposed, returned), or the element the store writes ([y][x]: `along`, set where
// there is one); at least one transposed. Null otherwise.
std::vector<Expr> transposedReads(const Expr &value, const std::string &b, const std::string &x,
                                  const std::string &y, bool &along) {
  bool ok = true;
  std::vector<Expr> reads;
  along = false;
  visitExpr(value, [&](const Expr &n) {
    if (n->kind != ExprKind::Load) return;
    bool depends = false;
    for (const Expr &i : n->operands) depends |= mentions(i, x) || mentions(i, y);
    if (!depends) return;
    if (subscripts(n->operands, b, y, x)) {
      along = true;
      return;
    }
    if (!subscripts(n->operands, b, x, y)) ok = false;
    bool seen = false;
    for (const Expr &r : reads) seen |= equal(r, n);
    if (!seen) reads.push_back(n);
  });
  return ok ? reads : std::vector<Expr>{};
}

// Tile (tx, ty) holds iterations of a triangle, sign * (tx - ty) >= 0, read off one conjunct
// of the guard, `D >= 0` with D = a * x - a * y + c (a = 1 or -1, c a constant) and the two
// loops' lower bounds a constant apart: x = xmin + 32 tx + rx, y = ymin + 32 ty + ry, and the
// largest D in the tile, at rx - ry = 31 a, is 32 a (tx - ty) + K + 31 (K = c + a (xmin - ymin)).
// Only where that makes exactly the tiles with a (tx - ty) >= 0 (the diagonal's own included);
// other guards keep the rectangle of tiles, which is still right, only slower.
int tileTriangleSign(const Expr &guard, const std::string &x, const std::string &y,
                     const Stmt &xLoop, const Stmt &yLoop) {
  std::vector<Expr> conjuncts{guard};
  for (size_t i = 0; i < conjuncts.size(); ++i) {
    const Expr c = conjuncts[i];
    if (c->kind != ExprKind::Binary) continue;
    if (c->name == "&&") {
      conjuncts.insert(conjuncts.end(), c->operands.begin(), c->operands.end());
      continue;
    }
    const Expr &l = c->operands[0], &r = c->operands[1];
    Expr d;  // the conjunct as D >= 0 over integers
    if (c->name == "<") d = sub(sub(r, l), intImm(1));
    else if (c->name == "<=") d = sub(r, l);
    else if (c->name == ">") d = sub(sub(l, r), intImm(1));
    else if (c->name == ">=") d = sub(l, r);
    else continue;
    if (!l->type.isInteger() || !r->type.isInteger() || !mentions(d, x) || !mentions(d, y)) continue;
    int64_t a = 0, b = 0, k = 0, delta = 0;
    if (!constantDifference(substitute(d, {{x, add(var(x, xLoop->type), intImm(1))}}), d, &a) ||
        !constantDifference(substitute(d, {{y, add(var(y, yLoop->type), intImm(1))}}), d, &b) ||
        (a != 1 && a != -1) || b != -a ||
        !constantDifference(d, mul(intImm(a), sub(var(x, xLoop->type), var(y, yLoop->type))), &k) ||
        !constantDifference(xLoop->min, yLoop->min, &delta))
      continue;
    k += a * delta;
    // a (tx - ty) >= ceil((-31 - K) / 32), which is 0 for K in [-31, 0].
    if (k >= -31 && k <= 0) return static_cast<int>(a);
  }
  return 0;
}

// The tiles (p, q) with q <= p < pTiles and q < qTiles, numbered by `walked` so that
// consecutive numbers are neighbours along x, the tile index the written array is contiguous in
// (as the rectangle's blockIdx.x is; a grid along y ran at 0.77-0.83x sgeam, docs/passes). With
// p along x, a row of tiles is one q, p from q to pTiles - 1, for q < rows = min(pTiles,
// qTiles): lengths pTiles - q. With q along x, a row is one p, q below min(p + 1, qTiles): the
// first rows = min(pTiles, qTiles) of lengths 1, 2, ..., then whole rows of qTiles. Rows whose
// lengths go up or down by one are folded two by two (rows f and rows - 1 - f make one of a
// constant length), so no division needs a square root. Declares the counts at the top of
// `body`, p and q at the top of `step`; returns the count over the parameters (the grid's) and
// sets `local` to the same count declared in `body`.
Expr triangleTiles(const Kernel &k, const std::string &walked, const std::string &p,
                   const std::string &q, const Expr &pTiles, const Expr &qTiles, bool pAlongX,
                   std::vector<Stmt> &body, std::vector<Stmt> &step, Expr &local) {
  int64_t apart = 0;  // pTiles - qTiles, where it is a constant
  Expr rows = !constantDifference(pTiles, qTiles, &apart) ? simplify(select(lt(qTiles, pTiles), qTiles, pTiles))
              : apart > 0                                  ? qTiles
                                                           : pTiles;
  // The folded rows' first length and its step, the length of two folded rows, their tiles.
  Expr first = pAlongX ? pTiles : intImm(1);
  auto pairOf = [&](Expr r) {
    return simplify(pAlongX ? add(sub(mul(intImm(2), pTiles), r), intImm(1)) : add(r, intImm(1)));
  };
  auto foldedCount = [&](Expr r) { return div(mul(r, pairOf(r)), intImm(2)); };
  Expr all = simplify(pAlongX ? foldedCount(rows) : add(foldedCount(rows), mul(sub(pTiles, rows), qTiles)));
  const std::string rowsName = freshName(k, "folded_rows"), foldedName = freshName(k, "folded_tiles"),
                    allName = freshName(k, "triangle_tiles"), f = freshName(k, "fold"),
                    at = freshName(k, "at");
  body.push_back(comment("the tiles that meet the triangle, " + q + " <= " + p + ", rows of them along '" +
                         (pAlongX ? p : q) + "': the first " + rowsName + " folded two by two" +
                         (pAlongX ? "" : ", then whole rows")));
  body.push_back(decl(rowsName, kInt, rows));
  Expr r = var(rowsName), pair = pairOf(r);
  body.push_back(decl(foldedName, kInt, simplify(foldedCount(r))));
  if (!pAlongX)
    body.push_back(decl(allName, kInt, simplify(add(var(foldedName), mul(sub(pTiles, r), qTiles)))));
  // Fold f: its first row f (length first +- f), then row rows - 1 - f.
  Expr length = pAlongX ? sub(first, var(f)) : add(first, var(f));
  Expr front = lt(var(at), length);
  Expr row = select(front, var(f), sub(sub(r, intImm(1)), var(f)));
  Expr col = select(front, var(at), sub(var(at), length));
  step.insert(step.begin(), {decl(f, kInt, div(var(walked), pair)), decl(at, kInt, binary("%", var(walked), pair))});
  if (pAlongX) {  // row q, p = q + col
    step.insert(step.begin() + 2, {decl(q, kInt, row), decl(p, kInt, add(var(q), col))});
    local = var(foldedName);
  } else {  // row p, col q; past the folded rows, whole rows
    Expr inFold = lt(var(walked), var(foldedName)), rest = sub(var(walked), var(foldedName));
    step.insert(step.begin() + 2, {decl(p, kInt, select(inFold, row, add(r, div(rest, qTiles)))),
                                   decl(q, kInt, select(inFold, col, binary("%", rest, qTiles)))});
    local = var(allName);
  }
  return all;
}

}  // namespace

Kernel tiledTranspose(const Kernel &k, const PassContext &) {
  if (!k.grid.empty() || !k.reductions.empty() || !k.atomicArrays.empty() || k.finish) return k;
  const Stmt nest = soleStatement(k);
  if (!nest || !parallelUnitLoop(nest)) return k;
  // A batch loop: three parallel loops; the batch is the one whose variable is neither the
  // store's last subscript nor the reads' (below).
  Stmt batch, outer = nest, inner = only(nest->body);
  if (parallelUnitLoop(inner) && parallelUnitLoop(only(inner->body)))
    batch = nest, outer = inner, inner = only(inner->body);
  if (!parallelUnitLoop(inner)) return k;
  Stmt st = only(inner->body);
  // A triangular nest runs over its bounding box with its bounds as a guard (BoundingBox): the
  // guard, which reads no array, joins the tile's range check in both steps.
  Expr guard;
  if (st && st->kind == StmtKind::If && !st->elseBody && !hasLoad(st->cond))
    guard = st->cond, st = only(st->body);
  const size_t first = batch ? 1 : 0;
  if (!st || st->kind != StmtKind::Store || st->op != "=" || st->indices.size() != first + 2 ||
      st->indices.back()->kind != ExprKind::Var)
    return k;
  if (batch) {
    // x: the store's last subscript; y: that of the first load that depends on the loops.
    std::string x = st->indices.back()->name, y;
    visitExpr(st->value, [&](const Expr &n) {
      if (y.empty() && n->kind == ExprKind::Load && !n->operands.empty() &&
          n->operands.back()->kind == ExprKind::Var)
        for (const Stmt &l : {batch, outer, inner})
          if (n->operands.back()->name == l->name) y = l->name;
    });
    std::vector<Stmt> tile;
    for (const Stmt &l : {batch, outer, inner})
      if (l->name == x || l->name == y) tile.push_back(l);
      else batch = l;
    if (tile.size() != 2) return k;
    outer = tile[0], inner = tile[1];
  }
  const std::string b = batch ? batch->name : "";
  // The write's last subscript is x, the reads' last subscript is y (the other non-batch one).
  const std::string p = outer->name, q = inner->name;
  const std::string x = st->indices.back()->name, y = x == p ? q : p;
  if (x != p && x != q) return k;
  // The stored array may be read (in place: A[y][x] = A[x][y] over a triangle): the loops are
  // parallel, so no iteration reads what another writes, and each reads before it writes.
  bool along = false;
  const std::vector<Expr> transposed = transposedReads(st->value, b, x, y, along);
  // Reads along the store too (C[y][x] = A[y][x] + B[x][y]): one tile per transposed read, the
  // value computed in the second step, where the other reads are coalesced. At most 4 tiles.
  if (!subscripts(st->indices, b, y, x) || transposed.empty() || (along && transposed.size() > 4)) return k;
  std::vector<Stmt> loops{outer, inner};
  if (batch) loops.push_back(batch);
  for (const Stmt &l : loops)
    for (const std::string &v : {p, q, b})
      if (!v.empty() && (mentions(l->min, v) || mentions(l->end, v))) return k;
  const Stmt &xLoop = x == p ? outer : inner, &yLoop = x == p ? inner : outer;

  Expr blockSize = var(k.macro("BLOCKSIZE")), tile = intImm(kTile), pitch = intImm(kPitch);
  Expr tid = cast(kInt, gpuBuiltin("threadIdx.x"));
  Expr col = binary("%", tid, tile), row0 = binary("/", tid, tile);
  std::string tileName = freshName(k, "tile"), r = freshName(k, "r"), r0 = freshName(k, "r0");
  std::string ty = freshName(k, y + "_tile");
  // A triangular guard: the grid runs over the tiles of the triangle only (below), tile
  // (x_tile, y_tile) named by the walked index; otherwise blockIdx.x is the x tile.
  const int sign = guard && !batch ? tileTriangleSign(guard, x, y, xLoop, yLoop) : 0;
  std::string tx = freshName(k, x + "_tile");
  Expr xTile = sign ? var(tx) : cast(kInt, gpuBuiltin("blockIdx.x"));
  Expr xBase = simplify(add(xLoop->min, mul(xTile, tile)));
  Expr yBase = simplify(add(yLoop->min, mul(var(ty), tile)));
  Expr inRange = land(lt(var(x, xLoop->type), xLoop->end), lt(var(y, yLoop->type), yLoop->end));
  if (guard) inRange = land(inRange, guard);
  Type elem = st->value->type;
  if (const Param *out = k.findParam(st->name)) elem = out->type;

  // A loop with constant bounds (r0 = 0, 8, 16, 24 for 256 threads), which nvcc unrolls: each
  // thread's loads are all in flight before the barrier. r < 32 is false only for block sizes
  // that are not a power of two (96 threads: 3 rows per step).
  auto pass = [&](Stmt xDecl, Stmt yDecl, Stmt body) {
    return forLoop(r0, kInt, intImm(0), tile, div(blockSize, tile),
                   block({decl(r, kInt, add(var(r0), row0)), xDecl, yDecl,
                          ifThen(land(lt(var(r), tile), inRange), body)}));
  };
  // Read: rows of the tile along x, threads along y (A[x][y] coalesced). With reads along the
  // store too, each transposed read into a tile of its own.
  std::vector<std::string> tileNames{tileName};
  for (size_t t = 1; along && t < transposed.size(); ++t) tileNames.push_back(freshName(k, "tile" + std::to_string(t + 1)));
  std::vector<Stmt> fills;
  if (!along)
    fills.push_back(store(tileName, {add(mul(var(r), pitch), col)}, "=",
                          st->value->type == elem ? st->value : cast(elem, st->value)));
  for (size_t t = 0; along && t < transposed.size(); ++t)
    fills.push_back(store(tileNames[t], {add(mul(var(r), pitch), col)}, "=", transposed[t]));
  Stmt read = pass(withLoc(decl(x, xLoop->type, add(xBase, var(r))), xLoop->loc),
                   withLoc(decl(y, yLoop->type, add(yBase, col)), yLoop->loc), block(fills));
  // Write: rows of the tile along y, threads along x (B[y][x] coalesced).
  auto written = std::make_shared<StmtNode>(*st);
  written->value = load(tileName, {add(mul(col, pitch), var(r))}, elem);
  if (along)
    written->value = mapExpr(st->value, [&](const Expr &n) -> Expr {
      for (size_t t = 0; t < transposed.size(); ++t)
        if (n->kind == ExprKind::Load && equal(n, transposed[t]))
          return load(tileNames[t], {add(mul(col, pitch), var(r))}, n->type);
      return n;
    });
  Stmt write = pass(withLoc(decl(y, yLoop->type, add(yBase, var(r))), yLoop->loc),
                    withLoc(decl(x, xLoop->type, add(xBase, col)), xLoop->loc), Stmt(written));

  auto tilesOf = [&](const Stmt &l) { return simplify(div(add(tripCount(l), intImm(kTile - 1)), tile)); };
  Expr yTiles = tilesOf(yLoop);
  std::vector<Stmt> body{comment(along ? "32 x 33 tiles of the transposed reads: filled along '" + y +
                                             "', read along '" + x + "'"
                                       : "a 32 x 33 tile: read along '" + y + "', written along '" + x + "'")};
  for (size_t t = 0; t < tileNames.size(); ++t) {
    auto shared = std::make_shared<StmtNode>(*decl(tileNames[t], along ? transposed[t]->type : elem, nullptr,
                                                   intImm(kTile * kPitch)));
    shared->shared = true;
    body.push_back(Stmt(shared));
  }
  std::vector<Stmt> step{read, barrier(), write, barrier()};
  Expr rows = yTiles;  // tile rows the grid's y dimension walks
  std::string walked = ty;
  if (batch) {
    // t = the batch's tile rows one after another: b and ty from it.
    walked = freshName(k, "t");
    rows = simplify(mul(tripCount(batch), yTiles));
    step.insert(step.begin(), {withLoc(decl(b, batch->type, simplify(add(batch->min,
                                                                          div(var(walked), yTiles)))),
                                       batch->loc),
                               decl(ty, kInt, binary("%", var(walked), yTiles))});
  }
  Kernel out = k;
  if (sign) {
    Expr xTiles = tilesOf(xLoop);
    walked = freshName(k, "t");
    Expr count;
    Expr tiles = sign > 0 ? triangleTiles(k, walked, tx, ty, xTiles, yTiles, true, body, step, count)
                          : triangleTiles(k, walked, ty, tx, yTiles, xTiles, false, body, step, count);
    body.push_back(withLoc(forLoop(walked, kInt, cast(kInt, gpuBuiltin("blockIdx.x")), count,
                                   cast(kInt, gpuBuiltin("gridDim.x")), block(step), LoopKind::Block),
                           outer->loc));
    out.grid = {LaunchDim{tiles, intImm(1), 2147483647}};
  } else {
    body.push_back(withLoc(forLoop(walked, kInt, cast(kInt, gpuBuiltin("blockIdx.y")), rows,
                                   cast(kInt, gpuBuiltin("gridDim.y")), block(step), LoopKind::Block),
                           outer->loc));
    out.grid = {LaunchDim{simplify(tripCount(xLoop)), tile, 2147483647},
                LaunchDim{batch ? simplify(mul(rows, tile)) : simplify(tripCount(yLoop)), tile, 65535}};
  }
  out.body = withLoc(block(body), k.body->loc);
  out.blockThreads = blockSize;
  // 512 threads (2 elements of the tile each): 0.97-1.00x cublasSgeam on an H100 at the four
  // shapes of bench/kinds.txt, against 0.90-0.93x at 256 and 0.83x at 128, 0.69x at 1024
  // (bench/results/h100-2026-11-24-s7-final-kinds). The triangle's tiles at 256 (4 elements
  // each): 0.88-0.94x sgeam of as many elements, against 0.75-0.83x at 512
  // (bench/results/h100-2026-11-25-s17-tri-2). Only where the config sets no default.
  out.preferredBlockSize = sign ? 256 : 512;
  out.passes.push_back("TiledTranspose");
  std::string at;
  for (const Expr &i : st->indices) at += "[" + i->name + "]";
  out.remarks.push_back("transpose: '" + st->name + at + "' is written from reads along '" + y +
                        "' through " + (along ? std::to_string(tileNames.size()) + " padded 32 x 33 tile(s) " +
                                                    "in shared memory, one per transposed read; its reads along '" +
                                                    x + "' directly"
                                              : "a padded 32 x 33 tile in shared memory") +
                        (batch ? ", one set of tiles per '" + b + "'" : ""));
  return out;
}

}  // namespace rtcuda
