// Pieces shared by the three config readers (YAML, legacy config.txt, legacy global.txt).
//
// Each reader turns its syntax into Options/KernelOptions and records, in a Sites object, where
// every key was written and how its format spells the key. The checks that do not depend on the
// syntax (ranges, block size limits, names, arch, memory) then run once, in Config.cpp, and can
// still point at the user's line.
#pragma once

#include "rtcuda/Config/Options.h"

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace rtcuda::config {

// The settings a message may have to point at.
enum class Field {
  ParallelLoops,
  Collapse,
  Merge,
  Skew,
  Prefetch,
  NoPrefetch,
  RowDim,
  DataType,
  Matrix2D,
  BlockSizeMin,
  BlockSizeMax,
  MergeLevelMin,
  MergeLevelMax,
  SkewLevelMin,
  SkewLevelMax,
  TileKMin,
  TileKMax,
  DefaultBlockSize,
  Memory,
  Arch,
};

// Where each setting of one kernel (or of the whole config) was written.
class Sites {
public:
  using Namer = std::function<std::string(Field)>;

  // `fallback` locates settings the user did not write (the kernel's entry, or the file);
  // `namer` spells a key the way the format does: MAX_BLOCKSIZE, or 'block_size'.
  Sites(std::string fallback, Namer namer)
      : fallback_(std::move(fallback)), namer_(std::move(namer)) {}

  // The same recorded sites with another fallback (a kernel that inherits `defaults`).
  Sites withFallback(std::string fallback) const {
    Sites s = *this;
    s.fallback_ = std::move(fallback);
    return s;
  }

  void set(Field f, std::string where) { where_[f] = std::move(where); }
  bool given(Field f) const { return where_.count(f) != 0; }
  const std::string &where(Field f) const {
    auto it = where_.find(f);
    return it == where_.end() ? fallback_ : it->second;
  }
  const std::string &fallback() const { return fallback_; }
  std::string key(Field f) const { return namer_(f); }

private:
  std::string fallback_;
  Namer namer_;
  std::map<Field, std::string> where_;
};

// Throws ConfigError("<where>: error: <message>"); `where` may be empty.
[[noreturn]] void fail(const std::string &where, const std::string &message);

// "invalid value '<value>' for <key>: <expected>" at `where`.
[[noreturn]] void failValue(const std::string &where, const std::string &value,
                            const std::string &key, const std::string &expected);

// Reads a whole file; throws "<display>: error: cannot read config file: <reason>".
std::string readConfigFile(const std::string &display);

// Text helpers shared by the readers.
std::string trim(const std::string &s);
std::vector<std::string> splitList(const std::string &s, char sep);  // trimmed items
bool isIdentifier(const std::string &s);
bool parseInt(const std::string &s, int &out);   // decimal, optional sign, whole string
size_t editDistance(const std::string &a, const std::string &b);
// " (did you mean 'X'?)" when one of `known` is close to `key`, else "".
std::string suggestion(const std::string &key, const std::vector<std::string> &known,
                       bool quote);

// Joins `written` to the config's folder and makes it absolute and normal.
std::string absolutePath(const std::filesystem::path &configDir, const std::string &written);
// Like absolutePath, and requires a regular file there; otherwise fails at `where` with a
// message naming `key` and the file as written.
std::string requireSourceFile(const std::filesystem::path &configDir, const std::string &written,
                              const std::string &where, const std::string &key);

// The checks every format shares. validateKernel also normalizes: a block size max of 0 becomes
// the device maximum; merge/skew ranges collapse to [1, 1] when the transformation is off (so
// the tuner never varies a parameter the code does not use) and widen to [1, 8] when it is on
// and no range was written.
void validateKernel(KernelOptions &k, const Options &o, const Sites &sites);
void validateOptions(const Options &o, const Sites &sites);
// Kernel names are C identifiers and unique; `where` locates each kernel's entry.
void validateKernelList(const Options &o);

inline constexpr int kImpliedLevelMax = 8;    // merge/skew range when enabled without a range
inline constexpr int kUnboundedLevelMax = 32; // legacy MAX_*_LEVEL=0 ("up to the block size")

// The readers, one per format. `display` is the path as the user gave it (used in messages).
Options loadYamlConfig(const std::string &display);
Options loadLegacyConfig(const std::string &display, const std::string &text);
Options loadGlobalConfig(const std::string &display, const std::string &text);

// One KEY=VALUE line of a legacy file.
struct LegacyEntry {
  std::string key;
  std::string value;
  int line = 0;
};
// Splits a legacy file into entries: tolerates CR LF, a UTF-8 BOM, blank lines, '#' comments
// and blanks around keys and values; rejects lines without '=' and keys given twice.
std::vector<LegacyEntry> parseLegacyLines(const std::string &display, const std::string &text);

}  // namespace rtcuda::config
