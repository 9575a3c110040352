// main.c → main.cu with Clang's Rewriter: the user's program stays as written except for
//  - calls of kernel functions, which become calls of their launch functions
//    (rtcuda_launch_<name>("main.c:LINE", args...)), array arguments cast to element pointers;
//  - free() (and, with managed memory, malloc/calloc), which also release device buffers;
//  - conversions C allows implicitly but C++ does not (void * to T *), made explicit;
//  - CUDA calls at statement level, which are checked; removed legacy names are replaced;
//  - prototypes of kernel functions, which kernel.cu now defines;
//  - host loops that only launch kernels and call the RT-API (ResidentLoops.cpp), bracketed so
//    that their arrays stay on the GPU until the loop ends:
//    { rtcuda_resident_begin(); LOOP rtcuda_resident_end(); }, the RT-API calls renamed to the
//    wrappers of rtcuda_rtapi.h.
// main.c may lack includes and prototypes (the original's examples do): it is parsed after a
// prelude with the standard headers, the RT-API and the kernels' prototypes.
#include "rtcuda/Frontend/ClangParse.h"
#include "rtcuda/Frontend/SingleSource.h"
#include "rtcuda/Support/Files.h"
#include "rtcuda/HostRewrite/HostRewrite.h"

#include "HostParse.h"
#include "ResidentLoops.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Lex/Lexer.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace rtcuda {

namespace {

using namespace clang;

const char *kPreludeName = "/rtcuda-prelude/rtcuda_prelude.h";

std::string prelude(const ParsedProgram &program, bool withRtapi) {
  std::string text =
      "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <math.h>\n"
      "#include <time.h>\n";
  if (withRtapi) text += "#include \"rtapi.h\"\n";
  // CUDA calls the original examples make from plain C.
  text += "int cudaSetDevice(int);\nint cudaDeviceSynchronize(void);\nint cudaDeviceReset(void);\n"
          "int cudaThreadSynchronize(void);\nint cudaThreadExit(void);\n";
  return text + program.prototypes;
}

class HostVisitor : public RecursiveASTVisitor<HostVisitor> {
public:
  HostVisitor(ASTContext &ctx, Rewriter &rw, const std::map<std::string, const LoweredKernel *> &k,
              bool managed, std::string mainName)
      : ctx(ctx), sm(ctx.getSourceManager()), rw(rw), kernels(k), managed(managed),
        mainName(std::move(mainName)) {}

  std::set<std::string> launched;
  bool usesRtapi = false;
  std::vector<std::pair<SourceLocation, std::string>> errors;

  // A kernel the main file defines itself (a single-source program): kernel.cu has it now.
  // The definition becomes a comment on as many lines, so main.cu keeps main.c's numbering.
  bool TraverseFunctionDecl(FunctionDecl *fn) {
    if (!inMain(fn->getLocation()) || !fn->doesThisDeclarationHaveABody() ||
        !kernels.count(fn->getNameAsString()))
      return RecursiveASTVisitor::TraverseFunctionDecl(fn);
    SourceRange range(sm.getExpansionLoc(fn->getBeginLoc()), sm.getExpansionLoc(fn->getEndLoc()));
    unsigned lines = sm.getPresumedLoc(range.getEnd()).getLine() -
                     sm.getPresumedLoc(range.getBegin()).getLine();
    rw.ReplaceText(range, "/* kernel '" + fn->getNameAsString() + "' is in kernel.cu */" +
                              std::string(lines, '\n'));
    return true;
  }

  bool VisitFunctionDecl(FunctionDecl *fn) {
    if (inMain(fn->getLocation()) && fn->doesThisDeclarationHaveABody())
      for (const ParmVarDecl *p : fn->parameters())
        if (p->getOriginalType()->isVariablyModifiedType())
          errors.push_back({p->getLocation(),
                            "parameter '" + p->getNameAsString() + "' of '" +
                                fn->getNameAsString() + "' is a variable-length array; main.cu "
                                "is compiled as C++, which has none: give it constant sizes or "
                                "pass a pointer (PolyBench: leave POLYBENCH_USE_C99_PROTO "
                                "undefined)"});
    if (!inMain(fn->getLocation()) || fn->doesThisDeclarationHaveABody()) return true;
    if (kernels.count(fn->getNameAsString())) {
      // kernel.cu defines it now, as a __global__ function.
      SourceLocation end = Lexer::findLocationAfterToken(fn->getEndLoc(), tok::semi, sm,
                                                         ctx.getLangOpts(), false);
      SourceRange range(fn->getBeginLoc(), end.isValid() ? end.getLocWithOffset(-1) : fn->getEndLoc());
      rw.ReplaceText(range, "/* kernel '" + fn->getNameAsString() + "' is in kernel.cu */");
    }
    return true;
  }

  bool VisitCallExpr(CallExpr *call) {
    if (!inMain(call->getBeginLoc())) return true;
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee) return true;
    std::string name = callee->getNameAsString();
    if (llvm::StringRef(sm.getFilename(sm.getExpansionLoc(callee->getLocation()))).ends_with("rtapi.h"))
      usesRtapi = true;
    auto k = kernels.find(name);
    if (k != kernels.end()) {
      rewriteKernelCall(call, *k->second);
      return true;
    }
    SourceLocation at = call->getCallee()->getBeginLoc();
    if (at.isMacroID()) return true;
    if (name == "free")
      renameToken(at, managed ? "rtcuda_managed_free" : "rtcuda_host_free");
    else if (managed && (name == "malloc" || name == "calloc"))
      renameToken(at, "rtcuda_managed_" + name);
    else if (name == "cudaThreadExit")
      renameToken(at, "cudaDeviceReset");
    else if (name == "cudaThreadSynchronize")
      renameToken(at, "cudaDeviceSynchronize");
    return true;
  }

  // Replaces one identifier by its length in the original text: other edits may already have
  // inserted text around it (a cast before a call), which a range-based replace would count.
  void renameToken(SourceLocation loc, const std::string &text) {
    unsigned length = Lexer::MeasureTokenLength(loc, sm, ctx.getLangOpts());
    rw.ReplaceText(loc, length, text);
  }

  // CUDA calls whose result is discarded are checked.
  bool VisitCompoundStmt(CompoundStmt *cs) {
    if (!inMain(cs->getBeginLoc())) return true;
    for (Stmt *s : cs->body()) {
      auto *call = llvm::dyn_cast<CallExpr>(s);
      if (!call || !call->getDirectCallee() || call->getBeginLoc().isMacroID()) continue;
      std::string name = call->getDirectCallee()->getNameAsString();
      if (name.rfind("cuda", 0) != 0) continue;
      rw.InsertTextBefore(call->getBeginLoc(), "RTCUDA_CHECK(");
      rw.InsertTextAfterToken(call->getEndLoc(), ")");
    }
    return true;
  }

  // void * → T * is implicit in C only.
  bool VisitImplicitCastExpr(ImplicitCastExpr *ice) {
    if (!inMain(ice->getBeginLoc()) || ice->getBeginLoc().isMacroID()) return true;
    if (ice->getCastKind() != CK_BitCast) return true;
    QualType from = ice->getSubExpr()->getType(), to = ice->getType();
    if (!from->isVoidPointerType() || !to->isPointerType() || to->isVoidPointerType()) return true;
    PrintingPolicy policy(ctx.getLangOpts());
    rw.InsertTextBefore(ice->getBeginLoc(), "(" + to.getAsString(policy) + ")(");
    rw.InsertTextAfterToken(ice->getEndLoc(), ")");
    return true;
  }

private:
  ASTContext &ctx;
  SourceManager &sm;
  Rewriter &rw;
  const std::map<std::string, const LoweredKernel *> &kernels;
  bool managed;
  std::string mainName;

  bool inMain(SourceLocation l) const { return sm.isInMainFile(sm.getExpansionLoc(l)); }

  void rewriteKernelCall(CallExpr *call, const LoweredKernel &lk) {
    const ir::Kernel &k = lk.kernel;
    if (call->getNumArgs() != k.params.size()) {
      errors.push_back({call->getBeginLoc(), "call of kernel '" + k.name + "' with " +
                                                 std::to_string(call->getNumArgs()) +
                                                 " arguments; it takes " +
                                                 std::to_string(k.params.size())});
      return;
    }
    if (call->getBeginLoc().isMacroID()) {
      errors.push_back({call->getBeginLoc(), "kernel '" + k.name + "' is called from a macro "
                                             "expansion; call it directly"});
      return;
    }
    launched.insert(k.name);
    unsigned line = sm.getPresumedLoc(call->getBeginLoc()).getLine();
    std::string where = "\"" + mainName + ":" + std::to_string(line) + "\"";
    renameToken(call->getCallee()->getBeginLoc(), launchFunctionName(k));
    SourceLocation afterParen = Lexer::findLocationAfterToken(
        call->getCallee()->getEndLoc(), tok::l_paren, sm, ctx.getLangOpts(), false);
    rw.InsertTextAfter(afterParen, where + (k.params.empty() ? "" : ", "));
    for (unsigned i = 0; i < call->getNumArgs(); ++i) {
      const ir::Param &p = k.params[i];
      if (!p.isArray) continue;
      const Expr *arg = call->getArg(i);
      std::string type = std::string(p.isConst ? "const " : "") + p.type.cName() + " *";
      // After: the "where" argument may have been inserted at the same place. An argument
      // written with a macro (POLYBENCH_ARRAY(A)) is cast as a whole.
      CharSourceRange range = sm.getExpansionRange(arg->getSourceRange());
      rw.InsertTextAfter(range.getBegin(), "(" + type + ")(");
      if (range.isTokenRange()) rw.InsertTextAfterToken(range.getEnd(), ")");
      else rw.InsertTextAfter(range.getEnd(), ")");
    }
  }
};


}  // namespace

namespace {

// The variable an array argument points into: `a`, `*a`, `a[i]`, `&a[i][0]`, `a + k` all point
// into `a` (PolyBench passes `*A` through POLYBENCH_ARRAY). Two arguments into one variable
// may overlap; arguments into two different variables are taken as distinct, as two plain
// variables are. Null when the argument is something else (a call, a conditional...).
const ValueDecl *baseVariable(const Expr *arg) {
  const Expr *e = arg->IgnoreParenCasts();
  for (;;) {
    if (const auto *ref = llvm::dyn_cast<DeclRefExpr>(e)) return ref->getDecl();
    if (const auto *u = llvm::dyn_cast<UnaryOperator>(e);
        u && (u->getOpcode() == UO_Deref || u->getOpcode() == UO_AddrOf))
      e = u->getSubExpr()->IgnoreParenCasts();
    else if (const auto *s = llvm::dyn_cast<ArraySubscriptExpr>(e))
      e = s->getBase()->IgnoreParenCasts();
    else if (const auto *b = llvm::dyn_cast<BinaryOperator>(e);
             b && (b->getOpcode() == BO_Add || b->getOpcode() == BO_Sub) &&
             b->getType()->isPointerType())
      e = (b->getLHS()->getType()->isPointerType() ? b->getLHS() : b->getRHS())->IgnoreParenCasts();
    else
      return nullptr;
  }
}

class CallSiteVisitor : public RecursiveASTVisitor<CallSiteVisitor> {
public:
  CallSiteVisitor(SourceManager &sm, const ParsedProgram &program,
                  std::map<std::string, CallSites> &sites)
      : sm(sm), sites(sites) {
    for (const KernelSource &k : program.kernels) kernels[k.kernel.name] = &k.kernel;
  }

  bool VisitCallExpr(CallExpr *call) {
    if (!sm.isInMainFile(sm.getExpansionLoc(call->getBeginLoc()))) return true;
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee) return true;
    auto it = kernels.find(callee->getNameAsString());
    if (it == kernels.end()) return true;
    const ir::Kernel &k = *it->second;
    CallSites &s = sites[k.name];
    ++s.calls;
    directCallees.insert(call->getCallee()->IgnoreParenImpCasts());
    for (unsigned i = 0; i < call->getNumArgs() && i < k.params.size(); ++i) {
      if (!k.params[i].isArray) continue;
      const ValueDecl *a = baseVariable(call->getArg(i));
      for (unsigned j = 0; j < call->getNumArgs() && j < k.params.size(); ++j) {
        if (j == i || !k.params[j].isArray) continue;
        const ValueDecl *b = baseVariable(call->getArg(j));
        if (!a || !b || a == b) s.mayAlias.insert(k.params[i].name);
        if ((!a || !b || a == b) && j > i)
          s.overlaps.push_back({k.params[i].name, k.params[j].name, where(call->getBeginLoc()),
                                "'" + text(call->getArg(i)) + "' and '" + text(call->getArg(j)) +
                                    "'",
                                a && a == b && plain(call->getArg(i)) && plain(call->getArg(j))});
      }
    }
    return true;
  }

  // A kernel named other than as the callee of a call: a function pointer, its address.
  bool VisitDeclRefExpr(DeclRefExpr *ref) {
    if (!sm.isInMainFile(sm.getExpansionLoc(ref->getBeginLoc())) || directCallees.count(ref))
      return true;
    const auto *f = llvm::dyn_cast<FunctionDecl>(ref->getDecl());
    if (f && kernels.count(f->getNameAsString()))
      sites[f->getNameAsString()].indirectUses.push_back(where(ref->getBeginLoc()));
    return true;
  }

private:
  SourceManager &sm;
  std::map<std::string, const ir::Kernel *> kernels;
  std::map<std::string, CallSites> &sites;
  std::set<const Expr *> directCallees;

  ir::SourceLoc where(SourceLocation l) const {
    PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(l));
    return {displayPath(p.getFilename()), p.getLine(), p.getColumn()};
  }
  static bool plain(const Expr *e) {
    return llvm::isa<DeclRefExpr>(e->IgnoreParenImpCasts());
  }
  std::string text(const Expr *e) const {
    return Lexer::getSourceText(CharSourceRange::getTokenRange(e->getSourceRange()), sm,
                                LangOptions()).str();
  }
};

}  // namespace

// Declared in HostParse.h: the host summary of rtcuda explain parses main.c the same way.
std::unique_ptr<ASTUnit> parseMain(const Options &options, const ParsedProgram &program,
                                   Diagnostics &diags, std::string &text, bool quiet) {
  std::string shown = displayPath(options.mainFile);
  if (!readFile(options.mainFile, text)) {
    diags.error(shown, "cannot read main file");
    return nullptr;
  }
  bool withRtapi = !rtapiIncludeDir().empty() &&
                   std::filesystem::exists(rtapiIncludeDir() + "/rtapi.h");
  std::vector<std::string> args = {"-include", kPreludeName};
  if (withRtapi) args.push_back("-I" + rtapiIncludeDir());
  for (std::string &a : userClangArgs(options, options.mainFile)) args.push_back(std::move(a));
  bool hadErrors = false;
  auto ast = parseC(text, shown, quiet, hadErrors, args,
                    {{kPreludeName, prelude(program, withRtapi)}});
  if (!ast || hadErrors) {
    if (!quiet) diags.error(shown, "cannot parse main file");
    return nullptr;
  }
  return ast;
}

namespace {

// The end of a loop statement: after its closing brace, or after the semicolon that ends a
// body without braces (and a do-while).
SourceLocation afterLoop(const Stmt *loop, const SourceManager &sm, const LangOptions &lang) {
  SourceLocation end = loop->getEndLoc();
  SourceLocation semi = Lexer::findLocationAfterToken(end, tok::semi, sm, lang, false);
  if (semi.isValid()) return semi;
  return Lexer::getLocForEndOfToken(end, 0, sm, lang);
}

// Managed memory needs no copies; in explicit mode each resident loop gets its brackets, on the
// loop's own lines so main.cu keeps main.c's line numbers, and its RT-API calls go through the
// wrappers of rtcuda_rtapi.h.
void bracketResidentLoops(ASTContext &ctx, Rewriter &rw,
                          const std::map<std::string, const LoweredKernel *> &kernels) {
  std::set<std::string> names;
  for (const auto &entry : kernels) names.insert(entry.first);
  for (const ResidentLoop &resident : findResidentLoops(ctx, names)) {
    const Stmt *loop = resident.loop;
    for (SourceLocation call : resident.rtapiCalls) rw.InsertTextBefore(call, "rtcuda_resident_");
    rw.InsertTextBefore(loop->getBeginLoc(),
                        "{ rtcuda_resident_begin(); /* arrays stay on the GPU in this loop */ ");
    rw.InsertTextAfter(afterLoop(loop, ctx.getSourceManager(), ctx.getLangOpts()),
                       " rtcuda_resident_end(); }");
  }
}

// The extra sources are compiled as C: the user headers main.c includes declare their functions
// with C linkage in main.cu (C++). Each such #include line is wrapped in extern "C" { } and
// followed by a #line that restores main.c's numbering.
void declareCLinkage(SourceManager &sm, const Options &options, Rewriter &rw,
                     const std::string &mainName) {
  std::set<unsigned> lines;
  for (const UserHeader &h : userHeaders(sm, options, options.mainFile))
    if (h.includedAt) lines.insert(h.includedAt);
  FileID main = sm.getMainFileID();
  for (unsigned line : lines) {
    SourceLocation begin = sm.translateLineCol(main, line, 1);
    llvm::StringRef rest = sm.getBufferData(main).substr(sm.getFileOffset(begin));
    llvm::StringRef text = rest.substr(0, rest.find('\n'));
    if (!text.ltrim().starts_with("#") || text.ends_with("\\")) continue;
    rw.ReplaceText(begin, text.size(),
                   "extern \"C\" {\n" + text.str() + "\n}\n#line " + std::to_string(line + 1) +
                       " \"" + mainName + "\"");
  }
}

}  // namespace

std::map<std::string, CallSites> analyzeCallSites(const Options &options,
                                                  const ParsedProgram &program,
                                                  Diagnostics &diags) {
  std::map<std::string, CallSites> sites;
  if (options.mainFile.empty()) return sites;
  std::string text;
  // Quiet: rewriteHost parses it again and reports its errors.
  auto ast = parseMain(options, program, diags, text, /*quiet=*/true);
  if (!ast) return sites;
  for (const KernelSource &k : program.kernels) sites[k.kernel.name].known = true;
  CallSiteVisitor visitor(ast->getSourceManager(), program, sites);
  visitor.TraverseDecl(ast->getASTContext().getTranslationUnitDecl());
  return sites;
}

bool rewriteHost(const Options &options, const ParsedProgram &program,
                 const std::vector<LoweredKernel> &kernels, Diagnostics &diags,
                 std::string &mainCu) {
  std::string shown = displayPath(options.mainFile);
  std::string text;
  auto ast = parseMain(options, program, diags, text, /*quiet=*/false);
  if (!ast) return false;
  std::map<std::string, const LoweredKernel *> byName;
  for (const LoweredKernel &k : kernels) byName[k.kernel.name] = &k;
  Rewriter rw(ast->getSourceManager(), ast->getLangOpts());
  std::string mainName = std::filesystem::path(options.mainFile).filename().string();
  HostVisitor visitor(ast->getASTContext(), rw, byName, options.memory == "managed", mainName);
  visitor.TraverseDecl(ast->getASTContext().getTranslationUnitDecl());
  if (options.memory != "managed") bracketResidentLoops(ast->getASTContext(), rw, byName);
  if (!options.extraSources.empty()) declareCLinkage(ast->getSourceManager(), options, rw, mainName);
  for (const auto &[loc, message] : visitor.errors) {
    PresumedLoc p = ast->getSourceManager().getPresumedLoc(loc);
    diags.error(ir::SourceLoc{shown, p.getLine(), p.getColumn()}, message);
  }
  if (!visitor.errors.empty()) return false;

  std::ostringstream out;
  out << "// Generated by rtcuda from " << mainName << ": the program as written, with each "
         "kernel call\n// replaced by its launch function (launch.cuh). Build with the "
         "CMakeLists.txt beside it.\n"
      << "#include \"rtcuda_runtime.h\"\n#include \"kernel.cu\"\n#include \"launch.cuh\"\n";
  if (visitor.usesRtapi) out << "#include \"rtapi.h\"\n#include \"rtcuda_rtapi.h\"\n";
  out << "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <math.h>\n"
         "#include <time.h>\n\n";
  for (const LoweredKernel &k : kernels)
    if (!visitor.launched.count(k.kernel.name))
      out << "// kernel '" << k.kernel.name << "' is not called from " << mainName << "\n";
  out << "#line 1 \"" << mainName << "\"\n";
  const clang::RewriteBuffer *buf = rw.getRewriteBufferFor(ast->getSourceManager().getMainFileID());
  out << (buf ? std::string(buf->begin(), buf->end()) : text);
  mainCu = out.str();
  return true;
}

}  // namespace rtcuda
