// Small helpers the passes share (declared in Pass.h).
#include "rtcuda/Transforms/Pass.h"

namespace rtcuda {

using namespace ir;

std::vector<Stmt> statementsOf(const Stmt &s) {
  if (s && s->kind == StmtKind::Block) return s->stmts;
  return s ? std::vector<Stmt>{s} : std::vector<Stmt>{};
}

Expr gpuBuiltin(const std::string &name) { return var(name, Type::of(ScalarKind::UInt)); }

}  // namespace rtcuda
