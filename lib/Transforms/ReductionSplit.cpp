// ReductionSplit: a column sum whose parallel loop has too few iterations to fill the GPU
// (1031 columns: 33 blocks of 32 columns) also splits its reduction loop across blocks: the
// grid gets a y dimension of row chunks, each block sums its chunk of rows, and the blocks of
// one column add their partial sums into the output with one atomic per column and block.
//
//   int j = ...;                               int j = ...;
//   if (j < cols) {                            if (j < cols) {
//     float s = 0.0f;                            int i_chunk = (max(rows, 0) + gridDim.y - 1) / gridDim.y;
//     for (int i = 0; i < rows; i++)   ==>       int i_lo = 0 + blockIdx.y * i_chunk;
//       s += A[i * cols + j];                    int i_hi = min(rows, i_lo + i_chunk);
//     out[j] = s;                                float s = gridDim.y == 1 ? 0.0f : 0.0f;
//   }                                            for (int i = i_lo; i < i_hi; i++) s += A[i * cols + j];
//                                                if (gridDim.y == 1) out[j] = s; else atomicAdd(&out[j], s);
//                                              }
//   and a kernel colsum_init (launched first, only when gridDim.y > 1): out[j] = 0.0f.
//
// The number of chunks is decided at launch from the extents: enough blocks for
// SPLIT_BLOCKS blocks in all (the x blocks are 32 columns each, LaneReduction's column
// mapping), but chunks of at least BLOCKSIZE / 2 rows (16 per warp); with an _init kernel to
// pay for, only below SPLIT_BLOCKS / 8 column blocks. With many columns it is 1: one block per
// column group, a plain store, no _init kernel, the kernel as it was before.
// With `y[j] = y[j] + ...` (tmv, atax, bicg: the sum starts from the output itself) the blocks
// add into the output directly and no _init kernel is needed.
//
// Applies where LaneReduction chooses its column mapping, the loop's sum is stored once after it
// into an element of a parameter array that the kernel reads nowhere else (or only as the sum's
// start), whatever the nest's bounds (a triangle's rows are split per thread).
// docs/passes/ReductionSplit.md.
#include "LaneReduction.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

#include <algorithm>

namespace rtcuda {

using namespace ir;

namespace {

int loadsOf(const Expr &e, const std::string &array) {
  int n = 0;
  visitExpr(e, [&](const Expr &x) { n += x->kind == ExprKind::Load && x->name == array; });
  return n;
}

int loadsOf(const Stmt &s, const std::string &array) {
  int n = 0;
  visitStmt(s, nullptr, [&](const Expr &e) { n += loadsOf(e, array); });
  return n;
}

int storesOf(const Stmt &s, const std::string &array) {
  int n = 0;
  visitStmt(s, [&](const Stmt &x) { n += x->kind == StmtKind::Store && x->name == array; });
  return n;
}

// Variables of `e` that are neither parameters nor macros (upper case) nor GPU built-ins.
std::vector<std::string> localsOf(const Expr &e, const Kernel &k) {
  std::vector<std::string> out;
  for (const std::string &v : varsOf(e)) {
    const Param *p = k.findParam(v);
    bool macro = !v.empty() && std::all_of(v.begin(), v.end(), [](char c) {
      return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
    });
    if (!p && !macro && v.find("Idx.") == std::string::npos && v.find("Dim.") == std::string::npos)
      out.push_back(v);
  }
  return out;
}

// The first iteration of the thread's loop: the index's value at block 0, thread 0, without
// LoopPartition's clamp (`(int)llmin(first + global, end)`).
Expr firstIteration(const Stmt &index) {
  Expr v = index->value;
  if (v->kind == ExprKind::Cast && v->operands[0]->kind == ExprKind::Call &&
      v->operands[0]->name == "llmin")
    v = v->operands[0]->operands[0];
  return simplify(substitute(v, {{"blockIdx.x", intImm(0)}, {"threadIdx.x", intImm(0)}}));
}

}  // namespace

Kernel reductionSplit(const Kernel &k, const PassContext &) {
  if (k.grid.size() != 1 || !equal(k.grid[0].perBlock, var(k.macro("BLOCKSIZE")))) return k;
  std::optional<LaneLoop> found = findLaneLoop(k);
  if (!found || found->mapping != LaneMapping::Columns) return k;
  const std::vector<Stmt> &top = k.body->stmts;
  const size_t d = found->index;
  const Stmt &index = top[d], &guard = top[d + 1];
  const std::vector<Stmt> &body = found->body;
  const Stmt &loop = body[found->loop];
  const std::string &acc = found->acc;
  // After the loop: one store of the sum, `X[e] = acc`.
  if (found->loop + 2 != body.size()) return k;
  const Stmt &st = body.back();
  if (st->kind != StmtKind::Store || st->op != "=" || !isVar(st->value, acc)) return k;
  const Param *out = k.findParam(st->name);
  if (!out || !out->isArray || out->isConst) return k;
  for (size_t s = 0; s < d; ++s)
    if (top[s]->kind != StmtKind::Decl && top[s]->kind != StmtKind::Comment) return k;
  Stmt accDecl;
  for (size_t s = 0; s < found->loop; ++s)
    if (body[s]->kind == StmtKind::Decl && body[s]->name == acc) accDecl = body[s];
  if (!accDecl || !accDecl->value) return k;
  for (const Expr &e : st->indices)
    if (mentions(e, acc) || loadsOf(e, st->name)) return k;
  // The sum starts from the output itself (y[j] = y[j] + ...), or from a value that no other
  // thread's additions can change: X is read nowhere else and stored only here.
  Expr self = load(st->name, st->indices, out->type);
  const bool accumulates = equal(accDecl->value, self);
  if (loadsOf(k.body, st->name) != (accumulates ? 1 : 0) || storesOf(k.body, st->name) != 1)
    return k;

  // Launch-time number of chunks: SPLIT_BLOCKS blocks in all, chunks of BLOCKSIZE / 2 rows or
  // more. A trip count that depends on the thread (a triangle) is bounded by its value at the
  // first and the last iteration.
  Expr trip = simplify(tripCount(loop));
  std::vector<std::string> locals = localsOf(trip, k);
  locals.erase(std::remove(locals.begin(), locals.end(), index->name), locals.end());
  if (!locals.empty() || !guard->cond || guard->cond->kind != ExprKind::Binary ||
      guard->cond->name != "<" || !isVar(guard->cond->operands[0], index->name))
    return k;
  Expr first = firstIteration(index), last = sub(guard->cond->operands[1], intImm(1));
  if (!localsOf(first, k).empty() || !localsOf(last, k).empty()) return k;
  // Plain C operators: manifest.json's size expressions call no functions.
  auto smaller = [](Expr a, Expr b) { return select(lt(a, b), a, b); };
  auto larger = [](Expr a, Expr b) { return select(lt(a, b), b, a); };
  auto ceilDiv = [](Expr a, Expr b) { return div(sub(add(a, b), intImm(1)), b); };
  Expr rows = mentions(trip, index->name)
                  ? larger(simplify(substitute(trip, {{index->name, first}})),
                           simplify(substitute(trip, {{index->name, last}})))
                  : trip;
  Expr blockSize = var(k.macro("BLOCKSIZE")), splitBlocks = var(k.macro("SPLIT_BLOCKS"));
  Expr columnBlocks = larger(intImm(1), ceilDiv(k.grid[0].iterations, intImm(32)));
  Expr chunks = larger(intImm(1), smaller(ceilDiv(rows, div(blockSize, intImm(2))),
                                          ceilDiv(splitBlocks, columnBlocks)));
  // A sum that starts from a value pays for the _init launch too: it splits only when its
  // columns give fewer than SPLIT_BLOCKS / 8 blocks (H100: colsum 8191 x 8193, 257 blocks, ran
  // at 0.0992 ms in one chunk and 0.1121 ms in 8 with _init; 65537 x 1031, 33 blocks, at
  // 0.3045 ms in one and 0.1127 ms in 63).
  if (!accumulates)
    chunks = select(lt(mul(columnBlocks, intImm(8)), splitBlocks), chunks, intImm(1));

  // The thread's chunk of the loop, from gridDim.y (any number of chunks covers the rows once).
  const Type t = loop->type;
  Expr chunksHere = cast(t, gpuBuiltin("gridDim.y")), whole = binary("==", chunksHere, intImm(1));
  std::string chunk = freshName(k, loop->name + "_chunk"), lo = freshName(k, loop->name + "_lo"),
              hi = freshName(k, loop->name + "_hi");
  Expr positive = select(lt(trip, intImm(0)), intImm(0), trip);
  std::vector<Stmt> guarded(body.begin(), body.begin() + found->loop);
  for (Stmt &s : guarded)
    if (s == accDecl) {
      auto start = std::make_shared<StmtNode>(*s);
      Expr zero = s->type.isFloat() ? floatImm(0, s->type) : cast(s->type, intImm(0));
      int64_t c = 1;
      if (!(isConst(s->value, &c) && c == 0) &&
          !(s->value->kind == ExprKind::FloatImm && s->value->floatValue == 0))
        start->value = select(whole, s->value, zero);
      s = Stmt(start);
    }
  guarded.push_back(decl(chunk, t, div(sub(add(positive, chunksHere), intImm(1)), chunksHere)));
  guarded.push_back(decl(lo, t, add(loop->min, mul(cast(t, gpuBuiltin("blockIdx.y")), var(chunk, t)))));
  Expr past = add(var(lo, t), var(chunk, t));
  guarded.push_back(decl(hi, t, select(lt(loop->end, past), loop->end, past)));
  auto chunked = std::make_shared<StmtNode>(*loop);
  chunked->min = var(lo, t);
  chunked->end = var(hi, t);
  guarded.push_back(Stmt(chunked));
  auto atomic = std::make_shared<StmtNode>(*st);
  atomic->op = atomicFunction("+", out->type);
  guarded.push_back(withLoc(ifThen(whole, st, Stmt(atomic)), st->loc));
  auto newGuard = std::make_shared<StmtNode>(*guard);
  newGuard->body = withLoc(block(guarded), guard->body->loc);
  std::vector<Stmt> newTop = top;
  newTop[d + 1] = Stmt(newGuard);

  Kernel result = k;
  result.body = withLoc(block(newTop), k.body->loc);
  result.grid.push_back({chunks, intImm(1), 65535});
  if (!accumulates) {
    // The outputs' initial values, before any block adds into them: the statements before the
    // loop (the thread's recovered indices) and X[e] = start, over the same x mapping.
    std::vector<Stmt> init;
    for (const Stmt &s : std::vector<Stmt>(body.begin(), body.begin() + found->loop))
      if (s != accDecl) init.push_back(s);
    init.push_back(withLoc(store(st->name, st->indices, "=", accDecl->value), st->loc));
    std::vector<Stmt> pro(top.begin(), top.begin() + d + 1);
    pro.push_back(ifThen(guard->cond, block(init)));
    result.prologue = withLoc(block(pro), k.body->loc);
  }
  result.tuning.push_back({"SPLIT_BLOCKS", k.macro("SPLIT_BLOCKS"), {1, 1024, 2048, 4096}, 2048});
  result.passes.push_back("ReductionSplit");
  result.remarks.push_back(
      "split: loop '" + loop->name + "' is cut into row chunks along the grid's y dimension when "
      "the columns of '" + index->name + "' give fewer than " + k.macro("SPLIT_BLOCKS") +
      " blocks; each block adds its partial sums into " + st->name +
      (accumulates ? " atomically" : " atomically, after " + k.name + "_init sets them"));
  return result;
}

}  // namespace rtcuda
