// LoopCollapse: fuse a perfect nest of parallel loops into one index and recover each loop
// variable with division and remainder:
//
//   for i in [a, b)                      for ij in [0, (b-a)*(d-c))   // collapsed
//     for j in [c, d)          ==>         int i = a + ij / (d - c);
//       body                               int j = c + ij % (d - c);
//                                          body
//
// Any depth, any bounds over scalar parameters, any constant steps, different extents per
// loop. With collapse off, the outermost loop stays on its own (it becomes the grid's y
// dimension) and only the loops below it are fused.
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

#include <set>

namespace rtcuda {

using namespace ir;

namespace {

std::vector<Stmt> parallelNest(const Stmt &loop) {
  std::vector<Stmt> nest;
  for (Stmt s = loop; s && s->kind == StmtKind::For && s->loopKind == LoopKind::Parallel;) {
    nest.push_back(s);
    Stmt next = s->body;
    while (next && next->kind == StmtKind::Block && next->stmts.size() == 1) next = next->stmts[0];
    s = next;
  }
  return nest;
}

// `hoisted` receives declarations of extents too long to repeat (they precede the loop).
Stmt collapse(const std::vector<Stmt> &loops, const Kernel &k, std::vector<Stmt> &hoisted) {
  std::string name;
  for (const Stmt &l : loops) name += l->name;
  name = freshName(k, name);
  // The collapsed index and the products of extents are 64-bit: 46341 x 46341 passes 2^31.
  const Type wide = Type::of(ScalarKind::LongLong);
  Expr index = var(name, wide);
  std::vector<Expr> extents;
  for (const Stmt &l : loops) {
    Expr e = simplify(tripCount(l));
    int nodes = 0;
    visitExpr(e, [&](const Expr &) { ++nodes; });
    if (nodes > 7) {
      std::string n = freshName(k, l->name + "_extent");
      hoisted.push_back(withLoc(decl(n, wide, widenParams(e, k, wide)), l->loc));
      e = var(n, wide);
    }
    extents.push_back(e);
  }
  std::vector<Stmt> body;
  body.push_back(comment(kRecoveryComment));
  // One division per loop but the innermost, and a multiply-subtract for the remainder
  // (64-bit `%` costs a second division): q_{d-1} = q_d / E_d, t_d = q_d - q_{d-1} * E_d, where
  // q_d numbers the iterations of loops 0..d (q_{n-1} the collapsed index) and t_0 = q_0.
  std::vector<Stmt> quotients, recovered(loops.size());
  auto value = [&](size_t d, const Expr &t) {
    return withLoc(decl(loops[d]->name, loops[d]->type,
                        simplify(add(loops[d]->min, mul(t, loops[d]->step)))),
                   loops[d]->loc);
  };
  Expr q = index;
  std::string qName = name;
  for (size_t d = loops.size(); d-- > 1;) {
    Expr divided = div(q, widenParams(extents[d], k, wide));
    Expr outer;  // q_{d-1}, in the index type
    int64_t min = 1, step = 0;
    if (d == 1 && isConst(loops[0]->min, &min) && min == 0 && isConst(loops[0]->step, &step) &&
        step == 1) {
      // The outermost loop's value is the quotient itself: no variable of its own.
      recovered[0] = withLoc(decl(loops[0]->name, loops[0]->type, divided), loops[0]->loc);
      outer = loops[0]->type == wide ? var(loops[0]->name, wide)
                                     : cast(wide, var(loops[0]->name, loops[0]->type));
    } else {
      std::string outerName;
      for (size_t o = 0; o < d; ++o) outerName += loops[o]->name;
      outerName = freshName(k, d == 1 ? outerName + "_q" : outerName);
      quotients.push_back(decl(outerName, wide, divided));
      outer = var(outerName, wide);
      if (d == 1) recovered[0] = value(0, outer);
    }
    recovered[d] = value(d, sub(q, mul(outer, widenParams(extents[d], k, wide))));
    q = outer;
  }
  Expr inner = intImm(1);  // the product of every extent: the collapsed loop's trip count
  for (size_t d = extents.size(); d-- > 0;) inner = simplify(mul(extents[d], inner));
  body.insert(body.end(), quotients.begin(), quotients.end());
  body.insert(body.end(), recovered.begin(), recovered.end());
  const Stmt &innermost = loops.back()->body;
  if (innermost->kind == StmtKind::Block)
    body.insert(body.end(), innermost->stmts.begin(), innermost->stmts.end());
  else
    body.push_back(innermost);
  Stmt fused = forLoop(name, wide, intImm(0), widenParams(inner, k, wide), intImm(1), block(body),
                       LoopKind::Collapsed);
  return withLoc(fused, loops.front()->loc);
}

}  // namespace

const char *const kRecoveryComment = "recover the loop indices from the collapsed index";

std::string freshName(const Kernel &k, const std::string &base) {
  std::set<std::string> used;
  for (const Param &p : k.params) used.insert(p.name);
  visitStmt(k.body, [&](const Stmt &s) {
    if (!s->name.empty()) used.insert(s->name);
  }, [&](const Expr &e) {
    for (const std::string &v : varsOf(e)) used.insert(v);
  });
  std::string name = base;
  while (used.count(name)) name += "_";
  return name;
}

Kernel loopCollapse(const Kernel &k, const PassContext &ctx) {
  // The parallel nest sits at the top level of the body (ParallelNest put it there).
  Kernel out = k;
  std::vector<Stmt> body = k.body->stmts;
  bool changed = false;
  std::vector<Stmt> hoisted;
  for (Stmt &s : body) {
    if (s->kind != StmtKind::For || s->loopKind != LoopKind::Parallel) continue;
    std::vector<Stmt> nest = parallelNest(s);
    if (nest.size() >= 2 && ctx.options.collapse) {
      s = collapse(nest, k, hoisted);
      changed = true;
    } else if (nest.size() >= 3) {
      // Collapse off: the outermost loop becomes the grid's y dimension; fuse the rest.
      auto outer = std::make_shared<StmtNode>(*s);
      outer->body = collapse(std::vector<Stmt>(nest.begin() + 1, nest.end()), k, hoisted);
      s = outer;
      changed = true;
    }
    break;
  }
  if (!changed) return k;
  body.insert(body.begin(), hoisted.begin(), hoisted.end());
  out.body = withLoc(block(body), k.body->loc);
  out.passes.push_back("LoopCollapse");
  return out;
}

}  // namespace rtcuda
