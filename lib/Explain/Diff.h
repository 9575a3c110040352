// A line diff (longest common subsequence) of two IR dumps, for the report's per-pass view.
#pragma once

#include <string>
#include <vector>

namespace rtcuda::explain {

struct DiffLine {
  char kind;         // ' ' both, '-' only before, '+' only after
  std::string text;
};

// Every line of `before` and `after`, in order, marked as kept, removed or added.
std::vector<DiffLine> diffLines(const std::string &before, const std::string &after);

// The diff cut to hunks: changed lines with `context` unchanged lines around them; a line
// whose kind is '@' separates hunks (its text says how many lines were skipped).
std::vector<DiffLine> hunks(const std::vector<DiffLine> &all, size_t context = 3);

}  // namespace rtcuda::explain
