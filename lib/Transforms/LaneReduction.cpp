// LaneReduction: LANES threads share one iteration of the parallel loop, each summing every
// LANES-th value of its reduction loop; shared memory combines their partial sums.
//
// With one thread per row, a matrix-vector product's threads read addresses a row apart and
// nothing coalesces. With LANES = 32 a warp owns a row and reads 32 consecutive elements of it
// at a time (one 128-byte line); with fewer lanes a warp covers 32 / LANES rows in segments of
// LANES elements. LANES = 1 is the one-thread-per-row mapping.
//
//   int i = blockIdx.x * BLOCKSIZE + threadIdx.x;   int i = blockIdx.x * (BLOCKSIZE / LANES) + threadIdx.x / LANES;
//   if (i < n) {                                      int lane = threadIdx.x % LANES;
//     float sum = 0;                                  float sum;
//     for (k = 0; k < m; k++)              ==>        if (i < n) { sum = 0; for (k = lane; k < m; k += LANES) sum += A[i][k] * x[k]; }
//       sum += A[i][k] * x[k];                        if (i < n) sum_lanes[threadIdx.x] = sum;
//     y[i] = sum;                                     __syncthreads();
//   }                                                 for (w = LANES / 2; w > 0; w /= 2) {
//                                                       if (i < n && lane < w) sum_lanes[threadIdx.x] += sum_lanes[threadIdx.x + w];
//                                                       __syncthreads();
//                                                     }
//                                                     if (i < n && lane == 0) { sum = sum_lanes[threadIdx.x]; y[i] = sum; }
//
// Applies to a guarded one-thread-per-iteration body whose statements before the loop only set
// the thread's own scalars, and whose loop only adds into one scalar accumulator declared there
// (`sum += v` with v not reading sum). The sum is regrouped (LANES partial sums), as any
// parallel reduction is; rtcuda verify checks it within its floating-point tolerance.
#include "LaneReduction.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace rtcuda {

using namespace ir;

namespace {

const Type kInt = Type::of(ScalarKind::Int);

// Statements that only set the thread's own scalars (declared among them).
bool setsOnlyLocals(const std::vector<Stmt> &stmts) {
  std::vector<std::string> declared;
  bool ok = true;
  for (const Stmt &s : stmts) {
    if (s->kind == StmtKind::Decl && !s->arraySize && !s->shared) {
      declared.push_back(s->name);
      continue;
    }
    if (s->kind == StmtKind::Comment) continue;
    ok &= s->kind == StmtKind::Assign &&
          std::find(declared.begin(), declared.end(), s->name) != declared.end();
  }
  return ok;
}

// The loop's body adds into `acc` only; every other effect stays inside one iteration.
bool addsInto(const Stmt &loop, const std::string &acc) {
  bool ok = true;
  int updates = 0;
  std::vector<std::string> local;
  visitStmt(loop->body, [&](const Stmt &s) {
    if (s->kind == StmtKind::Decl) local.push_back(s->name);
    if (s->kind == StmtKind::Break || s->kind == StmtKind::Barrier || s->kind == StmtKind::While)
      ok = false;
    if (s->kind == StmtKind::Store &&
        std::find(local.begin(), local.end(), s->name) == local.end())
      ok = false;
    if (s->kind == StmtKind::Assign && s->name == acc) {
      ok &= s->op == "+=" && !mentions(s->value, acc);
      ++updates;
    } else if (s->kind == StmtKind::Assign &&
               std::find(local.begin(), local.end(), s->name) == local.end()) {
      ok = false;
    }
  }, [&](const Expr &e) {
    visitExpr(e, [&](const Expr &n) {
      if (n->kind == ExprKind::Call && !n->name.empty() && n->name.rfind("atomic", 0) == 0)
        ok = false;
    });
  });
  // Reads of the accumulator other than its own update.
  int reads = 0;
  visitStmt(loop->body, nullptr, [&](const Expr &e) { reads += mentions(e, acc); });
  return ok && updates > 0 && reads == 0;
}

// How far a load's address moves when `v` grows by one: a constant, or nullopt when the step
// depends on the problem size (a row apart) or is not affine.
std::optional<int64_t> stride(const Expr &index, const std::string &v) {
  Expr moved = substitute(index, {{v, add(var(v), intImm(1))}});
  int64_t c = 0;
  if (!constantDifference(moved, index, &c)) return std::nullopt;
  return c;
}

// The variable that moves by one between neighbouring threads: the thread index, or the
// innermost index recovered from a collapsed one (`int i = bi - b * rows;`, LoopCollapse): of
// the declarations after LoopCollapse's comment, the last that reads the collapsed index itself
// (the outer loops read quotients of it).
std::string threadVariable(const std::string &index, const std::vector<Stmt> &before) {
  std::string fastest = index;
  bool recovery = false;
  for (const Stmt &s : before) {
    if (s->kind == StmtKind::Comment) recovery = s->text == kRecoveryComment;
    else if (s->kind != StmtKind::Decl) recovery = false;
    else if (recovery && s->value && mentions(s->value, index)) fastest = s->name;
  }
  return fastest;
}

// The mapping is chosen from the accesses, not from the config. Rows: the loop reads a row
// (unit stride along the loop) that neighbouring threads would read a row apart; LANES
// neighbouring threads share it. Columns: the loop walks down columns that neighbouring threads
// read side by side (column sums); the warps of a block split the loop's rows, each warp reading
// 32 neighbouring columns. Only loops whose trip count depends on the problem size are split: a
// 3-tap filter or a convolution, whose threads already read neighbouring addresses, keeps one
// thread per iteration.
LaneMapping chooseMapping(const Stmt &loop, const std::string &threadVar) {
  bool rows = false, columns = false;
  visitStmt(loop->body, nullptr, [&](const Expr &e) {
    visitExpr(e, [&](const Expr &n) {
      if (n->kind != ExprKind::Load || n->operands.size() != 1) return;
      std::optional<int64_t> along = stride(n->operands[0], loop->name);
      std::optional<int64_t> across = stride(n->operands[0], threadVar);
      if (along && *along == 1 && (!across || *across > 1 || *across < -1)) rows = true;
      if ((!along || *along > 1 || *along < -1) && across && *across == 1) columns = true;
    });
  });
  if (rows) return LaneMapping::Rows;
  return columns && !isConst(simplify(tripCount(loop))) ? LaneMapping::Columns : LaneMapping::None;
}

// Types __shfl_down_sync takes, so rtcuda_lane_sum's.
bool shuffleable(const Type &t) {
  for (ScalarKind s : {ScalarKind::Float, ScalarKind::Double, ScalarKind::Int, ScalarKind::UInt,
                       ScalarKind::Long, ScalarKind::ULong, ScalarKind::LongLong, ScalarKind::ULongLong})
    if (t == Type::of(s)) return true;
  return false;
}

// The guard reads only the thread's row index, the kernel's parameters and macros: then the
// LANES threads of a row all pass it or all fail it, and lane 0 holds the row's whole sum.
bool guardReadsOnly(const Expr &cond, const std::string &index, const Kernel &k) {
  for (const std::string &v : varsOf(cond)) {
    bool macro = !v.empty() && std::all_of(v.begin(), v.end(), [](char c) {
      return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
    });
    if (v != index && !k.findParam(v) && !macro) return false;
  }
  return true;
}

}  // namespace

std::optional<LaneLoop> findLaneLoop(const Kernel &k) {
  if (!k.reductions.empty() || !k.atomicArrays.empty()) return std::nullopt;
  const std::vector<Stmt> &top = k.body->stmts;
  // `int i = ... threadIdx.x ...; if (i < end) { body }`
  LaneLoop ll;
  ll.index = threadGuardIndex(k);
  if (ll.index == top.size()) return std::nullopt;
  ll.body = statementsOf(top[ll.index + 1]->body);
  const std::vector<Stmt> &body = ll.body;
  // The reduction loop: the first serial loop whose accumulator the statements before it set.
  size_t l = 0;
  std::string acc;
  for (; l < body.size() && acc.empty(); ++l) {
    if (body[l]->kind != StmtKind::For || body[l]->loopKind != LoopKind::Serial) continue;
    std::vector<Stmt> before(body.begin(), body.begin() + l);
    if (!setsOnlyLocals(before)) return std::nullopt;
    for (const Stmt &s : before)
      if (s->kind == StmtKind::Decl && addsInto(body[l], s->name)) acc = s->name;
    if (acc.empty()) return std::nullopt;
  }
  if (acc.empty()) return std::nullopt;
  ll.loop = --l;
  ll.acc = acc;
  int64_t step = 0;
  if (!isConst(body[l]->step, &step) || step != 1) return std::nullopt;
  ll.mapping = chooseMapping(body[l], threadVariable(top[ll.index]->name,
                                                     std::vector<Stmt>(body.begin(), body.begin() + l)));
  return ll;
}

Kernel laneReduction(const Kernel &k, const PassContext &ctx) {
  // A second grid dimension only as ReductionSplit's row chunks, which the lanes keep.
  const bool split = std::find(k.passes.begin(), k.passes.end(), "ReductionSplit") != k.passes.end();
  if (k.grid.size() != (split ? 2u : 1u)) return k;
  std::optional<LaneLoop> found = findLaneLoop(k);
  if (!found || found->mapping == LaneMapping::None) return k;
  const std::vector<Stmt> &top = k.body->stmts;
  const size_t d = found->index;
  const Stmt &index = top[d], &guard = top[d + 1];
  const std::vector<Stmt> &body = found->body;
  const size_t l = found->loop;
  const std::string acc = found->acc;
  const Stmt &loop = body[l];
  const bool columns = found->mapping == LaneMapping::Columns;

  Expr blockSize = var(k.macro("BLOCKSIZE")), warp = intImm(32);
  Expr lanes = columns ? div(blockSize, warp) : var(k.macro("LANES"));
  Expr tid = cast(kInt, gpuBuiltin("threadIdx.x"));
  std::string lane = freshName(k, "lane"), partial = freshName(k, acc + "_lanes");
  std::string w = freshName(k, "w");
  Expr guardCond = guard->cond, laneVar = var(lane);
  Type accType;
  std::vector<Stmt> declared, guardedBefore;
  for (size_t s = 0; s < l; ++s) {
    const Stmt &st = body[s];
    if (st->kind == StmtKind::Decl) {
      if (st->name == acc) accType = st->type;
      declared.push_back(withLoc(decl(st->name, st->type), st->loc));
      // Lane 0 starts from the initial value, the other lanes from zero: the lanes' partial
      // sums then add up to exactly what the loop added to it.
      Expr init = st->value;
      int64_t c = 1;
      if (init && st->name == acc && !(isConst(init, &c) && c == 0) &&
          !(init->kind == ExprKind::FloatImm && init->floatValue == 0))
        init = select(binary("==", var(lane), intImm(0)), init,
                      st->type.isFloat() ? floatImm(0, st->type) : cast(st->type, intImm(0)));
      if (init) guardedBefore.push_back(withLoc(assign(st->name, "=", init), st->loc));
    } else {
      guardedBefore.push_back(st);
    }
  }
  auto strided = std::make_shared<StmtNode>(*loop);
  strided->min = add(loop->min, laneVar);
  strided->step = lanes;
  guardedBefore.push_back(Stmt(strided));

  Expr slot = load(partial, {tid}, accType);
  auto shared = std::make_shared<StmtNode>(*decl(partial, accType, nullptr, blockSize));
  shared->shared = true;
  Stmt halving = whileLoop(binary(">", var(w), intImm(0)),
                           block({ifThen(land(guardCond, lt(laneVar, var(w))),
                                         store(partial, {tid}, "+=",
                                               load(partial, {add(tid, var(w))}, accType))),
                                  barrier(), assign(w, "=", div(var(w), intImm(2)))}));
  std::vector<Stmt> after{withLoc(assign(acc, "=", slot), loop->loc)};
  after.insert(after.end(), body.begin() + l + 1, body.end());

  // Rows: the thread's row and lane, BLOCKSIZE / LANES rows per block. Columns: 32 columns per
  // block, one per thread of a warp; the block's warps are its lanes.
  Stmt rowIndex = mapStmt(index, nullptr, [&](const Expr &e) -> Expr {
    if (e->kind == ExprKind::Var && e->name == "threadIdx.x")
      return columns ? binary("%", e, warp) : binary("/", e, lanes);
    if (e->kind == ExprKind::Var && e->name == k.macro("BLOCKSIZE"))
      return columns ? warp : div(e, lanes);
    return e;
  });
  std::vector<Stmt> out(top.begin(), top.begin() + d);
  out.push_back(rowIndex);
  out.push_back(decl(lane, kInt, cast(kInt, binary(columns ? "/" : "%",
                                                   gpuBuiltin("threadIdx.x"), columns ? warp : lanes))));
  out.insert(out.end(), declared.begin(), declared.end());
  out.push_back(shared);
  out.push_back(ifThen(guardCond, block(guardedBefore)));
  const bool shuffles = !columns && shuffleable(accType) && guardReadsOnly(guardCond, index->name, k);
  if (shuffles) {
    // Rows: a row's LANES threads are neighbours in one warp (LANES divides 32); every thread
    // of the block reaches the sum, the threads past the end with zero.
    out.push_back(comment("combine the lanes' partial sums of " + acc + " (warp shuffles)"));
    Expr zero = accType.isFloat() ? floatImm(0, accType) : cast(accType, intImm(0));
    out.push_back(ifThen(unary("!", guardCond), assign(acc, "=", zero)));
    out.push_back(assign(acc, "=", call("rtcuda_lane_sum", {var(acc, accType), lanes, var(partial)},
                                        accType)));
    after.erase(after.begin());
  } else {
    out.push_back(comment("combine the lanes' partial sums of " + acc));
    out.push_back(ifThen(guardCond, store(partial, {tid}, "=", var(acc, accType))));
    out.push_back(barrier());
  }
  if (columns) {
    // Lane 0 (the first warp) adds the other warps' sums: BLOCKSIZE / 32 of them, any number.
    std::string o = freshName(k, "other");
    after[0] = withLoc(forLoop(o, kInt, intImm(1), lanes, intImm(1),
                               assign(acc, "+=", load(partial, {add(tid, mul(var(o), warp))}, accType))),
                       loop->loc);
  } else if (!shuffles) {
    out.push_back(decl(w, kInt, div(lanes, intImm(2))));
    out.push_back(halving);
  }
  out.push_back(ifThen(land(guardCond, binary("==", laneVar, intImm(0))), block(after)));
  out.insert(out.end(), top.begin() + d + 2, top.end());

  Kernel result = k;
  result.body = withLoc(block(out), k.body->loc);
  result.grid[0].perBlock = columns ? warp : div(blockSize, lanes);
  result.passes.push_back("LaneReduction");
  if (columns) {
    result.remarks.push_back("lanes: the " + k.macro("BLOCKSIZE") + " / 32 warps of a block " +
                             "share 32 neighbouring iterations of '" + index->name + "', splitting " +
                             "loop '" + loop->name + "' and adding their partial sums of '" + acc +
                             "' in shared memory");
    return result;
  }
  int lo = std::max(32, ctx.options.blockSize.min);
  std::vector<int> values;
  for (int v = 1; v <= 32 && v <= lo; v *= 2) values.push_back(v);
  result.tuning.push_back({"LANES", k.macro("LANES"), values, values.back()});
  result.remarks.push_back("lanes: " + k.macro("LANES") + " threads share each iteration of '" +
                           index->name + "', splitting loop '" + loop->name + "' and adding "
                           "their partial sums of '" + acc + "' " +
                           (shuffles ? "by warp shuffles" : "in shared memory"));
  return result;
}

}  // namespace rtcuda
