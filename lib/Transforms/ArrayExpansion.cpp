// ArrayExpansion: a private array of the innermost of parallel loops, fully written before it
// is read in each iteration, becomes one device array with a slice per iteration, so that the
// statements writing it and the ones reading it become separate nests (PolyBench's doitgen):
//
//   for (r = 0; r < nr; r++)                      float sum_own_x[NR][NQ][256];  // device
//     for (q = 0; q < nq; q++) {                  for (r ...) for (q ...)
//       float sum_own[256];                 ==>     for (p ...) { sum_own_x[r][q][p] = 0;
//       for (p ...) { sum_own[p] = 0;                 for (s ...) sum_own_x[r][q][p] += ...; }
//         for (s ...) sum_own[p] += A[r][q][s] * C4[s][p]; }
//       for (p ...) A[r][q][p] = sum_own[p];      for (r ...) for (q ...)
//     }                                             for (p ...) A[r][q][p] = sum_own_x[r][q][p];
//
// Each thread then no longer runs a loop nest over its own copy in local memory: the first
// nest is a (batched) contraction, which BatchCollapse and RegisterTiling take, the second a
// copy. Expanding is legal because each iteration of the loops had its own copy, written before
// read (LocalArrays placed the declaration there); distributing is legal when the loops carry no
// dependence at all (isl, carriedDependences). The temporary's leading dimensions are those of
// an array the nest already indexes with the same loops, and it is never larger than that
// array. Runs on the kernel function after LocalArrays, before Fission and Outline;
// docs/passes/ArrayExpansion.md.
#include "rtcuda/Transforms/ArrayExpansion.h"

#include "rtcuda/Analysis/Dependence.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"
#include "rtcuda/Transforms/Pass.h"

#include <set>

namespace rtcuda {

using namespace ir;

namespace {

std::string at(const Stmt &s) { return "'" + s->name + "' (" + s->loc.str() + ")"; }

// Whether some loop of `s` holds another loop: a thread would run a loop nest over its copy.
bool holdsLoopNest(const Stmt &s) {
  bool found = false;
  visitStmt(s, [&](const Stmt &n) {
    if (n->kind != StmtKind::For) return;
    visitStmt(n->body, [&](const Stmt &m) { found |= m->kind == StmtKind::For; });
  });
  return found;
}

// `s` with every access to `from` (one subscript) prefixed by the chain's loop variables and
// renamed `to`.
Stmt expandAccesses(const Stmt &s, const std::string &from, const std::string &to,
                    const std::vector<Expr> &prefix) {
  auto indices = [&](const std::vector<Expr> &old) {
    std::vector<Expr> out = prefix;
    out.insert(out.end(), old.begin(), old.end());
    return out;
  };
  return mapStmt(
      s,
      [&](const Stmt &n) -> Stmt {
        if (n->kind != StmtKind::Store || n->name != from) return n;
        auto c = std::make_shared<StmtNode>(*n);
        c->name = to;
        c->indices = indices(n->indices);
        return c;
      },
      [&](const Expr &x) -> Expr {  // mapStmt applies it to every node
        if (x->kind != ExprKind::Load || x->name != from) return x;
        auto c = std::make_shared<ExprNode>(*x);
        c->name = to;
        c->operands = indices(x->operands);
        return c;
      });
}

Stmt withBody(const Stmt &loop, std::vector<Stmt> stmts) {
  auto copy = std::make_shared<StmtNode>(*loop);
  copy->body = withLoc(block(std::move(stmts)), loop->body ? loop->body->loc : loop->loc);
  return copy;
}

// The chain around `body` (chain[0] outermost), each loop holding only the next; `loops`
// receives the new loop nodes, outermost first.
Stmt wrap(const std::vector<Stmt> &chain, std::vector<Stmt> body, std::vector<Stmt> *loops) {
  Stmt inner;
  std::vector<Stmt> made;
  for (size_t d = chain.size(); d-- > 0;) {
    inner = withBody(chain[d], inner ? std::vector<Stmt>{inner} : std::move(body));
    made.insert(made.begin(), inner);
  }
  if (loops) *loops = made;
  return inner;
}

class Expander {
public:
  Expander(const Kernel &fn, std::vector<std::pair<SourceLoc, std::string>> &remarks)
      : fn(fn), remarks(remarks) {}

  // The top-level statement `top` as one or more statements (the temporary's declaration and
  // the distributed nests), or {top} when nothing applies.
  std::vector<Stmt> expand(const Stmt &top) {
    std::vector<Stmt> chain;
    for (Stmt s = top; s && s->kind == StmtKind::For;) {
      chain.push_back(s);
      std::vector<Stmt> body = statementsOf(s->body);
      if (body.size() == 1 && body[0]->kind == StmtKind::For) s = body[0];
      else break;
    }
    if (chain.empty()) return {top};
    std::vector<Stmt> body = statementsOf(chain.back()->body);
    if (body.empty() || body[0]->kind != StmtKind::Decl || !body[0]->arraySize) return {top};
    const Stmt &decl = body[0];
    std::string why = declines(chain, body);
    if (!why.empty()) {
      remarks.push_back({decl->loc, "array " + at(decl) + " stays private to each iteration "
                                    "of loop '" + chain.back()->name + "': " + why});
      return {top};
    }
    std::vector<Expr> prefix;
    for (const Stmt &l : chain) prefix.push_back(var(l->name, l->type));
    std::string name = freshName(fn, decl->name + "_x");
    std::vector<Expr> dims(model->dims.begin(), model->dims.begin() + chain.size());
    dims.push_back(decl->arraySize);
    Expr total;
    for (const Expr &d : dims) total = total ? mul(total, d) : d;
    auto temp = std::make_shared<StmtNode>(*decl);
    temp->name = name;
    temp->arraySize = total;
    temp->indices = dims;  // a Decl's logical dimensions (more than one)
    // Cut after the last statement that writes the array: its writers, then its readers.
    size_t cut = 1;
    for (size_t i = 1; i < body.size(); ++i)
      if (storesTo(body[i], decl->name)) cut = i + 1;
    std::vector<Stmt> first, second;
    for (size_t i = 1; i < body.size(); ++i)
      (i < cut ? first : second).push_back(expandAccesses(body[i], decl->name, name, prefix));
    if (first.empty() || second.empty()) {
      remarks.push_back({decl->loc, "array " + at(decl) + " stays private to each iteration of "
                                    "loop '" + chain.back()->name + "': no statement reads it "
                                    "after the last one that writes it"});
      return {top};
    }
    // Legality of the distribution: the chain, expanded, carries no dependence.
    std::vector<Stmt> whole = first, loops;
    whole.insert(whole.end(), second.begin(), second.end());
    Stmt nest = wrap(chain, whole, &loops);
    Kernel probe = fn;
    probe.body = withLoc(block({temp, nest}), fn.body->loc);
    for (const Dependence &d : carriedDependences(probe, loops))
      if (d.level < int(chain.size())) {
        remarks.push_back({decl->loc, "array " + at(decl) + " not expanded: expanded, loop '" +
                                          chain[d.level]->name + "' would still carry a "
                                          "dependence: " + d.message});
        return {top};
      }
    std::string loopsText;
    for (size_t i = 0; i < chain.size(); ++i)
      loopsText += std::string(i ? ", " : "") + "'" + chain[i]->name + "'";
    std::string dimsText;
    for (const Expr &d : dims) dimsText += "[" + print(d) + "]";
    remarks.push_back(
        {decl->loc, "array " + at(decl) + " expanded into the device array '" + name + "'" +
                        dimsText + " (a slice per iteration of loops " + loopsText +
                        ", no larger than '" + model->name + "', which the nest indexes with "
                        "the same loops); the statements that write it and those that read it "
                        "become two nests: the loops carry no dependence"});
    return {temp, wrap(chain, first, nullptr), wrap(chain, second, nullptr)};
  }

private:
  const Kernel &fn;
  std::vector<std::pair<SourceLoc, std::string>> &remarks;
  const Param *model = nullptr;

  // Why the private array `body[0]` of the chain's innermost loop is not expanded (empty: it
  // is, with `model` the array whose leading dimensions the temporary takes).
  std::string declines(const std::vector<Stmt> &chain, const std::vector<Stmt> &body) {
    const Stmt &decl = body[0];
    int64_t n = 0;
    if (!isConst(decl->arraySize, &n) || n <= 0) return "its size is not a positive constant";
    bool nest = false;
    for (size_t i = 1; i < body.size(); ++i)
      nest |= storesTo(body[i], decl->name) && holdsLoopNest(body[i]);
    if (!nest) return "no loop nest writes it (a thread's copy costs little)";
    for (size_t i = 1; i < body.size(); ++i)
      if (body[i]->kind == StmtKind::Decl)
        return "the loop body declares '" + body[i]->name + "', which the nests would share";
    std::set<std::string> chainVars;
    for (const Stmt &l : chain) {
      int64_t lo = -1, step = 0;
      if (!isConst(l->min, &lo) || lo != 0 || !isConst(l->step, &step) || step != 1)
        return "loop '" + l->name + "' does not count from 0 in steps of 1";
      for (const std::string &v : varsOf(l->end))
        if (chainVars.count(v)) return "the bounds of loop '" + l->name + "' use an outer loop's variable";
      chainVars.insert(l->name);
    }
    // The model: an array parameter that the body indexes as X[l0][l1]...[...] with the chain's
    // variables, constant dimensions, at least as many elements as the temporary.
    model = nullptr;
    std::string sizes;
    for (size_t i = 1; i < body.size() && !model; ++i)
      visitStmt(body[i], nullptr, [&](const Expr &e) {
        visitExpr(e, [&](const Expr &x) {
          const Param *p = x->kind == ExprKind::Load ? fn.findParam(x->name) : nullptr;
          if (model || !p || !p->isArray || p->dims.size() <= chain.size() ||
              x->operands.size() != p->dims.size())
            return;
          for (size_t d = 0; d < chain.size(); ++d)
            if (!isVar(x->operands[d], chain[d]->name)) return;
          // Leading dimensions (the temporary's) known, the rest constant: a slice of the
          // temporary is then no larger than the model's slice.
          int64_t inner = 1, v = 0;
          for (size_t d = 0; d < p->dims.size(); ++d) {
            if (!p->dims[d] || (d >= chain.size() && !isConst(p->dims[d], &v))) {
              sizes = "'" + p->name + "' has " + (p->dims[d] ? "dimensions after the loops' "
                                                               "that are not constants"
                                                             : "no first dimension");
              return;
            }
            if (d >= chain.size()) inner *= v;
          }
          if (n > inner) {
            sizes = "its " + std::to_string(n) + " elements per iteration exceed the " +
                    std::to_string(inner) + " of '" + p->name + "'";
            return;
          }
          model = p;
        });
      });
    if (!model)
      return sizes.empty() ? "no array of the nest is indexed by the loops' variables first, to "
                             "bound and shape the temporary"
                           : "the temporary would be larger than the arrays of the nest: " + sizes;
    return "";
  }
};

}  // namespace

ExpansionResult expandArrays(const Kernel &fn) {
  ExpansionResult out;
  out.kernel = fn;
  if (!fn.body) return out;
  Expander e(fn, out.remarks);
  std::vector<Stmt> stmts;
  bool changed = false;
  for (const Stmt &s : fn.body->stmts) {
    std::vector<Stmt> made = e.expand(s);
    changed |= made.size() != 1 || made[0] != s;
    stmts.insert(stmts.end(), made.begin(), made.end());
  }
  if (changed) out.kernel.body = withLoc(block(stmts), fn.body->loc);
  return out;
}

}  // namespace rtcuda
