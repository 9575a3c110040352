// The JSON tuning cache (see Cache.h).
#include "rtcuda/Tuner/Cache.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace rtcuda::tune {

namespace fs = std::filesystem;
using nlohmann::json;

json toJson(const Measurement &m) {
  json j = {{"status", m.status}, {"reason", m.reason}, {"verified", m.verified}};
  auto put = [&](const char *k, long long v) {
    if (v >= 0) j[k] = v;
  };
  put("regs", m.regs);
  put("max_threads", m.maxThreads);
  put("driver_blocks_per_sm", m.driverBlocksPerSM);
  put("smem", m.smem);
  put("local", m.local);
  put("spill_stores", m.spillStores);
  put("spill_loads", m.spillLoads);
  if (!m.timesUs.empty()) {
    j["times_us"] = m.timesUs;
    j["median_us"] = m.medianUs;
    j["min_us"] = m.minUs;
    j["max_us"] = m.maxUs;
    j["q1_us"] = m.q1Us;
    j["q3_us"] = m.q3Us;
  }
  return j;
}

Measurement measurementFromJson(const json &j) {
  Measurement m;
  m.status = j.value("status", "");
  m.reason = j.value("reason", "");
  m.verified = j.value("verified", false);
  m.regs = j.value("regs", -1);
  m.maxThreads = j.value("max_threads", -1);
  m.driverBlocksPerSM = j.value("driver_blocks_per_sm", -1);
  m.smem = j.value("smem", -1LL);
  m.local = j.value("local", -1LL);
  m.spillStores = j.value("spill_stores", -1LL);
  m.spillLoads = j.value("spill_loads", -1LL);
  m.timesUs = j.value("times_us", std::vector<double>{});
  m.medianUs = j.value("median_us", 0.0);
  m.minUs = j.value("min_us", 0.0);
  m.maxUs = j.value("max_us", 0.0);
  m.q1Us = j.value("q1_us", 0.0);
  m.q3Us = j.value("q3_us", 0.0);
  return m;
}

json toJson(const Resources &r) {
  return {{"known", r.known},         {"regs", r.regs},
          {"smem", r.smem},           {"stack", r.stack},
          {"spill_stores", r.spillStores}, {"spill_loads", r.spillLoads},
          {"barriers", r.barriers},   {"source", r.source},
          {"error", r.error}};
}

Resources resourcesFromJson(const json &j) {
  Resources r;
  r.known = j.value("known", false);
  r.regs = j.value("regs", 0);
  r.smem = j.value("smem", 0LL);
  r.stack = j.value("stack", 0LL);
  r.spillStores = j.value("spill_stores", 0LL);
  r.spillLoads = j.value("spill_loads", 0LL);
  r.barriers = j.value("barriers", 0);
  r.source = j.value("source", "");
  r.error = j.value("error", "");
  return r;
}

std::string contentHash(const std::string &text) {
  unsigned long long h = 1469598103934665603ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", h);
  return buf;
}

std::string measurementKey(const std::string &kernelHash, const std::string &device,
                           const std::string &toolkit, const std::string &dataType,
                           const std::string &sizes) {
  return kernelHash + "|" + device + "|" + toolkit + "|" + dataType + "|" + sizes;
}

std::string resourceKey(const std::string &kernelHash, const std::string &arch,
                        const std::string &toolkit) {
  return kernelHash + "|" + arch + "|" + toolkit;
}

Cache::Cache(std::string path) : path_(std::move(path)) {
  std::error_code ec;
  fs::file_status status = fs::status(path_, ec);
  if (fs::exists(status) && !fs::is_regular_file(status))
    throw std::runtime_error("cache '" + path_ + "' exists and is not a file (give a file "
                             "name to --cache)");
  std::ifstream in(path_);
  if (in) data_ = json::parse(in, nullptr, false);
  // A damaged or foreign file is set aside (under a name nothing holds yet), not trusted.
  if (!data_.is_object() || data_.value("format", "") != "rtcuda-tune-cache") {
    if (in) {
      std::string aside = path_ + ".bad";
      for (int i = 1; fs::exists(fs::symlink_status(aside, ec)); ++i)
        aside = path_ + ".bad" + std::to_string(i);
      fs::rename(path_, aside, ec);
      if (ec)
        throw std::runtime_error("cache '" + path_ + "' is not an rtcuda-tune cache and cannot "
                                 "be set aside: " + ec.message());
    }
    data_ = {{"format", "rtcuda-tune-cache"}, {"version", 1},
             {"measurements", json::object()}, {"resources", json::object()}};
  }
}

std::optional<Measurement> Cache::find(const std::string &key, const std::string &variant) const {
  const json &all = data_["measurements"];
  if (!all.contains(key) || !all[key]["variants"].contains(variant)) return std::nullopt;
  return measurementFromJson(all[key]["variants"][variant]);
}

void Cache::put(const std::string &key, const json &about, const std::string &variant,
                const Measurement &m) {
  json &entry = data_["measurements"][key];
  for (const auto &[k, v] : about.items()) entry[k] = v;
  entry["variants"][variant] = toJson(m);
  save();
}

std::optional<Resources> Cache::findResources(const std::string &key,
                                              const std::string &variant) const {
  const json &all = data_["resources"];
  if (!all.contains(key) || !all[key].contains(variant)) return std::nullopt;
  return resourcesFromJson(all[key][variant]);
}

void Cache::putResources(const std::string &key, const std::string &variant, const Resources &r) {
  data_["resources"][key][variant] = toJson(r);
}

void Cache::save() const {
  std::error_code ec;
  fs::create_directories(fs::path(path_).parent_path(), ec);
  std::string tmp = path_ + ".tmp";
  {
    std::ofstream out(tmp);
    out << data_.dump(1) << "\n";
    if (!out) return;
  }
  fs::rename(tmp, path_, ec);
}

}  // namespace rtcuda::tune
