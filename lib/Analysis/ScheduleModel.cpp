// The polyhedral model of a loop nest for Reschedule (include/rtcuda/Analysis/ScheduleModel.h),
// from the dependence analyzer's accesses and isl text:
//
//   for (i = 0; i < n; i++)             S0[L0, L1] : 0 <= L0 < P_n and 0 <= L1 < L0
//     for (j = 0; j < i; j++)             reads  S0[L0, L1] -> A_A[L0, L1], A_A[L1, L1]
//       A[i][j] /= A[j][j];   ==>         writes S0[L0, L1] -> A_A[L0, L1]
//     B[i] = 0;                           order  S0[L0, L1] -> [L0, 0, L1], S1[L0] -> [L0, 1, 0]
//
// Where the dependence analysis may over-approximate (a bound or a condition it cannot take,
// a subscript that is not affine: any element), a schedule would run statements where they do
// not run, so the model refuses instead, naming what it found.
#include "DependenceAnalyzer.h"

namespace rtcuda {

using namespace ir;

namespace dependence {

bool Analyzer::exactCondition(const Expr &c, const std::vector<Stmt> &loops) {
  if (!c || c->kind != ExprKind::Binary) return false;
  const std::string &op = c->name;
  if (op == "&&") return exactCondition(c->operands[0], loops) && exactCondition(c->operands[1], loops);
  if (op != "<" && op != "<=" && op != ">" && op != ">=" && op != "==") return false;
  auto a = poly(c->operands[0], loops), b = poly(c->operands[1], loops);
  return a && b && affine(*a) && affine(*b);
}

// The stores under `s`, with the loops, conditions and sequence positions around each; the
// first statement that cannot be modelled exactly, as a reason, or "".
std::string Analyzer::collectLeaves(const Stmt &s, std::vector<Stmt> &loops,
                                    std::vector<Expr> &conds, std::vector<std::string> &position,
                                    std::vector<Leaf> &out) {
  if (!s) return "";
  std::string at = " at " + s->loc.str();
  switch (s->kind) {
  case StmtKind::Comment: return "";
  case StmtKind::Block:
    for (size_t i = 0; i < s->stmts.size(); ++i) {
      position.push_back(std::to_string(i));
      std::string why = collectLeaves(s->stmts[i], loops, conds, position, out);
      position.pop_back();
      if (!why.empty()) return why;
    }
    return "";
  case StmtKind::For: {
    int64_t step = 0;
    auto lo = poly(s->min, loops), hi = poly(s->end, loops);
    if (!isConst(s->step, &step) || step == 0 || !lo || !hi || !affine(*lo) || !affine(*hi))
      return "the bounds of loop '" + s->name + "'" + at + " are not affine in the outer loops' "
             "variables and invariant scalars";
    loops.push_back(s);
    position.push_back("L" + std::to_string(loops.size() - 1));
    std::string why = collectLeaves(s->body, loops, conds, position, out);
    position.pop_back();
    loops.pop_back();
    return why;
  }
  case StmtKind::If: {
    if (s->elseBody) return "the 'if'" + at + " has an 'else'";
    if (!exactCondition(s->cond, loops))
      return "the condition of the 'if'" + at + " is not a conjunction of affine comparisons";
    conds.push_back(s->cond);
    std::string why = collectLeaves(s->body, loops, conds, position, out);
    conds.pop_back();
    return why;
  }
  case StmtKind::Store: {
    if (!isArrayParam(s->name)) return shortText(s) + at + " stores into a scalar";
    if (localArrays.count(s->name))
      return shortText(s) + at + " stores into the local array '" + s->name + "'";
    std::string why;
    auto check = [&](const Expr &e) {
      visitExpr(e, [&](const Expr &n) {
        if (why.empty() && n->kind == ExprKind::Load && !isArrayParam(n->name))
          why = shortText(s) + at + " reads '" + n->name + "', not an array of the function";
        if (why.empty() && n->kind == ExprKind::Load && localArrays.count(n->name))
          why = shortText(s) + at + " reads the local array '" + n->name + "'";
      });
    };
    check(s->value);
    for (const Expr &i : s->indices) check(i);
    if (!why.empty()) return why;
    out.push_back({s, loops, conds, position});
    return "";
  }
  case StmtKind::Assign:
    return shortText(s) + at + " assigns the scalar '" + s->name +
           "' (its value would order every iteration that uses it)";
  case StmtKind::Decl: return shortText(s) + at + " declares '" + s->name + "'";
  case StmtKind::While: return "the 'while' loop" + at + " has no affine bounds";
  default: return "a jump or barrier" + at + " has no place in a new order";
  }
}

NestModel Analyzer::model() {
  NestModel m;
  std::vector<Leaf> leaves;
  {
    std::vector<Stmt> loops;
    std::vector<Expr> conds;
    std::vector<std::string> position;
    m.failure = collectLeaves(nestLoops[0], loops, conds, position, leaves);
  }
  if (!m.failure.empty()) return m;
  if (leaves.empty()) {
    m.failure = "it stores into no array";
    return m;
  }
  // Scalars the nest's statements read must keep their value through it: only parameters and
  // declarations that are never assigned (the nest assigns none, checked above).
  std::set<std::string> loopVars;
  visitStmt(nestLoops[0], [&](const Stmt &s) {
    if (s->kind == StmtKind::For) loopVars.insert(s->name);
  });
  withIslContext([&](isl::ctx ctx) {
    try {
      shapeArrays(ctx);
    } catch (const isl::exception &e) {
      m.failure = "isl could not shape the arrays' subscripts: " + islMessage(e);
    }
  });
  if (!m.failure.empty()) return m;

  size_t width = 0;
  for (const Leaf &l : leaves) width = std::max(width, l.position.size());
  std::vector<std::string> domains, reads, writes, orders;
  for (size_t n = 0; n < leaves.size(); ++n) {
    const Leaf &l = leaves[n];
    std::string name = "S" + std::to_string(n);
    std::string tup = name + tuple(l.loops.size());
    Access where{l.stmt, "", {}, Type{}, false, std::nullopt, l.loops, l.conds, {}, {}};
    domains.push_back(tup + " : " + domain(where));
    std::vector<std::string> pos = l.position;
    pos.resize(width, "0");
    std::string order;
    for (const std::string &p : pos) order += (order.empty() ? "" : ", ") + p;
    orders.push_back(tup + " -> [" + order + "]");
    for (const Access &a : accesses) {
      if (a.stmt != l.stmt) continue;
      if (unknownArrays.count(a.array) || a.out.size() != a.indices.size()) {
        m.failure = "the subscripts of " + a.text() + " at " + a.stmt->loc.str() +
                    " are not affine in the loop variables and invariant scalars";
        return m;
      }
      std::string element;
      for (const Poly &p : a.out) element += (element.empty() ? "" : ", ") + islText(p, params);
      std::string rel = tup + " -> A_" + a.array + "[" + element + "]";
      // An update (A[i] -= ...) reads the element it writes.
      if (!a.write || a.update || l.stmt->op != "=") reads.push_back(rel);
      if (a.write) writes.push_back(rel);
    }
    std::set<std::string> used;
    visitStmt(l.stmt, nullptr, [&](const Expr &e) {
      for (const std::string &v : varsOf(e)) used.insert(v);
    });
    for (const std::string &v : used)
      if (!loopVars.count(v) && !invariant.count(v) && !k.findParam(v) && !isArrayParam(v)) {
        bool declared = false;
        for (const Stmt &s : k.body->stmts)
          declared |= s->kind == StmtKind::Decl && s->name == v && !s->arraySize;
        if (!declared) {
          m.failure = shortText(l.stmt) + " at " + l.stmt->loc.str() + " reads '" + v +
                      "', which the model does not know";
          return m;
        }
      }
    m.statements.push_back({name, l.stmt, l.loops});
  }
  auto join = [&](const std::vector<std::string> &parts) {
    std::string s;
    for (const std::string &p : parts) s += (s.empty() ? "" : "; ") + p;
    return paramList() + "{ " + s + " }";
  };
  m.domain = join(domains);
  m.reads = join(reads);
  m.writes = join(writes);
  m.schedule = join(orders);
  return m;
}

}  // namespace dependence

NestModel nestModel(const Kernel &fn, const Stmt &nest) {
  std::vector<Stmt> loops{nest};
  dependence::Analyzer a(fn, loops);
  return a.model();
}

}  // namespace rtcuda
