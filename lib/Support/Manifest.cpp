#include "rtcuda/Support/Manifest.h"

#include <nlohmann/json.hpp>

#include "rtcuda/IR/IR.h"

#include <cctype>
#include <fstream>
#include <set>

namespace rtcuda {

using nlohmann::json;

bool isCIdentifier(const std::string &s) {
  if (s.empty() || s.size() > 255 || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

namespace {

// What verify and the tuner paste into generated C++ or pass to a compiler must be what
// translate writes: identifiers, known types, plain relative paths, arithmetic without calls.
// An edited or downloaded manifest must not smuggle code or options in.
struct Checker {
  std::string path;
  [[noreturn]] void bad(const std::string &key, const std::string &value, const std::string &why) const {
    throw ManifestError(path + ": error: " + key + " = '" + value + "': " + why);
  }
  const std::string &identifier(const std::string &key, const std::string &value) const {
    if (!isCIdentifier(value)) bad(key, value, "not a C identifier");
    return value;
  }
  const std::string &type(const std::string &key, const std::string &value) const {
    bool ok = false;
    ir::Type::fromName(value, &ok);
    if (!ok) bad(key, value, "not a scalar type rtcuda writes");
    return value;
  }
  const std::string &file(const std::string &key, const std::string &value, bool mayBeEmpty = false) const {
    if (value.empty() && mayBeEmpty) return value;
    if (value.empty() || value[0] == '/' || value[0] == '-') bad(key, value, "not a relative file name");
    size_t start = 0;
    for (size_t i = 0; i <= value.size(); ++i) {
      if (i < value.size() && value[i] != '/') {
        char c = value[i];
        if (std::iscntrl(static_cast<unsigned char>(c)) || c == '"' || c == '\\' || c == '\'')
          bad(key, value, "a file name here holds no quotes, backslashes or control characters");
        continue;
      }
      std::string part = value.substr(start, i - start);
      if (part.empty() || part == "." || part == ".." || part[0] == '-')
        bad(key, value, "not a plain path inside the output folder");
      start = i + 1;
    }
    return value;
  }
  // C arithmetic over names and integers: no calls (but those of `calls`), strings, statements
  // or preprocessor.
  const std::string &expression(const std::string &key, const std::string &value,
                                const std::set<std::string> &calls = {}) const {
    const std::string allowed = calls.empty() ? " +-*/%()?:<>=!&|~^" : " +-*/%()?:<>=!&|~^,";
    for (size_t i = 0; i < value.size(); ++i) {
      char c = value[i];
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') continue;
      if (allowed.find(c) == std::string::npos)
        bad(key, value, std::string("character '") + c + "' has no place in a size expression");
      if (c == '(' && i > 0) {
        size_t j = i;
        while (j > 0 && value[j - 1] == ' ') --j;
        size_t w = j;
        while (w > 0 && (std::isalnum(static_cast<unsigned char>(value[w - 1])) || value[w - 1] == '_')) --w;
        if (w < j && !calls.count(value.substr(w, j - w)))
          bad(key, value, "a size expression calls no function" +
                              std::string(calls.empty() ? "" : " but rtcuda_ceil_div, rtcuda_min and rtcuda_max"));
      }
    }
    return value;
  }
};

}  // namespace

Manifest readManifest(const std::string &outDir) {
  std::string path = outDir + "/manifest.json";
  std::ifstream in(path);
  if (!in) throw ManifestError(path + ": error: cannot read manifest (is '" + outDir +
                               "' an rtcuda output folder?)");
  try {
    json j = json::parse(in);
    if (j.value("format", "") != "rtcuda-manifest")
      throw ManifestError(path + ": error: not an rtcuda manifest");
    Checker c{path};
    Manifest m;
    m.dir = outDir;
    m.kernelSources = j.at("kernel_sources").get<std::vector<std::string>>();
    m.referenceSources = j.at("reference_sources").get<std::vector<std::string>>();
    for (const std::string &f : m.kernelSources) c.file("kernel_sources", f);
    for (const std::string &f : m.referenceSources) c.file("reference_sources", f);
    m.main = c.file("main", j.value("main", ""), true);
    m.memory = c.identifier("memory", j.value("memory", "explicit"));
    m.arch = c.identifier("arch", j.value("arch", "sm_90"));
    for (const std::string &d : j.value("include_dirs", std::vector<std::string>{}))
      m.includeDirs.push_back(c.file("include_dirs", d));
    for (const std::string &d : j.value("defines", std::vector<std::string>{})) {
      // NAME or NAME=VALUE; the value reaches the compiler as one argument.
      c.identifier("defines", d.substr(0, d.find('=')));
      if (d.find_first_of("\n\r") != std::string::npos) c.bad("defines", d, "a line break");
      m.defines.push_back(d);
    }
    for (const std::string &f : j.value("extra_sources", std::vector<std::string>{}))
      m.extraSources.push_back(c.file("extra_sources", f));
    auto entry = [&](const json &k) {
      ManifestKernel mk;
      mk.name = c.identifier("kernels[].name", k.at("name"));
      std::string where = "kernel " + mk.name + ": ";
      mk.location = k.value("location", "");
      mk.paramsHeader = c.file(where + "params_header", k.at("params_header"));
      mk.launchFunction = c.identifier(where + "launch_function", k.at("launch_function"));
      mk.macroPrefix = c.identifier(where + "macro_prefix", k.at("macro_prefix"));
      mk.passes = k.value("passes", std::vector<std::string>{});
      mk.remarks = k.value("remarks", std::vector<std::string>{});
      for (const json &p : k.at("params")) {
        ManifestParam mp;
        mp.name = c.identifier(where + "params[].name", p.at("name"));
        mp.type = c.type(where + "params[" + mp.name + "].type", p.at("type"));
        mp.kind = p.at("kind");
        if (mp.kind != "array" && mp.kind != "scalar")
          c.bad(where + "params[" + mp.name + "].kind", mp.kind, "neither 'array' nor 'scalar'");
        mp.role = p.value("role", "");
        mp.boundsOnly = p.value("bounds_only", false);
        if (p.contains("at_most")) {
          if (!p.at("at_most").is_number_integer())
            c.bad(where + "params[" + mp.name + "].at_most", p.at("at_most").dump(), "not an integer");
          mp.atMost = p.at("at_most").get<long long>();
        }
        mp.isConst = p.value("const", false);
        mp.read = p.value("read", false);
        mp.written = p.value("written", false);
        mp.dims = p.value("dims", std::vector<std::string>{});
        for (const std::string &d : mp.dims) c.expression(where + "params[" + mp.name + "].dims", d);
        // The largest of several row ranges is rtcuda_max (Footprint.cpp).
        mp.elements = c.expression(where + "params[" + mp.name + "].elements", p.value("elements", ""),
                                   {"rtcuda_ceil_div", "rtcuda_min", "rtcuda_max"});
        if (p.contains("index_values")) {
          const json &iv = p.at("index_values");
          std::string key = where + "params[" + mp.name + "].index_values";
          for (const std::string &e : iv.value("below", std::vector<std::string>{}))
            mp.valuesBelow.push_back(c.expression(key + ".below", e));
          for (const std::string &e : iv.value("offsets_up_to", std::vector<std::string>{}))
            mp.offsetsUpTo.push_back(c.expression(key + ".offsets_up_to", e));
        }
        mk.params.push_back(mp);
      }
      for (const json &g : k.at("grid"))
        mk.gridIterations.push_back(c.expression(where + "grid[].iterations", g.at("iterations")));
      for (const auto &[name, t] : k.at("tuning").items())
        mk.tuning.push_back({c.identifier(where + "tuning", name),
                             c.identifier(where + "tuning." + name + ".macro", t.at("macro")),
                             t.at("values").get<std::vector<int>>(), t.at("default")});
      for (const json &l : k.value("host_loops", json::array())) {
        ManifestHostLoop hl;
        hl.var = c.identifier(where + "host_loops[].var", l.at("var"));
        hl.type = c.type(where + "host_loops[" + hl.var + "].type", l.at("type"));
        hl.min = c.expression(where + "host_loops[" + hl.var + "].min", l.at("min"));
        hl.end = c.expression(where + "host_loops[" + hl.var + "].end", l.at("end"));
        hl.step = l.at("step").get<long long>();
        if (hl.step == 0) c.bad(where + "host_loops[" + hl.var + "].step", "0", "a loop's step is not 0");
        mk.hostLoops.push_back(hl);
      }
      mk.hostConditional = k.value("host_conditional", false);
      for (const json &a : k.value("alternatives", json::array())) {
        ManifestAlternative alt;
        alt.name = c.identifier(where + "alternatives[].name", a.at("name"));
        alt.selectMacro = c.identifier(where + "alternatives[].select_macro", a.at("select_macro"));
        alt.selectValue = a.at("select_value");
        alt.rule = a.value("rule", std::string("small_grid"));
        if (alt.rule != "small_grid" && alt.rule != "index_width")
          c.bad(where + "alternatives[].rule", alt.rule, "small_grid or index_width");
        if (alt.selectValue < 2)
          c.bad(where + "alternatives[].select_value", std::to_string(alt.selectValue),
                "0 and 1 choose no alternative");
        for (const json &g : a.at("grid")) {
          // grid[1] of a split instantiation: its chunks of k, the launch's rule (splitCount)
          alt.gridIterations.push_back(c.expression(where + "alternatives[].grid[].iterations", g.at("iterations"),
                                                    {"rtcuda_ceil_div", "rtcuda_min", "rtcuda_max"}));
          alt.gridPerBlock.push_back(c.expression(where + "alternatives[].grid[].per_block", g.at("per_block")));
          alt.gridMaxBlocks.push_back(g.value("max_blocks", 2147483647LL));
        }
        alt.blockThreads = c.expression(where + "alternatives[].block_threads", a.value("block_threads", ""));
        if (a.contains("split_macro"))
          alt.splitMacro = c.identifier(where + "alternatives[].split_macro", a.at("split_macro"));
        for (const auto &[macro, value] : a.at("point").items())
          alt.point.push_back({c.identifier(where + "alternatives[].point", macro), value.get<int>()});
        mk.alternatives.push_back(alt);
      }
      if (k.contains("launch_choice"))
        mk.launchChoice = c.expression(where + "launch_choice", k.at("launch_choice"),
                                       {"rtcuda_ceil_div", "rtcuda_min", "rtcuda_max"});
      if (!mk.alternatives.empty() && mk.launchChoice.empty() && !k.contains("outlined_kernels"))
        c.bad(where + "launch_choice", "", "the launch's choice among the alternatives is "
              "missing (an output of an older rtcuda: translate again)");
      return mk;
    };
    for (const json &k : j.at("kernels")) m.kernels.push_back(entry(k));
    for (const json &f : j.value("functions", json::array())) {
      m.functions.push_back(entry(f));
      for (const json &k : f.value("outlined_kernels", json::array()))
        m.functions.back().outlined.push_back(entry(k));
    }
    return m;
  } catch (const json::exception &e) {
    throw ManifestError(path + ": error: malformed manifest: " + e.what());
  }
}

}  // namespace rtcuda
