// Which host loops may keep their arrays on the GPU. A launch function copies its arrays in and
// the written ones out at every call; in an iterative host loop (100 Jacobi sweeps) those copies
// dwarf the kernels. A loop qualifies when nothing in it can see an array's contents except the
// kernels: then copying each array in at its first launch and every written one out when the
// loop ends gives the same results (rtcuda_resident_begin/end in rtcuda_runtime.h).
//
// The test is syntactic and conservative. Anything that could read or write array elements on
// the host, or call code that could, disqualifies the loop: an element access (a[i], *p, p->f),
// a call of anything but a kernel, an RT-API computing call or a scalar library function, a
// local array declared in the loop, return or goto (which would leave without the copies). RT-API
// calls are renamed to wrappers that pass the arrays' device copies (rtcuda_rtapi.h). A kernel's array argument must be
// a variable, so its mirror is found by the pointer's value; pointer assignments (swapping two
// arrays between sweeps) are fine. The runtime still checks that no two arrays of the loop
// overlap and falls back to per-launch copies if they do.
#include "ResidentLoops.h"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

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

// The RT-API calls rtcuda_rtapi.h wraps: dense, and sparse x dense (their structs' arrays are
// read where they are). Sparse x sparse, Create, Load and Destroy make or free arrays: not here.
bool isWrappedRtapiCall(const std::string &name) {
  static const std::set<std::string> names = {
      "RTdSMM", "RTdDMM",  "RTdSMV",  "RTdDMV",  "RTdSMT",   "RTdDMT",  "RTdSVV",
      "RTdDVV", "RTdSDOT", "RTdDDOT", "RTspSMV", "RTspDMV", "RTspdSMM", "RTspdDMM"};
  return names.count(name) > 0;
}

bool isVariable(const Expr *e) { return llvm::isa<DeclRefExpr>(e->IgnoreParenCasts()); }

// &v of a variable that is not itself an array or a pointer: a scalar or a struct.
bool isAddressOfValue(const Expr *e) {
  const auto *op = llvm::dyn_cast<UnaryOperator>(e->IgnoreParenCasts());
  if (!op || op->getOpcode() != UO_AddrOf) return false;
  const Expr *var = op->getSubExpr()->IgnoreParens();
  return llvm::isa<DeclRefExpr>(var) && !var->getType()->isPointerType() &&
         !var->getType()->isArrayType();
}

class LoopCheck : public RecursiveASTVisitor<LoopCheck> {
public:
  LoopCheck(ASTContext &ctx, const std::set<std::string> &kernels) : ctx(ctx), kernels(kernels) {}
  bool ok = true;
  bool launches = false;
  std::vector<SourceLocation> rtapiCalls;

  bool VisitCallExpr(CallExpr *call) {
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee) return fail();
    const std::string name = callee->getNameAsString();
    if (kernels.count(name)) {
      launches = true;
      for (const Expr *arg : call->arguments())
        if (arg->getType()->isPointerType() || arg->getType()->isArrayType())
          if (!isVariable(arg)) return fail();
      return true;
    }
    if (isWrappedRtapiCall(name)) return rtapiCall(call, name);
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

  // Arrays as variables, structs and the dot product's r as &variable (an r that pointed into an
  // array could not be kept apart from the array's device copy); the function's name written
  // where the call is, so that it can be renamed.
  bool rtapiCall(CallExpr *call, const std::string &name) {
    const bool dot = name.size() > 3 && name.compare(name.size() - 3, 3, "DOT") == 0;
    for (unsigned i = 0; i < call->getNumArgs(); ++i) {
      const Expr *arg = call->getArg(i);
      if (!arg->getType()->isPointerType()) continue;
      const bool last = i + 1 == call->getNumArgs();
      if (dot && last ? !isAddressOfValue(arg) : !isVariable(arg) && !isAddressOfValue(arg))
        return fail();
    }
    const SourceManager &sm = ctx.getSourceManager();
    const SourceLocation at = sm.getExpansionLoc(call->getBeginLoc());
    if (!sm.isInMainFile(at) || Lexer::getSourceText(CharSourceRange::getTokenRange(at, at), sm,
                                                     ctx.getLangOpts()) != name)
      return fail();
    launches = true;
    rtapiCalls.push_back(at);
    return true;
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
  std::vector<ResidentLoop> loops;

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
    loops.push_back(ResidentLoop{loop, check.rtapiCalls});
    return true;
  }
};

} // namespace

std::vector<ResidentLoop> findResidentLoops(ASTContext &ctx,
                                            const std::set<std::string> &kernels) {
  LoopFinder finder(ctx, kernels);
  finder.TraverseDecl(ctx.getTranslationUnitDecl());
  return finder.loops;
}

} // namespace rtcuda
