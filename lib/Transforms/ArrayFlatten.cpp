// ArrayFlatten: multi-dimensional subscripts become one linear index, each array with its own
// leading dimensions (from its declared type, or the legacy row_dim):
//
//   float C[n][m]:  C[i][j]  ==>  C[i * m + j]
//   float T[a][b][c]: T[i][j][k]  ==>  T[(i * b + j) * c + k]
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

namespace rtcuda {

using namespace ir;

namespace {

Expr linearIndex(const Param &p, const std::vector<Expr> &indices, const SourceLoc &where) {
  if (indices.size() != p.dims.size())
    throw CompileError(where, "array '" + p.name + "' has " + std::to_string(p.dims.size()) +
                                  " dimension(s) but is indexed with " +
                                  std::to_string(indices.size()) + " subscript(s)");
  Expr index = indices[0];
  for (size_t d = 1; d < indices.size(); ++d) {
    if (!p.dims[d])
      throw CompileError(where, "dimension " + std::to_string(d + 1) + " of array '" + p.name +
                                    "' has no known size");
    index = add(mul(index, p.dims[d]), indices[d]);
  }
  return simplify(index);
}

}  // namespace

Kernel arrayFlatten(const Kernel &k, const PassContext &) {
  bool changed = false;
  auto flattenExpr = [&](const Expr &e) -> Expr {
    if (e->kind != ExprKind::Load || e->operands.size() < 2) return e;
    const Param *p = k.findParam(e->name);
    if (!p) return e;
    changed = true;
    auto copy = std::make_shared<ExprNode>(*e);
    copy->operands = {linearIndex(*p, e->operands, e->loc)};
    return copy;
  };
  Kernel out = k;
  auto flattenStmt = [&](const Stmt &s) -> Stmt {
    if (s->kind != StmtKind::Store || s->indices.size() < 2) return s;
    const Param *p = k.findParam(s->name);
    if (!p) return s;
    changed = true;
    auto copy = std::make_shared<StmtNode>(*s);
    copy->indices = {linearIndex(*p, s->indices, s->loc)};
    return copy;
  };
  out.body = mapStmt(k.body, flattenStmt, flattenExpr);
  out.finish = mapStmt(k.finish, flattenStmt, flattenExpr);
  if (!changed) return k;
  out.passes.push_back("ArrayFlatten");
  return out;
}

}  // namespace rtcuda
