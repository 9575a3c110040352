// Index width: the passes keep every index that can pass 2^31 - 1 in 64 bits (LoopCollapse's
// collapsed index and its quotients, LoopPartition's thread index, the strips of merge and
// skew: `long long`, `llmin`). 64-bit division and multiplication cost about three times the
// instructions of 32-bit ones, so a kernel with such arithmetic is printed twice:
//
//   __global__ void k(...)            { int ij = (int)blockIdx.x * B + (int)threadIdx.x;
//                                       int i = ij / m; int j = ij - i * m; ... }
//   __global__ void k_wide_index(...) { long long ij = (long long)blockIdx.x * B + threadIdx.x;
//                                       int i = ij / (long long)m; ... }
//
// and the launch takes the 32-bit one when every bound below fits in int, the 64-bit one
// otherwise (<NAME>_WIDE_INDEX: 0 always 32-bit, a launch that does not fit refused; 1 the
// rule; 2 always 64-bit). Where the bounds are constants (extents written as numbers) the
// choice is made here and only one kernel is printed. The 32-bit kernel is the 64-bit one with
// its `long long` arithmetic narrowed to int: only kernels whose source has no `long long` of
// its own get it, so every `long long` in their IR is index arithmetic a pass widened.
#include "rtcuda/CodeGen/CodeGen.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"

#include <algorithm>
#include <optional>

namespace rtcuda {

using namespace ir;

namespace {

const Type kWide = Type::of(ScalarKind::LongLong), kInt = Type::of(ScalarKind::Int);
constexpr int64_t kIntMax = 2147483647;

bool hasLongLong(const Kernel &k) {
  bool found = false;
  for (const Param &p : k.params) found |= p.type == kWide;
  visitStmt(k.body, [&](const Stmt &s) {
    if ((s->kind == StmtKind::For || s->kind == StmtKind::Decl) && s->type == kWide) found = true;
  }, [&](const Expr &e) {
    visitExpr(e, [&](const Expr &n) { found |= n->type == kWide; });
  });
  return found;
}

bool unsignedNarrow(const Type &t) { return t.isInteger() && !t.isSigned() && t.bytes() <= 4; }

// One expression narrowed: `long long` nodes become int, llmin/llmax min/max, a cast to the type
// its operand already has disappears. An unsigned operand (threadIdx.x) of an operation that was
// 64-bit is cast to int: `ij - 5 < n` must not turn into an unsigned comparison.
Expr narrowExpr(const Expr &e) {
  if (!e) return e;
  auto n = std::make_shared<ExprNode>(*e);
  bool wideOperand = false;
  for (Expr &op : n->operands) {
    wideOperand |= op->type == kWide;
    op = narrowExpr(op);
  }
  if (wideOperand && n->kind != ExprKind::Load)
    for (size_t i = n->kind == ExprKind::Select ? 1 : 0; i < n->operands.size(); ++i)
      if (unsignedNarrow(n->operands[i]->type)) n->operands[i] = cast(kInt, n->operands[i]);
  if (n->type == kWide) n->type = kInt;
  if (n->kind == ExprKind::IntImm && (n->intValue > kIntMax || n->intValue < -kIntMax - 1))
    n->type = kWide;  // a constant that does not fit keeps its type (and its LL suffix)
  if (n->kind == ExprKind::Call && (n->name == "llmin" || n->name == "llmax"))
    n->name = n->name == "llmin" ? "min" : "max";
  if (n->kind == ExprKind::Cast && n->operands[0]->type == n->type) return n->operands[0];
  return n;
}

// The tuning parameters' slack (what strips and last blocks may overshoot a loop's end by), as
// LaunchFunction's 32-bit range check counts it: the product of every parameter, at least 1.
Expr slack(const Kernel &k) {
  Expr s = intImm(1, kWide);
  for (const TuningParam &t : k.tuning)
    s = mul(s, call("rtcuda_max", {intImm(1, kWide), var(t.macro)}, kWide));
  return s;
}

// The value of a host expression over integer constants and `values`, or nullopt (a parameter,
// an operation it does not know, a division by zero, a result past 2^62).
std::optional<int64_t> evaluate(const Expr &e, const std::map<std::string, int64_t> &values) {
  constexpr int64_t kLimit = int64_t(1) << 62;
  auto bounded = [&](__int128 v) -> std::optional<int64_t> {
    if (v > kLimit || v < -kLimit) return std::nullopt;
    return int64_t(v);
  };
  std::vector<int64_t> ops;
  for (const Expr &o : e->operands) {
    if (e->kind == ExprKind::Select) break;
    std::optional<int64_t> v = evaluate(o, values);
    if (!v) return std::nullopt;
    ops.push_back(*v);
  }
  switch (e->kind) {
  case ExprKind::IntImm: return e->intValue;
  case ExprKind::Var: {
    auto it = values.find(e->name);
    return it == values.end() ? std::nullopt : std::optional<int64_t>(it->second);
  }
  case ExprKind::Cast: return e->type.isInteger() ? std::optional<int64_t>(ops[0]) : std::nullopt;
  case ExprKind::Unary: return e->name == "-" ? std::optional<int64_t>(-ops[0]) : std::nullopt;
  case ExprKind::Call:
    if (e->name == "rtcuda_max" || e->name == "rtcuda_min")
      return e->name == "rtcuda_max" ? std::max(ops[0], ops[1]) : std::min(ops[0], ops[1]);
    return std::nullopt;
  case ExprKind::Binary: {
    const std::string &op = e->name;
    if (op == "+") return bounded(__int128(ops[0]) + ops[1]);
    if (op == "-") return bounded(__int128(ops[0]) - ops[1]);
    if (op == "*") return bounded(__int128(ops[0]) * ops[1]);
    if ((op == "/" || op == "%") && ops[1] != 0) return op == "/" ? ops[0] / ops[1] : ops[0] % ops[1];
    return std::nullopt;
  }
  case ExprKind::Select: {
    std::optional<int64_t> c = evaluate(e->operands[0], values);
    return c ? evaluate(e->operands[*c ? 1 : 2], values) : std::nullopt;
  }
  default: return std::nullopt;
  }
}

std::vector<Expr> bounds(const LoweredKernel &lk, const Kernel &kk) {
  std::vector<Expr> out;
  // Host arithmetic in 64 bits throughout (the macros are int).
  auto w = [](const Expr &e) { return cast(kWide, e); };
  const Expr threads = w(kk.blockThreads ? kk.blockThreads : intImm(1));
  // Each grid dimension: the threads' index and the iterations they number (the last block's
  // included), and LoopPartition's row loop over blockIdx.y, which passes its end by up to
  // gridDim.y (at most 65535).
  for (const LaunchDim &d : kk.grid) {
    Expr blocks = div(add(w(d.iterations), sub(w(d.perBlock), intImm(1, kWide))), w(d.perBlock));
    out.push_back(add(mul(add(blocks, intImm(1, kWide)), add(w(d.perBlock), threads)),
                      intImm(65536, kWide)));
  }
  // A batch's slices (BatchSlices.cpp): the offset of the last one.
  for (const auto &slice : kk.batch.slices) out.push_back(mul(w(kk.batch.extent), w(slice.second)));
  // Each parallel loop as written: every value min + t * step for t up to its trip count plus
  // the slack, and t * step itself (a loop from -n to n has 2n iterations).
  const Expr s = slack(kk);
  visitStmt(lk.source.body, [&](const Stmt &l) {
    if (l->kind != StmtKind::For || l->loopKind != LoopKind::Parallel) return;
    int64_t step = 1;
    isConst(l->step, &step);
    Expr reach = mul(add(w(simplify(tripCount(l))), s), intImm(step < 0 ? -step : step, kWide));
    out.push_back(reach);
    out.push_back(add(step < 0 ? sub(intImm(0, kWide), w(l->min)) : w(l->min), reach));
  });
  return out;
}

}  // namespace

IndexWidth indexWidth(const LoweredKernel &lk) {
  const Kernel &k = lk.kernel;
  // RegisterTiling builds int indices of its own (what is left 64-bit there is a size or two).
  const bool tiled = std::find(k.passes.begin(), k.passes.end(), "RegisterTiling") != k.passes.end();
  if (tiled || !k.alternatives.empty() || hasLongLong(lk.source) || !hasLongLong(k))
    return IndexWidth::Only64;
  // Constant extents: decided here, with every tuning parameter at the largest value of its
  // search space (the launch still checks the bounds at the values it is given).
  std::map<std::string, int64_t> largest;
  for (const TuningParam &t : k.tuning) {
    int64_t m = t.defaultValue;
    for (int v : t.values) m = std::max<int64_t>(m, v);
    largest[t.macro] = m;
  }
  bool allConstant = true, fit = true;
  for (const Expr &b : bounds(lk, k)) {
    std::optional<int64_t> v = evaluate(b, largest);
    if (!v) allConstant = false;
    else fit &= *v <= kIntMax;
  }
  if (allConstant) return fit ? IndexWidth::Only32 : IndexWidth::Only64;
  return IndexWidth::Both;
}

Kernel narrowIndexKernel(const Kernel &k) {
  Kernel n = k;
  // Each statement narrows its own expressions (whole trees: narrowExpr needs the operands'
  // types as the passes left them).
  n.body = mapStmt(k.body, [](const Stmt &s) -> Stmt {
    auto c = std::make_shared<StmtNode>(*s);
    if (c->type == kWide && (c->kind == StmtKind::For || c->kind == StmtKind::Decl)) c->type = kInt;
    for (Expr *e : {&c->min, &c->end, &c->step, &c->cond, &c->value, &c->arraySize})
      *e = narrowExpr(*e);
    for (Expr &e : c->indices) e = narrowExpr(e);
    return c;
  });
  return n;
}

Kernel wideIndexKernel(const Kernel &k) {
  Kernel w = k;
  w.name = k.name + "_wide_index";
  w.finish = nullptr;  // printed once, after the kernel
  return w;
}

std::vector<Expr> narrowIndexBounds(const LoweredKernel &lk, const Kernel &kk) {
  return bounds(lk, kk);
}

}  // namespace rtcuda
