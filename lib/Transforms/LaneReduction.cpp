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
// the thread's own scalars, and whose loop only adds into (or subtracts from) scalar
// accumulators set there (`sum += v` with v reading no accumulator; several: gesummv's two sums,
// one combine), beside stores whose iterations are independent (symm). Lanes other than 0 start
// each sum from zero. What follows the loop runs on lane 0, except a last loop of independent
// iterations, which the lanes split once they all hold the sums (LaneReductionEpilogue.cpp:
// gramschmidt's column update), and, for rows with shuffles, a body of further reductions,
// loops and scalar steps that every lane goes on with (LaneReductionPhases.cpp: softmax). The
// sum is regrouped (LANES partial sums), as any parallel reduction is; rtcuda verify checks it
// within its floating-point tolerance.
// Maxima and minima too (`m = fmaxf(m, v)`, fmax, max, the min forms, `if (v > m) m = v`):
// every lane starts from the initial value (taking it twice changes no maximum) and the lanes
// combine with max or min, which for floating point ignores NaN as fmaxf does, so the result is
// the sequential one. And the first index of a maximum (`if (v > m) { m = v; k = j; }`): the
// value into every lane, then the smallest index among the lanes that hold it.
#include "LaneReduction.h"
#include "rtcuda/Analysis/Reductions.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>

namespace rtcuda {

using namespace ir;

namespace {

const Type kInt = Type::of(ScalarKind::Int);


// An argument maximum's update: `if (v > m) { m = v; k = j; }` (`<` a minimum; either operand
// order, the assignments either way round), `j` the loop's variable, `v` reading neither m nor
// k. Strict comparisons only: the first iteration of the largest value wins, so the lanes can
// take the smallest index among equal values.
struct ArgUpdate {
  std::string value, index, op;  // m, k, "max" or "min"
};
std::optional<ArgUpdate> argUpdate(const Stmt &s, const std::string &loopVar) {
  if (s->kind != StmtKind::If || s->elseBody || s->cond->kind != ExprKind::Binary) return std::nullopt;
  const std::string &cmp = s->cond->name;
  std::vector<Stmt> body = statementsOf(s->body);
  if ((cmp != ">" && cmp != "<") || body.size() != 2) return std::nullopt;
  for (const Stmt &a : body)
    if (a->kind != StmtKind::Assign || a->op != "=") return std::nullopt;
  const bool indexFirst = isVar(body[0]->value, loopVar);
  const Stmt &setValue = body[indexFirst ? 1 : 0], &setIndex = body[indexFirst ? 0 : 1];
  ArgUpdate u{setValue->name, setIndex->name, ""};
  const Expr &v = setValue->value, &a = s->cond->operands[0], &b = s->cond->operands[1];
  if (!isVar(setIndex->value, loopVar) || u.value == u.index || mentions(v, u.value) ||
      mentions(v, u.index))
    return std::nullopt;
  const bool valueRight = isVar(b, u.value) && equal(a, v), valueLeft = isVar(a, u.value) && equal(b, v);
  if (!valueLeft && !valueRight) return std::nullopt;
  u.op = (valueRight ? cmp == ">" : cmp == "<") ? "max" : "min";
  return u;
}

// The operator of `name` where every statement of `loop`'s body that mentions it is an argument
// maximum's update (argUpdate) with `name` in `role` (the value, or the index): "max" / "min"
// for the value, "argmax <value>" / "argmin <value>" for the index; else nullopt.
std::optional<std::string> argRole(const Stmt &loop, const std::string &name, bool index) {
  std::optional<std::string> op;
  bool ok = true, seen = false;
  std::function<void(const Stmt &)> walk = [&](const Stmt &s) {
    if (!s || !ok) return;
    if (std::optional<ArgUpdate> u = argUpdate(s, loop->name)) {
      if ((index ? u->index : u->value) == name) {
        std::string role = index ? "arg" + u->op + " " + u->value : u->op;
        ok &= !op || *op == role;
        op = role;
        seen = true;
        return;
      }
    }
    bool mentioned = s->kind != StmtKind::Comment && s->kind != StmtKind::Block && s->name == name;
    for (const Expr *e : {&s->min, &s->end, &s->step, &s->cond, &s->value, &s->arraySize})
      mentioned |= *e && mentions(*e, name);
    for (const Expr &e : s->indices) mentioned |= mentions(e, name);
    if (mentioned) ok = false;
    for (const Stmt &c : s->stmts) walk(c);
    walk(s->body);
    walk(s->elseBody);
  };
  walk(loop->body);
  return ok && seen ? op : std::nullopt;
}

// "max" or "min" where every update of `name` in `loop` takes its maximum or minimum
// (`name = fmaxf(name, v)`, fmax, max, the min forms, `name = v > name ? v : name`, `if (v >
// name) name = v`, or the value of an argument maximum's update) and nothing else reads it; else
// nullopt. The comparisons skip a NaN `v` where fmaxf would too, and keep a NaN start that fmaxf
// would drop: every lane starts from the same value (startLanes), so either all lanes hold that
// NaN or none holds a NaN, and combining them with max or min gives the loop's result in any
// grouping.
std::optional<std::string> extremumOf(const Stmt &loop, const std::string &name) {
  ScalarUse use = classifyScalar(loop->body, name);
  if (use.op && (*use.op == "max" || *use.op == "min")) return use.op;
  return argRole(loop, name, false);
}

}  // namespace

// Statements that only set the thread's own scalars (declared among them, or `outer`: declared
// before the thread's index).
bool setsOnlyLocals(const std::vector<Stmt> &stmts, const std::vector<std::string> &outer) {
  std::vector<std::string> declared = outer;
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

// The loop's body adds into the accumulators `accs` only (`acc += v`, v reading none of them),
// or takes their maxima or minima (`ops`: "+", "max", "min"); every other effect stays inside
// one iteration.
bool addsInto(const Kernel &k, const Stmt &loop, const std::vector<std::string> &accs,
              const std::vector<std::string> &ops) {
  bool ok = true;
  int updates = 0, stores = 0;
  std::vector<std::string> local;
  auto opOf = [&](const std::string &n) {
    auto at = std::find(accs.begin(), accs.end(), n);
    return at == accs.end() ? std::string() : ops[at - accs.begin()];
  };
  auto isAcc = [&](const std::string &n) { return !opOf(n).empty(); };
  visitStmt(loop->body, [&](const Stmt &s) {
    if (s->kind == StmtKind::Decl) local.push_back(s->name);
    if (s->kind == StmtKind::Break || s->kind == StmtKind::Barrier || s->kind == StmtKind::While)
      ok = false;
    if (s->kind == StmtKind::Store &&
        std::find(local.begin(), local.end(), s->name) == local.end())
      ++stores;
    if (s->kind == StmtKind::Assign && isAcc(s->name)) {
      ok &= opOf(s->name) == "+" ? s->op == "+=" || s->op == "-=" : s->op == "=";
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
  // Reads of the accumulators other than their own updates (a maximum's update reads it once:
  // extremumOf found no other read).
  int reads = 0;
  visitStmt(loop->body, nullptr, [&](const Expr &e) {
    for (size_t a = 0; a < accs.size(); ++a) reads += ops[a] == "+" && mentions(e, accs[a]);
  });
  // Stores beside the sums (symm's C[k][j] += ...) only where every iteration has its own
  // elements: the lanes then run them in any order.
  if (stores > 0 && !independentIterations(k, loop, accs)) return false;
  return ok && updates > 0 && reads == 0;
}

// The scalars that `loop` updates with `+=` or `-=`, or whose maxima or minima it takes (the
// candidate accumulators, their operators in `ops`): declared in `before`, or declared before
// the thread's index (`outer`) and set by `before` with `=` (ludcmp's `w = A[i][j]`: lanes other
// than 0 must not keep the value they had before).
std::vector<std::string> updatedBy(const Stmt &loop, const std::vector<Stmt> &before,
                                   const std::vector<std::string> &outer, std::vector<std::string> &ops) {
  std::vector<std::string> names;
  for (const Stmt &s : before)
    if (s->kind == StmtKind::Decl && !s->arraySize && !s->shared) names.push_back(s->name);
  for (const std::string &o : outer)
    for (const Stmt &s : before)
      if (s->kind == StmtKind::Assign && s->name == o && s->op == "=") {
        names.push_back(o);
        break;
      }
  std::vector<std::string> out;
  for (const std::string &name : names) {
    bool updated = false;
    visitStmt(loop->body, [&](const Stmt &n) {
      updated |= n->kind == StmtKind::Assign && n->name == name && (n->op == "+=" || n->op == "-=");
    });
    std::optional<std::string> extremum = updated ? std::nullopt : extremumOf(loop, name);
    if (!updated && !extremum) extremum = argRole(loop, name, true);
    if ((updated || extremum) && std::find(out.begin(), out.end(), name) == out.end()) {
      out.push_back(name);
      ops.push_back(updated ? "+" : *extremum);
    }
  }
  // An index without its value among the results is no argument maximum of the lanes.
  for (size_t a = 0; a < out.size(); ++a)
    if (!argPartner(ops[a]).empty() &&
        std::find(out.begin(), out.end(), argPartner(ops[a])) == out.end()) {
      out.erase(out.begin() + a);
      ops.erase(ops.begin() + a);
      --a;
    }
  return out;
}

namespace {

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
  // Bounds read from an array at the thread's index (CSR's rowptr[i] .. rowptr[i + 1]):
  // neighbouring threads walk stretches of their own, so a unit-stride load is a row even where
  // its subscript does not name the thread's variable. (Bounds that are expressions of it, a
  // triangle's, keep the subscripts' answer.)
  bool ownStretch = false;
  for (const Expr &b : {loop->min, loop->end})
    visitExpr(b, [&](const Expr &n) { ownStretch |= n->kind == ExprKind::Load && mentions(n, threadVar); });
  visitStmt(loop->body, nullptr, [&](const Expr &e) {
    visitExpr(e, [&](const Expr &n) {
      if (n->kind != ExprKind::Load || n->operands.size() != 1) return;
      std::optional<int64_t> along = stride(n->operands[0], loop->name);
      std::optional<int64_t> across = stride(n->operands[0], threadVar);
      if (along && *along == 1 && (!across || *across > 1 || *across < -1 || (ownStretch && *across == 0)))
        rows = true;
      if ((!along || *along > 1 || *along < -1) && across && *across == 1) columns = true;
    });
  });
  if (rows) return LaneMapping::Rows;
  return columns && !isConst(simplify(tripCount(loop))) ? LaneMapping::Columns : LaneMapping::None;
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

// A loop over a stretch of its own, `for (k = P[e]; k < P[e + 1]; k++)` (CSR's row offsets):
// the offsets run from 0 up to the extent of an array the loop indexes by `k` alone (val[k]: E =
// nnz) over `rows` stretches, so a stretch has E / rows iterations on average. Returns the
// power of two that covers that mean, up to 32 (1, 2, ..., 32; each lane then takes about one
// element of a row), as a launch-time expression of the parameters; null for other loops.
// Short rows (4 on average) ran at 0.24x cusparseSpMV with 32 lanes, 1.15x with one thread a
// row (H100, bench/results/h100-2026-11-25-s20/phases-1).
Expr lanesFromMeanStretch(const Kernel &k, const Stmt &loop, const Expr &rows) {
  const Expr &lo = loop->min, &hi = loop->end;
  if (!rows || lo->kind != ExprKind::Load || hi->kind != ExprKind::Load || lo->name != hi->name ||
      lo->operands.size() != 1 || hi->operands.size() != 1)
    return nullptr;
  int64_t next = 0;
  if (!constantDifference(hi->operands[0], lo->operands[0], &next) || next != 1) return nullptr;
  Expr extent;
  visitStmt(loop->body, nullptr, [&](const Expr &e) {
    visitExpr(e, [&](const Expr &n) {
      const Param *p = n->kind == ExprKind::Load ? k.findParam(n->name) : nullptr;
      if (!extent && p && p->dims.size() == 1 && p->dims[0] && n->operands.size() == 1 &&
          isVar(n->operands[0], loop->name))
        extent = p->dims[0];
    });
  });
  for (const Expr &e : {extent, rows})
    if (!e) return nullptr;
    else
      for (const std::string &v : varsOf(e))
        if (!k.findParam(v)) return nullptr;
  // More than v / 2 on average, E > (v / 2) rows, is (E - 1) / rows >= v / 2 (no product to
  // overflow; no rows, no division): v lanes.
  Expr mean = simplify(select(binary(">", rows, intImm(0)), div(sub(extent, intImm(1)), rows), intImm(0)));
  Expr lanes = intImm(1);
  for (int v = 2; v <= 32; v *= 2) lanes = select(binary(">=", mean, intImm(v / 2)), intImm(v), lanes);
  return lanes;
}

}  // namespace

bool shuffleable(const Type &t) {
  for (ScalarKind s : {ScalarKind::Float, ScalarKind::Double, ScalarKind::Int, ScalarKind::UInt,
                       ScalarKind::Long, ScalarKind::ULong, ScalarKind::LongLong, ScalarKind::ULongLong})
    if (t == Type::of(s)) return true;
  return false;
}

Expr zeroOf(const Type &t) { return t.isFloat() ? floatImm(0, t) : cast(t, intImm(0)); }

Stmt laneStrided(const Stmt &loop, const Expr &lane, const Expr &lanes) {
  auto strided = std::make_shared<StmtNode>(*loop);
  strided->min = add(loop->min, lane);
  strided->step = lanes;
  return Stmt(strided);
}

std::string argPartner(const std::string &op) {
  return op.rfind("argmax ", 0) == 0 || op.rfind("argmin ", 0) == 0 ? op.substr(7) : std::string();
}

std::vector<Stmt> shuffleCombine(const Expr &guard, const Expr &lanes, const std::vector<std::string> &accs,
                                 const std::vector<std::string> &ops, const std::vector<Type> &types,
                                 const std::vector<std::string> &partials, bool all,
                                 const std::function<std::string(const std::string &)> &fresh) {
  std::vector<Stmt> zeros, out;
  for (size_t a = 0; a < accs.size(); ++a) zeros.push_back(assign(accs[a], "=", zeroOf(types[a])));
  out.push_back(ifThen(unary("!", guard), block(zeros)));
  auto laneCall = [&](size_t a, Expr v, bool every) {
    std::vector<Expr> args{std::move(v), lanes, var(partials[a])};
    if (every) args.push_back(intImm(1));
    const std::string &op = argPartner(ops[a]).empty() ? ops[a] : "min";
    return call(op == "+" ? "rtcuda_lane_sum" : "rtcuda_lane_" + op, args, types[a]);
  };
  for (size_t a = 0; a < accs.size(); ++a) {
    bool paired = false;  // a value combined with its index
    for (const std::string &op : ops) paired |= argPartner(op) == accs[a];
    const std::string partner = argPartner(ops[a]);
    if (paired) continue;
    if (partner.empty()) {
      out.push_back(assign(accs[a], "=", laneCall(a, var(accs[a], types[a]), all)));
      continue;
    }
    // The value into every lane; the index the smallest among the lanes that hold it (all of
    // them hold the same start where it is NaN): the first iteration of the loop that had it.
    const size_t p = std::find(accs.begin(), accs.end(), partner) - accs.begin();
    const std::string best = fresh(partner + "_best");
    const Expr own = var(partner, types[p]);
    out.push_back(decl(best, types[p], laneCall(p, own, true)));
    Expr holds = binary("||", binary("==", own, var(best, types[p])), binary("!=", own, own));
    out.push_back(assign(accs[a], "=", laneCall(a, select(holds, var(accs[a], types[a]), intImm(2147483647)), all)));
    out.push_back(assign(partner, "=", var(best, types[p])));
  }
  return out;
}

bool startsReadNoSum(const std::vector<Stmt> &before, const std::vector<std::string> &accs) {
  // Lanes other than 0 start their sums from zero: nothing before the loop may read a sum
  // except the statements that set it.
  for (const Stmt &st : before) {
    bool setsAcc = std::find(accs.begin(), accs.end(), st->name) != accs.end();
    if (setsAcc && st->kind != StmtKind::Comment) continue;
    for (const std::string &acc : accs) {
      bool reads = false;
      visitStmt(st, nullptr, [&](const Expr &e) { reads |= mentions(e, acc); });
      if (reads) return false;
    }
  }
  return true;
}

void startLanes(const std::vector<Stmt> &before, const std::vector<std::string> &accs,
                const std::vector<std::string> &ops, std::vector<Type> &accTypes,
                const std::string &lane, std::vector<Stmt> &declared, std::vector<Stmt> &guarded) {
  auto opOf = [&](const std::string &acc) { return ops[std::find(accs.begin(), accs.end(), acc) - accs.begin()]; };
  for (const Stmt &st : before) {
    if (st->kind == StmtKind::Decl) {
      auto a = std::find(accs.begin(), accs.end(), st->name);
      const bool isAcc = a != accs.end();
      if (isAcc) accTypes[a - accs.begin()] = st->type;
      declared.push_back(withLoc(decl(st->name, st->type), st->loc));
      // Lane 0 starts from the initial value, the other lanes from zero: the lanes' partial
      // sums then add up to exactly what the loop added to it. A maximum: every lane from it.
      Expr init = st->value;
      int64_t c = 1;
      if (init && isAcc && opOf(st->name) == "+" && !(isConst(init, &c) && c == 0) &&
          !(init->kind == ExprKind::FloatImm && init->floatValue == 0))
        init = select(binary("==", var(lane), intImm(0)), init, zeroOf(st->type));
      if (init) guarded.push_back(withLoc(assign(st->name, "=", init), st->loc));
    } else if (st->kind == StmtKind::Assign &&
               std::find(accs.begin(), accs.end(), st->name) != accs.end() && opOf(st->name) == "+") {
      // Any other setting of a sum before the loop: lane 0's as written, the others' zero.
      const Type &t = accTypes[std::find(accs.begin(), accs.end(), st->name) - accs.begin()];
      Expr value = st->op == "=" ? st->value
                                 : binary(st->op.substr(0, st->op.size() - 1), var(st->name, t), st->value);
      int64_t c = 1;
      const bool zero = st->op == "=" && ((isConst(value, &c) && c == 0) ||
                                          (value->kind == ExprKind::FloatImm && value->floatValue == 0));
      if (!zero)
        value = select(binary("==", var(lane), intImm(0)), value, zeroOf(t));
      guarded.push_back(withLoc(assign(st->name, "=", value), st->loc));
    } else {
      guarded.push_back(st);
    }
  }
}

size_t firstSerialLoop(const std::vector<Stmt> &body) {
  size_t l = 0;
  while (l < body.size() && (body[l]->kind != StmtKind::For || body[l]->loopKind != LoopKind::Serial))
    ++l;
  return l;
}

std::optional<LaneLoop> findLaneLoop(const Kernel &k) {
  if (!k.reductions.empty() || !k.atomicArrays.empty()) return std::nullopt;
  const std::vector<Stmt> &top = k.body->stmts;
  // `int i = ... threadIdx.x ...; if (i < end) { body }`
  LaneLoop ll;
  ll.index = threadGuardIndex(k);
  if (ll.index == top.size()) return std::nullopt;
  ll.body = statementsOf(top[ll.index + 1]->body);
  const std::vector<Stmt> &body = ll.body;
  // The reduction loop: the first serial loop, whose accumulators the statements before it
  // declare (several: gesummv's two sums, each its own partial sums).
  const size_t l = firstSerialLoop(body);
  if (l == body.size()) return std::nullopt;
  std::vector<Stmt> before(body.begin(), body.begin() + l);
  // The thread's scalars declared before its index, read nowhere after its guarded body.
  std::vector<std::string> outer;
  for (size_t s = 0; s < ll.index; ++s)
    if (top[s]->kind == StmtKind::Decl && !top[s]->arraySize && !top[s]->shared) {
      bool readAfter = false;
      for (size_t t = ll.index + 2; t < top.size(); ++t)
        visitStmt(top[t], [&](const Stmt &n) {
          readAfter |= n->kind == StmtKind::Assign && n->name == top[s]->name;
        }, [&](const Expr &e) { readAfter |= mentions(e, top[s]->name); });
      if (!readAfter) outer.push_back(top[s]->name);
    }
  if (!setsOnlyLocals(before, outer)) return std::nullopt;
  ll.accs = updatedBy(body[l], before, outer, ll.ops);
  if (ll.accs.empty() || !addsInto(k, body[l], ll.accs, ll.ops)) return std::nullopt;
  // The lanes run the loop's stores beside the statements before it, without a barrier: those
  // read none of the arrays it stores.
  std::vector<std::string> stored;
  visitStmt(body[l]->body, [&](const Stmt &n) {
    if (n->kind == StmtKind::Store && k.findParam(n->name)) stored.push_back(n->name);
  });
  bool readsStored = false;
  for (const Stmt &st : before)
    visitStmt(st, nullptr, [&](const Expr &e) {
      visitExpr(e, [&](const Expr &n) {
        readsStored |= n->kind == ExprKind::Load &&
                       std::find(stored.begin(), stored.end(), n->name) != stored.end();
      });
    });
  if (readsStored) return std::nullopt;
  ll.stores = !stored.empty();
  if (!startsReadNoSum(before, ll.accs)) return std::nullopt;
  ll.loop = l;
  ll.acc = ll.accs.front();
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
  const std::vector<std::string> &accs = found->accs, &ops = found->ops;
  const bool sums = std::all_of(ops.begin(), ops.end(), [](const std::string &o) { return o == "+"; });
  const std::string partialWord = sums ? "partial sums" : "partial results";
  const std::string accNames = [&] {
    std::string n;
    for (const std::string &a : accs) n += (n.empty() ? "'" : ", '") + a + "'";
    return n;
  }();
  std::string plainNames;  // the comment's: sum, or tmp_sum, y_sum
  for (const std::string &a : accs) plainNames += (plainNames.empty() ? "" : ", ") + a;
  const Stmt &loop = body[l];
  const bool columns = found->mapping == LaneMapping::Columns;

  Expr blockSize = var(k.macro("BLOCKSIZE")), warp = intImm(32);
  // Rows: LANES threads a row, or with ROW_BLOCK the whole block (its warps add their sums in
  // shared memory): a warp a row leaves SMs idle where the rows are few and long.
  const std::string lanesName = freshName(k, "lanes");
  Expr lanes = columns ? div(blockSize, warp) : var(lanesName);
  Expr tid = cast(kInt, gpuBuiltin("threadIdx.x"));
  std::string lane = freshName(k, "lane"), w = freshName(k, "w");
  std::vector<std::string> partials;
  for (const std::string &acc : accs) partials.push_back(freshName(k, acc + "_lanes"));
  Expr guardCond = guard->cond, laneVar = var(lane);
  std::vector<Type> accTypes(accs.size());
  for (size_t s = 0; s < d; ++s)
    for (size_t a = 0; a < accs.size(); ++a)
      if (top[s]->kind == StmtKind::Decl && top[s]->name == accs[a]) accTypes[a] = top[s]->type;
  for (size_t s = 0; s < l; ++s)
    for (size_t a = 0; a < accs.size(); ++a)
      if (body[s]->kind == StmtKind::Decl && body[s]->name == accs[a]) accTypes[a] = body[s]->type;
  std::vector<Stmt> declared, guardedBefore;
  startLanes(std::vector<Stmt>(body.begin(), body.begin() + l), accs, ops, accTypes, lane, declared,
             guardedBefore);
  guardedBefore.push_back(laneStrided(loop, laneVar, lanes));

  // What followed the loop: lane 0's, except a last loop the lanes may split once they all
  // hold the sums (LaneReductionEpilogue.cpp).
  std::vector<Stmt> after(body.begin() + l + 1, body.end());
  bool shuffles = !columns && guardReadsOnly(guardCond, index->name, k);
  for (const Type &t : accTypes) shuffles &= shuffleable(t);
  // An argument maximum combines by shuffles only, its index an int.
  for (size_t a = 0; a < accs.size(); ++a)
    if (!argPartner(ops[a]).empty() && (!shuffles || accTypes[a] != kInt)) return k;
  // Rows that go on with more reductions: every lane takes the results and the lanes go on
  // (LaneReductionPhases.cpp).
  std::optional<RowPhases> phases;
  if (shuffles && !found->stores) {
    RowPhaseInput in{guardCond, laneVar, lanes, loop, accs, partials, {}, declared};
    for (size_t a = 0; a < accs.size(); ++a) in.locals.push_back(decl(accs[a], accTypes[a]));
    for (size_t s = 0; s <= l; ++s)
      visitStmt(body[s], nullptr, [&](const Expr &e) {
        visitExpr(e, [&](const Expr &n) {
          if (n->kind == ExprKind::Load && k.findParam(n->name)) in.firstLoads.push_back(n->name);
        });
      });
    phases = rowPhases(k, after, in);
    if (phases && phases->cached) guardedBefore.back() = phases->cached(guardedBefore.back());
  }
  std::vector<Stmt> steps;  // scalar steps every lane runs again before the shared loop
  Stmt shared = phases ? nullptr : splittableEpilogue(k, after, accs, steps);
  if (shared) {
    after.pop_back();
    shared = laneStrided(shared, laneVar, lanes);
  }
  auto slotOf = [&](size_t a, Expr at) { return load(partials[a], {at}, accTypes[a]); };
  std::vector<Stmt> storeSlots, takeSlots, tree, combine;
  // acc op= v: `+=`, or `acc = max(acc, v)` (fmaxf's NaN rule for floating point).
  auto combineInto = [&](size_t a, Expr to, Expr v) -> std::pair<std::string, Expr> {
    if (ops[a] == "+") return {"+=", v};
    return {"=", call(ops[a], {to, v}, accTypes[a])};
  };
  for (size_t a = 0; a < accs.size(); ++a) {
    storeSlots.push_back(store(partials[a], {tid}, "=", var(accs[a], accTypes[a])));
    auto [op, v] = combineInto(a, slotOf(a, tid), slotOf(a, add(tid, div(add(var(w), intImm(1)), intImm(2)))));
    tree.push_back(store(partials[a], {tid}, op, v));
  }

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
  // Rows: with ROW_BLOCK the whole block shares a row of at least 16 elements a thread, chosen
  // at launch from the loop's trip count (kernel parameters only: the same for every row); the
  // host's grid takes the same expression. H100 (bench/results/h100-2026-11-25-s13-kinds-2):
  // rows of 1031 ran slower a block a row (rowsum 65537 x 1031 0.78x sgemv against 1.07x).
  Expr trip = simplify(tripCount(loop));
  bool tripOfParams = true;
  for (const std::string &v : varsOf(trip)) tripOfParams &= k.findParam(v) != nullptr;
  Expr rowLanes = var(k.macro("LANES"));
  // Stretches of their own (CSR rows): with LANES 0, the lanes from their mean length.
  Expr meanLanes = tripOfParams ? nullptr : lanesFromMeanStretch(k, loop, k.grid[0].iterations);
  if (meanLanes) rowLanes = select(rowLanes, rowLanes, meanLanes);
  if (tripOfParams)
    rowLanes = select(land(var(k.macro("ROW_BLOCK")), binary(">=", trip, mul(intImm(16), blockSize))),
                      blockSize, rowLanes);
  if (!columns) out.push_back(decl(lanesName, kInt, rowLanes));
  out.push_back(rowIndex);
  out.push_back(decl(lane, kInt, cast(kInt, binary(columns ? "/" : "%",
                                                   gpuBuiltin("threadIdx.x"), columns ? warp : lanes))));
  out.insert(out.end(), declared.begin(), declared.end());
  if (phases) out.insert(out.end(), phases->declared.begin(), phases->declared.end());
  for (size_t a = 0; a < accs.size(); ++a) {
    auto array = std::make_shared<StmtNode>(*decl(partials[a], accTypes[a], nullptr, blockSize));
    array->shared = true;
    out.push_back(Stmt(array));
  }
  if (phases) out.insert(out.end(), phases->shared.begin(), phases->shared.end());
  if (phases) out.insert(out.end(), phases->fill.begin(), phases->fill.end());
  out.push_back(ifThen(guardCond, block(guardedBefore)));
  Expr lane0 = binary("==", laneVar, intImm(0));
  // The first lane's slot of this thread's row (rows) or column (columns).
  Expr firstSlot = columns ? Expr(binary("%", tid, warp)) : sub(tid, laneVar);
  if (shuffles) {
    // Rows: a row's LANES threads are neighbours in one warp (LANES divides 32); every thread
    // of the block reaches the sum, the threads past the end with zero.
    out.push_back(comment("combine the lanes' " + partialWord + " of " + plainNames + " (warp shuffles)"));
    // With later phases, into every lane.
    auto fresh = [&](const std::string &base) { return freshName(k, base); };
    for (const Stmt &st : shuffleCombine(guardCond, lanes, accs, ops, accTypes, partials, phases.has_value(), fresh))
      out.push_back(st);
    if (shared) {
      // Lane 0 holds the sums: it shares them through its slots.
      out.push_back(ifThen(land(guardCond, lane0), block(storeSlots)));
      out.push_back(barrier());
      for (size_t a = 0; a < accs.size(); ++a)
        takeSlots.push_back(assign(accs[a], "=", slotOf(a, firstSlot)));
    }
  } else {
    out.push_back(comment("combine the lanes' " + partialWord + " of " + plainNames));
    out.push_back(ifThen(guardCond, block(storeSlots)));
    out.push_back(barrier());
    for (size_t a = 0; a < accs.size(); ++a)
      takeSlots.push_back(assign(accs[a], "=", slotOf(a, shared ? firstSlot : tid)));
  }
  if (columns) {
    // Lane 0 (the first warp) adds the other warps' sums: BLOCKSIZE / 32 of them, any number;
    // with a shared epilogue it puts the sums back into its slots for the other warps.
    std::string o = freshName(k, "other");
    std::vector<Stmt> adds;
    for (size_t a = 0; a < accs.size(); ++a) {
      auto [op, v] = combineInto(a, var(accs[a], accTypes[a]), slotOf(a, add(tid, mul(var(o), warp))));
      adds.push_back(assign(accs[a], op, v));
    }
    combine.push_back(withLoc(forLoop(o, kInt, intImm(1), lanes, intImm(1), block(adds)), loop->loc));
    if (shared) combine.insert(combine.end(), storeSlots.begin(), storeSlots.end());
  } else if (!shuffles) {
    // w partial sums left in each row, halved rounding up: any LANES, a block's too.
    out.push_back(decl(w, kInt, lanes));
    out.push_back(whileLoop(binary(">", var(w), intImm(1)),
                            block({ifThen(land(guardCond, lt(laneVar, div(var(w), intImm(2)))), block(tree)),
                                   barrier(), assign(w, "=", div(add(var(w), intImm(1)), intImm(2)))})));
    // After the tree's last barrier every lane may read lane 0's slots.
    if (!shared) combine = takeSlots;
  }
  combine.insert(combine.end(), after.begin(), after.end());
  if (shared && columns) {
    out.push_back(ifThen(land(guardCond, lane0), block(combine)));
    out.push_back(barrier());
    std::vector<Stmt> all = takeSlots;
    all.insert(all.end(), steps.begin(), steps.end());
    all.push_back(shared);
    out.push_back(ifThen(guardCond, block(all)));
  } else if (shared) {
    out.push_back(ifThen(guardCond, block(takeSlots)));
    if (!combine.empty()) out.push_back(ifThen(land(guardCond, lane0), block(combine)));
    // Steps: every lane (lane 0 too, after its own statements) from the sums again.
    std::vector<Stmt> all = steps.empty() ? std::vector<Stmt>{} : takeSlots;
    all.insert(all.end(), steps.begin(), steps.end());
    all.push_back(shared);
    out.push_back(ifThen(guardCond, steps.empty() ? shared : block(all)));
  } else if (phases) {
    out.insert(out.end(), phases->stmts.begin(), phases->stmts.end());
  } else {
    out.push_back(ifThen(land(guardCond, lane0), block(combine)));
  }
  out.insert(out.end(), top.begin() + d + 2, top.end());

  Kernel result = k;
  result.body = withLoc(block(out), k.body->loc);
  result.grid[0].perBlock = columns ? warp : div(blockSize, rowLanes);
  result.passes.push_back("LaneReduction");
  if (columns) {
    result.remarks.push_back("lanes: the " + k.macro("BLOCKSIZE") + " / 32 warps of a block " +
                             "share 32 neighbouring iterations of '" + index->name + "', splitting " +
                             "loop '" + loop->name + "' and combining their " + partialWord + " of " + accNames +
                             " in shared memory" + (shared ? "; the warps split loop '" + shared->name + "' after it" : ""));
    return result;
  }
  int lo = std::max(32, ctx.options.blockSize.min);
  std::vector<int> values;
  if (meanLanes) values.push_back(0);
  for (int v = 1; v <= 32 && v <= lo; v *= 2) values.push_back(v);
  result.tuning.push_back({"LANES", k.macro("LANES"), values, meanLanes ? 0 : values.back()});
  // A block a long row by default: on an H100 gesummv at 1031 x 65537 ran 1.26x its two sgemv
  // calls against 0.60x with a warp a row (bench/results/h100-2026-11-25-s13-rows-2).
  if (tripOfParams) result.tuning.push_back({"ROW_BLOCK", k.macro("ROW_BLOCK"), {0, 1}, 1});
  if (phases && phases->cached) result.tuning.push_back({"ROW_CACHE", k.macro("ROW_CACHE"), {0, 1}, 1});
  result.remarks.push_back("lanes: " + k.macro("LANES") + " threads " +
                           (tripOfParams ? "(with " + k.macro("ROW_BLOCK") + " 1 the block's, where '" +
                                               loop->name + "' has at least 16 iterations a thread) " : "") +
                           "share each iteration of '" +
                           index->name + "', splitting loop '" + loop->name + "' and " +
                           (sums ? "adding" : "combining") + " their " + partialWord + " of " + accNames + " " +
                           (shuffles ? "by warp shuffles" : "in shared memory") +
                           (meanLanes ? " (with " + k.macro("LANES") + " 0, the power of two that covers the mean length of '" +
                                            loop->name + "', up to 32)" : "") +
                           (shared ? "; the lanes split loop '" + shared->name + "' after it" : "") +
                           (phases ? phases->remark : ""));
  return result;
}

}  // namespace rtcuda
