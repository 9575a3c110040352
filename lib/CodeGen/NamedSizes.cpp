// NamedSizes: the last rewrite before a kernel is printed into kernel.cu, for the reader.
//
// Passes build their sizes from the tuning macros (rows per block, tile pitch, slab depth, ...)
// and use them where they need them, so the same expression ends up written many times. Here
// every derived size that is written more than once becomes one named constant at the top of
// the kernel:
//
//   int depth = TK < 49152 / ((BS / TC * ML - ...) ...) ? TK : 49152 / (...);
//   for (t = ..; t < BS / TC * ML * depth; ..)
//                               ==>
//   const int block_rows = BS / TC * ML;  (a name a pass declared, or one built here)
//   const int depth = TK < max_depth ? TK : max_depth;
//   for (t = ..; t < block_rows * depth; ..)
//
// A derived size is an expression with at least one operator whose leaves are tuning macros,
// integer literals, scalar parameters the kernel never assigns and names of derived sizes,
// with at least one macro or name.
// Its name is the one a pass gave it (a declaration at the top level of the body whose value is
// that expression and which is never assigned), else one built from its operands. Each name is
// a `const` of its declaration's type (of the expression's for a name built here), so nvcc
// folds it exactly as before (same PTX).
//
// Also for the reader: a loop split into a full part and a tail (`if (full) {..} else {..}`)
// whose two copies declare the same local (`B_reg` and `B_reg_`) names them `_full` and `_tail`.
#include "rtcuda/CodeGen/CodeGen.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace rtcuda {

using namespace ir;

namespace {

struct Name {
  std::string name;
  Expr value;
  Type type;  // the declaration's own type, not the value's (a long long extent stays one)
};

class Namer {
public:
  explicit Namer(const Kernel &k) {
    for (const TuningParam &t : k.tuning) macros.insert(t.macro);
    std::set<std::string> assigned;
    visitStmt(k.body, [&](const Stmt &s) {
      if (s->kind == StmtKind::Assign) assigned.insert(s->name);
      if (!s->name.empty()) used.insert(s->name);
      if (s->kind == StmtKind::Decl || s->kind == StmtKind::For) ++declarations[s->name];
    }, [&](const Expr &e) {
      for (const std::string &v : varsOf(e)) used.insert(v);
    });
    for (const Param &p : k.params) {
      used.insert(p.name);
      if (!p.isArray && p.type.isInteger() && !assigned.count(p.name)) scalars.insert(p.name);
    }
    for (const std::string &m : macros) used.insert(m);
    this->assigned = assigned;
  }

  // Macros, literals and unassigned scalar parameters only; `operators` and `macroSeen` report
  // whether it has an operator and a macro.
  bool pure(const Expr &e, bool &operators, bool &macroSeen) const {
    switch (e->kind) {
    case ExprKind::IntImm: return true;
    case ExprKind::Var:
      macroSeen |= macros.count(e->name) > 0 || named.count(e->name) > 0;
      return macros.count(e->name) || scalars.count(e->name) || named.count(e->name);
    case ExprKind::Unary: case ExprKind::Binary: case ExprKind::Select: case ExprKind::Cast:
      if (!e->type.isInteger()) return false;
      operators |= e->kind != ExprKind::Cast;
      for (const Expr &o : e->operands)
        if (!pure(o, operators, macroSeen)) return false;
      return true;
    default: return false;
    }
  }
  bool derived(const Expr &e) const {
    bool operators = false, macroSeen = false;
    return e && pure(e, operators, macroSeen) && operators && macroSeen;
  }

  // A top-level declaration that names a derived size for good.
  bool namesSize(const Stmt &s) const {
    return s->kind == StmtKind::Decl && !s->arraySize && !s->shared && derived(s->value) &&
           !assigned.count(s->name) && declarations.at(s->name) == 1;
  }

  std::set<std::string> named;  // names given so far: leaves of later derived sizes

  std::string fresh(const Expr &e) {
    std::string base = describe(e, 0);
    if (base.empty() || base.size() > 40) base = "derived_size";
    if (std::isdigit(static_cast<unsigned char>(base[0]))) base = "size_" + base;  // 2_x_...
    std::string n = base;
    for (int i = 2; used.count(n); ++i) n = base + "_" + std::to_string(i);
    used.insert(n);
    return n;
  }

private:
  std::set<std::string> macros, scalars, used, assigned;
  std::map<std::string, int> declarations;

  // `MM_THREAD_COLS * MM_SKEW_LEVEL` -> thread_cols_x_skew_level; empty when too deep.
  std::string describe(const Expr &e, int depth) const {
    if (depth > 2) return "";
    if (e->kind == ExprKind::IntImm) return std::to_string(e->intValue);
    if (e->kind == ExprKind::Var) {
      std::string n = e->name;
      if (macros.count(n) && n.find('_') != std::string::npos) {
        // The kernel's prefix is the part before the parameter's own name.
        for (const char *suffix : {"BLOCKSIZE", "MERGE_LEVEL", "SKEW_LEVEL", "THREAD_COLS",
                                   "TILE_K", "LANES", "MERGE_STRIPED", "SKEW_STRIPED"})
          if (n.size() > std::string(suffix).size() &&
              n.compare(n.size() - std::string(suffix).size(), std::string::npos, suffix) == 0)
            n = suffix;
      }
      std::transform(n.begin(), n.end(), n.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      return n;
    }
    if (e->kind == ExprKind::Cast) return describe(e->operands[0], depth);
    if (e->kind != ExprKind::Binary) return "";
    static const std::map<std::string, std::string> words = {
        {"*", "_x_"}, {"/", "_over_"}, {"+", "_plus_"}, {"-", "_minus_"}, {"%", "_mod_"}};
    auto w = words.find(e->name);
    std::string a = describe(e->operands[0], depth + 1), b = describe(e->operands[1], depth + 1);
    if (w == words.end() || a.empty() || b.empty()) return "";
    return a + w->second + b;
  }
};

int size(const Expr &e) {
  int n = 0;
  visitExpr(e, [&](const Expr &) { ++n; });
  return n;
}

Expr replaceAll(const Expr &e, const std::string &key, const Expr &with) {
  return mapExpr(e, [&](const Expr &n) { return print(n) == key ? with : n; });
}

// `_full`/`_tail` for the locals of the two copies of a split loop.
Stmt renameSplitCopies(const Stmt &body, std::set<std::string> &used) {
  return mapStmt(body, [&](const Stmt &s) -> Stmt {
    if (s->kind != StmtKind::If || !s->body || !s->elseBody) return s;
    std::set<std::string> inThen, inElse;
    auto declared = [](const Stmt &part, std::set<std::string> &names) {
      visitStmt(part, [&](const Stmt &n) {
        if (n->kind == StmtKind::Decl) names.insert(n->name);
      });
    };
    declared(s->body, inThen);
    declared(s->elseBody, inElse);
    std::map<std::string, std::string> thenNames, elseNames;
    for (const std::string &n : inElse) {
      std::string base = n;
      while (!base.empty() && base.back() == '_') base.pop_back();
      if (base == n || !inThen.count(base) || used.count(base + "_full") ||
          used.count(base + "_tail"))
        continue;
      thenNames[base] = base + "_full";
      elseNames[n] = base + "_tail";
      used.insert(base + "_full");
      used.insert(base + "_tail");
    }
    if (thenNames.empty()) return s;
    auto rename = [](const Stmt &part, const std::map<std::string, std::string> &names) {
      auto renamed = [&](const std::string &n) {
        auto it = names.find(n);
        return it == names.end() ? n : it->second;
      };
      return mapStmt(part, [&](const Stmt &n) -> Stmt {
        if (n->kind != StmtKind::Decl && n->kind != StmtKind::Store && n->kind != StmtKind::Assign)
          return n;
        auto copy = std::make_shared<StmtNode>(*n);
        copy->name = renamed(n->name);
        return copy;
      }, [&](const Expr &e) {
        return mapExpr(e, [&](const Expr &x) -> Expr {
          if (x->kind != ExprKind::Var && x->kind != ExprKind::Load) return x;
          auto copy = std::make_shared<ExprNode>(*x);
          copy->name = renamed(x->name);
          return copy;
        });
      });
    };
    auto out = std::make_shared<StmtNode>(*s);
    out->body = rename(s->body, thenNames);
    out->elseBody = rename(s->elseBody, elseNames);
    return out;
  });
}

Stmt nameSizes(const Kernel &k, const Stmt &body) {
  if (!body || body->kind != StmtKind::Block) return body;
  Namer namer(k);
  std::vector<Name> names;
  std::vector<Stmt> rest;
  std::map<std::string, const StmtNode *> origin;
  for (const Stmt &s : body->stmts) {
    if (namer.namesSize(s)) {
      names.push_back({s->name, s->value, s->type});
      namer.named.insert(s->name);
      origin[s->name] = s.get();
    } else {
      rest.push_back(s);
    }
  }
  Stmt remaining = block(rest);
  // The largest expression written more than once first, until none is.
  for (;;) {
    std::map<std::string, std::pair<int, Expr>> seen;
    auto count = [&](const Expr &root) {
      visitExpr(root, [&](const Expr &e) {
        if (!namer.derived(e)) return;
        auto &entry = seen[print(e)];
        ++entry.first;
        entry.second = e;
      });
    };
    visitStmt(remaining, nullptr, count);
    for (const Name &n : names) count(n.value);
    std::string key;
    Expr best;
    for (const auto &[text, entry] : seen)
      if (entry.first > 1 && (!best || size(entry.second) > size(best))) {
        key = text;
        best = entry.second;
      }
    if (!best) break;
    auto existing = std::find_if(names.begin(), names.end(),
                                 [&](const Name &n) { return print(n.value) == key; });
    std::string name = existing != names.end() ? existing->name : namer.fresh(best);
    if (existing == names.end()) {
      names.push_back({name, best, best->type});
      namer.named.insert(name);
    }
    Expr ref = var(name, best->type);
    remaining = mapStmt(remaining, nullptr,
                        [&](const Expr &e) { return replaceAll(e, key, ref); });
    for (Name &n : names)
      if (n.name != name) n.value = replaceAll(n.value, key, ref);
  }
  // Declared in an order where each name follows the names its value uses.
  std::vector<Stmt> out;
  std::set<std::string> placed;
  while (placed.size() < names.size()) {
    size_t before = placed.size();
    for (const Name &n : names) {
      if (placed.count(n.name)) continue;
      bool ready = true;
      for (const std::string &v : varsOf(n.value))
        for (const Name &m : names)
          ready &= m.name != v || placed.count(v) > 0;
      if (!ready) continue;
      auto d = std::make_shared<StmtNode>(*decl(n.name, n.type, n.value));
      d->constant = true;
      if (origin.count(n.name)) d->loc = origin[n.name]->loc;
      out.push_back(d);
      placed.insert(n.name);
    }
    if (placed.size() == before) return body;  // a cycle cannot happen; keep the body if it did
  }
  if (!out.empty()) {
    std::vector<Stmt> withComment{comment("sizes derived from the tuning parameters")};
    withComment.insert(withComment.end(), out.begin(), out.end());
    out = std::move(withComment);
  }
  out.insert(out.end(), remaining->stmts.begin(), remaining->stmts.end());
  std::set<std::string> used;
  visitStmt(k.body, [&](const Stmt &s) { used.insert(s->name); },
            [&](const Expr &e) { for (const std::string &v : varsOf(e)) used.insert(v); });
  for (const Param &p : k.params) used.insert(p.name);
  return renameSplitCopies(withLoc(block(out), body->loc), used);
}

}  // namespace

ir::Kernel nameDerivedSizes(const ir::Kernel &k) {
  ir::Kernel out = k;
  out.body = nameSizes(k, k.body);
  if (k.finish) {
    ir::Kernel f = k;
    f.body = k.finish;
    out.finish = nameSizes(f, k.finish);
  }
  return out;
}

}  // namespace rtcuda
