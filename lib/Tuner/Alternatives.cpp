// Which instantiation a kernel's launch runs (see Alternatives.h).
#include "rtcuda/Tuner/Alternatives.h"

#include "rtcuda/Support/Files.h"
#include "rtcuda/Tuner/Expr.h"

#include <filesystem>
#include <regex>

namespace rtcuda::tune {

namespace fs = std::filesystem;

TuneKernel alternativeKernel(const TuneKernel &k, const ManifestAlternative &alt, Variant *point) {
  TuneKernel ak = k;
  ak.k.name = alt.name;
  ak.k.alternatives.clear();
  ak.grid.clear();
  for (size_t d = 0; d < alt.gridIterations.size(); ++d)
    ak.grid.push_back({alt.gridIterations[d], alt.gridPerBlock[d], alt.gridMaxBlocks[d]});
  ak.blockThreads = alt.blockThreads;
  ak.k.tuning.clear();
  point->clear();
  for (const auto &[macro, value] : alt.point) {
    ak.k.tuning.push_back({macro, macro, {value}, value});
    point->push_back(value);
  }
  return ak;
}

// The small-grid rule's alternatives share one selecting macro (an index-width alternative has
// its own, which this rule does not read).
static const ManifestAlternative *smallGrid(const TuneKernel &k) {
  for (const ManifestAlternative &a : k.k.alternatives)
    if (a.rule == "small_grid") return &a;
  return nullptr;
}

int selectorValue(const std::string &outDir, const TuneKernel &k) {
  const ManifestAlternative *first = smallGrid(k);
  if (!first) return 0;
  std::string s;  // an unreadable header: its default (1), as one without the macro
  readFile((fs::path(outDir) / k.k.paramsHeader).string(), s);
  std::smatch m;
  if (std::regex_search(s, m, std::regex("#\\s*define\\s+" + first->selectMacro + "\\s+(\\d+)")))
    return std::stoi(m[1]);
  return 1;
}

int launchedAlternative(const TuneKernel &k, const std::map<std::string, long long> &sizes,
                        const Variant &v, int selector, long long smCount) {
  const auto &alts = k.k.alternatives;
  if (alts.empty() || selector <= 0) return -1;
  if (selector >= 2) {  // always the small-grid alternative of that value
    for (size_t i = 0; i < alts.size(); ++i)
      if (alts[i].rule == "small_grid" && alts[i].selectValue == selector) return int(i);
    return -1;
  }
  // The launch counts x blocks as rtcuda_ceil_div(iterations, per_block), before max_blocks.
  auto blocks = [&](const TuneKernel &kk, const Variant &p) {
    Geometry g = geometry(kk, sizes, p);
    return (g.iterations[0] + g.perBlock[0] - 1) / g.perBlock[0];
  };
  if (k.grid.empty() || blocks(k, v) >= smCount) return -1;
  int choice = -1;
  long long best = 0;
  for (size_t i = 0; i < alts.size(); ++i) {
    // A 64-bit instantiation is launched where the counts pass 2^31 - 1, not for small grids.
    if (alts[i].rule != "small_grid") continue;
    Variant point;
    TuneKernel ak = alternativeKernel(k, alts[i], &point);
    if (ak.grid.empty()) continue;
    long long b = blocks(ak, point);
    if (b <= smCount && b > best) best = b, choice = int(i);
  }
  return choice;
}

}  // namespace rtcuda::tune
