// SharedPrefetch: stage a prefetched array through shared memory with coalesced loads.
//
// Handled today: one thread per row (a single parallel loop i) reading X[i][k] in a serial loop
// over k, as matrix-vector products and Jacobi sweeps do. Read directly, the threads of a warp
// touch addresses a row apart and nothing coalesces. Staged, the block first copies its
// BLOCKSIZE rows x TILE_K columns tile with consecutive threads on consecutive columns, waits,
// then each thread reads its row from shared memory (rows padded by one element, so the reads
// hit different banks):
//
//   if (i < n) {                         for (kt = 0; kt < q; kt += TILE_K) {
//     ...                                  for (t = threadIdx.x; t < BLOCKSIZE * TILE_K; t += BLOCKSIZE)
//     for (k = 0; k < q; k++)    ==>         X_tile[t / TILE_K][t % TILE_K] = X[row0 + t / TILE_K][kt + t % TILE_K];
//       s += X[i][k] * y[k];                __syncthreads();
//     ...                                  if (i < n) for (k = kt; k < min(kt + TILE_K, q); k++)
//   }                                         s += X_tile[threadIdx.x][k - kt] * y[k];
//                                          __syncthreads();
//                                        }
//
// Every thread of the block takes part in the staging and the barriers (the guard moves inside),
// partial tiles at the edges are guarded, and TILE_K is a tuning parameter of its own. Whether
// to stage at all is one too (<NAME>_PREFETCH): on an H100 the direct loop already uses whole
// sectors through L1, so staging in tiles small enough for 48 KB can be slower. Arrays whose
// access has another shape are left alone with a remark.
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

#include <algorithm>

namespace rtcuda {

using namespace ir;

namespace {

const Type kInt = Type::of(ScalarKind::Int);

Expr tid() { return cast(kInt, gpuBuiltin("threadIdx.x")); }

struct RowAccess {
  std::string array;
  Expr rowWidth;   // leading dimension after flattening
  Expr offset;     // index - (i * rowWidth + k): independent of i and k
  Type type;
};

// The thread's row: `int i = [min +] (int)(blockIdx.x * BLOCKSIZE + threadIdx.x)` followed by
// `if (i < end) { ... }` at the top level of the body.
struct Shape {
  size_t declIndex = 0, guardIndex = 0;
  std::string row;
  Expr rowBase;  // the block's first row
  Expr end;
};

bool findShape(const Kernel &k, Shape &shape) {
  const auto &stmts = k.body->stmts;
  const size_t d = threadGuardIndex(k);
  if (d == stmts.size()) return false;
  shape.declIndex = d;
  shape.guardIndex = d + 1;
  shape.row = stmts[d]->name;
  shape.rowBase = sub(var(shape.row), tid());
  shape.end = stmts[d + 1]->cond->operands[1];
  return true;
}

// X[e] with e == i * width + k + offset for the array's row width.
bool rowAccess(const Kernel &k, const Expr &load, const std::string &row, const std::string &col,
               RowAccess &out) {
  const Param *p = k.findParam(load->name);
  if (!p || p->dims.size() != 2 || !p->dims[1] || load->operands.size() != 1) return false;
  Expr expected = add(mul(var(row), p->dims[1]), var(col));
  Expr offset = simplify(binary("-", load->operands[0], expected));
  if (mentions(offset, row) || mentions(offset, col)) return false;
  out = {load->name, p->dims[1], offset, load->type};
  return true;
}

}  // namespace

Kernel sharedPrefetch(const Kernel &k, const PassContext &ctx) {
  const std::vector<std::string> &wanted = ctx.options.prefetch;
  if (wanted.empty()) return k;
  if (std::find(k.passes.begin(), k.passes.end(), "RegisterTiling") != k.passes.end())
    return k;  // both operands staged there already
  if (std::find(k.passes.begin(), k.passes.end(), "LaneReduction") != k.passes.end()) {
    Kernel out = k;
    out.remarks.push_back("prefetch: the lanes of LaneReduction read each row at consecutive "
                          "addresses (coalesced); nothing to stage");
    return out;
  }
  Kernel out = k;
  Shape shape;
  if (!findShape(k, shape)) {
    out.remarks.push_back("prefetch: only kernels with one thread per row (one parallel loop) "
                          "are staged so far; arrays are read from global memory");
    return out;
  }
  std::vector<Stmt> body = statementsOf(k.body->stmts[shape.guardIndex]->body);
  // The first serial loop of the guarded body that reads a wanted array by (row, loop var).
  size_t loopIndex = body.size();
  RowAccess access;
  for (size_t s = 0; s < body.size() && loopIndex == body.size(); ++s) {
    const Stmt &loop = body[s];
    int64_t step = 0;
    if (loop->kind != StmtKind::For || !isConst(loop->step, &step) || step != 1) continue;
    if (mentions(loop->min, shape.row) || mentions(loop->end, shape.row)) continue;
    visitStmt(loop->body, nullptr, [&](const Expr &e) {
      visitExpr(e, [&](const Expr &n) {
        if (loopIndex != body.size() || n->kind != ExprKind::Load) return;
        if (std::find(wanted.begin(), wanted.end(), n->name) == wanted.end()) return;
        if (rowAccess(k, n, shape.row, loop->name, access)) loopIndex = s;
      });
    });
  }
  if (loopIndex == body.size()) {
    out.remarks.push_back("prefetch: no serial loop reads a prefetched array one row per "
                          "thread; arrays are read from global memory");
    return out;
  }
  const Stmt &loop = body[loopIndex];
  Expr blockSize = var(k.macro("BLOCKSIZE"));
  Expr tileK = var(k.macro("TILE_K"));
  Expr pitch = add(tileK, intImm(1));  // one element of padding against bank conflicts
  std::string tile = freshName(k, access.array + "_tile");
  std::string kt = freshName(k, loop->name + "_tile");
  std::string t = freshName(k, "t");
  Expr guard = lt(var(shape.row), shape.end);

  // The loop over one tile, reading the tile instead of the array.
  Expr local = add(mul(tid(), pitch), sub(var(loop->name), var(kt)));
  Stmt tiledBody = mapStmt(loop->body, nullptr, [&](const Expr &e) -> Expr {
    RowAccess a;
    if (e->kind == ExprKind::Load && e->name == access.array &&
        rowAccess(k, e, shape.row, loop->name, a) && equal(simplify(a.offset), simplify(access.offset)))
      return load(tile, {local}, e->type);
    return e;
  });
  Expr tileEnd = select(lt(add(var(kt), tileK), loop->end), add(var(kt), tileK), loop->end);
  Stmt inner = forLoop(loop->name, loop->type, var(kt), tileEnd, intImm(1), tiledBody);

  // Cooperative, coalesced staging of rows [rowBase, rowBase + BLOCKSIZE) x [kt, kt + TILE_K).
  std::string rn = freshName(k, "tile_row"), cn = freshName(k, "tile_col");
  Expr r = var(rn), c = var(cn);
  Expr row = add(shape.rowBase, r), col = add(var(kt), c);
  Stmt copy = block({decl(rn, kInt, div(var(t), tileK)), decl(cn, kInt, mod(var(t), tileK)),
                     ifThen(land(lt(row, shape.end), lt(col, loop->end)),
                            store(tile, {add(mul(r, pitch), c)}, "=",
                                  load(access.array,
                                       {simplify(add(add(mul(row, access.rowWidth), col),
                                                     access.offset))},
                                       access.type)))});
  auto staging = std::make_shared<StmtNode>(*forLoop(t, kInt, tid(), mul(blockSize, tileK),
                                                     intImm(1), copy));
  staging->step = blockSize;  // every thread copies every BLOCKSIZE-th element
  Stmt tiles = forLoop(kt, kInt, loop->min, loop->end, tileK,
                       block({comment("stage a tile of " + access.array + " (coalesced)"),
                              Stmt(staging), barrier(), ifThen(guard, block({inner})),
                              barrier()}),
                       LoopKind::Tile);

  // Statements before the loop keep their locals visible after it: declared up front,
  // assigned under the guard.
  std::vector<Stmt> before, guardedBefore, after;
  for (size_t s = 0; s < loopIndex; ++s) {
    const Stmt &st = body[s];
    if (st->kind == StmtKind::Decl) {
      before.push_back(withLoc(decl(st->name, st->type, nullptr, st->arraySize), st->loc));
      if (st->value) guardedBefore.push_back(withLoc(assign(st->name, "=", st->value), st->loc));
    } else {
      guardedBefore.push_back(st);
    }
  }
  after.assign(body.begin() + loopIndex + 1, body.end());

  // Staging pays only when it saves more than its barriers cost, so <NAME>_PREFETCH chooses
  // between the staged loop and the direct one (a constant: the compiler drops the other).
  std::vector<Stmt> staged;
  auto shared = std::make_shared<StmtNode>(*decl(tile, access.type, nullptr, mul(blockSize, pitch)));
  shared->shared = true;
  staged.push_back(shared);
  staged.insert(staged.end(), before.begin(), before.end());
  if (!guardedBefore.empty()) staged.push_back(ifThen(guard, block(guardedBefore)));
  staged.push_back(withLoc(tiles, loop->loc));
  if (!after.empty()) staged.push_back(ifThen(guard, block(after)));
  std::vector<Stmt> top(k.body->stmts.begin(), k.body->stmts.begin() + shape.guardIndex);
  top.push_back(ifThen(var(k.macro("PREFETCH")), block(staged),
                       block({k.body->stmts[shape.guardIndex]})));
  top.insert(top.end(), k.body->stmts.begin() + shape.guardIndex + 1, k.body->stmts.end());
  out.body = withLoc(block(top), k.body->loc);
  out.passes.push_back("SharedPrefetch");
  // TILE_K: powers of two in the configured range whose tile fits the 48 KB of static shared
  // memory at the largest block size, so that every point of the space is valid.
  int maxBlock = ctx.options.blockSize.max == 0 ? 1024 : ctx.options.blockSize.max;
  std::vector<int> values;
  for (int v = 1; v <= ctx.options.tileK.max; v *= 2)
    if (v >= ctx.options.tileK.min && maxBlock * (v + 1) * access.type.bytes() <= 48 * 1024)
      values.push_back(v);
  if (values.empty())
    for (int v = 1; maxBlock * (v + 1) * access.type.bytes() <= 48 * 1024; v *= 2) values = {v};
  if (values.empty())
    throw CompileError(k.loc, "prefetch: a " + std::to_string(maxBlock) + "-thread block needs "
                              "more than 48 KB of shared memory for its tile; lower the block "
                              "size range");
  // Default 0: on an H100 the direct loop was faster at every block size measured
  // (docs/performance/examples.md); rtcuda-tune decides per device and size.
  out.tuning.push_back({"PREFETCH", k.macro("PREFETCH"), {0, 1}, 0});
  out.tuning.push_back({"TILE_K", k.macro("TILE_K"), values, values.back()});
  out.remarks.push_back("prefetch: " + access.array + " staged in shared memory, " +
                        k.macro("BLOCKSIZE") + " rows x " + k.macro("TILE_K") +
                        " columns per tile, coalesced loads");
  for (const std::string &a : wanted)
    if (a != access.array)
      out.remarks.push_back("prefetch: " + a + " is not read one row per thread in that loop; "
                            "read from global memory");
  return out;
}

}  // namespace rtcuda
