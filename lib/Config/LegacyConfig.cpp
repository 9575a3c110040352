// The RT-CUDA formats: config.txt (KEY=VALUE options of the kernels in kernel.c) and global.txt
// (several kernel files and config files). docs/config.md lists how each key maps onto Options.

#include "ConfigInternal.h"

#include <algorithm>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace rtcuda::config {

std::vector<LegacyEntry> parseLegacyLines(const std::string &display, const std::string &text) {
  std::vector<LegacyEntry> entries;
  std::map<std::string, int> firstLine;
  size_t start = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;   // BOM of Windows editors
  int lineNo = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    std::string raw = text.substr(start, end == std::string::npos ? end : end - start);
    ++lineNo;
    start = end == std::string::npos ? text.size() + 1 : end + 1;

    std::string line = trim(raw.substr(0, raw.find('#')));   // trim also drops a CR
    if (line.empty())
      continue;
    std::string where = display + ":" + std::to_string(lineNo);
    size_t eq = line.find('=');
    if (eq == std::string::npos || trim(line.substr(0, eq)).empty()) {
      std::string hint = eq == std::string::npos && line.find(':') != std::string::npos
                             ? " (a YAML config needs a .yaml or .yml file name)"
                             : "";
      fail(where, "expected KEY=VALUE, got '" + line + "'" + hint);
    }
    LegacyEntry e{trim(line.substr(0, eq)), trim(line.substr(eq + 1)), lineNo};
    auto [it, fresh] = firstLine.emplace(e.key, lineNo);
    if (!fresh)
      fail(where, "duplicate key '" + e.key + "' (first given on line " +
                      std::to_string(it->second) + ")");
    entries.push_back(std::move(e));
  }
  return entries;
}

namespace {

const std::vector<std::string> kConfigKeys = {
    "LOOP_COLLAPSING", "BLOCK_SKEW",      "PREFETCHING",     "PREFETCHED_ARRAYS",
    "NON_PREFETCHED_ARRAYS", "DATA_TYPE", "KERNEL_NAMES",    "2DMATRIX",
    "ROW_DIM",         "MIN_BLOCKSIZE",   "MAX_BLOCKSIZE",   "MIN_MERGE_LEVEL",
    "MAX_MERGE_LEVEL", "MIN_SKEW_LEVEL",  "MAX_SKEW_LEVEL",
    // rtcuda's additions (docs/legality.md)
    "ON_DEPENDENCE",   "ASSUME_PARALLEL"};
const std::vector<std::string> kGlobalKeys = {"KERNEL_FILES", "CONFIG_FILES"};

std::string legacyKey(Field f) {
  switch (f) {
  case Field::Collapse: return "LOOP_COLLAPSING";
  case Field::Skew: return "BLOCK_SKEW";
  case Field::Merge: return "MAX_MERGE_LEVEL";
  case Field::Prefetch: return "PREFETCHED_ARRAYS";
  case Field::NoPrefetch: return "NON_PREFETCHED_ARRAYS";
  case Field::RowDim: return "ROW_DIM";
  case Field::DataType: return "DATA_TYPE";
  case Field::Matrix2D: return "2DMATRIX";
  case Field::BlockSizeMin: return "MIN_BLOCKSIZE";
  case Field::BlockSizeMax: return "MAX_BLOCKSIZE";
  case Field::MergeLevelMin: return "MIN_MERGE_LEVEL";
  case Field::MergeLevelMax: return "MAX_MERGE_LEVEL";
  case Field::SkewLevelMin: return "MIN_SKEW_LEVEL";
  case Field::SkewLevelMax: return "MAX_SKEW_LEVEL";
  // No legacy key sets these; they keep their defaults, named for completeness.
  case Field::ParallelLoops: return "the number of parallel loops";
  case Field::TileKMin:
  case Field::TileKMax: return "the tile depth";
  case Field::DefaultBlockSize: return "the default block size";
  case Field::Memory: return "the memory mode";
  case Field::Arch: return "the architecture";
  }
  return "?";
}

const std::map<std::string, Field> kKeyField = {
    {"LOOP_COLLAPSING", Field::Collapse},     {"BLOCK_SKEW", Field::Skew},
    {"PREFETCHED_ARRAYS", Field::Prefetch},   {"NON_PREFETCHED_ARRAYS", Field::NoPrefetch},
    {"DATA_TYPE", Field::DataType},           {"2DMATRIX", Field::Matrix2D},
    {"ROW_DIM", Field::RowDim},               {"MIN_BLOCKSIZE", Field::BlockSizeMin},
    {"MAX_BLOCKSIZE", Field::BlockSizeMax},   {"MIN_MERGE_LEVEL", Field::MergeLevelMin},
    {"MAX_MERGE_LEVEL", Field::MergeLevelMax}, {"MIN_SKEW_LEVEL", Field::SkewLevelMin},
    {"MAX_SKEW_LEVEL", Field::SkewLevelMax}};

std::string lineOf(const std::string &display, int line) {
  return display + ":" + std::to_string(line);
}

// The options of one config.txt and the kernels it names.
struct KernelConfig {
  KernelOptions opts;
  std::vector<std::pair<std::string, int>> names;   // kernel name, line of KERNEL_NAMES
};

KernelConfig parseKernelConfig(const std::string &display, const std::string &text,
                               const Options &o) {
  KernelConfig kc;
  KernelOptions &k = kc.opts;
  k.configFile = display;
  Sites sites(display, legacyKey);
  std::map<std::string, const LegacyEntry *> byKey;

  std::vector<LegacyEntry> entries = parseLegacyLines(display, text);
  for (const LegacyEntry &e : entries) {
    if (std::find(kConfigKeys.begin(), kConfigKeys.end(), e.key) == kConfigKeys.end())
      fail(lineOf(display, e.line), "unknown key '" + e.key + "'" +
                                        suggestion(e.key, kConfigKeys, true));
    byKey[e.key] = &e;
    auto f = kKeyField.find(e.key);
    if (f != kKeyField.end())
      sites.set(f->second, lineOf(display, e.line));
  }

  auto flag = [&](const char *key, bool &out) {
    auto it = byKey.find(key);
    if (it == byKey.end())
      return false;
    const LegacyEntry &e = *it->second;
    if (e.value != "0" && e.value != "1")
      failValue(lineOf(display, e.line), e.value, key, "expected 0 or 1");
    out = e.value == "1";
    return true;
  };
  auto integer = [&](const char *key, int &out) {
    auto it = byKey.find(key);
    if (it == byKey.end())
      return false;
    const LegacyEntry &e = *it->second;
    if (!parseInt(e.value, out))
      failValue(lineOf(display, e.line), e.value, key, "expected an integer");
    return true;
  };
  auto list = [&](const char *key) {
    auto it = byKey.find(key);
    return it == byKey.end() ? std::vector<std::string>{} : splitList(it->second->value, ',');
  };
  auto value = [&](const char *key) {
    auto it = byKey.find(key);
    return it == byKey.end() ? std::string() : it->second->value;
  };

  flag("LOOP_COLLAPSING", k.collapse);
  flag("ASSUME_PARALLEL", k.assumeParallelAll);
  if (byKey.count("ON_DEPENDENCE")) {
    const LegacyEntry &e = *byKey["ON_DEPENDENCE"];
    if (e.value != "refuse" && e.value != "sequential" && e.value != "host")
      failValue(lineOf(display, e.line), e.value, "ON_DEPENDENCE",
                "expected refuse, sequential or host");
    k.onDependence = e.value;
  }
  flag("BLOCK_SKEW", k.skew);
  bool matrix2D = false;
  if (flag("2DMATRIX", matrix2D))
    k.matrix2D = matrix2D;

  // PREFETCHING gates PREFETCHED_ARRAYS (the original kept the list but tiled nothing when off).
  // The list is validated either way, so a typo does not wait until someone turns it on.
  bool prefetching = false;
  flag("PREFETCHING", prefetching);
  k.prefetch = list("PREFETCHED_ARRAYS");
  if (prefetching && k.prefetch.empty())
    fail(lineOf(display, byKey["PREFETCHING"]->line),
         "PREFETCHING=1 but PREFETCHED_ARRAYS names no array");
  k.noPrefetch = list("NON_PREFETCHED_ARRAYS");
  k.dataType = value("DATA_TYPE");
  k.rowDim = value("ROW_DIM");

  integer("MIN_BLOCKSIZE", k.blockSize.min);
  integer("MAX_BLOCKSIZE", k.blockSize.max);   // 0 = device maximum, resolved by validation

  // MAX_MERGE_LEVEL turns BlockMerge on: > 1, or 0 meaning "up to the block size", searched as
  // up to 32: each level is a per-thread accumulator held in registers, and a fixed bound keeps
  // the search space from growing with the block size.
  int v = 0;
  integer("MIN_MERGE_LEVEL", k.mergeLevel.min);
  if (integer("MAX_MERGE_LEVEL", v)) {
    if (v < 0)
      failValue(lineOf(display, byKey["MAX_MERGE_LEVEL"]->line), std::to_string(v),
                "MAX_MERGE_LEVEL", "expected 0 (up to 32) or an integer >= 1");
    k.merge = v != 1;
    k.mergeLevel.max = v == 0 ? kUnboundedLevelMax : v;
  }
  integer("MIN_SKEW_LEVEL", k.skewLevel.min);
  if (integer("MAX_SKEW_LEVEL", v)) {
    if (v < 0)
      failValue(lineOf(display, byKey["MAX_SKEW_LEVEL"]->line), std::to_string(v),
                "MAX_SKEW_LEVEL", "expected 0 (up to 32) or an integer >= 1");
    k.skewLevel.max = v == 0 ? kUnboundedLevelMax : v;
  }

  auto names = byKey.find("KERNEL_NAMES");
  if (names != byKey.end()) {
    const LegacyEntry &e = *names->second;
    k.configLine = e.line;
    for (const std::string &n : splitList(e.value, ',')) {
      if (!isIdentifier(n))
        failValue(lineOf(display, e.line), n, "KERNEL_NAMES", "expected a C function name");
      for (const auto &seen : kc.names)
        if (seen.first == n)
          fail(lineOf(display, e.line), "kernel '" + n + "' is listed twice in KERNEL_NAMES");
      kc.names.emplace_back(n, e.line);
    }
  }

  validateKernel(k, o, sites);
  if (byKey.count("PREFETCHING"))
    k.autoMapping = false;
  if (!prefetching)
    k.prefetch.clear();
  return kc;
}

void addKernels(Options &o, const KernelConfig &kc) {
  for (const auto &[name, line] : kc.names) {
    KernelOptions k = kc.opts;
    k.name = name;
    k.configLine = line;
    o.kernels.push_back(std::move(k));
  }
}

// main.c is optional in both legacy layouts: programs driven only by RT-API calls or tests
// may convert the kernels alone.
void findMain(Options &o, const fs::path &dir) {
  std::error_code ec;
  std::string main = absolutePath(dir, "main.c");
  if (fs::is_regular_file(main, ec))
    o.mainFile = main;
}

Sites optionSites(const std::string &display) { return Sites(display, legacyKey); }

}  // namespace

Options loadLegacyConfig(const std::string &display, const std::string &text) {
  Options o;
  o.legacy = true;
  fs::path dir = fs::path(display).parent_path();
  o.configPath = absolutePath(fs::current_path(), display);
  KernelConfig kc = parseKernelConfig(display, text, o);
  o.kernelFiles.push_back(requireSourceFile(dir, "kernel.c", display,
                                            "a legacy config.txt reads its kernels from"));
  findMain(o, dir);
  o.defaults = kc.opts;   // kernels marked with #pragma rtcuda kernel get the same options
  addKernels(o, kc);
  validateOptions(o, optionSites(display));
  validateKernelList(o);
  return o;
}

Options loadGlobalConfig(const std::string &display, const std::string &text) {
  Options o;
  o.legacy = true;
  fs::path dir = fs::path(display).parent_path();
  o.configPath = absolutePath(fs::current_path(), display);

  std::map<std::string, const LegacyEntry *> byKey;
  std::vector<LegacyEntry> entries = parseLegacyLines(display, text);
  for (const LegacyEntry &e : entries) {
    if (std::find(kGlobalKeys.begin(), kGlobalKeys.end(), e.key) == kGlobalKeys.end()) {
      std::string hint = suggestion(e.key, kGlobalKeys, true);
      if (hint.empty() &&
          std::find(kConfigKeys.begin(), kConfigKeys.end(), e.key) != kConfigKeys.end())
        hint = " (global.txt takes only KERNEL_FILES and CONFIG_FILES; " + e.key +
               " belongs in a config file it lists)";
      fail(lineOf(display, e.line), "unknown key '" + e.key + "'" + hint);
    }
    byKey[e.key] = &e;
  }
  for (const std::string &key : kGlobalKeys) {
    auto it = byKey.find(key);
    if (it == byKey.end())
      fail(display, "missing key " + key);
    if (splitList(it->second->value, ',').empty())
      fail(lineOf(display, it->second->line), key + " names no file");
  }

  const LegacyEntry &kf = *byKey["KERNEL_FILES"];
  for (const std::string &f : splitList(kf.value, ',')) {
    std::string abs = requireSourceFile(dir, f, lineOf(display, kf.line), "KERNEL_FILES names");
    if (std::find(o.kernelFiles.begin(), o.kernelFiles.end(), abs) != o.kernelFiles.end())
      fail(lineOf(display, kf.line), "KERNEL_FILES names '" + f + "' twice");
    o.kernelFiles.push_back(abs);
  }
  findMain(o, dir);

  const LegacyEntry &cf = *byKey["CONFIG_FILES"];
  std::set<std::string> configsSeen;
  for (const std::string &f : splitList(cf.value, ',')) {
    std::string abs = requireSourceFile(dir, f, lineOf(display, cf.line), "CONFIG_FILES names");
    if (!configsSeen.insert(abs).second)
      fail(lineOf(display, cf.line), "CONFIG_FILES names '" + f + "' twice");
    // Messages about a listed config name it as the user would reach it from here.
    std::string sub = (dir / f).lexically_normal().string();
    KernelConfig kc = parseKernelConfig(sub, readConfigFile(sub), o);
    if (kc.names.empty())
      fail(sub, "names no kernel: configs listed by global.txt need KERNEL_NAMES");
    for (const auto &[name, line] : kc.names)
      for (const KernelOptions &prev : o.kernels)
        if (prev.name == name)
          fail(lineOf(sub, line), "kernel '" + name + "' is already configured by " +
                                      prev.configFile + ":" + std::to_string(prev.configLine));
    addKernels(o, kc);
  }

  o.defaults.configFile = display;   // pragma-marked kernels: not named by any listed config
  Sites defaults = optionSites(display);
  validateKernel(o.defaults, o, defaults);
  validateOptions(o, defaults);
  validateKernelList(o);
  return o;
}

}  // namespace rtcuda::config
