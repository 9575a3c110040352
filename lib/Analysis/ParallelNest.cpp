#include "rtcuda/Analysis/ParallelNest.h"

#include "rtcuda/Analysis/Dependence.h"
#include "rtcuda/Analysis/Reductions.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"

#include <algorithm>
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

// The nest with the `chosen` loops Parallel and every other loop Serial (a loop the user
// asserted parallel comes from the frontend marked Parallel).
Stmt rebuildNest(const Stmt &s, const std::set<const StmtNode *> &chosen) {
  if (!s) return s;
  auto copy = std::make_shared<StmtNode>(*s);
  bool changed = false;
  if (s->kind == StmtKind::For) {
    LoopKind kind = chosen.count(s.get()) ? LoopKind::Parallel : LoopKind::Serial;
    changed = kind != s->loopKind;
    copy->loopKind = kind;
  }
  for (Stmt *c : {&copy->body, &copy->elseBody}) {
    Stmt n = rebuildNest(*c, chosen);
    changed |= n != *c;
    *c = n;
  }
  for (Stmt &c : copy->stmts) {
    Stmt n = rebuildNest(c, chosen);
    changed |= n != c;
    c = n;
  }
  return changed ? Stmt(copy) : s;
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

// The first statement of `s` that may read `v` before `s` has assigned it on every path
// (`defined`: assigned on every path so far); null if there is none. A loop may run zero
// times, so what it assigns counts inside it only; an if's branches count after it when both
// assign. A declaration of another `v` (shadowing) counts as a read: kept simple.
Stmt exposedRead(const Stmt &s, const std::string &v, bool &defined) {
  if (!s || s->kind == StmtKind::Comment) return nullptr;
  auto reads = [&](std::initializer_list<Expr> es) {
    bool r = false;
    for (const Expr &e : es) r |= e && mentions(e, v);
    return r && !defined;
  };
  switch (s->kind) {
  case StmtKind::Block:
    for (const Stmt &c : s->stmts)
      if (Stmt r = exposedRead(c, v, defined)) return r;
    return nullptr;
  case StmtKind::Assign:
    if (s->name != v) return reads({s->value}) ? s : nullptr;
    if (s->op != "=" && !defined) return s;
    if (reads({s->value})) return s;
    defined = true;
    return nullptr;
  case StmtKind::Store: {
    bool r = reads({s->value});
    for (const Expr &i : s->indices) r |= reads({i});
    return r ? s : nullptr;
  }
  case StmtKind::Decl:
    return s->name == v || reads({s->value, s->arraySize}) ? s : nullptr;
  case StmtKind::If: {
    if (reads({s->cond})) return s;
    bool inThen = defined, inElse = defined;
    if (Stmt r = exposedRead(s->body, v, inThen)) return r;
    if (Stmt r = exposedRead(s->elseBody, v, inElse)) return r;
    defined = inThen && inElse;
    return nullptr;
  }
  case StmtKind::For:
  case StmtKind::While: {
    if (s->kind == StmtKind::For && s->name == v) return s;
    if (reads({s->min, s->end, s->step, s->cond})) return s;
    bool inBody = defined;
    return exposedRead(s->body, v, inBody);
  }
  default:
    return nullptr;
  }
}

// A scalar declared before the nest is private to each iteration if every iteration of the
// innermost perfectly nested loop assigns it before reading it (then it is private to the
// iterations of every loop around that one too); else the statement that may read the value
// of an earlier iteration.
Stmt carriedRead(const std::string &v, const Stmt &innermostBody) {
  bool defined = false;
  return exposedRead(innermostBody, v, defined);
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

bool mentionsInStmt(const Stmt &s, const std::string &v) {
  bool found = false;
  visitStmt(s, [&](const Stmt &n) {
    found |= (n->kind == StmtKind::Assign || n->kind == StmtKind::Decl) && n->name == v;
  }, [&](const Expr &e) { found |= mentions(e, v); });
  return found;
}

// Why a loop cannot simply run in parallel: a dependence atomics cannot remove, or a scalar
// carried between iterations. Empty when it can.
struct Blocker {
  SourceLoc loc;
  std::string message;
  bool unknown = false;  // the analysis failed: nothing was found, nothing proven
  explicit operator bool() const { return !message.empty(); }
};

// The decisions for one kernel (docs/legality.md).
class Legality {
public:
  Legality(const Kernel &k, const KernelOptions &o, Diagnostics &diags)
      : k(k), options(o), diags(diags) {}

  Kernel run();

private:
  const Kernel &k;
  const KernelOptions &options;
  Diagnostics &diags;
  std::vector<Stmt> prologue, epilogue, candidates;
  Stmt nest;
  std::vector<Dependence> deps;
  std::vector<Reduction> reductions;
  Blocker scalarBlocker;           // carried scalar: no loop can be parallel
  std::set<std::string> lastValues;  // private scalars the epilogue reads

  bool asserted(size_t level) const {
    const Stmt &l = candidates[level];
    return l->loopKind == LoopKind::Parallel || options.assumeParallelAll ||
           std::count(options.assumeParallel.begin(), options.assumeParallel.end(), l->name);
  }

  // The first dependence of loop `level` that stops it from running in parallel; with
  // `atomicsOk`, dependences between commutative updates do not count.
  Blocker blocker(size_t level, bool atomicsOk) const {
    if (scalarBlocker) return scalarBlocker;
    if (asserted(level)) return {};
    for (const Dependence &d : deps) {
      if (d.level != int(level)) continue;
      if (d.failed) return {d.loc, d.message, true};
      if (!d.commutative)
        return {d.loc, "loop '" + candidates[level]->name + "' carries a dependence: " + d.message};
      if (!atomicsOk)
        return {d.loc, "making it parallel would need atomic updates: " + d.message};
      const Param *p = k.findParam(d.array);
      if (!reducibleType(p->type, updateOp(d.array)))
        return {d.loc, "loop '" + candidates[level]->name + "' carries a dependence: " + d.message +
                           " (no atomic operation for '" + p->type.cName() + "')"};
    }
    return {};
  }

  bool boundsOfParameters(size_t level) const {
    bool ok = true;
    for (const Expr &b : {candidates[level]->min, candidates[level]->end})
      visitExpr(b, [&](const Expr &e) {
        ok &= e->kind != ExprKind::Load &&
              (e->kind != ExprKind::Var || (k.findParam(e->name) && !k.findParam(e->name)->isArray));
      });
    return ok;
  }

  std::string updateOp(const std::string &array) const {
    std::string op = "+";
    visitStmt(nest, [&](const Stmt &s) {
      if (s->kind == StmtKind::Store && s->name == array)
        if (auto f = arrayUpdate(s)) op = f->op;
    });
    return op;
  }

  void splitBody();
  void classifyScalars();
  size_t chooseDepth();
  Kernel sequential(const Blocker &why);
  void explain(Kernel &out, size_t depth);
};

void Legality::splitBody() {
  for (const Stmt &s : k.body->stmts) {
    if (s->kind == StmtKind::Comment) continue;
    if (nest) {
      epilogue.push_back(s);
    } else if (s->kind == StmtKind::Decl && !s->arraySize) {
      prologue.push_back(s);
    } else if (s->kind == StmtKind::For) {
      nest = s;
    } else {
      throw CompileError(s->loc, "kernel '" + k.name + "': only declarations may precede the "
                                 "loop nest");
    }
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
  candidates = perfectNest(nest);
}

// Scalars declared before the nest and assigned in it: private to each iteration, reduced
// across the parallel loops, or carrying a value from one iteration to the next.
void Legality::classifyScalars() {
  const Stmt &innermost = candidates.back()->body;
  for (const Stmt &d : prologue) {
    ScalarUse use = classifyScalar(nest, d->name);
    bool assigned = use.assigned;
    visitStmt(nest, [&](const Stmt &n) {
      assigned |= (n->kind == StmtKind::Assign || n->kind == StmtKind::Decl) && n->name == d->name;
    });
    if (!assigned) continue;  // read-only: every iteration reads the same value
    Stmt carried = carriedRead(d->name, innermost);
    if (!carried) {
      for (const Stmt &e : epilogue)
        if (mentionsInStmt(e, d->name)) lastValues.insert(d->name);
      continue;
    }
    if (use.op && d->value && reducibleType(d->type, *use.op)) {
      reductions.push_back({d->name, *use.op, d->type, d->loc});
      continue;
    }
    if (scalarBlocker) continue;
    std::string why = "scalar '" + d->name + "' carries a value from one iteration of the "
                      "parallel loop to the next (it is used before it is assigned in the loop "
                      "body); declare and initialize it inside the loop";
    // The statement that reads the carried value; for an update (s += x[i]) that would be a
    // reduction, the statement that keeps it from being one (y[i] = s).
    Stmt reader = carried->kind == StmtKind::Assign && carried->name == d->name && use.blocker
                      ? use.blocker : carried;
    if (reader->loc.valid())
      why += " (" + reader->loc.str() + " reads the value of the previous iteration)";
    if (use.op && !d->value)
      why = "scalar '" + d->name + "' is reduced with " + *use.op + " in the loop but has no "
            "initial value; initialize it where it is declared";
    else if (use.op)
      why = "scalar '" + d->name + "' is reduced with " + *use.op + " in the loop, but a " +
            d->type.cName() + " reduction is not supported (int, unsigned int, float, double)";
    scalarBlocker = {d->loc, why};
  }
}

size_t Legality::chooseDepth() {
  int forced = options.parallelLoops;
  if (forced == 0 && options.matrix2D) forced = *options.matrix2D ? 2 : 1;
  if (forced > int(candidates.size()))
    throw CompileError(candidates.back()->loc,
                       "kernel '" + k.name + "': " + std::to_string(forced) + " parallel loops "
                       "requested but only " + std::to_string(candidates.size()) +
                       " loop(s) are perfectly nested here");
  size_t depth = 0;
  if (forced > 0) {
    while (depth < size_t(forced) && !blocker(depth, true)) ++depth;
  } else {
    // Loops that are parallel as they are; atomics only when no loop would be parallel
    // otherwise (an inner loop of updates is better serial than atomic).
    // An inner loop whose bounds use more than scalar parameters (a triangular nest) stays
    // serial; the outermost one gets checkBounds' message.
    auto mappable = [&](size_t level) { return level == 0 || boundsOfParameters(level); };
    while (depth < candidates.size() && mappable(depth) && !blocker(depth, false)) ++depth;
    if (depth == 0)
      while (depth < candidates.size() && mappable(depth) && !blocker(depth, true)) ++depth;
  }
  return depth;
}

// on_dependence: sequential with no parallel outer loop. If an inner loop of the perfect nest
// is parallel, one block runs the outer loops in every thread and spreads that loop over its
// threads, with a barrier after each of its runs; otherwise the kernel is one thread:
//
//   for i (carries)                for t in [0, BLOCKSIZE)  // parallel: the block's threads
//     for j (parallel)     ==>       for i
//       body                           for jj = t; jj < trip(j); jj += BLOCKSIZE
//                                        int j = min + jj * step; body
//                                      __syncthreads();
Kernel Legality::sequential(const Blocker &why) {
  std::string name = "seq";
  std::set<std::string> used;
  visitStmt(k.body, [&](const Stmt &s) { used.insert(s->name); },
            [&](const Expr &e) { for (const std::string &v : varsOf(e)) used.insert(v); });
  for (const Param &p : k.params) used.insert(p.name);
  while (used.count(name)) name += "_";
  size_t inner = 0;
  bool perThreadWork = options.merge || options.skew;  // they would split the block's threads
  if (!scalarBlocker && reductions.empty() && epilogue.empty() && !perThreadWork)
    for (size_t l = 1; l < candidates.size() && !inner; ++l) {
      bool jumps = false;
      try {
        checkNoJumpOut(candidates[l]->body);
      } catch (const CompileError &) {
        jumps = true;
      }
      if (!blocker(l, true) && !jumps) inner = l;
    }
  Kernel out = k;
  std::vector<Stmt> body = prologue;
  Expr threads = var(k.macro("BLOCKSIZE"));
  Expr extent = intImm(1);
  std::string what = "the kernel runs in one GPU thread";
  if (inner == 0) {
    body.push_back(rebuildNest(nest, {}));
    body.insert(body.end(), epilogue.begin(), epilogue.end());
  } else {
    const Stmt &par = candidates[inner];
    std::string strided = par->name + "_strided";
    while (used.count(strided)) strided += "_";
    for (const Dependence &d : deps)
      if (d.level == int(inner) && d.commutative && !asserted(inner) &&
          std::find(out.atomicArrays.begin(), out.atomicArrays.end(), d.array) == out.atomicArrays.end())
        out.atomicArrays.push_back(d.array);
    Expr iteration = var(strided);
    Stmt spread = forLoop(strided, Type::of(ScalarKind::Int), var(name), tripCount(par), threads,
                          block({withLoc(decl(par->name, par->type,
                                              add(par->min, mul(iteration, par->step))),
                                         par->loc),
                                 rebuildNest(par->body, {})}));
    Stmt level = block({withLoc(spread, par->loc), barrier()});
    for (size_t l = inner; l-- > 0;) {
      auto copy = std::make_shared<StmtNode>(*candidates[l]);
      copy->loopKind = LoopKind::Serial;
      copy->body = level;
      level = copy;
    }
    body.push_back(level);
    extent = threads;
    what = "loop '" + par->name + "' runs over the threads of one block, with a barrier after "
           "each iteration of the loops around it";
  }
  diags.warning(why.loc, why.message + "; kept sequential (on_dependence: sequential): " + what);
  Stmt wrapper = withLoc(forLoop(name, Type::of(ScalarKind::Int), intImm(0), extent, intImm(1),
                                 block(body), LoopKind::Parallel),
                         nest->loc);
  out.body = withLoc(block({comment("sequential: " + why.loc.str() +
                                    (why.unknown ? " could not be analyzed; "
                                                 : " carries a dependence; ") +
                                    what),
                            wrapper}),
                     k.body->loc);
  out.remarks.push_back("loop '" + nest->name + "' (" + nest->loc.str() + "): kept sequential, " +
                        what + ": " + why.message);
  return out;
}

void Legality::explain(Kernel &out, size_t depth) {
  for (size_t l = 0; l < candidates.size(); ++l) {
    const Stmt &loop = candidates[l];
    std::string r = "loop '" + loop->name + "' (" + loop->loc.str() + "): ";
    if (l < depth) {
      r += "parallel";
      std::set<std::string> atomics;
      for (const Dependence &d : deps)
        if (d.level == int(l) && d.commutative && !asserted(l)) atomics.insert(d.array);
      for (const std::string &a : atomics) r += "; atomic updates of '" + a + "'";
      if (l == 0)
        for (const Reduction &red : reductions) r += "; " + red.op + " reduction of '" + red.var + "'";
      bool overridden = false;
      for (const Dependence &d : deps) overridden |= d.level == int(l);
      if (asserted(l) && overridden) r += "; asserted parallel by the user";
    } else if (int(l) >= options.parallelLoops && options.parallelLoops > 0) {
      r += "serial in each thread (parallel_loops is " + std::to_string(options.parallelLoops) + ")";
    } else if (!boundsOfParameters(l)) {
      r += "serial in each thread: its bounds are not expressions of the scalar parameters";
    } else if (Blocker b = blocker(l, false)) {
      r += "serial in each thread: " + b.message;
    } else {
      r += "serial in each thread";
    }
    out.remarks.push_back(r);
  }
}

Kernel Legality::run() {
  splitBody();
  classifyScalars();
  deps = carriedDependences(k, candidates);
  for (const std::string &v : options.assumeParallel)
    if (std::none_of(candidates.begin(), candidates.end(), [&](const Stmt &l) { return l->name == v; }))
      diags.warning(nest->loc, "assume_parallel names loop '" + v + "', which is not one of the "
                               "perfectly nested outer loops of kernel '" + k.name + "'");
  bool keepSequential = options.onDependence == "sequential";
  size_t depth = chooseDepth();
  int forced = options.parallelLoops ? options.parallelLoops
               : options.matrix2D    ? (*options.matrix2D ? 2 : 1) : 0;
  Blocker stop = depth < candidates.size() ? blocker(depth, true) : Blocker{};
  if (depth == 0 || (forced > 0 && depth < size_t(forced))) {
    if (!keepSequential && stop.unknown)
      throw CompileError(stop.loc, stop.message + "; it is not run in parallel without the "
                                   "analysis (set on_dependence: sequential to run it in one "
                                   "thread, or assume_parallel if it is parallel)");
    if (!keepSequential)
      throw CompileError(stop.loc, stop.message + "; it cannot run in parallel (set "
                                   "on_dependence: sequential to run it in one thread)");
    if (depth == 0) return sequential(stop);
    diags.warning(stop.loc, stop.message + "; loop '" + candidates[depth]->name + "' kept "
                            "sequential (on_dependence: sequential)");
  }
  for (const std::string &v : lastValues)
    throw CompileError(epilogue.front()->loc, "the statements after the loop nest read '" + v +
                                                  "', the value of its last iteration; that is "
                                                  "not supported in a parallel kernel");
  if (!epilogue.empty() && reductions.empty())
    throw CompileError(epilogue.front()->loc, "kernel '" + k.name + "': statements after the "
                                              "loop nest are not supported; a kernel is one "
                                              "loop nest");
  for (const Stmt &e : epilogue)
    for (const Stmt &l : candidates)
      if (mentionsInStmt(e, l->name))
        throw CompileError(e->loc, "the statements after the loop nest use loop variable '" +
                                       l->name + "'");
  std::vector<Stmt> loops(candidates.begin(), candidates.begin() + depth);
  checkBounds(loops, k);
  checkNoJumpOut(loops.back()->body);
  for (size_t i = 1; i < loops.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (mentions(loops[i]->min, loops[j]->name) || mentions(loops[i]->end, loops[j]->name))
        throw CompileError(loops[i]->loc, "bounds of parallel loop '" + loops[i]->name +
                                          "' depend on loop '" + loops[j]->name + "'");
  visitStmt(loops.back()->body, [&](const Stmt &s) {
    if (s->kind != StmtKind::Assign) return;
    for (const Param &p : k.params)
      if (!p.isArray && p.name == s->name)
        throw CompileError(s->loc, "assignment to scalar parameter '" + s->name +
                                   "' inside the parallel loops would race between threads");
  });

  Kernel out = k;
  out.reductions = reductions;
  std::vector<Stmt> body = prologue;
  for (size_t l = 0; l < depth; ++l) {
    bool overridden = false;
    for (const Dependence &d : deps) {
      if (d.level != int(l)) continue;
      overridden |= asserted(l);
      if (d.commutative && !asserted(l) &&
          std::find(out.atomicArrays.begin(), out.atomicArrays.end(), d.array) == out.atomicArrays.end()) {
        out.atomicArrays.push_back(d.array);
        body.push_back(comment("atomic: " + d.array + " (different iterations may update the "
                               "same element)"));
      }
    }
    if (overridden) {
      for (const Dependence &d : deps)
        if (d.level == int(l)) {
          diags.warning(candidates[l]->loc, "loop '" + candidates[l]->name + "' is asserted "
                        "parallel, overriding the dependence analysis, which " +
                                              (d.failed ? "failed: " : "found: ") + d.message);
          break;
        }
      body.push_back(comment("asserted parallel: loop " + candidates[l]->name));
    }
  }
  for (size_t l = depth; l < candidates.size(); ++l)
    if (candidates[l]->loopKind == LoopKind::Parallel)
      diags.warning(candidates[l]->loc, "'#pragma rtcuda parallel' on loop '" +
                                            candidates[l]->name + "' is not used: " +
                                            (depth == 0 ? "" : "only the outer ") +
                                            std::to_string(depth) + " loop(s) are parallel");
  for (const Reduction &r : reductions)
    body.push_back(comment("reduction: " + r.var + " (" + r.op + ") across the parallel loops"));
  std::set<const StmtNode *> chosen;
  for (const Stmt &l : loops) chosen.insert(l.get());
  body.push_back(rebuildNest(nest, chosen));
  out.body = withLoc(block(body), k.body->loc);
  if (!epilogue.empty()) out.finish = withLoc(block(epilogue), epilogue.front()->loc);
  explain(out, depth);
  return out;
}

}  // namespace

Kernel markParallelLoops(const Kernel &k, const KernelOptions &options, Diagnostics &diags) {
  Legality legality(k, options, diags);
  return legality.run();
}

}  // namespace rtcuda
