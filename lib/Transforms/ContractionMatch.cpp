// Recognizing contractions (matrix multiply-like nests) for RegisterTiling: which arrays the
// serial loop k reads as row operands (R[i][k], R[k][i]) and column operands (C[k][j],
// C[j][k]), and, where the config leaves the mapping to the analysis, the options that give
// such a nest the register-tiled mapping.
#include "RegisterTiling.h"
#include "StripMineJam.h"

#include "rtcuda/IR/Mutate.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace rtcuda {

using namespace ir;

namespace {

bool writes(const Kernel &k, const std::string &array) {
  return storesTo(k.body, array) || storesTo(k.finish, array);
}

std::string quoted(const std::vector<std::string> &names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i)
    text += (i ? (i + 1 == names.size() ? " and " : ", ") : "") + ("'" + names[i] + "'");
  return text;
}

// The first strip loop of `kind` in `within`, with its index variable.
bool findStripVar(const Stmt &within, LoopKind kind, std::string &var) {
  Strip strip;
  if (!findStrip(within, kind, strip)) return false;
  var = strip.decl->name;
  return true;
}

}  // namespace

std::vector<ContractionOperand> contractionOperands(const Kernel &k, const Stmt &loop,
                                                    const std::string &rowVar,
                                                    const std::string &colVar,
                                                    const std::vector<std::string> &candidates,
                                                    std::string *why) {
  const std::string &kv = loop->name;
  std::vector<ContractionOperand> found;
  std::map<std::string, std::string> other;  // array -> a read that is no operand's
  visitStmt(loop->body, nullptr, [&](const Expr &e) {
    visitExpr(e, [&](const Expr &n) {
      if (n->kind != ExprKind::Load ||
          std::find(candidates.begin(), candidates.end(), n->name) == candidates.end())
        return;
      const std::vector<Expr> &x = n->operands;
      ContractionOperand op{n->name, false, false};
      if (x.size() == 2 && isVar(x[0], rowVar) && isVar(x[1], kv)) op = {n->name, false, false};
      else if (x.size() == 2 && isVar(x[0], kv) && isVar(x[1], rowVar)) op = {n->name, false, true};
      else if (x.size() == 2 && isVar(x[0], kv) && isVar(x[1], colVar)) op = {n->name, true, true};
      else if (x.size() == 2 && isVar(x[0], colVar) && isVar(x[1], kv)) op = {n->name, true, false};
      else {
        other.emplace(n->name, "");
        return;
      }
      for (const ContractionOperand &f : found)
        if (f.array == op.array && f.column == op.column && f.kMajor == op.kMajor) return;
      found.push_back(op);
    });
  });
  std::vector<ContractionOperand> out;
  for (bool column : {false, true})
    for (const ContractionOperand &f : found)
      if (f.column == column && !other.count(f.array) && !writes(k, f.array)) out.push_back(f);
  if (why) {
    std::vector<std::string> mixed, written;
    for (const auto &o : other) mixed.push_back(o.first);
    for (const ContractionOperand &f : found)
      if (writes(k, f.array) && std::find(written.begin(), written.end(), f.array) == written.end())
        written.push_back(f.array);
    if (!mixed.empty())
      *why += "; " + quoted(mixed) + " also read with subscripts other than [" + rowVar + "][" +
              kv + "], [" + kv + "][" + rowVar + "], [" + kv + "][" + colVar + "], [" + colVar +
              "][" + kv + "]";
    if (!written.empty()) *why += "; " + quoted(written) + " written by the kernel";
  }
  return out;
}

bool findContraction(const Kernel &k, const KernelOptions &o, Contraction *out, std::string *why) {
  auto no = [&](const std::string &text) {
    if (why) *why = text;
    return false;
  };
  if (!o.merge || !o.skew || o.prefetch.empty()) return no("merge, skew and prefetch not all on");
  if (!k.reductions.empty()) return no("the nest reduces into a scalar across its threads");
  if (!k.atomicArrays.empty()) return no("the nest updates arrays atomically");
  std::vector<Stmt> loops = parallelLoops(k);
  if (loops.size() != 2)
    return no("needs two parallel loops (rows, columns), found " + std::to_string(loops.size()));
  const std::set<std::string> loopVars{loops[0]->name, loops[1]->name};
  std::string seen;
  for (const Stmt &s : statementsOf(loops[1]->body)) {
    int64_t step = 0;
    if (s->kind != StmtKind::For || s->loopKind != LoopKind::Serial) continue;
    if (!isConst(s->step, &step) || step != 1 || mentionsAny(s->min, loopVars) ||
        mentionsAny(s->end, loopVars)) {
      seen = "loop '" + s->name + "' has a step other than 1 or bounds that use the rows or "
             "columns";
      continue;
    }
    Contraction c;
    c.reduceLoop = s;
    if (!findStripVar(s->body, LoopKind::Merge, c.rowVar)) {
      seen = "loop '" + s->name + "' holds no strip of merged rows";
      continue;
    }
    if (!findStripVar(s->body, LoopKind::Skew, c.colVar)) c.colVar = loops[1]->name;
    std::string found;
    c.operands = contractionOperands(k, s, c.rowVar, c.colVar, o.prefetch, &found);
    for (const ContractionOperand &op : c.operands) {
      std::string &first = op.column ? c.colArray : c.rowArray;
      if (first.empty()) first = op.array;
    }
    if (c.rowArray.empty() || c.colArray.empty())
      return no("loop '" + s->name + "' reads no prefetched array as " +
                (c.rowArray.empty() ? "R[" + c.rowVar + "][" + s->name + "] or R[" + s->name +
                                          "][" + c.rowVar + "]"
                                    : "C[" + s->name + "][" + c.colVar + "] or C[" + c.colVar +
                                          "][" + s->name + "]") +
                found);
    if (c.operands.size() > 4)
      return no("loop '" + s->name + "' reads " + std::to_string(c.operands.size()) +
                " operands (at most 4 tiles)");
    if (out) *out = c;
    return true;
  }
  return no(seen.empty() ? "no serial loop in the body of loop '" + loops[1]->name + "'" : seen);
}

bool contractionMapping(const Kernel &k, const KernelOptions &o, KernelOptions &out,
                        std::string *why) {
  std::vector<Stmt> loops = parallelLoops(k);
  if (loops.size() != 2 || !k.reductions.empty() || !k.atomicArrays.empty()) return false;
  Kernel formed = formContraction(k, why);
  loops = parallelLoops(formed);
  std::vector<std::string> candidates;
  for (const Param &p : k.params)
    if (p.isArray &&
        std::find(o.noPrefetch.begin(), o.noPrefetch.end(), p.name) == o.noPrefetch.end())
      candidates.push_back(p.name);
  for (const Stmt &s : statementsOf(loops[1]->body)) {
    if (s->kind != StmtKind::For || s->loopKind != LoopKind::Serial) continue;
    std::vector<ContractionOperand> ops =
        contractionOperands(formed, s, loops[0]->name, loops[1]->name, candidates);
    bool rows = false, cols = false;
    std::vector<std::string> arrays;
    for (const ContractionOperand &op : ops) {
      (op.column ? cols : rows) = true;
      if (std::find(arrays.begin(), arrays.end(), op.array) == arrays.end())
        arrays.push_back(op.array);
    }
    if (!rows || !cols) continue;
    out = o;
    out.merge = out.skew = true;
    out.prefetch = arrays;
    out.mergeLevel = out.skewLevel = {1, 8};
    return true;
  }
  return false;
}

}  // namespace rtcuda

namespace rtcuda {

using namespace ir;

namespace {

// An affine expression of the rows, columns and the kernel's scalar parameters: its least and
// greatest values over a rectangle are at corners.
bool affine(const Kernel &k, const Expr &e, const std::set<std::string> &xy) {
  switch (e->kind) {
  case ExprKind::IntImm:
    return true;
  case ExprKind::Var: {
    const Param *p = k.findParam(e->name);
    return xy.count(e->name) || (p && !p->isArray && p->type.isInteger());
  }
  case ExprKind::Unary:
    return e->name == "-" && affine(k, e->operands[0], xy);
  case ExprKind::Binary:
    if (e->name == "+" || e->name == "-")
      return affine(k, e->operands[0], xy) && affine(k, e->operands[1], xy);
    if (e->name == "*")
      return affine(k, e->operands[0], xy) && affine(k, e->operands[1], xy) &&
             (!mentionsAny(e->operands[0], xy) || !mentionsAny(e->operands[1], xy));
    return false;
  default:
    return false;
  }
}

void conjuncts(const Expr &e, std::vector<Expr> &out) {
  if (e->kind == ExprKind::Binary && e->name == "&&") {
    conjuncts(e->operands[0], out);
    conjuncts(e->operands[1], out);
  } else {
    out.push_back(e);
  }
}

}  // namespace

Expr tileMayStore(const Kernel &k, const std::vector<Stmt> &after, const std::string &rowVar,
                  const std::string &colVar, const Expr &row0, const Expr &rowLast,
                  const Expr &col0, const Expr &colLast) {
  // The one guard of every store after the k loop (BoundingBox's, kept there by
  // ContractionForm): `if (g) { ... store ... }`, the same g each time.
  Expr guard;
  bool unguarded = false;
  std::function<void(const Stmt &, const Expr &)> walk = [&](const Stmt &s, const Expr &g) {
    if (!s) return;
    bool global = s->kind == StmtKind::Store && k.findParam(s->name);
    if (global && !g) unguarded = true;
    if (global && g) {
      if (!guard) guard = g;
      else if (!equal(guard, g)) unguarded = true;
    }
    Expr inner = g;
    if (s->kind == StmtKind::If && !s->elseBody && mentions(s->cond, rowVar) &&
        mentions(s->cond, colVar))
      inner = s->cond;
    for (const Stmt &c : s->stmts) walk(c, inner);
    walk(s->body, inner);
    walk(s->elseBody, inner);
  };
  for (const Stmt &s : after) walk(s, nullptr);
  if (unguarded || !guard) return nullptr;
  const std::set<std::string> xy{rowVar, colVar};
  std::vector<Expr> parts;
  conjuncts(guard, parts);
  Expr may;
  for (const Expr &c : parts) {
    static const std::set<std::string> order{"<", "<=", ">", ">="};
    if (c->kind != ExprKind::Binary || !order.count(c->name) || !affine(k, c->operands[0], xy) ||
        !affine(k, c->operands[1], xy))
      return nullptr;
    // Somewhere in the rectangle exactly when at one of its corners.
    Expr any;
    for (const Expr &r : {row0, rowLast})
      for (const Expr &q : {col0, colLast}) {
        Expr at = substitute(c, {{rowVar, r}, {colVar, q}});
        any = any ? binary("||", any, at) : at;
      }
    may = may ? land(may, any) : any;
  }
  return may;
}

}  // namespace rtcuda
