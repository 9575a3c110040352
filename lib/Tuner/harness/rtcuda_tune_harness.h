// The measurement harness of rtcuda-tune (compiled into each generated harness.cpp, see
// lib/Tuner/Harness.cpp). One process measures the variants of one kernel: it makes the inputs
// once, runs the sequential C reference once (or reads its outputs from the reference cache),
// and for each variant compiles kernel.cu with NVRTC (-D<macro>=<value>), loads it, reads its
// resources, runs it once and compares every array with the reference, then times it (warm-up,
// repetitions between CUDA events, L2 flushed before each).
//
// It talks to rtcuda-tune through lines that start with "@rtcuda " followed by JSON; anything
// else it prints (mismatch reports) is log text. A variant whose run kills the CUDA context (a
// trap, an illegal address) ends the process after its result line (exit status 3); rtcuda-tune
// starts a new one for the remaining variants. A variant that never finishes is killed by
// rtcuda-tune.
#pragma once

#include "rtcuda_verify.h"

#include <cuda.h>
#include <nvrtc.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace rtcuda_tune {

// The sequential C function of a kernel, called through the generated glue.
typedef void (*RefFn)(void **arrays, void **scalars);
struct RefEntry {
  const char *kernel;
  RefFn fn;
};

struct Param {
  bool array = false;
  std::string type, name, role;
  long long count = 0;        // arrays: elements
  bool read = false, written = false;
  long long value = 0;        // size scalars
  alignas(8) unsigned char scalar[8] = {0};
  void *host = nullptr, *ref = nullptr;
  CUdeviceptr pristine = 0, work = 0;
  size_t bytes() const;
};

struct VariantJob {
  std::string id;
  long long threads = 0, grid[2] = {0, 1};
  std::vector<std::string> defines;
};

struct Job {
  std::string kernel, source, include, refCache;
  std::vector<Param> params;
  std::vector<VariantJob> variants;
  unsigned seed = 1;
  long long reduction = 1;
  int reps = 20, warmup = 2;
  bool flush = true;
};

// ---- JSON output -------------------------------------------------------------------------

inline std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if (c == '\n') out += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20) out += ' ';
    else out += c;
  }
  return out + "\"";
}

inline void emit(const std::string &json) {
  std::printf("@rtcuda %s\n", json.c_str());
  std::fflush(stdout);
}

inline const char *cuName(CUresult r) {
  const char *s = nullptr;
  cuGetErrorName(r, &s);
  return s ? s : "CUDA_ERROR_UNKNOWN";
}

// ---- element types -------------------------------------------------------------------------

// Calls f(T()) with the C type named `t` ("unsigned_int" for "unsigned int").
template <class F> bool withType(const std::string &t, F f) {
  if (t == "float") f(float());
  else if (t == "double") f(double());
  else if (t == "int" || t == "signed" || t == "signed_int") f(int());
  else if (t == "unsigned_int" || t == "unsigned") f(unsigned());
  else if (t == "long" || t == "long_int") f(long());
  else if (t == "unsigned_long") f((unsigned long)0);
  else if (t == "long_long") f((long long)0);
  else if (t == "unsigned_long_long") f((unsigned long long)0);
  else if (t == "short") f(short());
  else if (t == "unsigned_short") f((unsigned short)0);
  else if (t == "char" || t == "signed_char") f(char());
  else if (t == "unsigned_char") f((unsigned char)0);
  else if (t == "size_t") f(size_t());
  else return false;
  return true;
}

inline size_t typeSize(const std::string &t) {
  size_t n = 0;
  withType(t, [&](auto v) { n = sizeof(v); });
  return n;
}

inline size_t Param::bytes() const { return size_t(count > 0 ? count : 0) * typeSize(type); }

// ---- the job file ----------------------------------------------------------------------------

inline bool readJob(const char *path, Job &job, std::string &error) {
  std::ifstream in(path);
  if (!in) {
    error = std::string("cannot read job file ") + path;
    return false;
  }
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string key;
    ls >> key;
    auto rest = [&]() {
      std::string r;
      std::getline(ls, r);
      return r.empty() ? r : r.substr(1);
    };
    if (key == "kernel") ls >> job.kernel;
    else if (key == "source") job.source = rest();
    else if (key == "include") job.include = rest();
    else if (key == "refcache") job.refCache = rest();
    else if (key == "seed") ls >> job.seed;
    else if (key == "reduction") ls >> job.reduction;
    else if (key == "reps") ls >> job.reps;
    else if (key == "warmup") ls >> job.warmup;
    else if (key == "flush") ls >> job.flush;
    else if (key == "array") {
      Param p;
      std::string access;
      p.array = true;
      ls >> p.type >> p.name >> p.count >> access;
      p.read = access.find('r') != std::string::npos;
      p.written = access.find('w') != std::string::npos;
      job.params.push_back(p);
    } else if (key == "scalar") {
      Param p;
      ls >> p.type >> p.name >> p.role >> p.value;
      job.params.push_back(p);
    } else if (key == "variant") {
      VariantJob v;
      size_t n = 0;
      ls >> v.id >> v.threads >> v.grid[0] >> v.grid[1] >> n;
      for (size_t i = 0; i < n; ++i) {
        std::string d;
        ls >> d;
        v.defines.push_back("-D" + d);
      }
      job.variants.push_back(v);
    }
  }
  if (job.kernel.empty() || job.source.empty()) {
    error = std::string("incomplete job file ") + path;
    return false;
  }
  return true;
}

// ---- the device ------------------------------------------------------------------------------

struct Device {
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  int major = 0, minor = 0;

  int attr(CUdevice_attribute a) const {
    int v = 0;
    cuDeviceGetAttribute(&v, a, dev);
    return v;
  }

  bool open(std::string &error) {
    CUresult r = cuInit(0);
    if (r == CUDA_SUCCESS) r = cuDeviceGet(&dev, 0);
    if (r == CUDA_SUCCESS) r = cuDevicePrimaryCtxRetain(&ctx, dev);
    if (r == CUDA_SUCCESS) r = cuCtxSetCurrent(ctx);
    if (r != CUDA_SUCCESS) {
      const char *s = nullptr;
      cuGetErrorString(r, &s);
      error = std::string("no usable CUDA device: ") + cuName(r) + (s ? std::string(" (") + s + ")" : "");
      return false;
    }
    major = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    minor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    return true;
  }

  std::string describe() const {
    char name[256] = {0};
    cuDeviceGetName(name, sizeof name, dev);
    int driver = 0, nvMajor = 0, nvMinor = 0;
    cuDriverGetVersion(&driver);
    nvrtcVersion(&nvMajor, &nvMinor);
    double bandwidth = 2.0 * attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE) * 1e3 *
                       attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH) / 8 / 1e9;
    std::ostringstream o;
    o << "{\"event\":\"device\",\"name\":" << jsonString(name) << ",\"cc\":\"" << major << "."
      << minor << "\",\"sm_count\":" << attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
      << ",\"warp_size\":" << attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE)
      << ",\"max_threads_per_block\":" << attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
      << ",\"max_threads_per_sm\":" << attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)
      << ",\"max_blocks_per_sm\":" << attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR)
      << ",\"regs_per_sm\":" << attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR)
      << ",\"regs_per_block\":" << attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK)
      << ",\"smem_per_sm\":" << attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)
      << ",\"smem_per_block\":" << attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)
      << ",\"smem_per_block_optin\":" << attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
      << ",\"reserved_smem_per_block\":" << attr(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK)
      << ",\"l2_bytes\":" << attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)
      << ",\"mem_bandwidth_gbs\":" << bandwidth << ",\"offline\":false"
      << ",\"driver\":\"" << driver / 1000 << "." << (driver % 1000) / 10 << "\""
      << ",\"nvrtc\":\"" << nvMajor << "." << nvMinor << "\"}";
    return o.str();
  }
};

// ---- compiling a variant ---------------------------------------------------------------------

struct Compiled {
  bool ok = false;
  std::string log, error;
  std::vector<char> image;
  std::string lowered;
  long long spillStores = 0, spillLoads = 0;
};

inline std::string readText(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// NVRTC has no C library headers; its math functions and printf are built in.
inline Compiled compileVariant(const Job &job, const std::string &source, const VariantJob &v,
                               int major, int minor) {
  static const char *stubNames[] = {"math.h", "stdio.h", "stdlib.h", "string.h", "stdbool.h"};
  static const char *stubs[] = {"", "", "", "", ""};
  Compiled c;
  int count = 0;
  nvrtcGetNumSupportedArchs(&count);
  std::vector<int> archs(count > 0 ? count : 1, 0);
  if (count > 0) nvrtcGetSupportedArchs(archs.data());
  int want = major * 10 + minor;
  bool native = std::find(archs.begin(), archs.end(), want) != archs.end();
  // A device newer than the toolkit gets PTX of the newest architecture the toolkit knows,
  // which the driver compiles when the module is loaded.
  std::string arch = native ? "--gpu-architecture=sm_" + std::to_string(want)
                            : "--gpu-architecture=compute_" + std::to_string(archs.back());
  // --no-cache: a cubin from NVRTC's cache comes without the ptxas report (spills).
  std::vector<std::string> options = {arch, "-I" + job.include, "-I" + job.include + "/runtime",
                                      "-default-device", "--no-cache"};
  if (native) options.push_back("--ptxas-options=-v");
  for (const std::string &d : v.defines) options.push_back(d);
  nvrtcProgram prog;
  nvrtcResult r = NVRTC_ERROR_INVALID_OPTION;
  for (int attempt = 0; attempt < 2 && r == NVRTC_ERROR_INVALID_OPTION; ++attempt) {
    if (attempt) {  // an NVRTC that does not know --no-cache
      nvrtcDestroyProgram(&prog);
      options.erase(options.begin() + 4);
    }
    std::vector<const char *> raw;
    for (const std::string &o : options) raw.push_back(o.c_str());
    nvrtcCreateProgram(&prog, source.c_str(), "kernel.cu", 5, stubs, stubNames);
    nvrtcAddNameExpression(prog, job.kernel.c_str());
    r = nvrtcCompileProgram(prog, static_cast<int>(raw.size()), raw.data());
  }
  size_t n = 0;
  nvrtcGetProgramLogSize(prog, &n);
  c.log.assign(n, '\0');
  if (n) nvrtcGetProgramLog(prog, &c.log[0]);
  if (r != NVRTC_SUCCESS) {
    c.error = std::string(nvrtcGetErrorString(r));
    std::istringstream in(c.log);
    std::string line;
    int shown = 0;
    while (std::getline(in, line) && shown < 3)
      if (line.find("error") != std::string::npos) c.error += (shown++ ? " | " : ": ") + line;
    nvrtcDestroyProgram(&prog);
    return c;
  }
  const char *lowered = nullptr;
  nvrtcGetLoweredName(prog, job.kernel.c_str(), &lowered);
  c.lowered = lowered ? lowered : job.kernel;
  size_t size = 0;
  if (native) {
    nvrtcGetCUBINSize(prog, &size);
    c.image.resize(size);
    nvrtcGetCUBIN(prog, c.image.data());
  } else {
    nvrtcGetPTXSize(prog, &size);
    c.image.resize(size);
    nvrtcGetPTX(prog, c.image.data());
  }
  nvrtcDestroyProgram(&prog);
  const char *spill = std::strstr(c.log.c_str(), "bytes spill stores");
  if (spill) {
    // "... 0 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads"
    const char *p = spill;
    while (p > c.log.c_str() && p[-1] == ' ') --p;
    while (p > c.log.c_str() && std::isdigit(static_cast<unsigned char>(p[-1]))) --p;
    c.spillStores = std::atoll(p);
    const char *loads = std::strstr(spill, ", ");
    if (loads) c.spillLoads = std::atoll(loads + 2);
  }
  c.ok = true;
  return c;
}

// ---- the measurement -------------------------------------------------------------------------

struct Stats {
  double median = 0, min = 0, max = 0, q1 = 0, q3 = 0;
};

inline Stats stats(std::vector<double> t) {
  Stats s;
  if (t.empty()) return s;
  std::sort(t.begin(), t.end());
  auto at = [&](double q) {
    double pos = q * double(t.size() - 1);
    size_t i = size_t(pos);
    double f = pos - double(i);
    return i + 1 < t.size() ? t[i] * (1 - f) + t[i + 1] * f : t[i];
  };
  s.median = at(0.5), s.min = t.front(), s.max = t.back(), s.q1 = at(0.25), s.q3 = at(0.75);
  return s;
}

class Runner {
public:
  Runner(Job &job, const RefEntry *refs, size_t refCount)
      : job_(job), refs_(refs), refCount_(refCount) {}

  int run(Device &device);

private:
  Job &job_;
  const RefEntry *refs_;
  size_t refCount_;
  std::vector<void *> launchArgs_;
  CUdeviceptr flush_ = 0;
  size_t flushBytes_ = 0;

  bool prepare(Device &device, std::string &error);
  bool reference(std::string &error);
  // Returns false when the CUDA context is no longer usable.
  bool measure(Device &device, const std::string &source, const VariantJob &v);
};

inline bool Runner::reference(std::string &error) {
  RefFn fn = nullptr;
  for (size_t i = 0; i < refCount_; ++i)
    if (job_.kernel == refs_[i].kernel) fn = refs_[i].fn;
  if (!fn) {
    error = "no reference function for kernel " + job_.kernel;
    return false;
  }
  // The reference outputs depend only on the inputs (fixed by the seed) and sizes, so they are
  // kept in a file named by rtcuda-tune after both: a resumed run does not recompute them.
  if (!job_.refCache.empty()) {
    std::ifstream in(job_.refCache, std::ios::binary);
    bool ok = static_cast<bool>(in);
    for (Param &p : job_.params)
      if (ok && p.array) {
        long long count = -1;
        in.read(reinterpret_cast<char *>(&count), sizeof count);
        ok = in && count == p.count;
        if (ok && p.bytes()) in.read(static_cast<char *>(p.ref), std::streamsize(p.bytes()));
        ok = ok && in;
      }
    if (ok) return true;
    for (Param &p : job_.params)
      if (p.array && p.bytes()) std::memcpy(p.ref, p.host, p.bytes());
  }
  std::vector<void *> arrays, scalars;
  for (Param &p : job_.params) {
    arrays.push_back(p.array ? p.ref : nullptr);
    scalars.push_back(p.array ? nullptr : p.scalar);
  }
  fn(arrays.data(), scalars.data());
  if (!job_.refCache.empty()) {
    std::string tmp = job_.refCache + ".tmp";
    std::ofstream out(tmp, std::ios::binary);
    for (Param &p : job_.params)
      if (p.array) {
        out.write(reinterpret_cast<const char *>(&p.count), sizeof p.count);
        if (p.bytes()) out.write(static_cast<const char *>(p.ref), std::streamsize(p.bytes()));
      }
    out.close();
    if (out) std::rename(tmp.c_str(), job_.refCache.c_str());
  }
  return true;
}

inline bool Runner::prepare(Device &device, std::string &error) {
  rtcuda_verify::Session s;
  s.rng.seed(job_.seed);
  for (Param &p : job_.params) {
    bool known = withType(p.type, [&](auto zero) {
      using T = decltype(zero);
      if (p.array) {
        p.host = s.randomArray<T>(p.count);
        p.ref = rtcuda_verify::Session::copy(static_cast<T *>(p.host), p.count);
      } else {
        T v = p.role == "size" ? T(p.value) : s.randomValue<T>();
        std::memcpy(p.scalar, &v, sizeof v);
      }
    });
    if (!known) {
      error = "unsupported type '" + p.type + "' of parameter " + p.name;
      return false;
    }
  }
  for (Param &p : job_.params) {
    if (!p.array) continue;
    size_t bytes = p.bytes() ? p.bytes() : 1;
    CUresult r = cuMemAlloc(&p.pristine, bytes);
    if (r == CUDA_SUCCESS) r = cuMemAlloc(&p.work, bytes);
    if (r == CUDA_SUCCESS && p.bytes()) r = cuMemcpyHtoD(p.pristine, p.host, p.bytes());
    if (r != CUDA_SUCCESS) {
      error = std::string("cannot allocate ") + p.name + " on the device: " + cuName(r);
      return false;
    }
  }
  for (Param &p : job_.params) launchArgs_.push_back(p.array ? static_cast<void *>(&p.work) : p.scalar);
  // Twice the L2 size, written before every timed run, evicts the inputs from L2.
  if (job_.flush) {
    int l2 = device.attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    flushBytes_ = size_t(l2 > 0 ? l2 : 1 << 20) * 2;
    if (cuMemAlloc(&flush_, flushBytes_) != CUDA_SUCCESS) flush_ = 0;
  }
  return reference(error);
}

inline bool Runner::measure(Device &device, const std::string &source, const VariantJob &v) {
  std::ostringstream out;
  out << "{\"event\":\"result\",\"variant\":" << jsonString(v.id);
  auto finish = [&](const std::string &status, const std::string &reason) {
    out << ",\"status\":" << jsonString(status) << ",\"reason\":" << jsonString(reason) << "}";
    emit(out.str());
  };
  Compiled c = compileVariant(job_, source, v, device.major, device.minor);
  if (!c.ok) return finish("compile-error", c.error), true;
  CUmodule module;
  CUresult r = cuModuleLoadData(&module, c.image.data());
  if (r != CUDA_SUCCESS) return finish("compile-error", std::string("cannot load the module: ") + cuName(r)), true;
  CUfunction f;
  r = cuModuleGetFunction(&f, module, c.lowered.c_str());
  if (r != CUDA_SUCCESS) {
    cuModuleUnload(module);
    return finish("compile-error", std::string("kernel not found in the module: ") + cuName(r)), true;
  }
  int regs = 0, smem = 0, local = 0, maxThreads = 0, blocks = 0;
  cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
  cuFuncGetAttribute(&smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
  cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f);
  cuFuncGetAttribute(&maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f);
  cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, int(v.threads), 0);
  out << ",\"regs\":" << regs << ",\"smem\":" << smem << ",\"local\":" << local
      << ",\"spill_stores\":" << c.spillStores << ",\"spill_loads\":" << c.spillLoads
      << ",\"max_threads\":" << maxThreads << ",\"driver_blocks_per_sm\":" << blocks;
  if (v.threads > maxThreads || blocks == 0) {
    cuModuleUnload(module);
    return finish("infeasible", "the compiled kernel allows " + std::to_string(maxThreads) +
                                    " threads per block and " + std::to_string(blocks) +
                                    " resident blocks per SM"), true;
  }
  unsigned gx = unsigned(v.grid[0]), gy = unsigned(v.grid[1]), bx = unsigned(v.threads);
  if (gx == 0 || gy == 0) {
    cuModuleUnload(module);
    return finish("infeasible", "empty grid at these sizes"), true;
  }
  // One run from the initial contents, compared with the reference.
  for (Param &p : job_.params)
    if (p.array && p.bytes()) cuMemcpyDtoD(p.work, p.pristine, p.bytes());
  r = cuLaunchKernel(f, gx, gy, 1, bx, 1, 1, 0, nullptr, launchArgs_.data(), nullptr);
  if (r != CUDA_SUCCESS) {
    cuModuleUnload(module);
    return finish("launch-error", std::string("launch failed: ") + cuName(r)), true;
  }
  r = cuCtxSynchronize();
  if (r != CUDA_SUCCESS) return finish("crash", std::string("the kernel failed: ") + cuName(r)), false;
  rtcuda_verify::Session s;
  s.maxReports = 3;
  long long bad = 0;
  std::string where = v.id;
  std::string badArrays;
  for (Param &p : job_.params) {
    if (!p.array || !p.bytes()) continue;
    std::vector<unsigned char> got(p.bytes());
    cuMemcpyDtoH(got.data(), p.work, p.bytes());
    long long before = bad;
    withType(p.type, [&](auto zero) {
      using T = decltype(zero);
      const T *want = static_cast<const T *>(p.written ? p.ref : p.host);
      bad += s.compare(job_.kernel.c_str(), where, p.name.c_str(),
                       reinterpret_cast<const T *>(got.data()), want, p.count,
                       p.written && std::is_floating_point<T>::value ? job_.reduction : 0);
    });
    if (bad > before) badArrays += (badArrays.empty() ? "" : ", ") + p.name;
  }
  if (bad) {
    cuModuleUnload(module);
    return finish("wrong", std::to_string(bad) + " element(s) differ from the sequential C (" +
                               badArrays + ")"), true;
  }
  // Timing: warm-up, then each repetition between two events, the L2 flushed before it.
  for (int i = 0; i < job_.warmup; ++i)
    cuLaunchKernel(f, gx, gy, 1, bx, 1, 1, 0, nullptr, launchArgs_.data(), nullptr);
  int reps = std::max(job_.reps, 1);
  std::vector<CUevent> start(reps), stop(reps);
  for (int i = 0; i < reps; ++i) {
    cuEventCreate(&start[i], CU_EVENT_DEFAULT);
    cuEventCreate(&stop[i], CU_EVENT_DEFAULT);
  }
  for (int i = 0; i < reps; ++i) {
    if (flush_) cuMemsetD32Async(flush_, unsigned(i), flushBytes_ / 4, nullptr);
    cuEventRecord(start[i], nullptr);
    cuLaunchKernel(f, gx, gy, 1, bx, 1, 1, 0, nullptr, launchArgs_.data(), nullptr);
    cuEventRecord(stop[i], nullptr);
  }
  r = cuCtxSynchronize();
  if (r != CUDA_SUCCESS) return finish("crash", std::string("a timed run failed: ") + cuName(r)), false;
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    float ms = 0;
    cuEventElapsedTime(&ms, start[i], stop[i]);
    times.push_back(double(ms) * 1000.0);
    cuEventDestroy(start[i]);
    cuEventDestroy(stop[i]);
  }
  Stats st = stats(times);
  out << ",\"median_us\":" << st.median << ",\"min_us\":" << st.min << ",\"max_us\":" << st.max
      << ",\"q1_us\":" << st.q1 << ",\"q3_us\":" << st.q3 << ",\"times_us\":[";
  for (size_t i = 0; i < times.size(); ++i) out << (i ? "," : "") << times[i];
  out << "],\"verified\":true";
  cuModuleUnload(module);
  finish("ok", "");
  return true;
}

inline int Runner::run(Device &device) {
  std::string error;
  if (!prepare(device, error)) {
    emit("{\"event\":\"error\",\"message\":" + jsonString(error) + "}");
    return 2;
  }
  std::string source = readText(job_.source);
  emit("{\"event\":\"ready\"}");
  for (const VariantJob &v : job_.variants) {
    emit("{\"event\":\"start\",\"variant\":" + jsonString(v.id) + "}");
    if (!measure(device, source, v)) return 3;
  }
  return 0;
}

// argv: --device-info | <job file>
inline int harnessMain(int argc, char **argv, const RefEntry *refs, size_t refCount) {
  Device device;
  std::string error;
  if (!device.open(error)) {
    emit("{\"event\":\"error\",\"message\":" + jsonString(error) + "}");
    return 2;
  }
  emit(device.describe());
  if (argc < 2 || std::string(argv[1]) == "--device-info") return 0;
  Job job;
  if (!readJob(argv[1], job, error)) {
    emit("{\"event\":\"error\",\"message\":" + jsonString(error) + "}");
    return 2;
  }
  Runner runner(job, refs, refCount);
  return runner.run(device);
}

}  // namespace rtcuda_tune
