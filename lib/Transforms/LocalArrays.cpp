// LocalArrays: where each local array of a kernel function lives.
//
//   double z[N];                       for (k = 1; k < n; k++) {
//   for (k = 1; k < n; k++) {   ==>      double z[N];           each iteration its own z
//     for (i = 0; i < k; i++) z[i] = ...;   defines z[0..k)
//     for (i = 0; i < k; i++) y[i] = z[i];  reads only z[0..k)
//   }                                   }
//
// A declaration moves into a loop when that loop is the only statement that uses the array and
// each of its iterations writes every element it reads before reading it: a first loop
// `for (p = lo; p < hi; p++)` whose body begins (as far as the array goes) with `z[p] = e` and
// touches only z[p], and later accesses z[q] only in loops `for (q = lo; q < hi; q++)` with the
// same bounds, which the iteration does not change. No value then flows from one iteration to
// the next, nor out of the loop, so each iteration (each GPU thread) may have its own copy.
// It moves again, into an inner loop, while the same holds there. The dependence analysis sees
// a local array declared inside a loop as private to that loop's iterations.
#include "rtcuda/Transforms/LocalArrays.h"

#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"
#include "rtcuda/Support/Diagnostics.h"
#include "rtcuda/Transforms/Pass.h"

#include <functional>
#include <set>

namespace rtcuda {

using namespace ir;

namespace {

bool usesArray(const Stmt &s, const std::string &a) {
  bool found = false;
  visitStmt(s, [&](const Stmt &n) { found |= n->kind == StmtKind::Store && n->name == a; },
            [&](const Expr &e) {
              visitExpr(e, [&](const Expr &x) { found |= x->kind == ExprKind::Load && x->name == a; });
            });
  return found;
}

bool exprUsesArray(const Expr &e, const std::string &a) {
  bool found = false;
  if (e) visitExpr(e, [&](const Expr &x) { found |= x->kind == ExprKind::Load && x->name == a; });
  return found;
}

std::set<std::string> assigned(const Stmt &s) {
  std::set<std::string> out;
  visitStmt(s, [&](const Stmt &n) {
    if (n->kind == StmtKind::Assign || n->kind == StmtKind::Decl) out.insert(n->name);
  });
  return out;
}

bool unitStep(const Stmt &loop) {
  int64_t step = 0;
  return loop->kind == StmtKind::For && isConst(loop->step, &step) && step == 1 && !loop->cond;
}

bool isIndex(const std::vector<Expr> &indices, const std::string &v) {
  return indices.size() == 1 && indices[0]->kind == ExprKind::Var && indices[0]->name == v;
}

// Whether every iteration of `loop` writes each element of `a` it reads before reading it;
// otherwise `why` says what the first access that breaks it is.
bool privateToIterations(const Stmt &loop, const std::string &a, std::string &why,
                         Stmt *defining = nullptr) {
  std::vector<Stmt> body = statementsOf(loop->body);
  size_t first = 0;
  while (first < body.size() && !usesArray(body[first], a)) ++first;
  auto fail = [&](const Stmt &at, const std::string &what) {
    why = at->loc.str() + " " + what;
    return false;
  };
  if (first == body.size()) return fail(loop, "uses '" + a + "' in its bounds");
  const Stmt &def = body[first];
  if (def->kind != StmtKind::For || !unitStep(def) || exprUsesArray(def->min, a) ||
      exprUsesArray(def->end, a))
    return fail(def, "is the iteration's first use of '" + a + "', and not a loop 'for (p = lo; "
                         "p < hi; p++) " + a + "[p] = ...' from which the analysis could tell "
                         "that the iteration writes what it reads");
  bool jumps = false;
  visitStmt(def->body, [&](const Stmt &n) {
    jumps |= n->kind == StmtKind::Break || n->kind == StmtKind::Continue;
  });
  std::vector<Stmt> defBody = statementsOf(def->body);
  size_t w = 0;
  while (w < defBody.size() && !usesArray(defBody[w], a)) ++w;
  if (w == defBody.size()) return fail(def, "uses '" + a + "' in its bounds");
  const Stmt &st = defBody[w];
  if (jumps || assigned(def->body).count(def->name) || st->kind != StmtKind::Store ||
      st->op != "=" || !isIndex(st->indices, def->name) || exprUsesArray(st->value, a))
    return fail(st, "reads '" + a + "' before it writes " + a + "[" + def->name + "]");
  // The bounds that say which elements are written must not change during the iteration.
  std::set<std::string> changed = assigned(loop->body);
  for (const Expr &b : {def->min, def->end})
    for (const std::string &v : varsOf(b))
      if (changed.count(v))
        return fail(def, "has bounds that '" + v + "' changes during an iteration of loop '" +
                             loop->name + "'");
  // Every access after the definition: a[q] in a loop over q with the definition's bounds.
  std::string bad;
  std::function<void(const Stmt &, std::vector<Stmt>)> check = [&](const Stmt &s,
                                                                   std::vector<Stmt> loops) {
    if (!s || !bad.empty()) return;
    auto inRange = [&](const std::vector<Expr> &idx) {
      for (size_t d = loops.size(); d-- > 0;)
        if (isIndex(idx, loops[d]->name))
          return unitStep(loops[d]) && equal(loops[d]->min, def->min) &&
                 equal(loops[d]->end, def->end) && !assigned(loops[d]->body).count(loops[d]->name);
      return false;
    };
    auto exprs = [&](std::initializer_list<Expr> es) {
      for (const Expr &e : es)
        if (e) visitExpr(e, [&](const Expr &x) {
            if (bad.empty() && x->kind == ExprKind::Load && x->name == a && !inRange(x->operands))
              bad = s->loc.str() + " reads " + print(x) + ", which the iteration may not have "
                    "written (it writes " + a + "[" + print(def->min) + " .. " +
                    print(def->end) + " - 1])";
          });
    };
    exprs({s->min, s->end, s->step, s->cond, s->value, s->arraySize});
    for (const Expr &i : s->indices) exprs({i});
    if (s->kind == StmtKind::Store && s->name == a && !inRange(s->indices) && bad.empty())
      bad = s->loc.str() + " writes " + a + " outside " + a + "[" + print(def->min) + " .. " +
            print(def->end) + " - 1]";
    if (s->kind == StmtKind::For) loops.push_back(s);
    for (const Stmt &c : s->stmts) check(c, loops);
    check(s->body, loops);
    check(s->elseBody, loops);
  };
  for (size_t i = w + 1; i < defBody.size(); ++i) check(defBody[i], {def});
  for (size_t i = first + 1; i < body.size(); ++i) check(body[i], {});
  if (!bad.empty()) {
    why = bad;
    return false;
  }
  if (defining) *defining = def;
  return true;
}

Stmt renameArray(const Stmt &s, const std::string &from, const std::string &to) {
  return mapStmt(s, [&](const Stmt &n) -> Stmt {
    if (n->kind != StmtKind::Store || n->name != from) return n;
    auto c = std::make_shared<StmtNode>(*n);
    c->name = to;
    return c;
  }, [&](const Expr &e) {
    return mapExpr(e, [&](const Expr &x) -> Expr {
      if (x->kind != ExprKind::Load || x->name != from) return x;
      auto c = std::make_shared<ExprNode>(*x);
      c->name = to;
      return c;
    });
  });
}

// A one-dimensional parameter array of constant size that only the loops `chain` (each the
// only user in its parent's body) use, and that each iteration of the innermost writes before
// reading (doitgen's sum[p]): each iteration gets its own copy, and the last iteration of the
// chain, the one whose values the sequential C leaves, stores its copy back. Returns the
// rewritten body, or null when the array does not qualify.
constexpr int64_t kMaxPrivateElements = 1024;  // a thread's copy stays small
Stmt privatizeParameter(const Kernel &fn, const Param &p, const Stmt &body,
                        std::vector<std::string> &remarks) {
  int64_t n = 0;
  if (!p.isArray || p.dims.size() != 1 || !isConst(p.dims[0], &n) || n <= 0 ||
      n > kMaxPrivateElements)
    return nullptr;
  std::vector<Stmt> chain;
  std::vector<Stmt> seq = statementsOf(body);
  for (;;) {
    std::vector<Stmt> users;
    for (const Stmt &s : seq)
      if (usesArray(s, p.name)) users.push_back(s);
    if (users.size() != 1 || users[0]->kind != StmtKind::For) break;
    chain.push_back(users[0]);
    seq = statementsOf(users[0]->body);
  }
  if (chain.empty()) return nullptr;
  std::string why;
  Stmt def;
  if (!privateToIterations(chain.back(), p.name, why, &def)) return nullptr;
  // The last iteration must be known: unit steps, bounds that no loop of the chain and no
  // statement of the function changes; the written range the same in every iteration.
  std::set<std::string> changed = assigned(fn.body), chainVars;
  for (const Stmt &l : chain) {
    if (!unitStep(l) || exprUsesArray(l->min, p.name) || exprUsesArray(l->end, p.name))
      return nullptr;
    for (const Expr &b : {l->min, l->end})
      for (const std::string &v : varsOf(b))
        if (changed.count(v) || chainVars.count(v)) return nullptr;
    chainVars.insert(l->name);
  }
  for (const Expr &b : {def->min, def->end})
    for (const std::string &v : varsOf(b))
      if (changed.count(v) || chainVars.count(v)) return nullptr;
  std::string own = freshName(fn, p.name + "_own");
  Expr last;
  for (const Stmt &l : chain) {
    Expr at = binary("==", var(l->name, l->type), binary("-", l->end, intImm(1)));
    last = last ? binary("&&", last, at) : at;
  }
  Type idx = Type::of(ScalarKind::Int);
  std::string q = freshName(fn, p.name + "_at");
  Stmt back = forLoop(q, idx, def->min, def->end, intImm(1),
                      store(p.name, {var(q, idx)}, "=", load(own, {var(q, idx)}, p.type)));
  std::vector<Stmt> inner{withLoc(decl(own, p.type, nullptr, intImm(n)), p.loc)};
  for (const Stmt &s : statementsOf(chain.back()->body)) inner.push_back(renameArray(s, p.name, own));
  inner.push_back(withLoc(ifThen(last, block({withLoc(back, chain.back()->loc)})), chain.back()->loc));
  // Rebuild the chain around the new innermost body.
  Stmt rebuilt = withLoc(block(inner), chain.back()->loc);
  for (size_t d = chain.size(); d-- > 0;) {
    auto loop = std::make_shared<StmtNode>(*chain[d]);
    loop->body = rebuilt;
    Stmt replaced = loop;
    if (d == 0) {
      rebuilt = replaced;
      break;
    }
    std::vector<Stmt> around = statementsOf(chain[d - 1]->body);
    for (Stmt &s : around)
      if (s == chain[d]) s = replaced;
    rebuilt = withLoc(block(around), chain[d - 1]->loc);
  }
  std::vector<Stmt> top = statementsOf(body);
  for (Stmt &s : top)
    if (s == chain[0]) s = rebuilt;
  std::string lastText;
  for (const Stmt &l : chain)
    lastText += (lastText.empty() ? "" : ", ") + l->name + " = " + print(binary("-", l->end, intImm(1)));
  remarks.push_back("array '" + p.name + "': each iteration of loop '" + chain.back()->name +
                    "' (" + chain.back()->loc.str() + ") writes " + p.name + "[" +
                    print(def->min) + " .. " + print(def->end) + " - 1] before reading it; "
                    "each iteration works on its own copy, and the last one (" + lastText +
                    ") stores it back, as the sequential C leaves it");
  return withLoc(block(top), body->loc);
}

class Placer {
public:
  std::vector<std::string> remarks;

  // The statements of a sequence with its local arrays moved as deep as they may go.
  // `top`: the function's own statements, whose arrays that stay are one for the whole call.
  std::vector<Stmt> place(const std::vector<Stmt> &stmts, bool top) {
    std::vector<Stmt> seq = stmts;
    for (size_t i = 0; i < seq.size(); ++i) {
      const Stmt d = seq[i];
      if (d->kind != StmtKind::Decl || !d->arraySize || !isConst(d->arraySize)) continue;
      std::vector<size_t> users;
      for (size_t j = 0; j < seq.size(); ++j)
        if (j != i && usesArray(seq[j], d->name)) users.push_back(j);
      if (users.size() != 1 || seq[users[0]]->kind != StmtKind::For) {
        if (!users.empty() && top)
          note(d, users.size() > 1 ? "it is used by several statements"
                                   : seq[users[0]]->loc.str() + " uses it outside a loop");
        continue;
      }
      const Stmt &loop = seq[users[0]];
      std::string why;
      if (!privateToIterations(loop, d->name, why)) {
        if (top) note(d, "loop '" + loop->name + "' (" + loop->loc.str() + ") cannot own it: " + why);
        continue;
      }
      auto moved = std::make_shared<StmtNode>(*loop);
      std::vector<Stmt> body = statementsOf(loop->body);
      body.insert(body.begin(), d);
      moved->body = withLoc(block(body), loop->loc);
      remarks.push_back("local array '" + d->name + "' (" + d->loc.str() + "): each iteration "
                        "of loop '" + loop->name + "' (" + loop->loc.str() + ") writes it before "
                        "reading it; each iteration has its own copy");
      seq[users[0]] = moved;
      seq.erase(seq.begin() + i);
      --i;
    }
    for (Stmt &s : seq) s = inside(s);
    return seq;
  }

private:
  void note(const Stmt &d, const std::string &why) {
    remarks.push_back("local array '" + d->name + "' (" + d->loc.str() + ") is one array for "
                      "the whole call (a device array when the function is outlined): " + why);
  }
  Stmt inside(const Stmt &s) {
    if (!s || (s->kind != StmtKind::For && s->kind != StmtKind::While &&
               s->kind != StmtKind::If && s->kind != StmtKind::Block))
      return s;
    auto copy = std::make_shared<StmtNode>(*s);
    if (s->kind == StmtKind::Block) {
      copy->stmts = place(s->stmts, false);
      return copy;
    }
    copy->body = withLoc(block(place(statementsOf(s->body), false)), s->loc);
    if (s->elseBody)
      copy->elseBody = withLoc(block(place(statementsOf(s->elseBody), false)), s->loc);
    return copy;
  }
};

}  // namespace

LocalArrayPlacement placeLocalArrays(const Kernel &fn) {
  LocalArrayPlacement out;
  out.kernel = fn;
  for (const Param &p : fn.params)
    if (Stmt b = privatizeParameter(out.kernel, p, out.kernel.body, out.remarks))
      out.kernel.body = b;
  bool any = false;
  visitStmt(fn.body, [&](const Stmt &s) { any |= s->kind == StmtKind::Decl && s->arraySize; });
  if (!any) return out;
  Placer placer;
  out.kernel.body = withLoc(block(placer.place(out.kernel.body->stmts, true)), fn.body->loc);
  out.remarks.insert(out.remarks.end(), placer.remarks.begin(), placer.remarks.end());
  for (const Stmt &s : out.kernel.body->stmts)
    out.functionLevel |= s->kind == StmtKind::Decl && s->arraySize;
  return out;
}

Param localArrayTemporary(const Kernel &fn, const Stmt &decl) {
  std::set<std::string> changed = assigned(fn.body);
  for (const std::string &v : varsOf(decl->arraySize)) {
    const Param *p = fn.findParam(v);
    if (!p || p->isArray || changed.count(v))
      throw CompileError(decl->loc, "local array '" + decl->name + "': its size " +
                                        print(decl->arraySize) + " uses '" + v + "', which is "
                                        "not a scalar parameter the function leaves unchanged; "
                                        "the device copy is allocated when the function is called");
  }
  Param p;
  p.name = decl->name;
  p.type = decl->type;
  p.isArray = true;
  // ArrayExpansion's temporaries keep their logical dimensions in the declaration's indices.
  p.dims = decl->indices.empty() ? std::vector<Expr>{decl->arraySize} : decl->indices;
  p.loc = decl->loc;
  return p;
}

void checkKernelLocalArrays(const Kernel &k) {
  visitStmt(k.body, [&](const Stmt &s) {
    if (s->kind == StmtKind::Decl && s->arraySize && !s->shared && !isConst(s->arraySize))
      throw CompileError(s->loc, "variable-length local array '" + s->name + "' inside a loop "
                                 "that runs on the GPU: a thread's own copy needs a constant "
                                 "size; declare it at the top of the function");
  });
}

}  // namespace rtcuda
