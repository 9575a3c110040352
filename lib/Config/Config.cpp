// loadConfig: picks the reader from the file name, and the checks all formats share.

#include "ConfigInternal.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>

namespace fs = std::filesystem;

namespace rtcuda {
namespace config {

void fail(const std::string &where, const std::string &message) {
  throw ConfigError(where.empty() ? "error: " + message : where + ": error: " + message);
}

void failValue(const std::string &where, const std::string &value, const std::string &key,
               const std::string &expected) {
  fail(where, "invalid value '" + value + "' for " + key + ": " + expected);
}

std::string readConfigFile(const std::string &display) {
  std::error_code ec;
  if (fs::is_directory(display, ec))
    fail(display, std::string("cannot read config file: ") + std::strerror(EISDIR));
  std::FILE *f = std::fopen(display.c_str(), "rb");
  if (!f)
    fail(display, std::string("cannot read config file: ") + std::strerror(errno));
  std::string text;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
    text.append(buf, n);
  bool bad = std::ferror(f);
  int err = errno;
  std::fclose(f);
  if (bad)
    fail(display, std::string("cannot read config file: ") + std::strerror(err));
  return text;
}

std::string trim(const std::string &s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
    ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
    --e;
  return s.substr(b, e - b);
}

std::vector<std::string> splitList(const std::string &s, char sep) {
  std::vector<std::string> items;
  if (trim(s).empty())
    return items;
  size_t start = 0;
  while (true) {
    size_t pos = s.find(sep, start);
    items.push_back(trim(s.substr(start, pos == std::string::npos ? pos : pos - start)));
    if (pos == std::string::npos)
      break;
    start = pos + 1;
  }
  // The original tool split with Java's String.split, which drops a trailing empty item.
  if (items.size() > 1 && items.back().empty())
    items.pop_back();
  return items;
}

bool isIdentifier(const std::string &s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

bool parseInt(const std::string &s, int &out) {
  size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-'))
    neg = s[i++] == '-';
  if (i == s.size())
    return false;
  long long v = 0;
  for (; i < s.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i])))
      return false;
    v = v * 10 + (s[i] - '0');
    if (v > 1000000000LL)   // far beyond any meaningful setting; keeps int arithmetic safe
      return false;
  }
  out = static_cast<int>(neg ? -v : v);
  return true;
}

size_t editDistance(const std::string &a, const std::string &b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      size_t same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                    std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (same ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string suggestion(const std::string &key, const std::vector<std::string> &known,
                       bool quote) {
  std::string best;
  size_t bestDist = 3;   // only near misses: a typo, not a different key
  for (const auto &k : known) {
    size_t d = editDistance(key, k);
    if (d < bestDist && d * 3 <= k.size()) {
      bestDist = d;
      best = k;
    }
  }
  if (best.empty())
    return "";
  return quote ? " (did you mean '" + best + "'?)" : " (did you mean " + best + "?)";
}

std::string absolutePath(const fs::path &configDir, const std::string &written) {
  fs::path p(written);
  if (p.is_relative())
    p = configDir / p;
  return fs::absolute(p).lexically_normal().string();
}

std::string requireSourceFile(const fs::path &configDir, const std::string &written,
                              const std::string &where, const std::string &subject) {
  std::string abs = absolutePath(configDir, written);
  std::error_code ec;
  if (!fs::exists(abs, ec))
    fail(where, subject + " '" + written + "', which does not exist (looked for " + abs + ")");
  if (!fs::is_regular_file(abs, ec))
    fail(where, subject + " '" + written + "', which is not a regular file (" + abs + ")");
  return abs;
}

namespace {

const std::vector<std::string> kDataTypes = {"float", "double", "int",     "char",
                                             "short", "long",   "unsigned"};

std::string joined(const std::vector<std::string> &v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + v[i];
  return s;
}

// A ROW_DIM is pasted into generated code: allow only what an arithmetic expression over the
// kernel's scalar parameters needs, with balanced parentheses.
bool isRowDimExpression(const std::string &e) {
  int depth = 0;
  bool operand = false;
  for (char c : e) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      operand = true;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (--depth < 0)
        return false;
    } else if (!std::strchr("+-*/% \t", c)) {
      return false;
    }
  }
  return depth == 0 && operand;
}

void checkArrays(const std::vector<std::string> &arrays, Field f, const Sites &s) {
  std::set<std::string> seen;
  for (const auto &a : arrays) {
    if (!isIdentifier(a))
      failValue(s.where(f), a, s.key(f), "expected an array name (a C identifier)");
    if (!seen.insert(a).second)
      fail(s.where(f), "array '" + a + "' is listed twice in " + s.key(f));
  }
}

// Checks one end of a range: lo <= v (and v <= hi when hi > 0).
void checkBound(int v, Field f, const Sites &s, int lo, int hi, const std::string &expected) {
  if (v < lo || (hi > 0 && v > hi))
    failValue(s.where(f), std::to_string(v), s.key(f), expected);
}

void checkRange(const TuningRange &r, Field fmin, Field fmax, const Sites &s) {
  if (r.min <= r.max)
    return;
  const std::string &where = s.given(fmax) ? s.where(fmax) : s.where(fmin);
  std::string kmin = s.key(fmin), kmax = s.key(fmax);
  if (kmin == kmax)
    fail(where, "invalid range for " + kmin + ": min " + std::to_string(r.min) +
                    " is greater than max " + std::to_string(r.max));
  fail(where, kmin + " (" + std::to_string(r.min) + ") is greater than " + kmax + " (" +
                  std::to_string(r.max) + ")");
}

// Merge and skew levels: validated as written, then fitted to whether the transform is on.
void fitLevels(bool enabled, TuningRange &r, Field fmin, Field fmax, const Sites &s) {
  checkBound(r.min, fmin, s, 1, 0, "expected an integer >= 1");
  checkBound(r.max, fmax, s, 1, 0, "expected an integer >= 1");
  if (!enabled) {
    r = {1, 1};
    return;
  }
  if (!s.given(fmax))
    r.max = std::max(r.min, kImpliedLevelMax);
  checkRange(r, fmin, fmax, s);
}

}  // namespace

void validateKernel(KernelOptions &k, const Options &o, const Sites &s) {
  const int dev = o.deviceMaxBlockSize;

  checkBound(k.parallelLoops, Field::ParallelLoops, s, 0, 0, "expected an integer >= 0");
  if (k.matrix2D && k.parallelLoops != 0) {
    bool fits = *k.matrix2D ? k.parallelLoops >= 2 : k.parallelLoops == 1;
    if (!fits)
      fail(s.where(Field::ParallelLoops),
           s.key(Field::ParallelLoops) + " is " + std::to_string(k.parallelLoops) + " but " +
               s.key(Field::Matrix2D) + " says the result is " +
               (*k.matrix2D ? "a 2-D matrix" : "a vector"));
  }

  checkArrays(k.prefetch, Field::Prefetch, s);
  checkArrays(k.noPrefetch, Field::NoPrefetch, s);
  for (const auto &a : k.prefetch)
    if (std::find(k.noPrefetch.begin(), k.noPrefetch.end(), a) != k.noPrefetch.end())
      fail(s.where(Field::NoPrefetch), "array '" + a + "' is named by both " +
                                           s.key(Field::Prefetch) + " and " +
                                           s.key(Field::NoPrefetch));

  if (!k.rowDim.empty() && !isRowDimExpression(k.rowDim))
    failValue(s.where(Field::RowDim), k.rowDim, s.key(Field::RowDim),
              "expected an arithmetic expression over the kernel's scalar parameters");
  if (!k.dataType.empty() &&
      std::find(kDataTypes.begin(), kDataTypes.end(), k.dataType) == kDataTypes.end())
    failValue(s.where(Field::DataType), k.dataType, s.key(Field::DataType),
              "expected one of " + joined(kDataTypes));

  // Block sizes: max 0 stands for the device maximum; nothing may exceed it (the original
  // accepted 1048 and silently computed garbage).
  const std::string blockExpected =
      "expected a block size from 1 to " + std::to_string(dev) + " (the device maximum)";
  if (k.blockSize.max == 0)
    k.blockSize.max = dev;
  checkBound(k.blockSize.min, Field::BlockSizeMin, s, 1, dev, blockExpected);
  checkBound(k.blockSize.max, Field::BlockSizeMax, s, 1, dev,
             "expected 0 (the device maximum) or a block size from 1 to " + std::to_string(dev));
  checkRange(k.blockSize, Field::BlockSizeMin, Field::BlockSizeMax, s);
  if ((k.blockSize.min + 31) / 32 * 32 > k.blockSize.max)
    fail(s.where(Field::BlockSizeMax),
         "block size range [" + std::to_string(k.blockSize.min) + ", " +
             std::to_string(k.blockSize.max) +
             "] holds no multiple of 32 (block sizes are searched in multiples of 32)");
  if (k.defaultBlockSize != 0 &&
      (k.defaultBlockSize < k.blockSize.min || k.defaultBlockSize > k.blockSize.max))
    failValue(s.where(Field::DefaultBlockSize), std::to_string(k.defaultBlockSize),
              s.key(Field::DefaultBlockSize),
              "expected 0 or a block size within [" + std::to_string(k.blockSize.min) + ", " +
                  std::to_string(k.blockSize.max) + "]");

  k.autoMapping = !s.given(Field::Merge) && !s.given(Field::Skew) && !s.given(Field::Prefetch) &&
                  !s.given(Field::MergeLevelMax) && !s.given(Field::SkewLevelMax);
  fitLevels(k.merge, k.mergeLevel, Field::MergeLevelMin, Field::MergeLevelMax, s);
  fitLevels(k.skew, k.skewLevel, Field::SkewLevelMin, Field::SkewLevelMax, s);

  checkBound(k.tileK.min, Field::TileKMin, s, 1, 0, "expected an integer >= 1");
  checkBound(k.tileK.max, Field::TileKMax, s, 1, 0, "expected an integer >= 1");
  checkRange(k.tileK, Field::TileKMin, Field::TileKMax, s);
}

void validateOptions(const Options &o, const Sites &s) {
  if (o.memory != "explicit" && o.memory != "managed")
    failValue(s.where(Field::Memory), o.memory, s.key(Field::Memory),
              "expected explicit or managed");
  // sm_XY with XY >= 50, optionally with the arch-specific suffix (sm_90a, sm_100f).
  const std::string &a = o.arch;
  size_t digits = 0;
  while (3 + digits < a.size() && std::isdigit(static_cast<unsigned char>(a[3 + digits])))
    ++digits;
  size_t rest = a.size() - std::min(a.size(), 3 + digits);
  bool ok = a.compare(0, 3, "sm_") == 0 && digits >= 2 && digits <= 3 && a[3] != '0' &&
            (rest == 0 || (rest == 1 && (a.back() == 'a' || a.back() == 'f'))) &&
            std::stoi(a.substr(3, digits)) >= 50;
  if (!ok)
    failValue(s.where(Field::Arch), a, s.key(Field::Arch),
              "expected sm_XY with XY >= 50, such as sm_90");
  if (o.deviceMaxBlockSize < 1)
    fail(s.fallback(), "the device maximum block size must be positive");
}

void validateKernelList(const Options &o) {
  for (size_t i = 0; i < o.kernels.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (o.kernels[i].name == o.kernels[j].name) {
        const KernelOptions &a = o.kernels[j], &b = o.kernels[i];
        fail(b.configFile + ":" + std::to_string(b.configLine),
             "kernel '" + b.name + "' is configured twice (first at " + a.configFile + ":" +
                 std::to_string(a.configLine) + ")");
      }
}

namespace {

// A file not named global.txt is still a global file when it sets global.txt's keys.
bool looksLikeGlobal(const std::string &text) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    std::string line = text.substr(start, end == std::string::npos ? end : end - start);
    size_t eq = line.find('=');
    if (eq != std::string::npos) {
      std::string key = trim(line.substr(0, eq));
      if (key == "KERNEL_FILES" || key == "CONFIG_FILES")
        return true;
    }
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  return false;
}

}  // namespace
}  // namespace config

Options loadConfig(const std::string &path) {
  fs::path p(path);
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (ext == ".yaml" || ext == ".yml")
    return config::loadYamlConfig(path);
  std::string text = config::readConfigFile(path);
  if (p.filename() == "global.txt" || config::looksLikeGlobal(text))
    return config::loadGlobalConfig(path, text);
  return config::loadLegacyConfig(path, text);
}

// The command line's -I and -D (Options::clangArgs) count as the config's: the output builds
// with them too.
static std::vector<std::string> commandLineFlags(const Options &options, const std::string &flag) {
  std::vector<std::string> out;
  const std::vector<std::string> &a = options.clangArgs;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] == flag && i + 1 < a.size()) out.push_back(a[++i]);
    else if (a[i].size() > 2 && a[i].rfind(flag, 0) == 0) out.push_back(a[i].substr(2));
  }
  return out;
}

std::vector<std::string> programIncludeDirs(const Options &options) {
  std::vector<std::string> dirs = options.includeDirs;
  for (const std::string &d : commandLineFlags(options, "-I"))
    dirs.push_back(fs::absolute(d).lexically_normal().string());
  return dirs;
}

std::vector<std::string> programDefines(const Options &options) {
  std::vector<std::string> defines = options.defines;
  for (const std::string &d : commandLineFlags(options, "-D")) defines.push_back(d);
  return defines;
}

}  // namespace rtcuda
