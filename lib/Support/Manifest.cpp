#include "rtcuda/Support/Manifest.h"

#include <nlohmann/json.hpp>

#include <fstream>

namespace rtcuda {

using nlohmann::json;

Manifest readManifest(const std::string &outDir) {
  std::string path = outDir + "/manifest.json";
  std::ifstream in(path);
  if (!in) throw ManifestError(path + ": error: cannot read manifest (is '" + outDir +
                               "' an rtcuda output folder?)");
  try {
    json j = json::parse(in);
    if (j.value("format", "") != "rtcuda-manifest")
      throw ManifestError(path + ": error: not an rtcuda manifest");
    Manifest m;
    m.dir = outDir;
    m.kernelSources = j.at("kernel_sources").get<std::vector<std::string>>();
    m.referenceSources = j.at("reference_sources").get<std::vector<std::string>>();
    m.main = j.value("main", "");
    m.memory = j.value("memory", "explicit");
    m.arch = j.value("arch", "sm_90");
    for (const json &k : j.at("kernels")) {
      ManifestKernel mk;
      mk.name = k.at("name");
      mk.location = k.value("location", "");
      mk.paramsHeader = k.at("params_header");
      mk.launchFunction = k.at("launch_function");
      mk.macroPrefix = k.at("macro_prefix");
      mk.passes = k.value("passes", std::vector<std::string>{});
      mk.remarks = k.value("remarks", std::vector<std::string>{});
      for (const json &p : k.at("params")) {
        ManifestParam mp;
        mp.name = p.at("name");
        mp.type = p.at("type");
        mp.kind = p.at("kind");
        mp.role = p.value("role", "");
        mp.isConst = p.value("const", false);
        mp.read = p.value("read", false);
        mp.written = p.value("written", false);
        mp.dims = p.value("dims", std::vector<std::string>{});
        mp.elements = p.value("elements", "");
        mk.params.push_back(mp);
      }
      for (const json &g : k.at("grid")) mk.gridIterations.push_back(g.at("iterations"));
      for (const auto &[name, t] : k.at("tuning").items())
        mk.tuning.push_back({name, t.at("macro"), t.at("values").get<std::vector<int>>(),
                             t.at("default")});
      m.kernels.push_back(mk);
    }
    return m;
  } catch (const json::exception &e) {
    throw ManifestError(path + ": error: malformed manifest: " + e.what());
  }
}

}  // namespace rtcuda
