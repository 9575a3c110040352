// Programs as written: a C file with main and its kernels (PolyBench/C: the kernel function
// holds a `#pragma scop` region), its #include lines resolved through the config's include_dirs
// and defines, and the headers it reads carried into the output (include/) so that the output
// builds where the user's folders are absent (a GPU machine).
#include "rtcuda/Frontend/SingleSource.h"

#include "rtcuda/Frontend/ClangParse.h"
#include "rtcuda/Frontend/Frontend.h"
#include "rtcuda/Support/Files.h"

#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>

namespace rtcuda {

namespace fs = std::filesystem;

std::vector<std::string> sourceArgs(const Options &options) {
  std::vector<std::string> args;
  for (const std::string &d : options.includeDirs) args.push_back("-I" + d);
  for (const std::string &d : options.defines) args.push_back("-D" + d);
  return args;
}

std::set<unsigned> findScopLines(const std::string &text) {
  std::set<unsigned> out;
  static const std::regex scop(R"(^\s*#\s*pragma\s+scop\s*$)");
  std::istringstream in(text);
  std::string line;
  unsigned number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (std::regex_match(line, scop)) out.insert(number);
  }
  return out;
}

namespace {

// `path` below `dir`: the relative path, or "" when it is not below it.
std::string below(const fs::path &path, const fs::path &dir) {
  fs::path rel = path.lexically_relative(dir);
  if (rel.empty() || *rel.begin() == "..") return "";
  return rel.generic_string();
}

}  // namespace

std::vector<UserHeader> userHeaders(const clang::SourceManager &sm, const Options &options,
                                    const std::string &sourcePath) {
  // Compared as real paths: the working folder, the source and the -I folders may reach one
  // file through different symbolic links.
  std::vector<fs::path> dirs;
  for (const std::string &d : programIncludeDirs(options)) dirs.push_back(realPath(d));
  dirs.push_back(realPath(fs::path(sourcePath).parent_path()));
  std::vector<UserHeader> out;
  for (unsigned i = 0; i < sm.local_sloc_entry_size(); ++i) {
    const clang::SrcMgr::SLocEntry &e = sm.getLocalSLocEntry(i);
    if (!e.isFile() || e.getFile().getIncludeLoc().isInvalid()) continue;   // the main file
    std::string name = e.getFile().getName().str();
    if (name.empty() || name[0] == '<') continue;
    fs::path abs = realPath(name);
    if (abs == realPath(sourcePath)) continue;
    // The deepest folder holding it names it (a quoted include next to the source, usually).
    std::string best;
    for (const fs::path &d : dirs) {
      std::string rel = below(abs, d);
      if (!rel.empty() && (best.empty() || rel.size() < best.size())) best = rel;
    }
    if (best.empty()) continue;   // a system header
    clang::SourceLocation at = e.getFile().getIncludeLoc();
    unsigned line = sm.isInMainFile(at) ? sm.getPresumedLoc(at).getLine() : 0;
    out.push_back({abs.string(), best, line});
  }
  return out;
}

void addUserHeaders(const clang::SourceManager &sm, const Options &options,
                    const std::string &sourcePath, std::map<std::string, std::string> &headers,
                    Diagnostics &diags) {
  for (const UserHeader &h : userHeaders(sm, options, sourcePath)) {
    auto [it, added] = headers.emplace(h.relative, h.path);
    if (!added && it->second != h.path && readFile(it->second) != readFile(h.path))
      diags.error(displayPath(sourcePath),
                  "the program reads two different headers named '" + h.relative + "' (" +
                      displayPath(it->second) + " and " + displayPath(h.path) +
                      "); the output keeps its headers in one folder, include/");
  }
}

void addProgramHeaders(const Options &options, std::map<std::string, std::string> &headers,
                       Diagnostics &diags) {
  std::vector<std::string> files = options.extraSources;
  if (!options.mainFile.empty() &&
      std::find(options.kernelFiles.begin(), options.kernelFiles.end(), options.mainFile) ==
          options.kernelFiles.end())
    files.push_back(options.mainFile);
  for (const std::string &f : files) {
    std::string text;
    if (!readFile(f, text)) continue;   // reported where the file is used
    bool hadErrors = false;
    // Quiet: only the headers matter here; the main file is parsed with its prelude later.
    auto ast = parseC(text, displayPath(f), /*quiet=*/true, hadErrors, userClangArgs(options, f));
    if (ast) addUserHeaders(ast->getSourceManager(), options, f, headers, diags);
  }
}

std::string referenceText(const std::string &text, const clang::SourceManager &sm,
                          const clang::LangOptions &lang,
                          const std::vector<const clang::FunctionDecl *> &kernels,
                          const clang::FunctionDecl *mainFunction) {
  // Edits as (offset, length, replacement), applied from the end so offsets stay valid.
  std::vector<std::tuple<unsigned, unsigned, std::string>> edits;
  for (const clang::FunctionDecl *fn : kernels) {
    clang::SourceLocation begin = fn->getBeginLoc(), name = fn->getLocation();
    if (begin.isMacroID() || name.isMacroID()) continue;
    // The raw tokens before the name: the specifiers as written.
    clang::Lexer lexer(sm.getLocForStartOfFile(sm.getMainFileID()), lang, text.data(),
                       text.data() + sm.getFileOffset(begin), text.data() + text.size());
    clang::Token tok;
    while (!lexer.LexFromRawLexer(tok) && tok.getLocation() < name) {
      if (!tok.is(clang::tok::raw_identifier)) continue;
      llvm::StringRef word = tok.getRawIdentifier();
      if (word == "static" || word == "inline" || word == "__inline" || word == "__inline__")
        edits.emplace_back(sm.getFileOffset(tok.getLocation()), tok.getLength(),
                           std::string(tok.getLength(), ' '));
    }
  }
  if (mainFunction && !mainFunction->getLocation().isMacroID())
    edits.emplace_back(sm.getFileOffset(mainFunction->getLocation()), 4, "rtcuda_program_main");
  std::sort(edits.begin(), edits.end());
  std::string out = text;
  for (auto it = edits.rbegin(); it != edits.rend(); ++it)
    out.replace(std::get<0>(*it), std::get<1>(*it), std::get<2>(*it));
  return out;
}

}  // namespace rtcuda
