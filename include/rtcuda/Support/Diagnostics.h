// Diagnostics in clang's style: "file:line:col: error: message", counted, printed to stderr.
#pragma once

#include "rtcuda/IR/IR.h"

#include <stdexcept>
#include <string>

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
  void remark(const ir::SourceLoc &loc, const std::string &message);
  void note(const ir::SourceLoc &loc, const std::string &message);
  int errors() const { return errorCount; }
  bool showRemarks = false;
  bool quiet = false;  // counts but prints nothing (analyses that only probe)

private:
  void emit(const std::string &where, const char *severity, const std::string &message);
  int errorCount = 0;
};

}  // namespace rtcuda
