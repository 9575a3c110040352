// The YAML config format (docs/config.md). Every key is checked: an unknown or misspelled key
// is an error with its line and column, never silently ignored.

#include "ConfigInternal.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <optional>
#include <set>

namespace fs = std::filesystem;

namespace rtcuda::config {
namespace {

const std::vector<std::string> kTopKeys = {
    "kernel_files", "main_file", "source",        "include_dirs", "defines",
    "extra_sources", "memory",   "arch",          "defaults",     "kernels"};
const std::vector<std::string> kKernelKeys = {
    "name",     "parallel_loops", "collapse", "merge",     "skew",  "prefetch",
    "no_prefetch", "row_dim",     "data_type", "tuning", "on_dependence", "assume_parallel"};
const std::vector<std::string> kTuningKeys = {"block_size", "merge_level", "skew_level",
                                              "tile_k", "default_block_size"};

std::string yamlKey(Field f) {
  switch (f) {
  case Field::ParallelLoops: return "'parallel_loops'";
  case Field::Collapse: return "'collapse'";
  case Field::Merge: return "'merge'";
  case Field::Skew: return "'skew'";
  case Field::Prefetch: return "'prefetch'";
  case Field::NoPrefetch: return "'no_prefetch'";
  case Field::RowDim: return "'row_dim'";
  case Field::DataType: return "'data_type'";
  case Field::Matrix2D: return "the legacy 2DMATRIX setting";
  case Field::BlockSizeMin:
  case Field::BlockSizeMax: return "'block_size'";
  case Field::MergeLevelMin:
  case Field::MergeLevelMax: return "'merge_level'";
  case Field::SkewLevelMin:
  case Field::SkewLevelMax: return "'skew_level'";
  case Field::TileKMin:
  case Field::TileKMax: return "'tile_k'";
  case Field::DefaultBlockSize: return "'default_block_size'";
  case Field::Memory: return "'memory'";
  case Field::Arch: return "'arch'";
  }
  return "?";
}

class Reader {
public:
  explicit Reader(std::string display) : display_(std::move(display)) {}

  Options read(const std::string &text);

private:
  std::string at(const YAML::Node &n) const {
    YAML::Mark m = n.Mark();
    if (m.is_null())
      return display_;
    return display_ + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
  }

  // The value as the user wrote it, for messages: scalars verbatim, lists as [a, b].
  static std::string text(const YAML::Node &n) {
    if (n.IsScalar())
      return n.Scalar();
    if (n.IsSequence()) {
      std::string s = "[";
      for (size_t i = 0; i < n.size(); ++i)
        s += (i ? ", " : "") + text(n[i]);
      return s + "]";
    }
    if (n.IsMap())
      return "{...}";
    return "";
  }

  [[noreturn]] void bad(const YAML::Node &v, const std::string &key,
                        const std::string &expected) const {
    failValue(at(v), text(v), "'" + key + "'", expected);
  }

  // Checks a mapping's keys (scalar, known, not repeated) and returns them with their nodes.
  std::vector<std::pair<YAML::Node, YAML::Node>>
  entries(const YAML::Node &map, const std::vector<std::string> &known,
          const std::string &context) const {
    std::vector<std::pair<YAML::Node, YAML::Node>> out;
    std::set<std::string> seen;
    for (const auto &kv : map) {   // by value: the iterator's -> yields a temporary
      YAML::Node k = kv.first;
      if (!k.IsScalar())
        fail(at(k), "expected a key name" + context);
      const std::string &name = k.Scalar();
      if (std::find(known.begin(), known.end(), name) == known.end())
        fail(at(k), "unknown key '" + name + "'" + context + suggestion(name, known, true));
      if (!seen.insert(name).second)
        fail(at(k), "duplicate key '" + name + "'" + context);
      out.emplace_back(k, kv.second);
    }
    return out;
  }

  bool boolean(const YAML::Node &v, const std::string &key) const {
    if (v.IsScalar()) {
      const std::string &s = v.Scalar();
      if (s == "true" || s == "True" || s == "TRUE")
        return true;
      if (s == "false" || s == "False" || s == "FALSE")
        return false;
    }
    bad(v, key, "expected true or false");
  }

  int integer(const YAML::Node &v, const std::string &key) const {
    int out = 0;
    if (!v.IsScalar() || !parseInt(v.Scalar(), out))
      bad(v, key, "expected an integer");
    return out;
  }

  std::string string(const YAML::Node &v, const std::string &key) const {
    if (!v.IsScalar())
      bad(v, key, "expected a string");
    return v.Scalar();
  }

  // A list of scalars; a single scalar is a list of one, an empty value an empty list.
  std::vector<std::string> strings(const YAML::Node &v, const std::string &key,
                                   const std::string &what) const {
    std::vector<std::string> out;
    if (v.IsNull())
      return out;
    if (v.IsScalar())
      return {v.Scalar()};
    if (!v.IsSequence())
      bad(v, key, "expected a list of " + what);
    for (const YAML::Node &item : v) {
      if (!item.IsScalar())
        bad(item, key, "expected a list of " + what);
      out.push_back(item.Scalar());
    }
    return out;
  }

  // [min, max], or one integer for a fixed value.
  TuningRange range(const YAML::Node &v, const std::string &key) const {
    if (v.IsScalar()) {
      int x = integer(v, key);
      return {x, x};
    }
    if (!v.IsSequence() || v.size() != 2 || !v[0].IsScalar() || !v[1].IsScalar())
      bad(v, key, "expected [min, max] or an integer");
    return {integer(v[0], key), integer(v[1], key)};
  }

  void tuning(const YAML::Node &map, KernelOptions &k, Sites &s,
              const std::string &context) const {
    if (map.IsNull())
      return;
    if (!map.IsMap())
      bad(map, "tuning", "expected a mapping of tuning ranges");
    for (const auto &e : entries(map, kTuningKeys, " in 'tuning'" + context)) {
      const YAML::Node &v = e.second;
      const std::string key = e.first.Scalar();
      auto setRange = [&](TuningRange &r, Field fmin, Field fmax) {
        r = range(v, key);
        s.set(fmin, at(v));
        s.set(fmax, at(v));
      };
      if (key == "block_size")
        setRange(k.blockSize, Field::BlockSizeMin, Field::BlockSizeMax);
      else if (key == "merge_level")
        setRange(k.mergeLevel, Field::MergeLevelMin, Field::MergeLevelMax);
      else if (key == "skew_level")
        setRange(k.skewLevel, Field::SkewLevelMin, Field::SkewLevelMax);
      else if (key == "tile_k")
        setRange(k.tileK, Field::TileKMin, Field::TileKMax);
      else {
        k.defaultBlockSize = integer(v, key);
        s.set(Field::DefaultBlockSize, at(v));
      }
    }
  }

  // Applies the per-kernel keys of `map` (a kernel entry or `defaults`) over `k`.
  void kernelKeys(const YAML::Node &map, KernelOptions &k, Sites &s, bool allowName,
                  const std::string &context) const {
    std::vector<std::string> known = kKernelKeys;
    if (!allowName)
      known.erase(known.begin());
    for (const auto &[kn, v] : entries(map, known, context)) {
      const std::string key = kn.Scalar();
      if (key == "name")
        continue;   // read by the caller
      if (key == "tuning") {
        tuning(v, k, s, context);
        continue;
      }
      if (key == "parallel_loops") {
        if (v.IsScalar() && v.Scalar() == "auto") {
          k.parallelLoops = 0;
        } else {
          int n = -1;
          if (!v.IsScalar() || !parseInt(v.Scalar(), n) || n < 0)
            bad(v, key, "expected \"auto\" or an integer >= 0");
          k.parallelLoops = n;
        }
        s.set(Field::ParallelLoops, at(v));
      } else if (key == "collapse") {
        k.collapse = boolean(v, key);
        s.set(Field::Collapse, at(v));
      } else if (key == "merge") {
        k.merge = boolean(v, key);
        s.set(Field::Merge, at(v));
      } else if (key == "skew") {
        k.skew = boolean(v, key);
        s.set(Field::Skew, at(v));
      } else if (key == "prefetch") {
        k.prefetch = strings(v, key, "array names");
        s.set(Field::Prefetch, at(v));
      } else if (key == "no_prefetch") {
        k.noPrefetch = strings(v, key, "array names");
        s.set(Field::NoPrefetch, at(v));
      } else if (key == "row_dim") {
        k.rowDim = v.IsNull() ? "" : string(v, key);
        s.set(Field::RowDim, at(v));
      } else if (key == "on_dependence") {
        k.onDependence = string(v, key);
        if (k.onDependence != "refuse" && k.onDependence != "sequential" && k.onDependence != "host")
          bad(v, key, "expected refuse, sequential or host");
      } else if (key == "assume_parallel") {
        // true/false, or the variables of the loops asserted parallel.
        k.assumeParallelAll = false;
        k.assumeParallel.clear();
        if (v.IsScalar() && (v.Scalar() == "true" || v.Scalar() == "false"))
          k.assumeParallelAll = boolean(v, key);
        else
          for (const std::string &name : strings(v, key, "loop variables")) {
            if (!isIdentifier(name))
              bad(v, key, "expected true, false or a list of loop variables");
            k.assumeParallel.push_back(name);
          }
      } else if (key == "data_type") {
        k.dataType = v.IsNull() ? "" : string(v, key);
        s.set(Field::DataType, at(v));
      }
    }
  }

  std::string display_;
};

Options Reader::read(const std::string &src) {
  YAML::Node root;
  try {
    root = YAML::Load(src);
  } catch (const YAML::Exception &e) {
    std::string where = display_;
    if (!e.mark.is_null())
      where += ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1);
    fail(where, e.msg);
  }
  if (root.IsNull())
    fail(display_, "empty config: 'kernel_files' is required");
  if (!root.IsMap())
    fail(at(root), "expected a mapping of config keys at the top level");

  Options o;
  o.configPath = absolutePath(fs::current_path(), display_);
  fs::path dir = fs::path(display_).parent_path();
  Sites optionSites(display_, yamlKey);

  std::optional<YAML::Node> kernelFiles, defaults, kernels, source, mainFile;
  std::string sourceFile;
  for (const auto &[kn, v] : entries(root, kTopKeys, "")) {
    const std::string key = kn.Scalar();
    if (key == "main_file") mainFile = kn;
    if (key == "kernel_files") {
      kernelFiles = v;   // only its presence matters below
      if (v.IsNull() || (v.IsSequence() && v.size() == 0))
        fail(at(kn), "'kernel_files' names no file");
      if (v.IsScalar()) {
        o.kernelFiles.push_back(requireSourceFile(dir, v.Scalar(), at(v), "'kernel_files' names"));
        continue;
      }
      strings(v, key, "file names");   // checks the shape
      for (const YAML::Node &f : v) {
        std::string abs = requireSourceFile(dir, f.Scalar(), at(f), "'kernel_files' names");
        if (std::find(o.kernelFiles.begin(), o.kernelFiles.end(), abs) != o.kernelFiles.end())
          fail(at(f), "'kernel_files' names '" + f.Scalar() + "' twice");
        o.kernelFiles.push_back(abs);
      }
    } else if (key == "main_file") {
      if (!v.IsNull())
        o.mainFile = requireSourceFile(dir, string(v, key), at(v), "'main_file' names");
    } else if (key == "source") {
      // One file holding main and the kernels: both the kernel file and the main file.
      source = kn;
      sourceFile = requireSourceFile(dir, string(v, key), at(v), "'source' names");
    } else if (key == "include_dirs") {
      for (const std::string &d : strings(v, key, "folder names")) {
        std::string abs = absolutePath(dir, d);
        std::error_code ec;
        if (!fs::is_directory(abs, ec))
          fail(at(v), "'include_dirs' names '" + d + "', which is not a folder (looked for " +
                          abs + ")");
        o.includeDirs.push_back(abs);
      }
    } else if (key == "defines") {
      for (const std::string &d : strings(v, key, "definitions NAME or NAME=VALUE")) {
        std::string name = d.substr(0, d.find('='));
        if (!isIdentifier(name) || d.find_first_of("\n\r") != std::string::npos)
          fail(at(v), "invalid value '" + d + "' for 'defines': expected NAME or NAME=VALUE "
                      "with NAME a C identifier");
        o.defines.push_back(d);
      }
    } else if (key == "extra_sources") {
      for (const std::string &f : strings(v, key, "C file names")) {
        std::string abs = requireSourceFile(dir, f, at(v), "'extra_sources' names");
        if (fs::path(abs).extension() != ".c")
          fail(at(v), "'extra_sources' names '" + f + "', which is not a C file (.c)");
        for (const std::string &e : o.extraSources)
          if (fs::path(e).filename() == fs::path(abs).filename())
            fail(at(v), "'extra_sources' names two files called '" +
                            fs::path(abs).filename().string() +
                            "'; they would share one name in the output");
        o.extraSources.push_back(abs);
      }
    } else if (key == "memory") {
      o.memory = string(v, key);
      optionSites.set(Field::Memory, at(v));
    } else if (key == "arch") {
      o.arch = string(v, key);
      optionSites.set(Field::Arch, at(v));
    } else if (key == "defaults") {
      defaults = v;
    } else {
      kernels = v;
    }
  }
  if (source && (kernelFiles || mainFile))
    fail(at(*source), "'source' names both the kernel file and the main file; give it without "
                      "'kernel_files' and 'main_file'");
  if (!kernelFiles && !source)
    fail(display_, "missing required key 'kernel_files' (or 'source')");
  if (source) {
    o.kernelFiles = {sourceFile};
    o.mainFile = sourceFile;
  }
  validateOptions(o, optionSites);

  // `defaults` first, whatever the order in the file: kernel entries override it key by key
  // (tuning ranges one by one); the unchecked copy is what kernels inherit, so that a range
  // fitted to `merge: false` in defaults does not leak into a kernel that turns merge on.
  KernelOptions base;
  base.configFile = display_;
  Sites baseSites(display_, yamlKey);
  if (defaults && !defaults->IsNull()) {
    if (!defaults->IsMap())
      bad(*defaults, "defaults", "expected a mapping of per-kernel keys");
    base.configLine = defaults->Mark().line + 1;
    baseSites = baseSites.withFallback(at(*defaults));
    kernelKeys(*defaults, base, baseSites, false, " in 'defaults'");
  }
  o.defaults = base;
  validateKernel(o.defaults, o, baseSites);

  if (kernels && !kernels->IsNull()) {
    if (!kernels->IsSequence())
      bad(*kernels, "kernels", "expected a list of kernels");
    for (const YAML::Node &entry : *kernels) {
      KernelOptions k = base;
      k.configLine = entry.Mark().line + 1;
      Sites s = baseSites.withFallback(at(entry));
      if (!entry.IsScalar() && !entry.IsMap())
        bad(entry, "kernels", "expected a kernel name or a mapping with 'name'");
      if (entry.IsMap() && !entry["name"])
        fail(at(entry), "kernel entry without 'name'");
      // Constructed, not assigned: yaml-cpp throws when a missing entry is assigned to a node.
      const YAML::Node nameNode = entry.IsMap() ? entry["name"] : entry;
      if (!nameNode.IsScalar() || !isIdentifier(nameNode.Scalar()))
        bad(nameNode, "name", "expected a C function name");
      k.name = nameNode.Scalar();
      if (entry.IsMap())
        kernelKeys(entry, k, s, true, " in kernel '" + k.name + "'");
      validateKernel(k, o, s);
      o.kernels.push_back(std::move(k));
    }
  }
  validateKernelList(o);
  return o;
}

}  // namespace

Options loadYamlConfig(const std::string &display) {
  std::string text = readConfigFile(display);
  try {
    return Reader(display).read(text);
  } catch (const YAML::Exception &e) {
    // Not expected (nodes are checked before use), but never let a yaml-cpp type escape.
    fail(display, e.what());
  }
}

}  // namespace rtcuda::config
