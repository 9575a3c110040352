// Which instantiation a kernel's launch runs (see Alternatives.h).
#include "rtcuda/Tuner/Alternatives.h"

#include "rtcuda/Support/Files.h"
#include "rtcuda/Tuner/Expr.h"

#include <filesystem>
#include <optional>
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

// Every alternative of a kernel is chosen by one selecting macro: <NAME>_SMALL_GRID (small-grid
// tiles) or <NAME>_WIDE_INDEX (its 64-bit instantiation); kernels have one kind or the other.
int headerValue(const std::string &outDir, const TuneKernel &k, const std::string &macro) {
  std::string s;  // an unreadable header: its default (1), as one without the macro
  readFile((fs::path(outDir) / k.k.paramsHeader).string(), s);
  std::smatch m;
  if (std::regex_search(s, m, std::regex("#\\s*define\\s+" + macro + "\\s+(\\d+)")))
    return std::stoi(m[1]);
  return 1;
}

int selectorValue(const std::string &outDir, const TuneKernel &k) {
  if (k.k.alternatives.empty()) return 0;
  return headerValue(outDir, k, k.k.alternatives.front().selectMacro);
}

std::map<std::string, long long> launchNames(const std::string &outDir, const TuneKernel &k,
                                             long long smCount) {
  std::map<std::string, long long> names{{"rtcuda_sms", smCount}};
  for (const ManifestAlternative &a : k.k.alternatives)
    if (!a.splitMacro.empty()) names[a.splitMacro] = headerValue(outDir, k, a.splitMacro);
  return names;
}

// The rule is launch.cuh's (manifest.json's launch_choice, written by CodeGen's launchChoice):
// evaluated here with the point's macros, the alternatives' fixed points, the selector and the
// SM count, never written again.
int launchedAlternative(const TuneKernel &k, const std::map<std::string, long long> &sizes,
                        const Variant &v, int selector, long long smCount) {
  const auto &alts = k.k.alternatives;
  if (alts.empty() || selector <= 0 || k.k.launchChoice.empty()) return -1;
  std::map<std::string, long long> names = sizes;
  for (const ManifestAlternative &a : alts)
    for (const auto &[macro, value] : a.point) names[macro] = value;
  for (const auto &[macro, value] : macroValues(k, v)) names[macro] = value;
  names[alts.front().selectMacro] = selector;
  names["rtcuda_sms"] = smCount;
  long long choice = evalExpr(k.k.launchChoice, names);
  // A value that names no instantiation: the program's launch refuses it; its own kernel here.
  return choice >= 0 && choice < (long long)alts.size() ? int(choice) : -1;
}

void checkLaunchChoice(const std::string &outDir, const TuneKernel &k) {
  bool split = false;
  for (const ManifestAlternative &a : k.k.alternatives) split |= !a.splitMacro.empty();
  if (k.k.launchChoice.empty() && !split) return;
  const std::string path = (fs::path(outDir) / "launch.cuh").string();
  std::string text;
  if (!readFile(path, text)) throw ManifestError(path + ": error: cannot read the launch functions");
  // The expression `head`...) returns in launch.cuh, or nullopt where it has no such function.
  auto returned = [&](const std::string &head) -> std::optional<std::string> {
    size_t at = text.find("static inline long long " + head);
    size_t ret = at == std::string::npos ? at : text.find("\n  return ", at);
    size_t end = ret == std::string::npos ? ret : text.find(";\n}", ret);
    if (end == std::string::npos) return std::nullopt;
    return text.substr(ret + 10, end - ret - 10);
  };
  const std::string head = "rtcuda_" + k.k.name + "_launched_alternative(";
  if (!k.k.launchChoice.empty() && returned(head) != k.k.launchChoice)
    throw ManifestError(path + ": error: " + head + "...) does not return manifest.json's "
                        "launch_choice of kernel '" + k.k.name + "': the launch would run other "
                        "instantiations than rtcuda-tune times (translate again)");
  // A split instantiation's chunks of k: the launch's, grid[1] in the manifest (CodeGen's
  // splitCount), so that the harness runs the grid the program runs.
  for (const ManifestAlternative &a : k.k.alternatives) {
    if (a.splitMacro.empty()) continue;
    const std::string splits = "rtcuda_" + a.name + "_splits(";
    if (a.gridIterations.size() < 2 || returned(splits) != a.gridIterations[1])
      throw ManifestError(path + ": error: " + splits + "...) does not return manifest.json's "
                          "grid[1] of alternative '" + a.name + "': the launch would split k into "
                          "other chunks than rtcuda-tune times (translate again)");
  }
}

}  // namespace rtcuda::tune
