// Integer arrays whose values index other arrays or bound loops (a CSR matrix's column indices
// and row offsets, a permutation): the values verify and the tuner must draw for them, since
// random integers would send the sequential C itself past its arrays. Read from the source
// kernel (before flattening): a subscript that is exactly `P[...]` makes P's values lie below
// that dimension's extent; a loop `for (k = P[i]; k < P[i + 1]; k++)` makes P offsets, a
// non-decreasing sequence up to the extent of what `k` indexes. docs/verify.md, Index arrays.
#include "rtcuda/CodeGen/CodeGen.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"

#include <algorithm>

namespace rtcuda {

namespace {

// `e` without integer casts: the array it loads, if it is a load of an integer array parameter.
const ir::Param *loadedIndexArray(const ir::Kernel &k, ir::Expr e) {
  while (e && e->kind == ir::ExprKind::Cast && e->type.isInteger()) e = e->operands[0];
  if (!e || e->kind != ir::ExprKind::Load) return nullptr;
  const ir::Param *p = k.findParam(e->name);
  return p && p->isArray && p->type.isInteger() ? p : nullptr;
}

// Calls `each(x, d, index)` for every subscript of every access (load or store) in `body` of
// an array parameter x whose dimensions are known in number.
template <class Each>
void forEachSubscript(const ir::Kernel &k, const ir::Stmt &body, Each each) {
  auto access = [&](const std::string &array, const std::vector<ir::Expr> &indices) {
    const ir::Param *x = k.findParam(array);
    if (!x || !x->isArray || x->dims.size() != indices.size()) return;
    for (size_t d = 0; d < indices.size(); ++d) each(*x, d, indices[d]);
  };
  ir::visitStmt(body, [&](const ir::Stmt &s) {
    if (s->kind == ir::StmtKind::Store) access(s->name, s->indices);
  }, [&](const ir::Expr &e) {
    ir::visitExpr(e, [&](const ir::Expr &n) {
      if (n->kind == ir::ExprKind::Load) access(n->name, n->operands);
    });
  });
}

// Extents of the dimensions that `var` indexes directly (X[..., var, ...]) in `body`.
std::vector<std::string> extentsIndexedBy(const ir::Kernel &k, const ir::Stmt &body,
                                          const std::string &var) {
  std::vector<std::string> out;
  forEachSubscript(k, body, [&](const ir::Param &x, size_t d, const ir::Expr &index) {
    if (index->kind == ir::ExprKind::Var && index->name == var && x.dims[d])
      out.push_back(ir::print(x.dims[d]));
  });
  return out;
}

void addOnce(std::vector<std::string> &list, const std::string &item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

}  // namespace

std::map<std::string, IndexArrayUse> indexArrayUses(const ir::Kernel &k) {
  std::map<std::string, IndexArrayUse> uses;
  if (!k.body) return uses;
  forEachSubscript(k, k.body, [&](const ir::Param &x, size_t d, const ir::Expr &index) {
    if (const ir::Param *p = loadedIndexArray(k, index))
      if (p->name != x.name && x.dims[d]) addOnce(uses[p->name].below, ir::print(x.dims[d]));
  });
  ir::visitStmt(k.body, [&](const ir::Stmt &s) {
    if (s->kind != ir::StmtKind::For) return;
    const ir::Param *lo = loadedIndexArray(k, s->min), *hi = loadedIndexArray(k, s->end);
    if (!lo || !hi || lo != hi) return;
    for (const std::string &extent : extentsIndexedBy(k, s->body, s->name))
      addOnce(uses[lo->name].offsetsUpTo, extent);
  });
  return uses;
}

}  // namespace rtcuda
