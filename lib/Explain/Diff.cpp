#include "Diff.h"

#include <algorithm>
#include <sstream>

namespace rtcuda::explain {

namespace {

std::vector<std::string> lines(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

}  // namespace

std::vector<DiffLine> diffLines(const std::string &before, const std::string &after) {
  std::vector<std::string> a = lines(before), b = lines(after);
  // Common prefix and suffix first: passes usually change the middle of a kernel.
  size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) ++pre;
  size_t suf = 0;
  while (suf < a.size() - pre && suf < b.size() - pre &&
         a[a.size() - 1 - suf] == b[b.size() - 1 - suf])
    ++suf;
  size_t n = a.size() - pre - suf, m = b.size() - pre - suf;
  // lcs[i][j]: longest common subsequence of a[pre+i..] and b[pre+j..] (the changed middle).
  std::vector<std::vector<unsigned>> lcs(n + 1, std::vector<unsigned>(m + 1, 0));
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      lcs[i][j] = a[pre + i] == b[pre + j] ? lcs[i + 1][j + 1] + 1
                                           : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::vector<DiffLine> out;
  for (size_t i = 0; i < pre; ++i) out.push_back({' ', a[i]});
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[pre + i] == b[pre + j]) {
      out.push_back({' ', a[pre + i]});
      ++i, ++j;
    } else if (j < m && (i == n || lcs[i][j + 1] > lcs[i + 1][j])) {  // removals first
      out.push_back({'+', b[pre + j++]});
    } else {
      out.push_back({'-', a[pre + i++]});
    }
  }
  for (size_t k = a.size() - suf; k < a.size(); ++k) out.push_back({' ', a[k]});
  return out;
}

std::vector<DiffLine> hunks(const std::vector<DiffLine> &all, size_t context) {
  std::vector<bool> keep(all.size(), false);
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i].kind != ' ')
      for (size_t k = i >= context ? i - context : 0; k < all.size() && k <= i + context; ++k)
        keep[k] = true;
  std::vector<DiffLine> out;
  size_t skipped = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    if (!keep[i]) {
      ++skipped;
      continue;
    }
    if (skipped) out.push_back({'@', std::to_string(skipped) + " unchanged line(s)"});
    skipped = 0;
    out.push_back(all[i]);
  }
  if (skipped && !out.empty()) out.push_back({'@', std::to_string(skipped) + " unchanged line(s)"});
  return out;
}

}  // namespace rtcuda::explain
