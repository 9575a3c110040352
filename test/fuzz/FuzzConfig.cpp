// libFuzzer target: the config readers (YAML, legacy config.txt, global.txt). Every input must
// give Options or a ConfigError; any other exception, crash or sanitizer report is a finding.
// The first byte picks the reader; the rest is the file. A kernel.c beside it lets a config
// name an existing file.
#include "rtcuda/Config/Options.h"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include <unistd.h>

namespace {

std::string workDir() {
  static std::string dir = [] {
    std::string pattern = "/tmp/rtcuda-fuzz-config-XXXXXX";
    if (!mkdtemp(pattern.data())) std::abort();
    std::ofstream(pattern + "/kernel.c") << "void k(int n, float *a) { for (int i = 0; i < n; i++) a[i] = 0; }\n";
    std::ofstream(pattern + "/main.c") << "int main(void) { return 0; }\n";
    return pattern;
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  static const char *names[] = {"config.yaml", "config.txt", "global.txt", "config.yml"};
  std::string path = workDir() + "/" + names[data[0] % 4];
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char *>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  try {
    rtcuda::Options options = rtcuda::loadConfig(path);
    // What a successful read promises: kernels are named by C identifiers.
    for (const rtcuda::KernelOptions &k : options.kernels)
      if (k.name.empty()) std::abort();
  } catch (const rtcuda::ConfigError &) {
  }
  std::remove(path.c_str());
  return 0;
}
