#include "rtcuda/Analysis/ParallelNest.h"

#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"

#include <set>

namespace rtcuda {

namespace {

using namespace ir;

// The single statement a loop body consists of, looking through one-statement blocks.
Stmt soleStatement(const Stmt &body) {
  Stmt s = body;
  while (s && s->kind == StmtKind::Block) {
    std::vector<Stmt> real;
    for (const Stmt &c : s->stmts)
      if (c->kind != StmtKind::Comment) real.push_back(c);
    if (real.size() != 1) return nullptr;
    s = real[0];
  }
  return s;
}

// Loops perfectly nested from `loop` down (loop itself first).
std::vector<Stmt> perfectNest(const Stmt &loop) {
  std::vector<Stmt> nest{loop};
  for (Stmt inner = soleStatement(loop->body); inner && inner->kind == StmtKind::For;
       inner = soleStatement(inner->body))
    nest.push_back(inner);
  return nest;
}

// Every store below `s` has `v` in its subscripts.
bool indexesEveryStore(const Stmt &s, const std::string &v) {
  bool all = true, any = false;
  visitStmt(s, [&](const Stmt &n) {
    if (n->kind != StmtKind::Store) return;
    any = true;
    bool uses = false;
    for (const Expr &i : n->indices) uses |= mentions(i, v);
    all &= uses;
  });
  return any && all;
}

Stmt rebuildNest(const Stmt &loop, int depth) {
  if (depth == 0) return loop;
  auto copy = std::make_shared<StmtNode>(*loop);
  copy->loopKind = LoopKind::Parallel;
  if (depth > 1) {
    Stmt inner = soleStatement(loop->body);
    copy->body = rebuildNest(inner, depth - 1);
  }
  return copy;
}

void checkBounds(const std::vector<Stmt> &loops, const Kernel &k) {
  std::set<std::string> scalars;
  for (const Param &p : k.params)
    if (!p.isArray) scalars.insert(p.name);
  for (const Stmt &l : loops) {
    for (const Expr &bound : {l->min, l->end}) {
      visitExpr(bound, [&](const Expr &e) {
        if (e->kind == ExprKind::Load || (e->kind == ExprKind::Var && !scalars.count(e->name)))
          throw CompileError(l->loc, "bound '" + print(bound) + "' of parallel loop '" + l->name +
                                         "' must be an expression of the kernel's scalar "
                                         "parameters ('" + print(e) + "' is not one)");
      });
    }
  }
}

// A scalar declared before the nest is private to each iteration only if every iteration
// assigns it before reading it.
void checkPrivateScalars(const std::vector<Stmt> &prologue, const Stmt &innermostBody) {
  std::vector<Stmt> body = innermostBody->kind == StmtKind::Block ? innermostBody->stmts
                                                                   : std::vector<Stmt>{innermostBody};
  for (const Stmt &d : prologue) {
    if (d->kind != StmtKind::Decl) continue;
    const std::string &v = d->name;
    // Never assigned in the loops: every iteration reads the same value, nothing is carried.
    bool assigned = false;
    visitStmt(innermostBody, [&](const Stmt &n) {
      assigned |= (n->kind == StmtKind::Assign || n->kind == StmtKind::Decl) && n->name == v;
    });
    if (!assigned) continue;
    for (const Stmt &s : body) {
      if (s->kind == StmtKind::Assign && s->name == v && s->op == "=" && !mentions(s->value, v))
        break;  // defined first: private
      bool touches = false;
      visitStmt(s, [&](const Stmt &n) { touches |= (n->kind == StmtKind::Assign && n->name == v); },
                [&](const Expr &e) { touches |= mentions(e, v); });
      if (touches)
        throw CompileError(d->loc, "scalar '" + v + "' carries a value from one iteration of the "
                                   "parallel loop to the next (it is used before it is assigned "
                                   "in the loop body); declare and initialize it inside the loop");
    }
  }
}

// break/continue that would leave a parallel loop's iteration: once the loop is spread over
// threads there is no loop around them any more.
void checkNoJumpOut(const Stmt &s) {
  if (!s) return;
  if (s->kind == StmtKind::Break || s->kind == StmtKind::Continue)
    throw CompileError(s->loc, std::string(s->kind == StmtKind::Break ? "break" : "continue") +
                                   " in the body of a parallel loop is not supported; use if "
                                   "around the statements instead");
  if (s->kind == StmtKind::For || s->kind == StmtKind::While) return;  // their own loop
  for (const Stmt &c : s->stmts) checkNoJumpOut(c);
  checkNoJumpOut(s->body);
  checkNoJumpOut(s->elseBody);
}

}  // namespace

Kernel markParallelLoops(const Kernel &k, const KernelOptions &options, Diagnostics &diags) {
  std::vector<Stmt> prologue;
  Stmt nest;
  for (const Stmt &s : k.body->stmts) {
    if (s->kind == StmtKind::Comment) continue;
    if (!nest && s->kind == StmtKind::Decl && !s->arraySize) {
      prologue.push_back(s);
      continue;
    }
    if (!nest && s->kind == StmtKind::For) {
      nest = s;
      continue;
    }
    throw CompileError(s->loc, nest ? "kernel '" + k.name + "': statements after the loop nest "
                                      "are not supported; a kernel is one loop nest"
                                    : "kernel '" + k.name + "': only declarations may precede "
                                      "the loop nest");
  }
  if (!nest) throw CompileError(k.loc, "kernel '" + k.name + "' has no loop to parallelize");
  // Variables declared up front only to serve as loop variables (int i, j; for (i = ...)):
  // every loop assigns its variable first, and the IR's loops declare their own.
  std::set<std::string> loopVars;
  visitStmt(nest, [&](const Stmt &s) {
    if (s->kind == StmtKind::For) loopVars.insert(s->name);
  });
  std::vector<Stmt> kept;
  for (const Stmt &d : prologue)
    if (!loopVars.count(d->name) || d->value) kept.push_back(d);
  prologue = kept;
  for (const Stmt &d : prologue)
    if (d->value && d->value->kind != ExprKind::IntImm && d->value->kind != ExprKind::FloatImm)
      visitExpr(d->value, [&](const Expr &e) {
        if (e->kind == ExprKind::Load)
          throw CompileError(d->loc, "declarations before the loop nest may not read arrays");
      });

  std::vector<Stmt> loops = perfectNest(nest);
  int depth = options.parallelLoops;
  if (depth == 0 && options.matrix2D) depth = *options.matrix2D ? 2 : 1;
  if (depth == 0) {
    while (depth < int(loops.size()) && indexesEveryStore(loops[depth], loops[depth]->name)) ++depth;
    if (depth == 0)
      throw CompileError(nest->loc, "kernel '" + k.name + "': no loop variable indexes every "
                                    "store, so no loop can be mapped to threads without a "
                                    "race; set parallel_loops (2DMATRIX) to force it");
  }
  if (depth > int(loops.size()))
    throw CompileError(loops.back()->loc,
                       "kernel '" + k.name + "': " + std::to_string(depth) + " parallel loops "
                       "requested but only " + std::to_string(loops.size()) +
                       " loop(s) are perfectly nested here");
  loops.resize(depth);
  checkBounds(loops, k);
  checkNoJumpOut(loops.back()->body);
  checkPrivateScalars(prologue, loops.back()->body);
  for (size_t i = 1; i < loops.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (mentions(loops[i]->min, loops[j]->name) || mentions(loops[i]->end, loops[j]->name))
        throw CompileError(loops[i]->loc, "bounds of parallel loop '" + loops[i]->name +
                                          "' depend on loop '" + loops[j]->name + "'");
  // Stores that not every parallel loop variable indexes may collide between threads.
  visitStmt(loops.back()->body, [&](const Stmt &s) {
    if (s->kind == StmtKind::Assign) {
      for (const Param &p : k.params)
        if (!p.isArray && p.name == s->name)
          throw CompileError(s->loc, "assignment to scalar parameter '" + s->name +
                                     "' inside the parallel loops would race between threads");
    }
    if (s->kind != StmtKind::Store) return;
    for (const Stmt &l : loops) {
      bool uses = false;
      for (const Expr &i : s->indices) uses |= mentions(i, l->name);
      if (!uses) {
        diags.warning(s->loc, "store to '" + s->name + "' does not depend on parallel loop '" +
                                  l->name + "': different threads may update the same "
                                  "element (a race)");
        break;
      }
    }
  });

  Kernel out = k;
  std::vector<Stmt> body = prologue;
  body.push_back(rebuildNest(nest, depth));
  out.body = block(body);
  out.body = withLoc(out.body, k.body->loc);
  return out;
}

}  // namespace rtcuda
