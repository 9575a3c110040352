#include "rtcuda/Support/Diagnostics.h"

#include <cstdio>
#include <fstream>
#include <iostream>

namespace rtcuda {

const std::vector<std::string> *Diagnostics::sourceLines(const std::string &file) {
  auto it = sources.find(file);
  if (it == sources.end()) {
    std::vector<std::string> lines;
    std::ifstream in(file);
    for (std::string line; in && std::getline(in, line);) lines.push_back(line);
    it = sources.emplace(file, std::move(lines)).first;
  }
  return it->second.empty() ? nullptr : &it->second;
}

void Diagnostics::emit(const std::string &where, const char *severity,
                       const std::string &message, const ir::SourceLoc *loc) {
  if (quiet) return;
  std::cerr << (where.empty() ? std::string("rtcuda") : where) << ": " << severity << ": "
            << message << "\n";
  if (!loc || !loc->valid() || loc->file.empty()) return;
  const std::vector<std::string> *lines = sourceLines(loc->file);
  if (!lines || loc->line > lines->size()) return;
  const std::string &text = (*lines)[loc->line - 1];
  // The caret lines up with the text: tabs before the column stay tabs.
  std::string pad;
  for (size_t i = 0; i + 1 < loc->col && i < text.size(); ++i) pad += text[i] == '\t' ? '\t' : ' ';
  char gutter[16];
  std::snprintf(gutter, sizeof gutter, "%5u", loc->line);
  std::cerr << gutter << " | " << text << "\n      | " << pad << "^\n";
}

void Diagnostics::error(const ir::SourceLoc &loc, const std::string &message) {
  ++errorCount;
  emit(loc.valid() ? loc.str() : loc.file, "error", message, &loc);
}

void Diagnostics::error(const std::string &where, const std::string &message) {
  ++errorCount;
  emit(where, "error", message);
}

void Diagnostics::warning(const ir::SourceLoc &loc, const std::string &message) {
  emit(loc.valid() ? loc.str() : loc.file, "warning", message, &loc);
}

void Diagnostics::remark(const ir::SourceLoc &loc, const std::string &message,
                         const std::string &pass) {
  if (!showRemarks || (!remarkPasses.empty() && !remarkPasses.count(pass))) return;
  emit(loc.valid() ? loc.str() : loc.file, "remark",
       pass.empty() ? message : message + " [-Rpass=" + pass + "]", &loc);
}

void Diagnostics::note(const ir::SourceLoc &loc, const std::string &message) {
  emit(loc.valid() ? loc.str() : loc.file, "note", message, &loc);
}

}  // namespace rtcuda
