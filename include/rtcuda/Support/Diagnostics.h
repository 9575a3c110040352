// Diagnostics in clang's style: "file:line:col: error: message", counted, printed to stderr.
#pragma once

#include "rtcuda/IR/IR.h"

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace rtcuda {

// Thrown where translation of a kernel cannot go on; carries the location it is about.
class CompileError : public std::runtime_error {
public:
  CompileError(ir::SourceLoc loc, const std::string &message)
      : std::runtime_error(message), loc(std::move(loc)) {}
  ir::SourceLoc loc;
};

class Diagnostics {
public:
  void error(const ir::SourceLoc &loc, const std::string &message);
  void error(const std::string &where, const std::string &message);  // "config.txt:3" or a file
  void warning(const ir::SourceLoc &loc, const std::string &message);
  // A remark of `pass`, shown as "... [-Rpass=<pass>]" when showRemarks and the pass is in
  // remarkPasses (or remarkPasses is empty).
  void remark(const ir::SourceLoc &loc, const std::string &message, const std::string &pass = "");
  void note(const ir::SourceLoc &loc, const std::string &message);
  int errors() const { return errorCount; }
  bool showRemarks = false;
  bool quiet = false;  // counts but prints nothing (analyses that only probe)
  std::set<std::string> remarkPasses;

private:
  // "where: severity: message", then, as Clang does, the source line and a caret under the
  // column when `loc` names a line of a readable file.
  void emit(const std::string &where, const char *severity, const std::string &message,
            const ir::SourceLoc *loc = nullptr);
  const std::vector<std::string> *sourceLines(const std::string &file);
  int errorCount = 0;
  std::map<std::string, std::vector<std::string>> sources;
};

}  // namespace rtcuda
