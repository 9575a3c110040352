// Compiling variants for their resource usage (see Resources.h).
#include "rtcuda/Tuner/Resources.h"
#include "rtcuda/Support/Files.h"

#include "rtcuda/Support/Process.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#ifdef RTCUDA_TUNE_HAVE_NVRTC
#include <nvrtc.h>
#endif

namespace rtcuda::tune {

namespace fs = std::filesystem;

std::string plainKernelName(const std::string &symbol) {
  // Itanium mangling of a function at namespace scope: _Z<length><name><parameters>.
  if (symbol.rfind("_Z", 0) != 0) return symbol;
  size_t i = 2, length = 0;
  while (i < symbol.size() && std::isdigit(static_cast<unsigned char>(symbol[i])))
    length = length * 10 + (symbol[i++] - '0');
  if (length == 0 || i + length > symbol.size()) return symbol;
  return symbol.substr(i, length);
}

std::map<std::string, Resources> parsePtxasLog(const std::string &log) {
  static const std::regex entry(R"(Compiling entry function '([^']+)')");
  static const std::regex frame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"(Used (\d+) registers)");
  static const std::regex barriers(R"(used (\d+) barriers)");
  static const std::regex smem(R"((\d+) bytes smem)");
  std::map<std::string, Resources> out;
  std::istringstream in(log);
  std::string line, current;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, entry)) {
      current = plainKernelName(m[1]);
      out[current] = Resources{};
      continue;
    }
    if (current.empty()) continue;
    Resources &r = out[current];
    if (std::regex_search(line, m, frame)) {
      r.stack = std::stoll(m[1]);
      r.spillStores = std::stoll(m[2]);
      r.spillLoads = std::stoll(m[3]);
    }
    if (std::regex_search(line, m, used)) {
      r.regs = std::stoi(m[1]);
      r.known = true;
      if (std::regex_search(line, m, barriers)) r.barriers = std::stoi(m[1]);
      if (std::regex_search(line, m, smem)) r.smem = std::stoll(m[1]);
    }
  }
  return out;
}

std::string firstErrors(const std::string &log, size_t maxLines) {
  std::istringstream in(log);
  std::string line, out;
  size_t n = 0;
  while (std::getline(in, line) && n < maxLines)
    if (line.find("error") != std::string::npos) out += (n++ ? " | " : "") + line;
  if (out.empty()) {
    std::istringstream again(log);
    while (std::getline(again, line) && n < maxLines)
      if (!line.empty()) out += (n++ ? " | " : "") + line;
  }
  return out;
}

const std::vector<std::pair<std::string, std::string>> &nvrtcHeaderStubs() {
  static const std::vector<std::pair<std::string, std::string>> stubs = {
      {"math.h", "// NVRTC provides the math functions.\n"},
      {"stdio.h", "// NVRTC provides printf.\n"},
      {"stdlib.h", ""},
      {"string.h", ""},
      {"stdbool.h", ""},
      {"stddef.h", "typedef unsigned long size_t;\ntypedef long ptrdiff_t;\n"},
      {"stdint.h",
       "typedef signed char int8_t; typedef short int16_t; typedef int int32_t;\n"
       "typedef long long int64_t; typedef unsigned char uint8_t; typedef unsigned short uint16_t;\n"
       "typedef unsigned int uint32_t; typedef unsigned long long uint64_t;\n"},
  };
  return stubs;
}

namespace {

std::string findNvcc(const std::string &cudaPath) {
  std::vector<std::string> roots;
  if (!cudaPath.empty()) roots.push_back(cudaPath);
  if (const char *env = std::getenv("CUDA_PATH")) roots.push_back(env);
#ifdef RTCUDA_CUDA_ROOT
  roots.push_back(RTCUDA_CUDA_ROOT);
#endif
  roots.push_back("/usr/local/cuda");
  for (const std::string &r : roots)
    if (fs::exists(fs::path(r) / "bin" / "nvcc")) return (fs::path(r) / "bin" / "nvcc").string();
  return findProgram("nvcc");
}

}  // namespace

ResourceCompiler::ResourceCompiler(std::string cudaPath) : cudaPath_(std::move(cudaPath)) {
#ifdef RTCUDA_TUNE_HAVE_NVRTC
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) == NVRTC_SUCCESS) {
    nvrtc_ = true;
    toolkit_ = "nvrtc " + std::to_string(major) + "." + std::to_string(minor);
    int count = 0;
    if (nvrtcGetNumSupportedArchs(&count) == NVRTC_SUCCESS && count > 0) {
      std::vector<int> archs(count);
      nvrtcGetSupportedArchs(archs.data());
      lowest_ = "sm_" + std::to_string(archs.front());
    }
    return;
  }
#endif
  nvcc_ = findNvcc(cudaPath_);
  if (nvcc_.empty()) return;
  std::string version;
  ProcessOptions run;
  run.output = &version;
  run.quietErrors = true;
  runProcess({nvcc_, "--version"}, run);
  std::smatch m;
  if (std::regex_search(version, m, std::regex(R"(release (\d+\.\d+))")))
    toolkit_ = "nvcc " + m[1].str();
  else
    toolkit_ = "nvcc";
  int release = 0;
  if (std::regex_search(version, m, std::regex(R"(release (\d+))"))) release = std::stoi(m[1]);
  lowest_ = release >= 13 ? "sm_75" : release >= 12 ? "sm_50" : "sm_35";
}

bool ResourceCompiler::supports(const std::string &arch) const {
  auto number = [](const std::string &a) {
    std::string d;
    for (char c : a)
      if (std::isdigit(static_cast<unsigned char>(c))) d += c;
    return d.empty() ? 0 : std::stoi(d);
  };
  return number(arch) >= number(lowest_);
}

std::string ResourceCompiler::runNvrtc(const std::string &source, const std::string &dir,
                                       const std::string &arch,
                                       const std::map<std::string, long long> &defines,
                                       bool *ok, const CubinRequest &cubin) const {
#ifdef RTCUDA_TUNE_HAVE_NVRTC
  std::vector<const char *> headers, names;
  for (const auto &[name, text] : nvrtcHeaderStubs()) {
    names.push_back(name.c_str());
    headers.push_back(text.c_str());
  }
  nvrtcProgram prog;
  if (nvrtcCreateProgram(&prog, source.c_str(), "kernel.cu", static_cast<int>(headers.size()),
                         headers.data(), names.data()) != NVRTC_SUCCESS) {
    *ok = false;
    return "nvrtcCreateProgram failed";
  }
  // --no-cache: NVRTC 13 reuses cubins from the driver's cache on a GPU machine, and a cached
  // compile prints no ptxas report, which is where the resources come from.
  std::vector<std::string> options = {"--gpu-architecture=" + arch, "-I" + dir,
                                      "-I" + dir + "/runtime", "--ptxas-options=-v",
                                      "-default-device", "--no-cache"};
  for (const auto &[macro, value] : defines)
    options.push_back("-D" + macro + "=" + std::to_string(value));
  std::vector<const char *> raw;
  for (const std::string &o : options) raw.push_back(o.c_str());
  auto nameKernels = [&]() {
    if (cubin.kernels)
      for (const std::string &k : *cubin.kernels) nvrtcAddNameExpression(prog, k.c_str());
  };
  nameKernels();
  nvrtcResult status = nvrtcCompileProgram(prog, static_cast<int>(raw.size()), raw.data());
  if (status == NVRTC_ERROR_INVALID_OPTION) {  // an NVRTC without the cache or the option
    nvrtcDestroyProgram(&prog);
    nvrtcCreateProgram(&prog, source.c_str(), "kernel.cu", static_cast<int>(headers.size()),
                       headers.data(), names.data());
    nameKernels();
    raw.erase(std::find(raw.begin(), raw.end(), options[5].c_str()));
    status = nvrtcCompileProgram(prog, static_cast<int>(raw.size()), raw.data());
  }
  size_t size = 0;
  nvrtcGetProgramLogSize(prog, &size);
  std::string log(size, '\0');
  if (size) nvrtcGetProgramLog(prog, log.data());
  // The code itself, for the measurement (written through a temporary file and a rename).
  size_t bytes = 0;
  if (status == NVRTC_SUCCESS && !cubin.path.empty() && cubin.lowered &&
      nvrtcGetCUBINSize(prog, &bytes) == NVRTC_SUCCESS && bytes > 0) {
    std::string image(bytes, '\0');
    nvrtcGetCUBIN(prog, image.data());
    for (const std::string &k : *cubin.kernels) {
      const char *name = nullptr;
      if (nvrtcGetLoweredName(prog, k.c_str(), &name) == NVRTC_SUCCESS && name)
        (*cubin.lowered)[k] = name;
    }
    std::string tmp = cubin.path + ".tmp";
    std::ofstream out(tmp, std::ios::binary);
    out.write(image.data(), std::streamsize(image.size()));
    out.close();
    if (!out || std::rename(tmp.c_str(), cubin.path.c_str()) != 0) cubin.lowered->clear();
  }
  nvrtcDestroyProgram(&prog);
  *ok = status == NVRTC_SUCCESS;
  if (!*ok && log.find_first_not_of(std::string("\0", 1)) == std::string::npos)
    log = nvrtcGetErrorString(status);
  return log;
#else
  (void)source, (void)dir, (void)arch, (void)defines, (void)cubin;
  *ok = false;
  return "built without NVRTC";
#endif
}

std::string ResourceCompiler::runNvcc(const std::string &dir, const std::string &arch,
                                      const std::map<std::string, long long> &defines,
                                      bool *ok) const {
  std::vector<std::string> cmd{nvcc_, "-arch=" + arch, "-cubin", "--resource-usage", "-o",
                               "/dev/null", "-I" + dir, "-I" + dir + "/runtime"};
  for (const auto &[macro, value] : defines) cmd.push_back("-D" + macro + "=" + std::to_string(value));
  cmd.push_back(dir + "/kernel.cu");
  std::string log;
  ProcessOptions run;
  run.output = &log;
  *ok = runProcess(cmd, run) == 0;
  return log;
}

std::map<std::string, Resources> ResourceCompiler::compile(
    const Manifest &m, const std::string &arch, const std::map<std::string, long long> &defines,
    std::string *usedArch, const std::string &cubinPath, const std::vector<std::string> &kernels,
    std::map<std::string, std::string> *lowered) const {
  std::map<std::string, Resources> out;
  std::string target = supports(arch) ? arch : lowest_;
  if (usedArch) *usedArch = target;
  bool ok = false;
  std::string log;
  if (nvrtc_)
    log = runNvrtc(readFile(m.dir + "/kernel.cu"), m.dir, target, defines, &ok,
                   {target == arch ? cubinPath : "", &kernels, lowered});
  else if (!nvcc_.empty())
    log = runNvcc(m.dir, target, defines, &ok);
  else
    log = "no CUDA compiler found (NVRTC or nvcc)";
  std::string how = (nvrtc_ ? "nvrtc " : "nvcc ") + target;
  if (ok) out = parsePtxasLog(log);
  std::vector<std::string> names = kernels;  // the tuned ones, and the manifest's
  for (const ManifestKernel &k : m.kernels) names.push_back(k.name);
  for (const std::string &name : names) {
    Resources &r = out[name];
    r.source = how;
    if (!ok) r.error = firstErrors(log);
    else if (!r.known)
      r.error = "the compiler reported no resources for kernel '" + name + "' (" +
                firstErrors(log, 4) + ")";
  }
  return out;
}

}  // namespace rtcuda::tune
