// The tuning cache: <outdir>/tuning/cache.json (or --cache FILE). Measurements are keyed by
// the kernel's content hash, the device, the toolkit, the data type and the problem size, and
// saved after every variant, so a run that was interrupted (Ctrl-C, a crash, a reboot)
// resumes without timing again what already finished. Compiled resources are cached too
// (keyed by content hash, architecture and toolkit), which makes --model-only reruns instant.
#pragma once

#include "rtcuda/Tuner/Resources.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace rtcuda::tune {

// What running one variant on the GPU gave.
struct Measurement {
  // ok | wrong | compile-error | launch-error | crash | timeout | infeasible | harness-error
  std::string status;
  std::string reason;
  int regs = -1, maxThreads = -1, driverBlocksPerSM = -1;
  long long smem = -1, local = -1, spillStores = -1, spillLoads = -1;
  std::vector<double> timesUs;
  double medianUs = 0, minUs = 0, maxUs = 0, q1Us = 0, q3Us = 0;
  bool verified = false;
  double spreadPercent() const { return medianUs > 0 ? 100.0 * (q3Us - q1Us) / medianUs : 0; }
  static Measurement failure(const std::string &status, const std::string &reason) {
    Measurement m;
    m.status = status;
    m.reason = reason;
    return m;
  }
};

nlohmann::json toJson(const Measurement &m);
Measurement measurementFromJson(const nlohmann::json &j);
nlohmann::json toJson(const Resources &r);
Resources resourcesFromJson(const nlohmann::json &j);

// 64-bit FNV-1a of the text, as 16 hex digits.
std::string contentHash(const std::string &text);

class Cache {
public:
  explicit Cache(std::string path);
  const std::string &path() const { return path_; }
  // Measurements: key = measurementKey(...).
  std::optional<Measurement> find(const std::string &key, const std::string &variant) const;
  void put(const std::string &key, const nlohmann::json &about, const std::string &variant,
           const Measurement &m);
  // Resources: key = resourceKey(...).
  std::optional<Resources> findResources(const std::string &key, const std::string &variant) const;
  void putResources(const std::string &key, const std::string &variant, const Resources &r);
  // Writes the file (through a temporary and a rename, so it is never half written).
  void save() const;

private:
  std::string path_;
  nlohmann::json data_;
};

std::string measurementKey(const std::string &kernelHash, const std::string &device,
                           const std::string &toolkit, const std::string &dataType,
                           const std::string &sizes);
std::string resourceKey(const std::string &kernelHash, const std::string &arch,
                        const std::string &toolkit);

}  // namespace rtcuda::tune
