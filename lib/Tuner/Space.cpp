// Tuning spaces, launch geometry and problem sizes (see Space.h).
#include "rtcuda/Tuner/Space.h"

#include "rtcuda/Tuner/Expr.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <sstream>

namespace rtcuda::tune {

namespace fs = std::filesystem;
using nlohmann::json;

// An outlined kernel's scalars: the function's sizes are sizes (tsteps bounds the host loop
// but is a plain value of the kernel), its other parameters values as for any kernel; the
// variable of a host loop around its launch takes values of that loop (hostSamples); any other
// integer the host code computes (a pivot, a local scalar, a loop's variable under an if) has
// valid values the tuner cannot know, so the kernel is not measured.
static void outlinedKernel(const ManifestKernel &function, TuneKernel &k) {
  k.function = function.name;
  std::set<std::string> sizes, params;
  for (const ManifestParam &p : function.params) {
    params.insert(p.name);
    if (!p.isArray() && p.role == "size") sizes.insert(p.name);
  }
  for (ManifestParam &p : k.k.params) {
    if (p.name.rfind("rtcuda_cell_", 0) == 0 && k.notMeasurable.empty())
      k.notMeasurable = "it returns a scalar to the host through '" + p.name +
                        "', which only the host function reads";
    if (p.isArray()) continue;
    bool integer = p.type != "float" && p.type != "double";
    bool hostLoop = false;
    for (const ManifestHostLoop &l : k.k.hostLoops) hostLoop |= l.var == p.name;
    if (sizes.count(p.name)) p.role = "size";
    else if (params.count(p.name)) p.role = "value";
    else if (integer && hostLoop && !k.k.hostConditional) p.role = "host";
    else if (integer && hostLoop && k.notMeasurable.empty())
      k.notMeasurable = "its parameter '" + p.name + "' is the variable of a host loop, but an if "
                        "or a while inside the loops decides whether it is launched: the tuner "
                        "cannot tell which values it runs at";
    else if (integer && k.notMeasurable.empty())
      k.notMeasurable = "its parameter '" + p.name + "' (" + p.type +
                        ") is computed by the host code around the launch (a host loop's variable "
                        "or a local scalar), not a parameter of " + function.name +
                        ": the tuner cannot choose valid values for it";
  }
  if (k.k.tuning.empty() && k.notMeasurable.empty())
    k.notMeasurable = "it has no tuning parameters (one GPU thread)";
}

std::vector<TuneKernel> loadKernels(const Manifest &m) {
  std::ifstream in(m.dir + "/manifest.json");
  json j = json::parse(in, nullptr, false);
  std::ifstream cu(m.dir + "/kernel.cu");
  std::stringstream source;
  source << cu.rdbuf();
  std::vector<TuneKernel> out;
  // The JSON of every kernel by name, outlined ones included (their launch fields).
  std::map<std::string, json> entries;
  if (j.is_object()) {
    for (const json &jk : j.value("kernels", json::array())) entries[jk.value("name", "")] = jk;
    for (const json &f : j.value("functions", json::array()))
      for (const json &jk : f.value("outlined_kernels", json::array())) entries[jk.value("name", "")] = jk;
  }
  std::vector<std::pair<ManifestKernel, const ManifestKernel *>> all;  // kernel, its function
  for (const ManifestKernel &mk : m.kernels) all.push_back({mk, nullptr});
  for (const ManifestKernel &f : m.functions)
    for (const ManifestKernel &ok : f.outlined) all.push_back({ok, &f});
  for (const auto &[mk, function] : all) {
    TuneKernel k;
    k.k = mk;
    if (function) outlinedKernel(*function, k);
    std::set<std::string> types;
    for (const ManifestParam &p : mk.params)
      if (p.isArray()) types.insert(p.type);
    for (const std::string &t : types) k.dataType += (k.dataType.empty() ? "" : ",") + t;
    if (entries.count(mk.name)) {
      const json &jk = entries[mk.name];
      k.blockThreads = jk.value("block_threads", "");
      for (const json &g : jk.value("grid", json::array()))
        k.grid.push_back({g.value("iterations", ""), g.value("per_block", "1"),
                          g.value("max_blocks", 2147483647LL)});
    }
    if (k.blockThreads.empty())
      for (const ManifestTuning &t : mk.tuning)
        if (t.name == "BLOCKSIZE") k.blockThreads = t.macro;
    // A manifest without launch fields: x covered by a block's threads, y one row per block.
    if (k.grid.empty())
      for (const std::string &it : mk.gridIterations)
        k.grid.push_back({it, k.grid.empty() && !k.blockThreads.empty() ? k.blockThreads : "1",
                          k.grid.empty() ? 2147483647LL : 65535LL});
    if (k.notMeasurable.empty() &&
        std::regex_search(source.str(), std::regex("\\b" + mk.name + "_finish\\s*\\(")))
      k.notMeasurable = "the kernel ends with a reduction (device buffers and a " + mk.name +
                        "_finish kernel) that manifest.json does not describe, so the harness "
                        "cannot launch it";
    out.push_back(k);
  }
  return out;
}

bool readsHostLoop(const TuneKernel &k) {
  for (const ManifestParam &p : k.k.params)
    if (p.role == "host") return true;
  return false;
}

std::vector<std::map<std::string, long long>> hostSamples(const TuneKernel &k,
                                                          const std::map<std::string, long long> &sizes) {
  if (!readsHostLoop(k)) return {sizes};
  std::vector<std::map<std::string, long long>> out;
  // Position 0: the first iteration of every loop, 1: the middle, 2: the last (an inner loop at
  // that position of the range its outer values give it).
  for (int at = 0; at < 3; ++at) {
    std::map<std::string, long long> b = sizes;
    bool empty = false;
    for (const ManifestHostLoop &l : k.k.hostLoops) {
      long long lo = evalExpr(l.min, b), end = evalExpr(l.end, b);
      long long count = l.step > 0 ? (end - lo + l.step - 1) / l.step : (lo - end - l.step - 1) / -l.step;
      if (count <= 0) {
        empty = true;
        break;
      }
      long long i = at == 0 ? 0 : at == 1 ? count / 2 : count - 1;
      b[l.var] = lo + i * l.step;
    }
    // The host skips a launch whose grid has no iterations; so does the measurement.
    for (size_t d = 0; d < k.grid.size() && !empty; ++d) empty = evalExpr(k.grid[d].iterations, b) <= 0;
    if (!empty && std::find(out.begin(), out.end(), b) == out.end()) out.push_back(b);
  }
  return out;
}

std::string samplesId(const TuneKernel &k, const std::vector<std::map<std::string, long long>> &samples) {
  if (!readsHostLoop(k)) return "";
  std::string id;
  for (size_t i = 0; i < samples.size(); ++i) {
    id += i ? ";" : " at";
    for (const ManifestHostLoop &l : k.k.hostLoops)
      if (samples[i].count(l.var)) id += " " + l.var + "=" + std::to_string(samples[i].at(l.var));
  }
  return id;
}

std::vector<Variant> sampleSpace(const std::vector<Variant> &space, const Variant &defaultPoint,
                                 size_t max, unsigned seed) {
  if (space.size() <= max || max == 0) return space;
  std::vector<size_t> order(space.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::mt19937 rng(seed);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<bool> keep(space.size(), false);
  size_t kept = 0;
  for (size_t i = 0; i < space.size(); ++i)
    if (space[i] == defaultPoint) keep[i] = true, ++kept;
  for (size_t i = 0; i < order.size() && kept < max; ++i)
    if (!keep[order[i]]) keep[order[i]] = true, ++kept;
  std::vector<Variant> out;
  for (size_t i = 0; i < space.size(); ++i)
    if (keep[i]) out.push_back(space[i]);
  return out;
}

std::vector<Variant> enumerateSpace(const TuneKernel &k) {
  std::vector<Variant> points{{}};
  for (const ManifestTuning &t : k.k.tuning) {
    std::vector<Variant> next;
    for (const Variant &p : points)
      for (int v : t.values) {
        Variant q = p;
        q.push_back(v);
        next.push_back(q);
      }
    points = next;
  }
  return points;
}

Variant defaultVariant(const TuneKernel &k) {
  Variant v;
  for (const ManifestTuning &t : k.k.tuning) v.push_back(t.defaultValue);
  return v;
}

std::string variantId(const TuneKernel &k, const Variant &v) {
  std::string id;
  for (size_t i = 0; i < k.k.tuning.size() && i < v.size(); ++i)
    id += (i ? "," : "") + k.k.tuning[i].name + "=" + std::to_string(v[i]);
  return id.empty() ? "default" : id;
}

std::map<std::string, long long> macroValues(const TuneKernel &k, const Variant &v) {
  std::map<std::string, long long> m;
  for (size_t i = 0; i < k.k.tuning.size() && i < v.size(); ++i) m[k.k.tuning[i].macro] = v[i];
  return m;
}

Geometry geometry(const TuneKernel &k, const std::map<std::string, long long> &sizes,
                  const Variant &v) {
  std::map<std::string, long long> names = sizes;
  for (const auto &[macro, value] : macroValues(k, v)) names[macro] = value;
  Geometry g;
  g.threads = k.blockThreads.empty() ? 1 : evalExpr(k.blockThreads, names);
  for (size_t d = 0; d < k.grid.size() && d < 2; ++d) {
    g.iterations[d] = std::max(0LL, evalExpr(k.grid[d].iterations, names));
    g.perBlock[d] = std::max(1LL, evalExpr(k.grid[d].perBlock, names));
    long long blocks = (g.iterations[d] + g.perBlock[d] - 1) / g.perBlock[d];
    g.blocks[d] = std::min(blocks, k.grid[d].maxBlocks);
  }
  return g;
}

bool hasFixedExtent(const ManifestParam &p) {
  if (!p.isArray()) return false;
  for (char c : p.elements)
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return false;
  return true;
}

std::map<std::string, long long> withinLimits(const TuneKernel &k, std::map<std::string, long long> sizes) {
  for (const ManifestParam &p : k.k.params)
    if (!p.isArray() && sizes.count(p.name)) sizes[p.name] = std::min(sizes[p.name], p.atMost);
  return sizes;
}

// The target sizes scaled down together until the largest array has `maxElements` elements.
static std::map<std::string, long long> scaledSizes(const TuneKernel &k,
                                                    const std::map<std::string, long long> &target,
                                                    long long maxElements) {
  // Arrays of fixed extents (PolyBench's, declared with the dataset's sizes) do not shrink
  // with the sizes: what the kernel touches does, each extent equal to a target size standing
  // for that size (A[8192][8192] with n=8192 is n*n); without such an array, the two largest
  // sizes stand for a 2-D array.
  auto largest = [&](const std::map<std::string, long long> &sizes) {
    long long most = 0;
    for (const ManifestParam &p : k.k.params) {
      if (!p.isArray()) continue;
      if (!hasFixedExtent(p)) {
        try {
          most = std::max(most, evalExpr(p.elements, sizes));
        } catch (const ExprError &) {
        }
        continue;
      }
      long long touched = 1;
      bool scales = false;
      for (const std::string &d : p.dims) {
        long long extent = 0;
        try {
          extent = evalExpr(d, {});
        } catch (const ExprError &) {
          scales = false;
          break;
        }
        long long used = extent;
        for (const auto &[name, value] : target)
          if (value == extent) used = sizes.at(name), scales = true;
        touched *= std::max(1LL, used);
      }
      if (scales) most = std::max(most, touched);
    }
    if (most == 0) {
      std::vector<long long> v;
      for (const auto &[name, value] : sizes) v.push_back(value);
      std::sort(v.rbegin(), v.rend());
      most = v.empty() ? 0 : v.size() == 1 ? v[0] : v[0] * v[1];
    }
    return most;
  };
  if (largest(target) <= maxElements) return target;
  long long top = 1;
  for (const auto &[name, value] : target) top = std::max(top, value);
  std::map<std::string, long long> sizes = target;
  for (long long f = 2; f <= top; f += (f < 16 ? 1 : f / 8)) {
    for (const auto &[name, value] : target) {
      long long v = value;
      if (value > 64) {
        v = std::max(64LL, value / f);
        if (v % 2 == 0) v -= 1;
      }
      sizes[name] = v;
    }
    if (largest(sizes) <= maxElements) break;
  }
  return sizes;
}

std::map<std::string, long long> checkSizes(const TuneKernel &k,
                                            const std::map<std::string, long long> &target,
                                            long long maxElements) {
  return withinLimits(k, scaledSizes(k, target, maxElements));
}

std::map<std::string, long long> mainSizeDefaults(const std::string &outDir) {
  std::map<std::string, long long> found;
  std::error_code ec;
  fs::path src = fs::path(outDir) / "src";
  if (!fs::is_directory(src, ec)) return found;
  // `NAME = cond ? atoi(argv[1]) : 128;`, `int NAME = 128;`, `#define NAME 128`
  static const std::regex ternary(R"(\b([A-Za-z_]\w*)\s*=[^;=]*\?[^;]*:\s*(\d+)\s*;)");
  static const std::regex plain(R"(\b(?:int|long|unsigned|size_t|const)\s+([A-Za-z_]\w*)\s*=\s*(\d+)\s*;)");
  static const std::regex define(R"(#\s*define\s+([A-Za-z_]\w*)\s+\(?(\d+)\)?\s*\n)");
  for (const auto &entry : fs::directory_iterator(src, ec)) {
    if (entry.path().extension() != ".c" || entry.path().filename() == "kernel.c") continue;
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    for (const std::regex *re : {&ternary, &plain, &define})
      for (std::sregex_iterator it(text.begin(), text.end(), *re), end; it != end; ++it)
        found.emplace((*it)[1], std::stoll((*it)[2]));
  }
  return found;
}

std::map<std::string, long long> chooseSizes(const Manifest &m, const TuneKernel &k,
                                             const std::map<std::string, long long> &given,
                                             std::map<std::string, std::string> *origin) {
  std::map<std::string, long long> sizes;
  std::map<std::string, long long> fromMain = mainSizeDefaults(m.dir);
  std::vector<std::string> unknown;
  for (const ManifestParam &p : k.k.params) {
    if (p.isArray() || p.role != "size") continue;
    if (given.count(p.name)) {
      sizes[p.name] = given.at(p.name);
      if (origin) (*origin)[p.name] = "--size";
    } else if (fromMain.count(p.name) && fromMain.at(p.name) > 0) {
      sizes[p.name] = fromMain.at(p.name);
      if (origin) (*origin)[p.name] = "main.c";
    } else {
      unknown.push_back(p.name);
    }
  }
  if (unknown.empty()) return sizes;
  // Grow the unknown sizes together until the largest array has 2^22 elements.
  long long s = 16;
  for (; s < (1LL << 26); s *= 2) {
    auto trial = sizes;
    for (const std::string &n : unknown) trial[n] = s;
    trial = withinLimits(k, trial);
    long long largest = 0;
    for (const ManifestParam &p : k.k.params) {
      if (!p.isArray() || p.elements.empty()) continue;
      try {
        largest = std::max(largest, evalExpr(p.elements, trial));
      } catch (const ExprError &) {
      }
    }
    for (const GridDim &g : k.grid) {
      try {
        largest = std::max(largest, evalExpr(g.iterations, trial));
      } catch (const ExprError &) {
      }
    }
    if (largest >= (1LL << 22)) break;
  }
  for (const std::string &n : unknown) {
    sizes[n] = s;
    if (origin) (*origin)[n] = "default";
  }
  return withinLimits(k, sizes);
}

std::string sizesId(const std::map<std::string, long long> &sizes) {
  std::string id;
  for (const auto &[name, value] : sizes) id += (id.empty() ? "" : ",") + name + "=" + std::to_string(value);
  return id.empty() ? "-" : id;
}

}  // namespace rtcuda::tune
