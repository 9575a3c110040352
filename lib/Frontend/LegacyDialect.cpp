// RT-CUDA's input dialect indexes 1-D pointer parameters with two subscripts (C[i][j] on
// float *C), the row width coming from the config's ROW_DIM. That is not C, so before the real
// parse each such parameter is renamed and re-declared as a pointer to rows:
//
//   void f(float *C, int N) {            void f(float *C_rtcuda_flat, int N) { float (*C)[N] =
//     ... C[i][j] ...                       (float (*)[N])C_rtcuda_flat;  ... C[i][j] ...
//
// The view is inserted on the line of the opening brace, so line numbers stay the user's, and
// the result is standard C: the frontend reads it like any VLA code and a C compiler builds it
// as the sequential reference.
#include "rtcuda/Frontend/ClangParse.h"
#include "rtcuda/Frontend/Frontend.h"
#include "rtcuda/Frontend/SingleSource.h"

#include <clang/AST/Decl.h>
#include <clang/Lex/Lexer.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

namespace rtcuda {

std::vector<std::pair<unsigned, std::string>> findRtcudaPragmas(const std::string &text) {
  std::vector<std::pair<unsigned, std::string>> out;
  static const std::regex pragma(R"(^\s*#\s*pragma\s+rtcuda\s+(.*?)\s*$)");
  std::istringstream in(text);
  std::string line;
  unsigned number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::smatch m;
    if (std::regex_match(line, m, pragma)) out.push_back({number, m[1].str()});
  }
  return out;
}

// Names of pointer parameters that the body indexes with two subscripts.
static std::set<std::string> doublySubscripted(const clang::FunctionDecl *fn,
                                               const clang::SourceManager &sm,
                                               const clang::LangOptions &lang) {
  std::set<std::string> pointers;
  for (const clang::ParmVarDecl *p : fn->parameters()) {
    clang::QualType t = p->getType();
    if (t->isPointerType() && !t->getPointeeType()->isArrayType())
      pointers.insert(p->getNameAsString());
  }
  std::set<std::string> found;
  clang::SourceLocation first = sm.getFileLoc(fn->getBody()->getBeginLoc());
  clang::SourceLocation last = sm.getFileLoc(fn->getBody()->getEndLoc());
  if (first.isInvalid() || last.isInvalid() || sm.getFileID(first) != sm.getFileID(last))
    return found;
  const char *begin = sm.getCharacterData(first);
  const char *end = sm.getCharacterData(last);
  // A body cut short by the end of the file ends there: the lexer must not read past it
  // (found by the frontend fuzzer).
  const char *bufferEnd = sm.getBufferData(sm.getFileID(first)).end();
  if (end < begin) return found;
  clang::Lexer lexer(first, lang, begin, begin, std::min(end + 1, bufferEnd));
  std::vector<clang::Token> tokens;
  clang::Token tok;
  while (!lexer.LexFromRawLexer(tok)) tokens.push_back(tok);
  tokens.push_back(tok);
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (!tokens[i].is(clang::tok::raw_identifier)) continue;
    std::string name = tokens[i].getRawIdentifier().str();
    if (!pointers.count(name) || !tokens[i + 1].is(clang::tok::l_square)) continue;
    size_t j = i + 1;
    int depth = 0;
    for (; j < tokens.size(); ++j) {
      if (tokens[j].is(clang::tok::l_square)) ++depth;
      if (tokens[j].is(clang::tok::r_square) && --depth == 0) break;
    }
    if (j + 1 < tokens.size() && tokens[j + 1].is(clang::tok::l_square)) found.insert(name);
  }
  return found;
}

static std::string firstIn(const clang::FunctionDecl *fn, const std::set<std::string> &names) {
  for (const clang::ParmVarDecl *p : fn->parameters())
    if (names.count(p->getNameAsString())) return p->getNameAsString();
  return *names.begin();
}

static const KernelOptions *optionsFor(const Options &options, const std::string &name) {
  for (const KernelOptions &k : options.kernels)
    if (k.name == name) return &k;
  return nullptr;
}

bool normalizeLegacyDialect(const std::string &text, const std::string &displayName,
                            const Options &options, Diagnostics &diags, std::string &out,
                            std::vector<LegacyView> &views) {
  out = text;
  bool hadErrors = false;
  auto ast = parseC(text, displayName, /*quiet=*/true, hadErrors,
                    userClangArgs(options, displayName));
  if (!ast || !hadErrors) return true;  // valid C already: nothing to do
  // A missing header (say, no -I) is not the dialect: the real parse reports it.
  if (ast->getDiagnostics().hasFatalErrorOccurred()) return true;
  clang::SourceManager &sm = ast->getSourceManager();
  clang::Rewriter rewriter(sm, ast->getLangOpts());
  bool changed = false, ok = true;
  for (auto it = ast->top_level_begin(); it != ast->top_level_end(); ++it) {
    auto *fn = llvm::dyn_cast<clang::FunctionDecl>(*it);
    if (!fn || !fn->hasBody() || !sm.isInMainFile(fn->getLocation())) continue;
    std::set<std::string> names = doublySubscripted(fn, sm, ast->getLangOpts());
    if (names.empty()) continue;
    std::string fname = fn->getNameAsString();
    const KernelOptions *kopts = optionsFor(options, fname);
    std::string rowDim = kopts ? kopts->rowDim : options.defaults.rowDim;
    if (rowDim.empty()) {
      clang::PresumedLoc loc = sm.getPresumedLoc(fn->getLocation());
      diags.error(ir::SourceLoc{displayName, loc.getLine(), loc.getColumn()},
                  "function '" + fname + "' indexes pointer parameter '" + firstIn(fn, names) +
                      "' with two subscripts; give its row width with ROW_DIM (config.txt) "
                      "or row_dim (YAML)");
      ok = false;
      continue;
    }
    std::string viewsText = " ";
    for (const clang::ParmVarDecl *p : fn->parameters()) {
      std::string name = p->getNameAsString();
      if (!names.count(name)) continue;
      std::string flat = name + "_rtcuda_flat";
      clang::QualType pointee = p->getType()->getPointeeType();
      std::string restrictKw = p->getType().isRestrictQualified() ? "restrict " : "";
      rewriter.ReplaceText(p->getLocation(), name.size(), flat);
      viewsText += pointee.getAsString() + " (*" + restrictKw + name + ")[" + rowDim + "] = (" +
                   pointee.getAsString() + " (*)[" + rowDim + "])" + flat + "; ";
      views.push_back({fname, name, flat, rowDim});
    }
    auto *body = llvm::cast<clang::CompoundStmt>(fn->getBody());
    rewriter.InsertTextAfterToken(body->getLBracLoc(), viewsText);
    changed = true;
  }
  if (changed) {
    const clang::RewriteBuffer *buf = rewriter.getRewriteBufferFor(sm.getMainFileID());
    if (buf) out = std::string(buf->begin(), buf->end());
  }
  return ok;
}

}  // namespace rtcuda
