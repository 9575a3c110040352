// ContractionForm: a matrix multiply as code writes it, in the form RegisterTiling reads.
//
// PolyBench's gemm (after Interchange and Fusion) accumulates into the result in memory:
//
//   for i, j (parallel)                       for i, j (parallel)
//     C[i][j] *= beta;                          double acc = C[i][j];
//     for (k = 0; k < nk; k++)         ==>      acc *= beta;
//       C[i][j] += alpha * A[i][k] * B[k][j];   for (k = 0; k < nk; k++)
//                                                 acc += alpha * A[i][k] * B[k][j];
//                                               C[i][j] = acc;
//
// Legal when every access of the kernel to C is C[i][j] in the body of j: the element belongs
// to one iteration of the parallel loops, and the same operations run on the same values in
// the same order (`C[i][j] = 0` first becomes the scalar's initializer). BlockMerge and
// BlockSkew then give each thread its own accumulators in registers.
//
// syrk's triangle (BoundingBox: the body of j guarded by `j < i + 1`) keeps its guard on the
// initialization and the store only, so that the k loop is shared by a thread's rows:
//
//   if (g) { T acc = init; S; for k { acc += ... } Q }
//     ==>  T acc = 0; if (g) { acc = init; S; } for k { acc += ... } if (g) { Q }
//
// where S assigns only acc, and the k loop assigns only acc and its own locals and reads only
// arrays the kernel never writes, each subscript a loop variable (i, j, k): outside the
// triangle it adds products of elements the nest reads elsewhere (the bounding box is tight,
// so every row and column in it is one that some iteration reads), and the sum is never stored.
#include "RegisterTiling.h"

#include "rtcuda/IR/Mutate.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace rtcuda {

using namespace ir;

namespace {

bool atIJ(const std::vector<Expr> &x, const std::string &i, const std::string &j) {
  return x.size() == 2 && isVar(x[0], i) && isVar(x[1], j);
}

// Accesses (loads and stores) of `array` in `s`: all of them, and those at [i][j].
void countAccesses(const Stmt &s, const std::string &array, const std::string &i,
                   const std::string &j, int &all, int &exact) {
  visitStmt(s, [&](const Stmt &n) {
    if (n->kind == StmtKind::Store && n->name == array) {
      ++all;
      exact += atIJ(n->indices, i, j);
    }
  }, [&](const Expr &e) {
    visitExpr(e, [&](const Expr &n) {
      if (n->kind == ExprKind::Load && n->name == array) {
        ++all;
        exact += atIJ(n->operands, i, j);
      }
    });
  });
}

// `C[j][i] = C[i][j]`: the mirrored store of a symmetric product (covariance, correlation).
bool isMirror(const Stmt &s, const std::string &array, const std::string &i, const std::string &j) {
  return s->kind == StmtKind::Store && s->name == array && s->op == "=" &&
         atIJ(s->indices, j, i) && s->value->kind == ExprKind::Load &&
         s->value->name == array && atIJ(s->value->operands, i, j);
}

bool hasJump(const Stmt &s) {
  bool jump = false;
  visitStmt(s, [&](const Stmt &n) {
    jump |= n->kind == StmtKind::Break || n->kind == StmtKind::Continue;
  });
  return jump;
}

// The array accumulated at [i][j] by a serial loop of `body`, and that loop's index.
bool findAccumulated(const std::vector<Stmt> &body, const std::string &i, const std::string &j,
                     std::string &array, std::string &loop) {
  for (size_t n = 0; n < body.size(); ++n) {
    const Stmt &s = body[n];
    if (s->kind != StmtKind::For || s->loopKind != LoopKind::Serial) continue;
    visitStmt(s->body, [&](const Stmt &st) {
      if (array.empty() && st->kind == StmtKind::Store && atIJ(st->indices, i, j) &&
          st->op != "=")
        array = st->name;
    });
    if (!array.empty()) {
      loop = s->name;
      return true;
    }
  }
  return false;
}

// Whether the k loop may run where the guard fails: it assigns only `acc` and its own locals,
// stores nothing, and reads only arrays the kernel never writes, at subscripts that are loop
// variables of the nest; no division, remainder or call.
std::string unguardedBlocker(const Kernel &k, const Stmt &loop, const std::string &acc,
                             const std::set<std::string> &vars) {
  std::string why;
  std::set<std::string> own{loop->name};
  visitStmt(loop->body, [&](const Stmt &s) {
    if (s->kind == StmtKind::Decl) own.insert(s->name);
    if (s->kind == StmtKind::Store && why.empty()) why = "it stores to '" + s->name + "'";
    if (s->kind == StmtKind::Assign && s->name != acc && !own.count(s->name) && why.empty())
      why = "it assigns '" + s->name + "'";
    if ((s->kind == StmtKind::While || s->kind == StmtKind::Break ||
         s->kind == StmtKind::Continue) && why.empty())
      why = "it holds a while loop, break or continue";
  }, [&](const Expr &e) {
    visitExpr(e, [&](const Expr &n) {
      if (!why.empty()) return;
      if (n->kind == ExprKind::Call) why = "it calls '" + n->name + "'";
      if (n->kind == ExprKind::Binary && (n->name == "/" || n->name == "%"))
        why = "it divides";
      if (n->kind != ExprKind::Load) return;
      if (storesTo(k.body, n->name) || storesTo(k.finish, n->name))
        why = "it reads '" + n->name + "', which the kernel writes";
      for (const Expr &x : n->operands)
        if (x->kind != ExprKind::Var || (!vars.count(x->name) && x->name != loop->name))
          if (why.empty()) why = "it reads '" + n->name + "' at a subscript that is no loop variable";
    });
  });
  return why;
}

}  // namespace

Kernel formContraction(const Kernel &k, std::string *why) {
  auto no = [&](const std::string &text) {
    if (why) *why = text;
    return k;
  };
  std::vector<Stmt> loops = parallelLoops(k);
  if (loops.size() != 2) return no("");
  const std::string &i = loops[0]->name, &j = loops[1]->name;
  std::vector<Stmt> body = statementsOf(loops[1]->body);
  Stmt guarded;
  if (body.size() == 1 && body[0]->kind == StmtKind::If && !body[0]->elseBody) {
    guarded = body[0];
    body = statementsOf(guarded->body);
  }
  std::string array, acc, kName, mirrorNote;
  bool changed = false;
  if (findAccumulated(body, i, j, array, kName)) {
    const Param *p = k.findParam(array);
    int all = 0, exact = 0, ignored = 0;
    for (const Stmt &s : {k.body, k.finish}) countAccesses(s, array, i, j, all, ignored);
    for (const Stmt &s : body) countAccesses(s, array, i, j, ignored, exact);
    if (!p || !p->isArray) return no("");
    // Mirrored stores after the last other access copy the final value: they store the
    // accumulator too (each thread's C[j][i] is its own C[i][j], which no other iteration
    // touches: ParallelLoops proved the loops parallel with the mirror in place).
    std::vector<bool> mirror(body.size(), false);
    size_t mirrors = 0;
    for (size_t n = 0; n < body.size(); ++n)
      if (isMirror(body[n], array, i, j)) mirror[n] = true, ++mirrors;
    all -= int(2 * mirrors);
    exact -= int(mirrors);
    if (exact != all)
      return no("'" + array + "' is accessed elsewhere than at [" + i + "][" + j + "] in the "
                "body of loop '" + j + "'" + (mirrors ? " (besides its mirror [" + j + "][" +
                                                        i + "] = [" + i + "][" + j + "])"
                                                      : std::string()));
    size_t first = body.size(), last = 0;
    for (size_t n = 0; n < body.size(); ++n) {
      int a = 0, e = 0;
      if (!mirror[n]) countAccesses(body[n], array, i, j, a, e);
      if (a) first = std::min(first, n), last = n;
    }
    for (size_t n = 0; n < last; ++n)
      if (mirror[n])
        return no("the mirrored store '" + array + "[" + j + "][" + i + "]' comes before the "
                  "last update of '" + array + "[" + i + "][" + j + "]'");
    for (size_t n = first; n <= last; ++n)
      if (hasJump(body[n])) return no("a break or continue lies between the accesses to '" + array + "'");
    bool atomic = false;
    visitStmt(block(body), [&](const Stmt &s) {
      atomic |= s->kind == StmtKind::Store && s->name == array && !s->op.empty() &&
                std::isalpha(static_cast<unsigned char>(s->op[0]));
    });
    if (atomic) return no("'" + array + "' is updated atomically");
    acc = freshName(k, "acc");
    auto promote = [&](const Stmt &s) {
      return mapStmt(s, [&](const Stmt &n) -> Stmt {
        if (n->kind != StmtKind::Store || n->name != array) return n;
        return withLoc(assign(acc, n->op, n->value), n->loc);
      }, [&](const Expr &e) -> Expr {
        return e->kind == ExprKind::Load && e->name == array ? var(acc, p->type) : e;
      });
    };
    std::vector<Stmt> formed(body.begin(), body.begin() + first);
    const Stmt &init = body[first];
    int initReads = 0, ignoredToo = 0;
    if (init->kind == StmtKind::Store && init->op == "=")
      countAccesses(block({withLoc(assign("", "=", init->value), init->loc)}), array, i, j,
                    initReads, ignoredToo);
    if (init->kind == StmtKind::Store && init->op == "=" && initReads == 0) {
      formed.push_back(withLoc(decl(acc, p->type, init->value), init->loc));
    } else {
      formed.push_back(withLoc(decl(acc, p->type, load(array, {var(i), var(j)}, p->type)),
                               init->loc));
      formed.push_back(promote(init));
    }
    for (size_t n = first + 1; n <= last; ++n) formed.push_back(promote(body[n]));
    formed.push_back(withLoc(store(array, {var(i), var(j)}, "=", var(acc, p->type)),
                             body[last]->loc));
    for (size_t n = last + 1; n < body.size(); ++n)
      formed.push_back(mirror[n] ? withLoc(store(array, {var(j), var(i)}, "=",
                                                 var(acc, p->type)), body[n]->loc)
                                 : body[n]);
    if (mirrors)
      mirrorNote = "contraction: the mirrored store '" + array + "[" + j + "][" + i + "] = " +
                   array + "[" + i + "][" + j + "]' stores the accumulator too";
    body = formed;
    changed = true;
  }
  auto rebuild = [&](std::vector<Stmt> stmts) {
    Kernel out = k;
    Stmt jBody = withLoc(block(std::move(stmts)), loops[1]->body->loc);
    auto jl = std::make_shared<StmtNode>(*loops[1]);
    jl->body = jBody;
    out.body = mapStmt(k.body, [&](const Stmt &s) -> Stmt { return s == loops[1] ? Stmt(jl) : s; });
    if (!mirrorNote.empty()) out.remarks.push_back(mirrorNote);
    return out;
  };
  if (!guarded) {
    if (!changed) return no("");
    Kernel out = rebuild(body);
    out.remarks.push_back("contraction: '" + array + "[" + i + "][" + j + "]' accumulates in a "
                          "register across loop '" + kName + "', stored once after it");
    return out;
  }
  // The guard of the triangle: on the initialization and the store only.
  auto stays = [&](const std::string &text) {
    if (!changed) return no(text);
    Kernel out = rebuild({withLoc(ifThen(guarded->cond, block(body)), guarded->loc)});
    if (why) *why = text;
    return out;
  };
  if (hasLoad(guarded->cond)) return stays("the guard of loop '" + j + "''s body reads an array");
  size_t at = body.size();
  for (size_t n = 0; n < body.size(); ++n)
    if (body[n]->kind == StmtKind::For && body[n]->loopKind == LoopKind::Serial) {
      at = n;
      break;
    }
  if (at == body.size() || at == 0 || body[0]->kind != StmtKind::Decl || body[0]->arraySize ||
      !body[0]->value)
    return stays("the guarded body of loop '" + j + "' is not a scalar's initialization, a "
                 "loop and what follows");
  const std::string accName = body[0]->name;
  for (size_t n = 1; n < at; ++n)
    if (body[n]->kind != StmtKind::Assign || body[n]->name != accName)
      return stays("a statement between the initialization of '" + accName + "' and loop '" +
                   body[at]->name + "' does more than assign it");
  std::string blocker = unguardedBlocker(k, body[at], accName, {i, j});
  if (!blocker.empty())
    return stays("the guard of loop '" + j + "''s body stays around loop '" + body[at]->name +
                 "': " + blocker);
  std::vector<Stmt> head{withLoc(assign(accName, "=", body[0]->value), body[0]->loc)};
  head.insert(head.end(), body.begin() + 1, body.begin() + at);
  std::vector<Stmt> tail(body.begin() + at + 1, body.end());
  const Type t = body[0]->type;
  std::vector<Stmt> formed{
      withLoc(decl(accName, t, cast(t, intImm(0))), body[0]->loc),
      withLoc(ifThen(guarded->cond, block(head)), guarded->loc), body[at]};
  if (!tail.empty()) formed.push_back(withLoc(ifThen(guarded->cond, block(tail)), guarded->loc));
  Kernel out = rebuild(formed);
  if (changed)
    out.remarks.push_back("contraction: '" + array + "[" + i + "][" + j + "]' accumulates in a "
                          "register across loop '" + body[at]->name + "', stored once after it");
  out.remarks.push_back("contraction: the guard of loop '" + j + "''s body stays on the "
                        "initialization and the store; loop '" + body[at]->name +
                        "' runs over the bounding box (its sums outside are never stored)");
  return out;
}

Kernel contractionForm(const Kernel &k, const PassContext &ctx) {
  const KernelOptions &o = ctx.options;
  if (!o.merge || !o.skew || o.prefetch.empty() || !k.reductions.empty() ||
      !k.atomicArrays.empty())
    return k;
  std::string why;
  Kernel out = formContraction(k, &why);
  if (out.body != k.body) out.passes.push_back("ContractionForm");
  if (!why.empty()) out.remarks.push_back("contraction: " + why);
  return out;
}

}  // namespace rtcuda
