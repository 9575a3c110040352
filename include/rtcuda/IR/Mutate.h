// Generic walks over the kernel IR: visit every node, rebuild bottom-up, substitute variables.
#pragma once

#include "rtcuda/IR/IR.h"

#include <functional>
#include <map>
#include <set>

namespace rtcuda::ir {

using ExprFn = std::function<Expr(const Expr &)>;
using StmtFn = std::function<Stmt(const Stmt &)>;

// Pre-order visit of an expression tree.
void visitExpr(const Expr &e, const std::function<void(const Expr &)> &fn);
// Pre-order visit of a statement tree; onExpr (optional) sees every expression tree root.
void visitStmt(const Stmt &s, const std::function<void(const Stmt &)> &onStmt,
               const std::function<void(const Expr &)> &onExpr = nullptr);

// Bottom-up rebuild: children first, then fn on the rebuilt node (fn may return it unchanged).
Expr mapExpr(const Expr &e, const ExprFn &fn);
// Bottom-up rebuild of statements; exprFn (optional) is applied to every expression tree.
Stmt mapStmt(const Stmt &s, const StmtFn &stmtFn, const ExprFn &exprFn = nullptr);

Expr substitute(const Expr &e, const std::map<std::string, Expr> &values);
Stmt substitute(const Stmt &s, const std::map<std::string, Expr> &values);

bool mentions(const Expr &e, const std::string &name);
bool mentionsAny(const Expr &e, const std::set<std::string> &names);
std::set<std::string> varsOf(const Expr &e);

// Structural equality (ignores source locations).
bool equal(const Expr &a, const Expr &b);

}  // namespace rtcuda::ir
