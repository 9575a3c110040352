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
//     out[j] = s;                                float s = 0.0f;
//   }                                            for (int i = i_lo; i < i_hi; i++) s += A[i * cols + j];
//                                                if (gridDim.y == 1) out[j] = s;
//                                                else { int j_slot = j - 0;
//                                                  if (rtcuda_split_add(sums + j_slot, counts + j_slot, s))
//                                                    out[j] = rtcuda_split_take(sums + j_slot); }
//                                              }
//
// The blocks of a column add their partial sums into the column's slot of a __device__ array and
// count themselves in; the last to count in stores the start plus the total and leaves slot and
// count at zero for the next launch. No other launch: an `_init` kernel that zeroed the outputs
// first cost 7-10 us per call on an H100 (colsum 65537 x 1031 at 0.96x cuBLAS with it).
// With `y[j] = y[j] + ...` (tmv, atax, bicg: the sum starts from the output itself) the blocks
// add into the output directly (atomicAdd).
//
// The number of chunks is decided at launch from the extents: enough blocks for
// SPLIT_BLOCKS blocks in all (default 4096, about four waves on an H100; the x blocks are 32
// columns each, LaneReduction's column mapping), but chunks of at least BLOCKSIZE / 2 rows (16
// per warp); a loop with one load per row only below SPLIT_BLOCKS / 16 column blocks. With many
// columns it is 1: one block per column group, a plain store, the kernel as it was before.
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
  // A cast of a constant is the constant ((long long)0 * BLOCKSIZE is 0).
  Expr zero = mapExpr(substitute(v, {{"blockIdx.x", intImm(0)}, {"threadIdx.x", intImm(0)}}),
                      [](const Expr &e) -> Expr {
                        int64_t c = 0;
                        return e->kind == ExprKind::Cast && e->type.isInteger() &&
                                       isConst(e->operands[0], &c)
                                   ? intImm(c, e->type)
                                   : e;
                      });
  return simplify(zero);
}

// Neighbouring threads take neighbouring iterations (the thread's x iteration is index - first).
bool nextThreadIsNextColumn(const Stmt &index) {
  Expr v = index->value;
  if (v->kind == ExprKind::Cast && v->operands[0]->kind == ExprKind::Call &&
      v->operands[0]->name == "llmin")
    v = v->operands[0]->operands[0];
  int64_t step = 0;
  return constantDifference(substitute(v, {{"threadIdx.x", intImm(1)}}),
                            substitute(v, {{"threadIdx.x", intImm(0)}}), &step) &&
         step == 1;
}

// Columns of a sum that starts from a value that may split: slots of the __device__ arrays of
// partial sums and counts (32 x 4096: SPLIT_BLOCKS up to 4096 column blocks).
constexpr int64_t kSlots = 32 * 4096;

}  // namespace

Kernel reductionSplit(const Kernel &k, const PassContext &) {
  if (k.grid.size() != 1 || !equal(k.grid[0].perBlock, var(k.macro("BLOCKSIZE")))) return k;
  std::optional<LaneLoop> found = findLaneLoop(k);
  // Sums only: the chunks add their partial sums atomically.
  if (!found || found->mapping != LaneMapping::Columns || found->accs.size() != 1 || found->stores ||
      found->ops.front() != "+")
    return k;
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
  const Type at = accDecl->type;
  const std::string sums = "rtcuda_" + k.name + "_split_sums",
                    counts = "rtcuda_" + k.name + "_split_counts";
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
  // A loop that loads one value per row (a plain column sum) already streams at 16 warps per SM:
  // it keeps one chunk from SPLIT_BLOCKS / 16 column blocks up (256 at the default 4096, two
  // 8-warp blocks per SM of a 132-SM H100). H100, 257 column blocks (8191 x 8193): colsum
  // 0.0986 ms in one chunk, 0.1040 ms in 16; tmv (two loads per row) 0.1252 ms in one, 0.1005
  // ms in 16.
  int loads = 0;
  visitStmt(loop->body, nullptr, [&](const Expr &e) {
    visitExpr(e, [&](const Expr &x) { loads += x->kind == ExprKind::Load; });
  });
  if (loads <= 1)
    chunks = select(lt(mul(columnBlocks, intImm(16)), splitBlocks), chunks, intImm(1));
  // A sum that starts from a value adds its chunks' partial sums into a slot per column of a
  // __device__ array (kSlots of them): more columns than that keep one chunk.
  if (!accumulates) {
    const Type ct = Type::of(ScalarKind::UInt);
    if (!(at == Type::of(ScalarKind::Float) || at == Type::of(ScalarKind::Double) ||
          at == Type::of(ScalarKind::Int) || at == ct) ||
        !nextThreadIsNextColumn(index))
      return k;
    chunks = select(lt(intImm(kSlots), k.grid[0].iterations), intImm(1), chunks);
  }

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
  Stmt partial;
  if (accumulates) {
    auto atomic = std::make_shared<StmtNode>(*st);
    atomic->op = atomicFunction("+", out->type);
    partial = Stmt(atomic);
  } else {
    // The column's slot: the thread's x iteration from 0. The last chunk to add its partial sum
    // stores the start plus the total.
    std::string slot = freshName(k, index->name + "_slot");
    Expr sumAt = binary("+", var(sums), var(slot)), countAt = binary("+", var(counts), var(slot));
    Expr total = call("rtcuda_split_take", {sumAt}, at);
    int64_t c = 1;
    if (!(isConst(accDecl->value, &c) && c == 0) &&
        !(accDecl->value->kind == ExprKind::FloatImm && accDecl->value->floatValue == 0))
      total = binary("+", accDecl->value, total);
    Stmt last = ifThen(call("rtcuda_split_add", {sumAt, countAt, var(acc, at)}, Type::of(ScalarKind::Int)),
                       withLoc(store(st->name, st->indices, "=", total), st->loc));
    partial = block({decl(slot, index->type, sub(var(index->name, index->type), first)), last});
  }
  guarded.push_back(withLoc(ifThen(whole, st, partial), st->loc));
  auto newGuard = std::make_shared<StmtNode>(*guard);
  newGuard->body = withLoc(block(guarded), guard->body->loc);
  std::vector<Stmt> newTop = top;
  newTop[d + 1] = Stmt(newGuard);

  Kernel result = k;
  result.body = withLoc(block(newTop), k.body->loc);
  result.grid.push_back({chunks, intImm(1), 65535});
  if (!accumulates) {
    result.deviceArrays.push_back({sums, at, kSlots});
    result.deviceArrays.push_back({counts, Type::of(ScalarKind::UInt), kSlots});
  }
  // Default 4096 blocks, about four waves of 256-thread blocks on an H100 (8 per SM, 132 SMs):
  // H100, 65537 x 1031 (33 column blocks), colsum 0.1041 ms at 4096 against 0.1085 at 2048 and
  // 0.1109 at 1024; tmv 0.1018 against 0.1058.
  result.tuning.push_back({"SPLIT_BLOCKS", k.macro("SPLIT_BLOCKS"), {1, 1024, 2048, 4096}, 4096});
  result.passes.push_back("ReductionSplit");
  result.remarks.push_back(
      "split: loop '" + loop->name + "' is cut into row chunks along the grid's y dimension when "
      "the columns of '" + index->name + "' give fewer than " + k.macro("SPLIT_BLOCKS") +
      (loads <= 1 ? " / 16" : "") + " blocks; each block adds its partial sums into " + st->name +
      (accumulates ? " atomically"
                   : "; the last block of a column to add its partial sum (" + counts +
                         ") stores the start plus the total (" + sums + ")"));
  return result;
}

}  // namespace rtcuda
