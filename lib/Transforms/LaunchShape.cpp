// Reschedule's measure of a function: how it would run after ArrayExpansion, Fission and
// Outline, asked of those passes themselves (docs/passes/Reschedule.md).
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/Transforms/ArrayExpansion.h"
#include "rtcuda/Transforms/Fission.h"
#include "rtcuda/Transforms/Outline.h"
#include "rtcuda/Transforms/Reschedule.h"

#include <algorithm>
#include <functional>

namespace rtcuda {

using namespace ir;

// How `fn` would run after ArrayExpansion, Fission and Outline (for Reschedule): its launches
// by the number of host loops around them, or why it is refused.
LaunchShape launchShapeAfterOutline(const KernelSource &source, const Kernel &fn) {
  KernelSource probe = source;
  probe.kernel = distributeLoops(expandArrays(fn).kernel).kernel;  // as outlineProgram does
  std::vector<KernelSource> made;
  std::optional<OutlinedFunction> f;
  try {
    f = outlineFunction(probe, made);
  } catch (const CompileError &e) {
    LaunchShape refused;
    refused.refusal = e.loc.str() + ": " + e.what();
    return refused;
  }
  LaunchShape shape;
  shape.byDepth = {1};  // one kernel, launched once
  if (!f) return shape;
  shape.byDepth = {0};
  for (const KernelSource &k : made) {
    if (std::find(f->singleThread.begin(), f->singleThread.end(), k.kernel.name) == f->singleThread.end())
      continue;
    bool loops = false;  // besides the wrapper that makes it one thread
    visitStmt(k.kernel.body, [&](const Stmt &s) {
      loops |= (s->kind == StmtKind::For && s->name != "rtcuda_one") || s->kind == StmtKind::While;
    });
    shape.serialKernels += loops;
  }
  std::function<void(const Stmt &, size_t)> walk = [&](const Stmt &s, size_t depth) {
    if (!s) return;
    if (s->kind == StmtKind::Comment && s->text == "launch") {
      if (shape.byDepth.size() <= depth) shape.byDepth.resize(depth + 1, 0);
      ++shape.byDepth[depth];
    }
    size_t inner = depth + (s->kind == StmtKind::For || s->kind == StmtKind::While ? 1 : 0);
    for (const Stmt &c : s->stmts) walk(c, inner);
    walk(s->body, inner);
    walk(s->elseBody, inner);
  };
  walk(f->host, 0);
  return shape;
}

}  // namespace rtcuda
