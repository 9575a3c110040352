#include "rtcuda/Support/Diagnostics.h"

#include <iostream>

namespace rtcuda {

void Diagnostics::emit(const std::string &where, const char *severity,
                       const std::string &message) {
  if (quiet) return;
  std::cerr << (where.empty() ? std::string("rtcuda") : where) << ": " << severity << ": "
            << message << "\n";
}

void Diagnostics::error(const ir::SourceLoc &loc, const std::string &message) {
  ++errorCount;
  emit(loc.valid() ? loc.str() : loc.file, "error", message);
}

void Diagnostics::error(const std::string &where, const std::string &message) {
  ++errorCount;
  emit(where, "error", message);
}

void Diagnostics::warning(const ir::SourceLoc &loc, const std::string &message) {
  emit(loc.valid() ? loc.str() : loc.file, "warning", message);
}

void Diagnostics::remark(const ir::SourceLoc &loc, const std::string &message) {
  if (showRemarks) emit(loc.valid() ? loc.str() : loc.file, "remark", message);
}

void Diagnostics::note(const ir::SourceLoc &loc, const std::string &message) {
  emit(loc.valid() ? loc.str() : loc.file, "note", message);
}

}  // namespace rtcuda
