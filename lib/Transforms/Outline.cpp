// Outline: decides what of a kernel function runs where, when the function is more than one
// parallel loop nest. Walking the function body as a tree, with the legality analysis
// (markParallelLoops) asked of each loop "can you run in parallel?":
//
//   void f(int n, int T, double A[n], double B[n])      host: rtcuda_launch_f(where, n, T, A, B)
//   {                                                      A, B copied to the device once
//     for (t = 0; t < T; t++) {      serial: host loop     for (int t = 0; t < T; t++) {
//       for (i = 1; i < n - 1; i++)  parallel: kernel f_1    f_1<<<...>>>(n, T, d_A, d_B)
//         B[i] = A[i - 1] + A[i + 1];
//       for (i = 1; i < n - 1; i++)  parallel: kernel f_2    f_2<<<...>>>(n, T, d_A, d_B)
//         A[i] = B[i];                                     }
//     }                                                    A, B copied back once
//   }
//
// - a loop the analysis accepts becomes its own kernel (the whole imperfect nest under it);
// - a loop it refuses that holds parallel work stays on the host, one launch per iteration;
//   its bounds must be expressions of host scalars, and the kernels inside know them
//   (Kernel::assumptions); when all that parallel work has a small constant trip count, the
//   loop runs in one thread instead;
// - statements that touch arrays and are not in a parallel loop run in a one-thread kernel
//   (consecutive ones share it); statements that read only scalars run on the host;
// - scalars are host variables: kernels get their values as parameters, and a scalar a kernel
//   computes (a reduction, a one-thread statement) comes back through a one-element device
//   buffer, copied into the host variable after the launch.
// A private scalar whose last value later code would read, a loop variable used after its loop
// and jumps out of device code are refused with the reason. A function with no parallel loop
// is refused too, or under on_dependence: host kept as its C on the host (keepOnHost).
#include "rtcuda/Transforms/Outline.h"

#include "rtcuda/Analysis/ParallelNest.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/ArrayExpansion.h"
#include "rtcuda/Transforms/Delinearize.h"
#include "rtcuda/Transforms/ElementReduction.h"
#include "rtcuda/Transforms/Fission.h"
#include "rtcuda/Transforms/LaunchFusion.h"
#include "rtcuda/Transforms/LocalArrays.h"
#include "rtcuda/Transforms/Pass.h"
#include "rtcuda/Transforms/Reschedule.h"

#include <functional>

#include <map>
#include <set>

namespace rtcuda {

using namespace ir;

std::string outlineCellName(const std::string &scalar) { return "rtcuda_cell_" + scalar; }
std::string outlineInName(const std::string &scalar) { return "rtcuda_in_" + scalar; }

namespace {

bool touchesArrays(const Stmt &s) {
  bool found = false;
  visitStmt(s, [&](const Stmt &n) { found |= n->kind == StmtKind::Store; },
            [&](const Expr &e) { found |= hasLoad(e); });
  return found;
}

bool hasLoop(const Stmt &s) {
  bool found = false;
  visitStmt(s, [&](const Stmt &n) { found |= n->kind == StmtKind::For || n->kind == StmtKind::While; });
  return found;
}

// Scalars a statement reads and assigns that it does not declare itself (loop variables and
// declarations inside it are its own).
struct Uses {
  std::set<std::string> reads, writes;
};
Uses freeScalars(const Stmt &s) {
  Uses u;
  std::set<std::string> bound;
  visitStmt(s, [&](const Stmt &n) {
    if (n->kind == StmtKind::For || n->kind == StmtKind::Decl) bound.insert(n->name);
    if (n->kind == StmtKind::Assign) u.writes.insert(n->name);
  }, [&](const Expr &e) {
    for (const std::string &v : varsOf(e)) u.reads.insert(v);
  });
  for (const std::string &b : bound) u.reads.erase(b), u.writes.erase(b);
  return u;
}

bool mentionsStmt(const Stmt &s, const std::string &v) {
  bool found = false;
  visitStmt(s, [&](const Stmt &n) {
    found |= (n->kind == StmtKind::Assign || n->kind == StmtKind::Decl ||
              n->kind == StmtKind::For) && n->name == v;
  }, [&](const Expr &e) { found |= mentions(e, v); });
  return found;
}

// Every iteration of `body` assigns v before reading it.
bool definesFirst(const Stmt &body, const std::string &v) {
  for (const Stmt &s : body && body->kind == StmtKind::Block ? body->stmts : std::vector<Stmt>{body}) {
    if (!s) continue;
    if (s->kind == StmtKind::Assign && s->name == v && s->op == "=" && !mentions(s->value, v))
      return true;
    if (mentionsStmt(s, v)) return false;
  }
  return false;
}

// Where the statement being outlined sits: each enclosing sequence and the index in it, and
// whether that sequence is a loop body (whose next iteration runs it again).
struct Frame {
  const std::vector<Stmt> *stmts;
  size_t index;
  bool loopBody;
};

class Outliner {
public:
  Outliner(const KernelSource &source, std::vector<KernelSource> &kernels)
      : source(source), fn(source.kernel), kernels(kernels) {}

  OutlinedFunction run() {
    for (const Param &p : fn.params)
      if (!p.isArray) scalars[p.name] = p.type;
    dropLoopVariableDecls();
    out.function = fn;
    out.options = source.options;
    out.host = outlineSeq(body);
    out.function.remarks = remarks;
    return out;
  }

  // on_dependence: host, when no loop can run in parallel: the function as written, on the
  // host, with the analysis' reason at each loop.
  OutlinedFunction keepOnHost() {
    OutlinedFunction f;
    f.function = fn;
    f.options = source.options;
    f.hostOnly = true;
    Kernel flat = fn;
    flat.body = withLoc(block(body), fn.body->loc);
    KernelOptions o = source.options;
    Diagnostics quiet;
    quiet.quiet = true;
    f.host = arrayFlatten(flat, PassContext{o, quiet}).body;
    scalars.clear();
    for (const Param &p : fn.params)
      if (!p.isArray) scalars[p.name] = p.type;
    for (const Stmt &s : body) loopReasons(s, f.warnings);
    for (const auto &w : f.warnings) f.function.remarks.push_back(w.second);  // the manifest's
    return f;
  }

  bool parallelWork = false;
  bool keptSmall = false;       // some loop ran in one thread for its small parallel loops
  bool launchSmall = false;     // set: launch per iteration even for those
  std::vector<Stmt> parallelLoops;  // the loops tryParallel accepted
  std::vector<std::string> singleThread;
  std::string firstRefusal;  // why the first loop that is not parallel is not

private:
  const KernelSource &source;
  Kernel fn;
  std::vector<KernelSource> &kernels;
  OutlinedFunction out;
  std::vector<Stmt> body;
  std::map<std::string, Type> scalars;  // host scalars in scope
  std::set<std::string> cellsMade;
  std::vector<Frame> frames;
  std::vector<Stmt> hostLoops;  // the host loops around the statement being outlined
  std::vector<std::string> remarks;
  int counter = 0;

  // `int i, j, k;` at the top of the function, used only as loop variables (PolyBench's style):
  // the IR's loops declare their own. One used outside its loops would need its final value.
  void dropLoopVariableDecls() {
    std::set<std::string> loopVars;
    visitStmt(fn.body, [&](const Stmt &s) {
      if (s->kind == StmtKind::For) loopVars.insert(s->name);
    });
    for (const Stmt &s : fn.body->stmts) {
      if (s->kind == StmtKind::Comment) continue;
      if (s->kind == StmtKind::Decl && !s->value && !s->arraySize && loopVars.count(s->name)) {
        for (const Stmt &t : fn.body->stmts)
          if (t != s && usedOutsideLoops(t, s->name))
            throw CompileError(s->loc, "variable '" + s->name + "' is a loop variable and is "
                                       "also used outside its loops; outlining needs loop "
                                       "variables that live only in their loop");
        continue;
      }
      body.push_back(s);
    }
  }
  static bool usedOutsideLoops(const Stmt &s, const std::string &v) {
    if (!s) return false;
    if (s->kind == StmtKind::For && s->name == v)
      return false;  // binds v: its bounds are evaluated before (min) or with v bound
    bool found = false;
    for (const Expr *e : {&s->min, &s->end, &s->cond, &s->value})
      if (*e) found |= mentions(*e, v);
    for (const Expr &i : s->indices) found |= mentions(i, v);
    if (s->kind == StmtKind::Assign && s->name == v) found = true;
    for (const Stmt &c : s->stmts) found |= usedOutsideLoops(c, v);
    return found || usedOutsideLoops(s->body, v) || usedOutsideLoops(s->elseBody, v);
  }

  std::string nextName() { return fn.name + "_" + std::to_string(++counter); }

  // A local array outside the parallel loops: a device array of the call, which the kernels
  // that use it take like the function's own arrays.
  std::map<std::string, Stmt> temporaries;
  void addTemporary(const Stmt &decl) {
    auto seen = temporaries.find(decl->name);
    if (seen != temporaries.end() && seen->second == decl) return;
    if (seen != temporaries.end() || fn.findParam(decl->name))
      throw CompileError(decl->loc, "local array '" + decl->name + "' has the name of another "
                                    "array of the function; rename one of them");
    Param p = localArrayTemporary(source.kernel, decl);
    temporaries[decl->name] = decl;
    fn.params.push_back(p);
    out.temporaries.push_back(p);
  }

  bool hostExpr(const Expr &e) const {
    if (!e) return true;
    bool ok = true;
    visitExpr(e, [&](const Expr &x) {
      ok &= x->kind != ExprKind::Load && (x->kind != ExprKind::Var || scalars.count(x->name));
    });
    return ok;
  }

  // ---- kernels ----

  // The parameters of a kernel made of `s`: the function's (scalars it assigns excepted), the
  // host scalars it reads, and for each scalar it assigns its value in and a cell out.
  Kernel kernelFor(const std::string &name, const Stmt &s, const Uses &u,
                   std::vector<std::string> &written) {
    Kernel k;
    k.name = name;
    k.loc = s->loc;
    std::set<std::string> arrays;
    visitStmt(s, [&](const Stmt &n) { if (n->kind == StmtKind::Store) arrays.insert(n->name); },
              [&](const Expr &e) {
                visitExpr(e, [&](const Expr &x) { if (x->kind == ExprKind::Load) arrays.insert(x->name); });
              });
    for (const std::string &w : u.writes) {
      if (!scalars.count(w))
        throw CompileError(s->loc, "'" + w + "' is assigned here but is not a scalar of the function");
      if (fn.findParam(w))
        throw CompileError(s->loc, "parameter '" + w + "' is assigned in code that runs on the "
                                   "GPU; assign a local copy instead");
      written.push_back(w);
    }
    for (const Param &p : fn.params)
      if (!p.isArray || arrays.count(p.name)) k.params.push_back(p);
    for (const std::string &r : u.reads) {
      if (fn.findParam(r) || u.writes.count(r)) continue;
      if (!scalars.count(r))
        throw CompileError(s->loc, "'" + r + "' is not a scalar the host knows here");
      Param p;
      p.name = r;
      p.type = scalars[r];
      p.loc = s->loc;
      k.params.push_back(p);
    }
    for (const std::string &w : written) {
      Param in;
      in.name = outlineInName(w);
      in.type = scalars[w];
      in.loc = s->loc;
      k.params.push_back(in);
    }
    return k;
  }

  Param cellParam(const std::string &v, const SourceLoc &loc) {
    Param c;
    c.name = outlineCellName(v);
    c.type = scalars[v];
    c.isArray = true;
    c.dims = {intImm(1)};
    c.loc = loc;
    if (cellsMade.insert(v).second) out.cells.push_back(c);
    return c;
  }

  Stmt launch(const std::string &kernel, const SourceLoc &loc) {
    auto s = std::make_shared<StmtNode>();
    s->kind = StmtKind::Comment;
    s->name = kernel;
    s->text = "launch";
    s->loc = loc;
    out.kernels.push_back(kernel);
    return s;
  }

  KernelOptions optionsFor(const std::string &name) const {
    KernelOptions o = source.options;
    o.name = name;
    // These name the loops of one nest; outlined nests are decided by the analysis alone.
    o.parallelLoops = 0;
    o.matrix2D.reset();
    o.onDependence = "refuse";
    o.assumeParallel.clear();
    o.assumeParallelAll = false;
    return o;
  }

  // `loop` as a parallel kernel if the legality analysis accepts it (named by `adopt`, which
  // numbers it once the statements before it have their kernel); the refusal otherwise.
  struct Pending {
    KernelSource source;
    std::string remark;
  };
  std::optional<Pending> tryParallel(const Stmt &loop, std::string &why) {
    Uses u = freeScalars(loop);
    std::vector<std::string> written;
    std::string name = fn.name + "_pending";
    Kernel k;
    try {
      k = kernelFor(name, loop, u, written);
    } catch (const CompileError &e) {
      why = e.what();
      return std::nullopt;
    }
    std::vector<Stmt> stmts;
    for (const std::string &w : written)
      stmts.push_back(withLoc(decl(w, scalars[w], var(outlineInName(w), scalars[w])), loop->loc));
    stmts.push_back(loop);
    k.body = withLoc(block(stmts), loop->loc);
    k.assumptions = hostLoopBounds(loop);
    KernelOptions o = optionsFor(name);
    Kernel marked;
    try {
      Diagnostics quiet;
      quiet.quiet = true;
      k.macroPrefix = name;
      marked = markParallelLoops(k, o, quiet);
    } catch (const CompileError &e) {
      why = e.what();
      // Advice about one nest's options does not apply to an outlined loop.
      size_t advice = why.find("; it cannot run in parallel (");
      if (advice != std::string::npos) why.erase(advice);
      return std::nullopt;
    }
    // Reduced scalars leave their value in a cell; a private one's last value is lost.
    std::vector<Stmt> epilogue;
    for (const std::string &w : written) {
      bool reduced = false;
      for (const Reduction &r : marked.reductions) reduced |= r.var == w;
      if (reduced) {
        k.params.push_back(cellParam(w, loop->loc));
        epilogue.push_back(store(outlineCellName(w), {intImm(0)}, "=", var(w, scalars[w])));
      } else if (Stmt reader = laterReader(w)) {
        why = "scalar '" + w + "' keeps its value from the last iteration, which " +
              reader->loc.str() + " reads afterwards";
        return std::nullopt;
      }
    }
    stmts.insert(stmts.end(), epilogue.begin(), epilogue.end());
    k.body = withLoc(block(stmts), loop->loc);
    k.macroPrefix.clear();
    parallelWork = true;
    parallelLoops.push_back(loop);
    std::string r = "the loop nest at " + loop->loc.str() + " runs in parallel";
    for (const Reduction &red : marked.reductions)
      r += "; its " + red.op + " reduction of '" + red.var + "' is copied back to the host";
    return Pending{{k, o, source.file}, r};
  }

  // What the host loops around `s` guarantee at its launch: min <= v < end for each (v > end
  // when counting down), where neither v nor the bounds' scalars change in the loop's body
  // and `s` does not declare those names again.
  std::vector<Expr> hostLoopBounds(const Stmt &s) const {
    std::set<std::string> bound;
    visitStmt(s, [&](const Stmt &n) {
      if (n->kind == StmtKind::For || n->kind == StmtKind::Decl) bound.insert(n->name);
    });
    std::vector<Expr> facts;
    for (const Stmt &l : hostLoops) {
      int64_t step = 0;
      if (!isConst(l->step, &step) || step == 0) continue;
      std::set<std::string> names = varsOf(l->min);
      for (const std::string &v : varsOf(l->end)) names.insert(v);
      names.insert(l->name);
      Uses inBody = freeScalars(l->body);
      bool stable = true;
      for (const std::string &v : names) stable &= !inBody.writes.count(v) && !bound.count(v);
      if (!stable) continue;
      Expr v = var(l->name, l->type);
      facts.push_back(binary(step > 0 ? ">=" : "<=", v, l->min));
      facts.push_back(binary(step > 0 ? "<" : ">", v, l->end));
    }
    return facts;
  }

  std::string adopt(Pending p) {
    std::string name = nextName();
    p.source.kernel.name = p.source.options.name = name;
    kernels.push_back(p.source);
    remarks.push_back("kernel '" + name + "': " + p.remark);
    return name;
  }

  // Statements that must run on the GPU but hold no parallel loop: one thread.
  Stmt singleThreadKernel(const std::vector<Stmt> &group, const std::string &why) {
    Stmt all = withLoc(block(group), group.front()->loc);
    bool jumps = false;
    std::function<void(const Stmt &, int)> scan = [&](const Stmt &s, int depth) {
      if (!s) return;
      if ((s->kind == StmtKind::Break || s->kind == StmtKind::Continue) && depth == 0) jumps = true;
      int d = depth + (s->kind == StmtKind::For || s->kind == StmtKind::While);
      for (const Stmt &c : s->stmts) scan(c, d);
      scan(s->body, d);
      scan(s->elseBody, d);
    };
    scan(all, 0);
    if (jumps)
      throw CompileError(group.front()->loc, "break or continue of a host loop inside statements "
                                             "that read arrays (which run on the GPU) is not "
                                             "supported");
    Uses u = freeScalars(all);
    std::vector<std::string> written;
    std::string name = nextName();
    Kernel k = kernelFor(name, all, u, written);
    std::vector<Stmt> inner;
    for (const std::string &w : written)
      inner.push_back(decl(w, scalars[w], var(outlineInName(w), scalars[w])));
    inner.insert(inner.end(), group.begin(), group.end());
    for (const std::string &w : written) {
      k.params.push_back(cellParam(w, all->loc));
      inner.push_back(store(outlineCellName(w), {intImm(0)}, "=", var(w, scalars[w])));
    }
    std::string one = "rtcuda_one";
    Stmt wrapper = withLoc(forLoop(one, Type::of(ScalarKind::Int), intImm(0), intImm(1), intImm(1),
                                   block(inner), LoopKind::Parallel),
                           all->loc);
    k.body = withLoc(block({wrapper}), all->loc);
    KernelOptions o = optionsFor(name);
    o.parallelLoops = 1;        // the wrapper only: the statements run as written
    o.blockSize = {32, 32};     // one thread works; the smallest block
    o.defaultBlockSize = 32;
    o.merge = o.skew = false;
    o.prefetch.clear();
    kernels.push_back({k, o, source.file});
    singleThread.push_back(name);
    remarks.push_back("kernel '" + name + "': " + group.front()->loc.str() + " runs in one GPU "
                      "thread: " + why);
    return launch(name, all->loc);
  }

  // ---- the host tree ----

  // The first statement after the current one (in this sequence, then the enclosing ones,
  // and for loop bodies the next iteration) that reads v before assigning it; null if none.
  Stmt laterReader(const std::string &v) const {
    for (size_t f = frames.size(); f-- > 0;) {
      const Frame &fr = frames[f];
      std::vector<size_t> order;
      for (size_t i = fr.index + 1; i < fr.stmts->size(); ++i) order.push_back(i);
      if (fr.loopBody)
        for (size_t i = 0; i <= fr.index; ++i) order.push_back(i);
      for (size_t i : order) {
        const Stmt &s = (*fr.stmts)[i];
        if (s->kind == StmtKind::Assign && s->name == v && s->op == "=" && !mentions(s->value, v))
          return nullptr;
        if (!mentionsStmt(s, v)) continue;
        if ((s->kind == StmtKind::For || s->kind == StmtKind::While) && definesFirst(s->body, v))
          continue;
        return s;
      }
    }
    return nullptr;
  }

  Stmt outlineSeq(const std::vector<Stmt> &stmts, bool loopBody = false) {
    std::vector<Stmt> host, group;
    std::string groupWhy;
    auto flush = [&]() {
      if (group.empty()) return;
      host.push_back(singleThreadKernel(group, groupWhy));
      group.clear();
    };
    auto saved = scalars;
    frames.push_back({&stmts, 0, loopBody});
    for (size_t i = 0; i < stmts.size(); ++i) {
      frames.back().index = i;
      const Stmt &s = stmts[i];
      if (s->kind == StmtKind::Comment) continue;
      if (s->kind == StmtKind::Decl && s->arraySize) {
        addTemporary(s);
        continue;
      }
      if (s->kind == StmtKind::Decl) {
        flush();
        scalars[s->name] = s->type;
        host.push_back(withLoc(decl(s->name, s->type, s->value && hostExpr(s->value)
                                                              ? s->value : zero(s->type)),
                               s->loc));
        if (s->value && !hostExpr(s->value)) {
          group.push_back(withLoc(assign(s->name, "=", s->value), s->loc));
          groupWhy = "it reads arrays";
        }
        continue;
      }
      if (s->kind == StmtKind::For) {
        std::string why;
        if (auto k = tryParallel(s, why)) {
          flush();
          host.push_back(launch(adopt(std::move(*k)), s->loc));
          continue;
        }
        if (firstRefusal.empty())
          firstRefusal = "loop '" + s->name + "' (" + s->loc.str() + "): " + why;
        scalars[s->name] = s->type;  // the loop's variable, for the kernels inside it
        std::vector<Stmt> inside;
        hostLoops.push_back(s);  // if it stays on the host, the kernels inside know its bounds
        if (hostExpr(s->min) && hostExpr(s->end)) inside = parallelLoopsIn(s->body);
        std::string small = launchSmall ? "" : smallParallelWork(inside);
        keptSmall |= !small.empty();
        if (!inside.empty() && small.empty()) {
          flush();
          Stmt inner = outlineSeq(statementsOf(s->body), true);
          hostLoops.pop_back();
          scalars.erase(s->name);
          auto copy = std::make_shared<StmtNode>(*s);
          copy->loopKind = LoopKind::Serial;
          copy->body = inner;
          host.push_back(copy);
          remarks.push_back("loop '" + s->name + "' (" + s->loc.str() + ") stays on the host, "
                            "one launch per iteration: " + why + "; " + launchesPerIteration(inner) +
                            " per iteration, since " + tripCounts(inside) + ": more work than "
                            "one launch costs");
          continue;
        }
        hostLoops.pop_back();
        scalars.erase(s->name);
        group.push_back(s);
        groupWhy = "loop '" + s->name + "' cannot run in parallel (" + why + ")";
        if (!small.empty()) groupWhy += "; " + small;
        continue;
      }
      if ((s->kind == StmtKind::If || s->kind == StmtKind::While) && hostExpr(s->cond) &&
          hasParallelLoop(s)) {
        flush();
        auto copy = std::make_shared<StmtNode>(*s);
        copy->body = outlineSeq(statementsOf(s->body), s->kind == StmtKind::While);
        if (s->elseBody) copy->elseBody = outlineSeq(statementsOf(s->elseBody));
        host.push_back(copy);
        continue;
      }
      if (!touchesArrays(s) && !hasLoop(s) && hostOnlyScalars(s)) {
        flush();
        host.push_back(s);
        continue;
      }
      group.push_back(s);
      if (groupWhy.empty() || groupWhy == "it reads arrays")
        groupWhy = touchesArrays(s) ? "it reads or writes arrays" : "it is a loop without parallel work";
    }
    flush();
    frames.pop_back();
    scalars = saved;
    return block(host);
  }

  bool hostOnlyScalars(const Stmt &s) const {
    Uses u = freeScalars(s);
    for (const std::string &v : u.reads)
      if (!scalars.count(v)) return false;
    return true;
  }

  static Expr zero(const Type &t) {
    return t.isFloat() ? floatImm(0, t, t.kind == ScalarKind::Float ? "0.0f" : "0.0") : intImm(0, t);
  }

  // The loops inside `s` (or `s` itself) that would run in parallel: outlines a scratch copy
  // and throws it away.
  std::vector<Stmt> parallelLoopsIn(const Stmt &s) {
    std::vector<KernelSource> scratchKernels;
    Outliner probe(source, scratchKernels);
    probe.fn = fn;
    probe.scalars = scalars;
    probe.frames = frames;
    probe.hostLoops = hostLoops;
    try {
      probe.scanForParallel(s);
    } catch (const CompileError &) {
      return {};
    }
    return probe.parallelLoops;
  }
  bool hasParallelLoop(const Stmt &s) { return !parallelLoopsIn(s).empty(); }

  // A sequential loop around parallel loops launches them once per iteration, unless every
  // one of them has a small constant trip count: then a launch (microseconds) costs more than
  // the loop's iterations in one thread, and the whole loop runs in a one-thread kernel. The
  // reason for that choice, or empty.
  static constexpr int64_t kSmallTrip = 32;
  static std::string smallParallelWork(const std::vector<Stmt> &loops) {
    if (loops.empty()) return "";
    int64_t most = 0;
    for (const Stmt &l : loops) {
      int64_t trips = 0;
      if (!isConst(simplify(tripCount(l)), &trips) || trips > kSmallTrip) return "";
      most = std::max(most, trips);
    }
    return "its parallel loops have at most " + std::to_string(most) + " iterations, fewer "
           "than one launch per iteration is worth";
  }
  static std::string tripCounts(const std::vector<Stmt> &loops) {
    std::string t;
    for (size_t i = 0; i < loops.size() && i < 3; ++i)
      t += std::string(i ? ", " : "") + print(simplify(tripCount(loops[i]))) + " ('" +
           loops[i]->name + "')";
    if (loops.size() > 3) t += ", ...";
    return "the parallel loops inside have " + t + " iterations";
  }
  static std::string launchesPerIteration(const Stmt &inner) {
    int direct = 0;
    bool nested = false;
    for (const Stmt &s : statementsOf(inner)) {
      if (s->kind == StmtKind::Comment && s->text == "launch") ++direct;
      else if (s->kind == StmtKind::For || s->kind == StmtKind::While || s->kind == StmtKind::If)
        visitStmt(s, [&](const Stmt &n) { nested |= n->kind == StmtKind::Comment && n->text == "launch"; });
    }
    std::string t = std::to_string(direct) + " launch" + (direct == 1 ? "" : "es");
    return nested ? t + " and those of its inner host loops" : t;
  }
  void loopReasons(const Stmt &s, std::vector<std::pair<SourceLoc, std::string>> &out) {
    if (!s) return;
    auto saved = scalars;
    if (s->kind == StmtKind::For) {
      std::string why;
      std::string head = "loop '" + s->name + "' stays on the host, in the function's C "
                         "(on_dependence: host): ";
      if (tryParallel(s, why)) why = "it is inside a loop that stays on the host";
      out.push_back({s->loc, head + why});
      scalars[s->name] = s->type;
      hostLoops.push_back(s);
    }
    if (s->kind == StmtKind::Decl && !s->arraySize) scalars[s->name] = s->type;
    for (const Stmt &c : s->stmts) loopReasons(c, out);
    loopReasons(s->body, out);
    loopReasons(s->elseBody, out);
    if (s->kind == StmtKind::For) scalars = saved, hostLoops.pop_back();
  }

  void scanForParallel(const Stmt &s) {
    if (!s) return;
    if (s->kind == StmtKind::For) {
      std::string why;
      if (tryParallel(s, why)) return;
      scalars[s->name] = s->type;
      hostLoops.push_back(s);
    }
    if (s->kind == StmtKind::Decl && !s->arraySize) scalars[s->name] = s->type;
    if (s->kind == StmtKind::Decl && s->arraySize) addTemporary(s);
    for (const Stmt &c : s->stmts) scanForParallel(c);
    scanForParallel(s->body);
    scanForParallel(s->elseBody);
    if (s->kind == StmtKind::For) hostLoops.pop_back();
  }
};

// The body as lowerKernel has always taken it: declarations, then one loop nest.
bool singleNest(const Kernel &k) {
  bool loop = false;
  for (const Stmt &s : k.body->stmts) {
    if (s->kind == StmtKind::Comment) continue;
    if (loop) return false;
    if (s->kind == StmtKind::For) loop = true;
    else if (s->kind != StmtKind::Decl || s->arraySize) return false;
  }
  return loop;
}

// Options that name the loops of the one nest (how many are parallel, which are asserted, what
// to do with a carried dependence): the function stays as written, one kernel.
bool namesNestLoops(const KernelOptions &o) {
  return o.onDependence == "sequential" || o.parallelLoops > 0 || o.matrix2D ||
         o.assumeParallelAll || !o.assumeParallel.empty();
}

// Why markParallelLoops refuses `source` as one kernel (asked silently); none if it accepts it.
std::optional<CompileError> parallelNestRefusal(const KernelSource &source) {
  Diagnostics quiet;
  quiet.quiet = true;
  Kernel probe = source.kernel;
  probe.macroPrefix = source.kernel.name;
  try {
    markParallelLoops(probe, source.options, quiet);
    return std::nullopt;
  } catch (const CompileError &e) {
    return e;
  }
}

}  // namespace

std::optional<OutlinedFunction> outlineFunction(const KernelSource &source,
                                                std::vector<KernelSource> &kernels) {
  const Kernel &k = source.kernel;
  // Options that name the loops of the one nest (how many are parallel, which are asserted,
  // what to do with a carried dependence) keep the function one kernel, as written.
  const KernelOptions &o = source.options;
  bool oneNestOptions = namesNestLoops(o);
  // One parallel nest (or one followed by statements, a reduction's epilogue), or options that
  // name its loops: the pipeline as before; lowerKernel reports a refusal itself.
  std::optional<CompileError> refusal = parallelNestRefusal(source);
  // A local array at the function level is a device array of the call: outlined.
  bool functionArrays = false;
  for (const Stmt &s : k.body->stmts) functionArrays |= s->kind == StmtKind::Decl && s->arraySize;
  if (functionArrays && oneNestOptions && o.onDependence != "sequential")
    for (const Stmt &s : k.body->stmts)
      if (s->kind == StmtKind::Decl && s->arraySize)
        throw CompileError(s->loc, "local array '" + s->name + "' is declared outside the loops "
                                   "that run in parallel, and the options that name the nest's "
                                   "loops keep the function one kernel, where each thread would "
                                   "have its own copy");
  if ((!refusal && !functionArrays) || oneNestOptions) return std::nullopt;
  // Several nests: the outliner says why none is parallel, not the whole-function analysis.
  if (!singleNest(k)) refusal.reset();
  std::vector<KernelSource> made;
  std::optional<Outliner> outliner;
  OutlinedFunction f;
  for (bool launchSmall : {false, true}) {
    made.clear();
    outliner.emplace(source, made);
    outliner->launchSmall = launchSmall;
    f = outliner->run();
    // Small parallel loops were all this function had: launch them rather than none.
    if (outliner->parallelWork || !outliner->keptSmall) break;
  }
  if (!outliner->parallelWork) {
    if (o.onDependence == "host") return outliner->keepOnHost();
    if (refusal) throw *refusal;
    throw CompileError(k.loc, "function '" + k.name + "': no loop of it can run in parallel; " +
                                  outliner->firstRefusal);
  }
  for (KernelSource &m : made) kernels.push_back(std::move(m));
  f.singleThread = outliner->singleThread;
  return f;
}

bool OutlinedProgram::singleThread(const std::string &kernel) const {
  for (const OutlinedFunction &f : functions)
    for (const std::string &n : f.singleThread)
      if (n == kernel) return true;
  return false;
}

OutlinedProgram outlineProgram(const std::vector<KernelSource> &kernels, Diagnostics &diags) {
  OutlinedProgram out;
  for (const KernelSource &written : kernels) {
    try {
      KernelSource source = written;
      DelinearizeResult rows = delinearize(written.kernel);
      for (const auto &[loc, r] : rows.remarks) diags.remark(loc, r, "Delinearize");
      ElementReductionResult sums = elementReduction(rows.kernel);
      for (const auto &[loc, r] : sums.remarks) diags.remark(loc, r, "ElementReduction");
      LocalArrayPlacement placed = placeLocalArrays(sums.kernel);
      source.kernel = placed.kernel;
      for (const std::string &r : placed.remarks) diags.remark(source.kernel.loc, r);
      if (!namesNestLoops(source.options)) {
        RescheduleResult re = rescheduleNests(
            source.kernel, [&](const Kernel &k) { return launchShapeAfterOutline(source, k); });
        source.kernel = re.kernel;
        for (const auto &[loc, r] : re.remarks) diags.remark(loc, r, "Reschedule");
        ExpansionResult expanded = expandArrays(source.kernel);
        source.kernel = expanded.kernel;
        for (const auto &[loc, r] : expanded.remarks) diags.remark(loc, r, "ArrayExpansion");
        FissionResult fission = distributeLoops(source.kernel);
        source.kernel = fission.kernel;
        for (const auto &[loc, r] : fission.remarks) diags.remark(loc, r, "Fission");
        LaunchFusionResult fusion = fuseLaunches(
            source.kernel, [&](const Kernel &k) { return launchShapeAfterOutline(source, k); });
        source.kernel = fusion.kernel;
        for (const auto &[loc, r] : fusion.remarks) diags.remark(loc, r, "LaunchFusion");
      }
      std::vector<KernelSource> made;
      std::optional<OutlinedFunction> f = outlineFunction(source, made);
      if (!f) {
        checkKernelLocalArrays(source.kernel);
        out.sources.push_back(source);
        continue;
      }
      for (const KernelSource &m : made) checkKernelLocalArrays(m.kernel);
      if (f->hostOnly)
        for (const auto &[loc, w] : f->warnings) diags.warning(loc, w);
      else
        for (const std::string &r : f->function.remarks) diags.remark(f->function.loc, r);
      for (const KernelSource &m : made) out.parentOf[m.kernel.name] = source.kernel.name;
      out.sources.insert(out.sources.end(), made.begin(), made.end());
      out.functions.push_back(std::move(*f));
    } catch (const CompileError &e) {
      diags.error(e.loc, e.what());
    }
  }
  return out;
}

}  // namespace rtcuda
