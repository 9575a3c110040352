// Strip-mine-and-jam of one parallel loop: the shared mechanism of BlockMerge and BlockSkew.
//
//   for v in [a, b)  // parallel            for vo in [0, ceil((b-a)/F))  // parallel
//     float s = 0;                            float s[F];
//     for k ...                     ==>       for f: if (v_f < b) s[f] = 0;
//       s += X[v][k] * Y[k];                  for k ...
//     Z[v] = s;                                 for f: if (v_f < b) s[f] += X[v_f][k] * Y[k];
//                                             for f: if (v_f < b) Z[v_f] = s[f];
//
// Each thread computes F iterations of v. Loops whose bounds do not depend on v are shared by
// the F iterations (that is what makes the reuse: Y[k] above is read once for F results);
// scalars that carry per-iteration values become per-thread arrays, initialized where the
// source initialized them; statements that do not depend on v run once. Correct for every F
// and every size: each copy is guarded by v_f < b. Legal because the iterations of a parallel
// loop are independent.
#include "StripMineJam.h"

#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"

#include <optional>
#include <set>

namespace rtcuda {

using namespace ir;

namespace {

const Type kInt = Type::of(ScalarKind::Int);
const char *const kClamp = "llmin";  // CUDA's 64-bit min (the emulator has it too)

class Jammer {
public:
  Jammer(const Kernel &k, const Stmt &loop, const StripSpec &spec) : loop(loop), spec(spec) {
    f = freshName(k, spec.stripVarBase);
    findExpanded(loop->body);
  }

  Stmt run(const Kernel &k) {
    std::string vo = freshName(k, loop->name + spec.outerSuffix);
    // 64-bit thread-level index and extents: rounded up to whole strips (BLOCKSIZE * level),
    // they pass 2^31 - 1 for a loop whose end is near it (issue 16).
    const Type wide = wideIndexType(loop->type);
    Expr voVar = var(vo, wide);
    Expr extent = simplify(tripCount(loop));
    Expr blocked =
        widenParams(simplify(div(add(extent, sub(spec.factor, intImm(1))), spec.factor)), k, wide);
    Expr stripedGroups = div(add(extent, sub(mul(spec.blockSize, spec.factor), intImm(1))),
                             mul(spec.blockSize, spec.factor));
    Expr striped = widenParams(simplify(mul(stripedGroups, spec.blockSize)), k, wide);
    // The thread's f-th iteration.
    Expr fv = var(f, kInt);
    Expr blockedIndex = add(add(loop->min, mul(voVar, spec.factor)), fv);
    Expr stripedIndex =
        add(add(add(loop->min, mul(div(voVar, spec.blockSize), mul(spec.blockSize, spec.factor))),
                mod(voVar, spec.blockSize)),
            mul(fv, spec.blockSize));
    if (!spec.striped) {
      index = simplify(blockedIndex);
      outerEnd = blocked;
    } else if (isConst(spec.striped)) {
      index = simplify(stripedIndex);
      outerEnd = striped;
    } else {
      index = select(spec.striped, simplify(stripedIndex), simplify(blockedIndex));
      outerEnd = select(spec.striped, striped, blocked);
    }
    // The index is 64-bit; a narrower loop variable takes it clamped to the end, so that an
    // iteration past the end (the last strip's) fails the guard instead of wrapping around.
    if (!(loop->type == wide))
      index = cast(loop->type, call(kClamp, {index, cast(wide, loop->end)}, wide));
    auto out = std::make_shared<StmtNode>(*forLoop(vo, wide, intImm(0), outerEnd, intImm(1),
                                                   block(jamBlock(statementsOf(loop->body))),
                                                   LoopKind::Parallel));
    out->loc = loop->loc;
    return out;
  }

private:
  const Stmt &loop;
  const StripSpec &spec;
  std::string f;
  Expr index, outerEnd;
  std::set<std::string> expanded;  // locals that hold one value per strip iteration

  bool dependsExpr(const Expr &e) const {
    bool d = false;
    visitExpr(e, [&](const Expr &n) {
      if ((n->kind == ExprKind::Var && (n->name == loop->name || expanded.count(n->name))) ||
          (n->kind == ExprKind::Load && expanded.count(n->name)))
        d = true;
    });
    return d;
  }

  bool depends(const Stmt &s) const {
    bool d = false;
    visitStmt(s, [&](const Stmt &n) {
      if ((n->kind == StmtKind::Assign || n->kind == StmtKind::Store || n->kind == StmtKind::Decl) &&
          expanded.count(n->name))
        d = true;
      // An effect outside the body happens once per iteration, even when it does not mention
      // the loop variable: an atomic update, a store, a reduction (s += 1.0f, s declared
      // before the nest). Such statements are replicated, never shared by the strip.
      if ((n->kind == StmtKind::Store && !isLocalArray(n->name, loop->body)) ||
          (n->kind == StmtKind::Assign && !declaredIn(n->name, loop->body)))
        d = true;
    }, [&](const Expr &e) { d |= dependsExpr(e); });
    return d;
  }

  static bool declaredIn(const std::string &name, const Stmt &body) {
    bool found = false;
    visitStmt(body, [&](const Stmt &s) { found |= s->kind == StmtKind::Decl && s->name == name; });
    return found;
  }

  // Locals assigned values that depend on the strip (directly or through other such locals),
  // or assigned under control that depends on it (if (A[i][j] > 0) c++; while (A[i][t] < 5)
  // t++;): each iteration of the strip owns its value, so each gets its own copy.
  void findExpanded(const Stmt &body) {
    bool changed = true;
    while (changed) {
      changed = false;
      expandIn(body, body, {}, changed);
    }
  }

  // `owned`: locals declared inside the strip-dependent statement that controls `s` (private
  // to each iteration already: that statement runs once per iteration); null when no
  // enclosing condition depends on the strip.
  void expandIn(const Stmt &s, const Stmt &body, const std::optional<std::set<std::string>> &owned,
                bool &changed) {
    if (!s) return;
    bool value = s->value && dependsExpr(s->value);
    bool index = false;
    for (const Expr &i : s->indices) index |= dependsExpr(i);
    // Only variables of the body: a scalar declared before the nest (a reduction) stays one
    // per thread.
    bool local = s->kind == StmtKind::Decl ||
                 (s->kind == StmtKind::Assign && declaredIn(s->name, body)) ||
                 (s->kind == StmtKind::Store && isLocalArray(s->name, body));
    bool controlled = owned && s->kind != StmtKind::Decl && !owned->count(s->name);
    if (local && !expanded.count(s->name) && (value || index || controlled)) {
      expanded.insert(s->name);
      changed = true;
    }
    std::optional<std::set<std::string>> inner = owned;
    bool control = (s->kind == StmtKind::If || s->kind == StmtKind::While)
                       ? dependsExpr(s->cond)
                       : s->kind == StmtKind::For &&
                             (dependsExpr(s->min) || dependsExpr(s->end) || dependsExpr(s->step));
    // A loop that may leave early (break, continue): what its body assigns after the jump
    // depends on the jump's condition; conservatively, every iteration owns it.
    if ((s->kind == StmtKind::For || s->kind == StmtKind::While) && ownJump(s->body)) control = true;
    if (control && !inner) {
      inner.emplace();
      visitStmt(s, [&](const Stmt &n) {
        if (n->kind == StmtKind::Decl) inner->insert(n->name);
      });
    }
    for (const Stmt &c : s->stmts) expandIn(c, body, inner, changed);
    expandIn(s->body, body, inner, changed);
    expandIn(s->elseBody, body, inner, changed);
  }

  // break or continue of loop `s` itself (not of a loop nested in it): a loop that holds one
  // cannot be shared by the strip, the jump would leave the strip's loop instead.
  static bool ownJump(const Stmt &s) {
    if (!s) return false;
    if (s->kind == StmtKind::Break || s->kind == StmtKind::Continue) return true;
    if (s->kind == StmtKind::For || s->kind == StmtKind::While) return false;
    for (const Stmt &c : s->stmts)
      if (ownJump(c)) return true;
    return ownJump(s->body) || ownJump(s->elseBody);
  }

  static bool isLocalArray(const std::string &name, const Stmt &body) {
    bool found = false;
    visitStmt(body, [&](const Stmt &s) {
      if (s->kind == StmtKind::Decl && s->name == name && s->arraySize) found = true;
    });
    return found;
  }

  // A statement for iteration f: expanded locals become their f-th element.
  Stmt instantiate(const Stmt &s) const {
    Expr fv = var(f, kInt);
    // Locals declared inside `s` run once per iteration with it: private already, kept scalar.
    std::set<std::string> expanded = this->expanded;
    if (s->kind != StmtKind::Decl)
      visitStmt(s, [&](const Stmt &n) {
        if (n->kind == StmtKind::Decl) expanded.erase(n->name);
      });
    auto rewriteExpr = [&](const Expr &e) -> Expr {
      if (e->kind == ExprKind::Var && expanded.count(e->name))
        return load(e->name, {fv}, e->type);
      if (e->kind == ExprKind::Load && expanded.count(e->name) && e->operands.size() == 1) {
        auto copy = std::make_shared<ExprNode>(*e);
        copy->operands = {add(mul(e->operands[0], spec.factor), fv)};
        return copy;
      }
      return e;
    };
    return mapStmt(s, [&](const Stmt &n) -> Stmt {
      if (n->kind == StmtKind::Assign && expanded.count(n->name))
        return withLoc(store(n->name, {fv}, n->op, n->value), n->loc);
      if (n->kind == StmtKind::Store && expanded.count(n->name) && n->indices.size() == 1) {
        auto copy = std::make_shared<StmtNode>(*n);
        copy->indices = {add(mul(n->indices[0], spec.factor), fv)};
        return copy;
      }
      return n;
    }, rewriteExpr);
  }

  // The pending statements, once per strip iteration: the loop variable is declared again with
  // the f-th value, so the statements read as the user wrote them.
  void flush(std::vector<Stmt> &pending, std::vector<Stmt> &out) const {
    if (pending.empty()) return;
    std::vector<Stmt> body;
    for (const Stmt &s : pending) body.push_back(instantiate(s));
    Expr v = var(loop->name, loop->type);
    Stmt define = withLoc(decl(loop->name, loop->type, index), loop->loc);
    out.push_back(forLoop(f, kInt, intImm(0), spec.factor, intImm(1),
                          block({define, ifThen(lt(v, loop->end), block(body))}), spec.kind));
    pending.clear();
  }

  std::vector<Stmt> jamBlock(const std::vector<Stmt> &stmts) {
    std::vector<Stmt> out, pending;
    for (const Stmt &s : stmts) {
      if (s->kind == StmtKind::Decl && expanded.count(s->name)) {
        flush(pending, out);
        Expr size = s->arraySize ? mul(s->arraySize, spec.factor) : spec.factor;
        out.push_back(withLoc(decl(s->name, s->type, nullptr, simplify(size)), s->loc));
        if (s->value) pending.push_back(withLoc(assign(s->name, "=", s->value), s->loc));
      } else if (s->kind == StmtKind::Block) {
        flush(pending, out);
        for (const Stmt &c : jamBlock(s->stmts)) out.push_back(c);
      } else if (s->kind == StmtKind::For && !dependsExpr(s->min) && !dependsExpr(s->end) &&
                 !dependsExpr(s->step) && !(depends(s->body) && ownJump(s->body))) {
        flush(pending, out);
        auto copy = std::make_shared<StmtNode>(*s);
        copy->body = block(jamBlock(statementsOf(s->body)));
        out.push_back(copy);
      } else if (s->kind == StmtKind::If && !dependsExpr(s->cond)) {
        flush(pending, out);
        auto copy = std::make_shared<StmtNode>(*s);
        copy->body = block(jamBlock(statementsOf(s->body)));
        if (s->elseBody) copy->elseBody = block(jamBlock(statementsOf(s->elseBody)));
        out.push_back(copy);
      } else if (!depends(s)) {
        flush(pending, out);
        out.push_back(s);
      } else {
        pending.push_back(s);
      }
    }
    flush(pending, out);
    return out;
  }
};

}  // namespace

Stmt stripMineAndJam(const Kernel &k, const Stmt &loop, const StripSpec &spec) {
  Jammer jammer(k, loop, spec);
  return jammer.run(k);
}

bool isStrip(const Stmt &s) {
  return s && s->kind == StmtKind::For &&
         (s->loopKind == LoopKind::Merge || s->loopKind == LoopKind::Skew);
}

// Statements of a body with nested plain blocks spliced in.
static void flatten(const Stmt &s, std::vector<Stmt> &out) {
  if (!s) return;
  if (s->kind != StmtKind::Block) {
    out.push_back(s);
    return;
  }
  for (const Stmt &c : s->stmts) flatten(c, out);
}

Expr StripView::guardAtFirst() const {
  Expr g = guard;
  for (auto it = header.rbegin(); it != header.rend(); ++it)
    g = substitute(g, {{(*it)->name, (*it)->value}});
  return simplify(substitute(g, {{loop->name, loop->min}}));
}

Expr stripIndex(const Stmt &header) {
  const Expr &v = header->value;
  if (v->kind == ExprKind::Cast && v->operands[0]->kind == ExprKind::Call &&
      v->operands[0]->name == kClamp)
    return v->operands[0]->operands[0];
  return v;
}

// A declaration without the clamp of its strip index (itself where it has none); `typed`
// converts the index to the declared type in the code, else the declaration does.
static Stmt unclamped(const Stmt &s, bool typed) {
  if (s->kind != StmtKind::Decl || !s->value || equal(stripIndex(s), s->value)) return s;
  auto copy = std::make_shared<StmtNode>(*s);
  copy->value = typed ? cast(s->type, stripIndex(s)) : stripIndex(s);
  return copy;
}

Kernel unclampStrips(const Kernel &k) {
  Kernel out = k;
  out.body = mapStmt(k.body, [](const Stmt &s) { return unclamped(s, false); });
  return out;
}

Stmt wholeStripsFirst(const Stmt &body) {
  std::vector<Stmt> strips;
  std::set<std::string> stripNames;
  visitStmt(body, [&](const Stmt &s) {
    if (!isStrip(s)) return;
    strips.push_back(s);
    for (const std::string &n : viewStrip(s).names) stripNames.insert(n);
  });
  if (strips.empty()) return body;
  std::vector<Expr> whole;
  for (const Stmt &s : strips) {
    StripView v = viewStrip(s);
    int64_t step = 0, first = 0;
    if (!v.guard || v.header.size() != 1 || !isConst(s->step, &step) || step != 1 ||
        !isConst(s->min, &first) || first != 0 || !isVar(v.guard->operands[0], v.header[0]->name))
      return body;
    Expr index = stripIndex(v.header[0]);
    std::set<std::string> used = varsOf(index);
    used.erase(s->name);
    for (const std::string &n : used)
      if (stripNames.count(n)) return body;
    // The last iteration's index, in the (64-bit) type of the index, below the loop's end.
    Expr last = substitute(index, {{s->name, sub(s->end, intImm(1))}});
    const Type wide = wideIndexType(v.header[0]->type);
    Expr cond = simplify(lt(last, cast(wide, v.guard->operands[1])));
    bool seen = false;
    for (const Expr &w : whole) seen |= equal(w, cond);
    if (!seen) whole.push_back(cond);
  }
  Stmt fast = mapStmt(body, [](const Stmt &s) -> Stmt {
    if (!isStrip(s)) return s;
    StripView v = viewStrip(s);
    std::vector<Stmt> stmts = {unclamped(v.header[0], true)};
    stmts.insert(stmts.end(), v.rest.begin(), v.rest.end());
    auto copy = std::make_shared<StmtNode>(*s);
    copy->body = block(stmts);
    return copy;
  });
  Expr cond = whole.front();
  for (size_t i = 1; i < whole.size(); ++i) cond = land(cond, whole[i]);
  return block({ifThen(cond, fast, body)});
}

StripView viewStrip(const Stmt &loop) {
  StripView v;
  v.loop = loop;
  v.names.insert(loop->name);
  std::vector<Stmt> body;
  flatten(loop->body, body);
  size_t i = 0;
  for (; i < body.size() && body[i]->kind == StmtKind::Decl && body[i]->value &&
         !body[i]->arraySize;
       ++i) {
    v.header.push_back(body[i]);
    v.names.insert(body[i]->name);
  }
  // The guard is the one the strip was built with, `v < end` on the strip's index; a user's
  // `if` that depends on the row (if (i > 5), if (A[i][k] > 0)) left alone after a pass
  // dropped the guard is not one (later passes would evaluate it for the first row only).
  const Expr *c = i + 1 == body.size() && body[i]->kind == StmtKind::If && !body[i]->elseBody
                      ? &body[i]->cond : nullptr;
  bool guard = c && (*c)->kind == ExprKind::Binary && (*c)->name == "<" &&
               (*c)->operands[0]->kind == ExprKind::Var && v.names.count((*c)->operands[0]->name);
  if (guard) {
    v.guard = body[i]->cond;
    flatten(body[i]->body, v.rest);
  } else {
    v.rest.assign(body.begin() + i, body.end());
  }
  return v;
}

}  // namespace rtcuda
