// Where main.c calls the kernels and which loops keep arrays on the GPU, for rtcuda explain:
// the same parse and the same resident-loop rule as HostRewriter.cpp, reported instead of
// rewritten.
#include "rtcuda/HostRewrite/HostRewrite.h"

#include "HostParse.h"
#include "ResidentLoops.h"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Lex/Lexer.h>

namespace rtcuda {

namespace {

using namespace clang;

class KernelCallVisitor : public RecursiveASTVisitor<KernelCallVisitor> {
public:
  KernelCallVisitor(SourceManager &sm, const std::set<std::string> &kernels, HostSummary &out)
      : sm(sm), kernels(kernels), out(out) {}

  bool VisitCallExpr(CallExpr *call) {
    SourceLocation at = sm.getExpansionLoc(call->getBeginLoc());
    if (!sm.isInMainFile(at)) return true;
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee || !kernels.count(callee->getNameAsString())) return true;
    out.calls.push_back({callee->getNameAsString(), sm.getPresumedLoc(at).getLine(), -1});
    return true;
  }

private:
  SourceManager &sm;
  const std::set<std::string> &kernels;
  HostSummary &out;
};

}  // namespace

HostSummary hostSummary(const Options &options, const ParsedProgram &program, Diagnostics &diags) {
  HostSummary out;
  if (options.mainFile.empty()) return out;
  out.mainFile = displayPath(options.mainFile);
  std::string text;
  auto ast = parseMain(options, program, diags, text, /*quiet=*/true);
  if (!ast) return out;
  std::set<std::string> names;
  for (const KernelSource &k : program.kernels) names.insert(k.kernel.name);
  SourceManager &sm = ast->getSourceManager();
  KernelCallVisitor visitor(sm, names, out);
  visitor.TraverseDecl(ast->getASTContext().getTranslationUnitDecl());
  if (options.memory == "managed") return out;  // no copies: no resident loops either
  for (const ResidentLoop &r : findResidentLoops(ast->getASTContext(), names)) {
    HostSummary::Loop loop;
    loop.firstLine = sm.getPresumedLoc(sm.getExpansionLoc(r.loop->getBeginLoc())).getLine();
    loop.lastLine = sm.getPresumedLoc(sm.getExpansionLoc(r.loop->getEndLoc())).getLine();
    for (SourceLocation call : r.rtapiCalls) {
      SourceLocation at = sm.getExpansionLoc(call);
      loop.rtapiCalls.push_back(
          Lexer::getSourceText(CharSourceRange::getTokenRange(at), sm, ast->getLangOpts()).str());
    }
    out.loops.push_back(loop);
  }
  for (HostSummary::Call &c : out.calls)
    for (size_t l = 0; l < out.loops.size(); ++l)
      if (c.line >= out.loops[l].firstLine && c.line <= out.loops[l].lastLine) c.loop = int(l);
  return out;
}

}  // namespace rtcuda
