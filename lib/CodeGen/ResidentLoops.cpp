// Which host loops may keep their arrays on the GPU. A launch function copies its arrays in and
// the written ones out at every call; in an iterative host loop (100 Jacobi sweeps) those copies
// dwarf the kernels. A loop qualifies when nothing in it can see an array's contents except the
// kernels: then copying each array in at its first launch and every written one out when the
// loop ends gives the same results (rtcuda_resident_begin/end in rtcuda_runtime.h).
//
// The test is syntactic and conservative. Anything that could read or write array elements on
// the host, or call code that could, disqualifies the loop: an element access (a[i], *p, p->f),
// a call of anything but a kernel or a scalar library function, a local array declared in the
// loop, return or goto (which would leave without the copies). A kernel's array argument must be
// a variable, so its mirror is found by the pointer's value; pointer assignments (swapping two
// arrays between sweeps) are fine. The runtime still checks that no two arrays of the loop
// overlap and falls back to per-launch copies if they do.
#include "ResidentLoops.h"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

namespace rtcuda {

namespace {

using namespace clang;

// Library functions that take and return scalars (format strings and stdout/stderr aside).
bool isScalarLibraryFunction(const std::string &name) {
  static const std::set<std::string> names = {
      "printf", "fprintf", "puts",  "putchar", "fflush", "sqrt",  "sqrtf", "fabs",  "fabsf",
      "fmax",   "fmaxf",   "fmin",  "fminf",   "pow",    "powf",  "exp",   "expf",  "log",
      "logf",   "sin",     "sinf",  "cos",     "cosf",   "floor", "floorf", "ceil", "ceilf",
      "abs",    "labs",    "rand",  "clock",   "time"};
  return names.count(name) > 0;
}

class LoopCheck : public RecursiveASTVisitor<LoopCheck> {
public:
  LoopCheck(ASTContext &ctx, const std::set<std::string> &kernels) : ctx(ctx), kernels(kernels) {}
  bool ok = true;
  bool launches = false;

  bool VisitCallExpr(CallExpr *call) {
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee) return fail();
    const std::string name = callee->getNameAsString();
    if (kernels.count(name)) {
      launches = true;
      for (const Expr *arg : call->arguments())
        if (arg->getType()->isPointerType() || arg->getType()->isArrayType())
          if (!llvm::isa<DeclRefExpr>(arg->IgnoreParenCasts())) return fail();
      return true;
    }
    if (!isScalarLibraryFunction(name)) return fail();
    for (const Expr *arg : call->arguments())
      if (arg->getType()->isPointerType() && !harmless(arg)) return fail();
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *) { return fail(); }
  bool VisitUnaryOperator(UnaryOperator *op) {
    return op->getOpcode() == UO_Deref ? fail() : true;
  }
  bool VisitMemberExpr(MemberExpr *member) { return member->isArrow() ? fail() : true; }
  bool VisitVarDecl(VarDecl *var) { return var->getType()->isArrayType() ? fail() : true; }
  bool VisitReturnStmt(ReturnStmt *) { return fail(); }
  bool VisitGotoStmt(GotoStmt *) { return fail(); }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *) { return fail(); }
  bool VisitAsmStmt(AsmStmt *) { return fail(); }

private:
  ASTContext &ctx;
  const std::set<std::string> &kernels;

  bool fail() {
    ok = false;
    return false; // stops the traversal
  }
  // A pointer a scalar library function may get: a string literal, stdout/stderr, or null
  // (time(NULL)).
  bool harmless(const Expr *arg) const {
    const Expr *e = arg->IgnoreParenImpCasts();
    if (llvm::isa<StringLiteral>(e)) return true;
    if (const auto *ref = llvm::dyn_cast<DeclRefExpr>(e)) {
      const std::string name = ref->getDecl()->getNameAsString();
      if (name == "stdout" || name == "stderr") return true;
    }
    return e->isNullPointerConstant(ctx, Expr::NPC_ValueDependentIsNotNull) != Expr::NPCK_NotNull;
  }
};

class LoopFinder : public RecursiveASTVisitor<LoopFinder> {
public:
  LoopFinder(ASTContext &ctx, const std::set<std::string> &kernels) : ctx(ctx), kernels(kernels) {}
  std::vector<const Stmt *> loops;

  bool TraverseForStmt(ForStmt *s) {
    return take(s) || RecursiveASTVisitor::TraverseForStmt(s);
  }
  bool TraverseWhileStmt(WhileStmt *s) {
    return take(s) || RecursiveASTVisitor::TraverseWhileStmt(s);
  }
  bool TraverseDoStmt(DoStmt *s) { return take(s) || RecursiveASTVisitor::TraverseDoStmt(s); }

private:
  ASTContext &ctx;
  const std::set<std::string> &kernels;

  // The loop qualifies: recorded, and its inner loops are not looked at.
  bool take(Stmt *loop) {
    const SourceManager &sm = ctx.getSourceManager();
    if (loop->getBeginLoc().isMacroID() || loop->getEndLoc().isMacroID() ||
        !sm.isInMainFile(loop->getBeginLoc()))
      return false;
    LoopCheck check(ctx, kernels);
    check.TraverseStmt(loop);
    if (!check.ok || !check.launches) return false;
    loops.push_back(loop);
    return true;
  }
};

} // namespace

std::vector<const Stmt *> findResidentLoops(ASTContext &ctx, const std::set<std::string> &kernels) {
  LoopFinder finder(ctx, kernels);
  finder.TraverseDecl(ctx.getTranslationUnitDecl());
  return finder.loops;
}

} // namespace rtcuda
