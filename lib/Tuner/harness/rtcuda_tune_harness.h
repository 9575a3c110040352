// The measurement harness of rtcuda-tune (compiled into each generated harness.cpp, see
// lib/Tuner/Harness.cpp). One process measures the variants of one kernel at two sizes: a
// small one where every variant is checked, and the target size where it is timed. It makes
// the inputs of both once, runs the sequential C reference once at the small size (or reads its
// outputs from the reference cache), and for each variant loads the cubin rtcuda-tune compiled
// (or compiles kernel.cu with NVRTC, -D<macro>=<value>), reads its resources, runs it once at
// the small size and compares every array with the reference, then times it at the target size
// (warm-up, repetitions between CUDA events, L2 flushed before each).
//
// The default point ("baseline") runs first when the job asks for it: its output at the target
// size is what every variant's first target run must equal (the check at the size that is
// timed, without a CPU reference there), and for a kernel with no C function of its own (an
// outlined kernel) its output at the small size is the reference.
//
// It talks to rtcuda-tune through lines that start with "@rtcuda " followed by JSON; anything
// else it prints (mismatch reports) is log text. A variant whose run kills the CUDA context (a
// trap, an illegal address) ends the process after its result line (exit status 3); rtcuda-tune
// starts a new one for the remaining variants. A variant that never finishes is killed by
// rtcuda-tune.
#pragma once

#include "rtcuda_tune_job.h"
#include "rtcuda_tune_stats.h"
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
  const std::string &name = v.kernel.empty() ? job.kernel : v.kernel;
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
    nvrtcAddNameExpression(prog, name.c_str());
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
  nvrtcGetLoweredName(prog, name.c_str(), &lowered);
  c.lowered = lowered ? lowered : name;
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

// A variant's code, loaded: from the cubin rtcuda-tune compiled, else compiled here.
struct Loaded {
  CUmodule module = nullptr;
  CUfunction f = nullptr;
  long long spillStores = -1, spillLoads = -1;
  std::string error;
  ~Loaded() {
    if (module) cuModuleUnload(module);
  }
};

inline void load(const Job &job, const std::string &source, const VariantJob &v, int major,
                 int minor, Loaded &out) {
  std::vector<char> image;
  std::string lowered = v.lowered;
  if (!v.cubin.empty()) {
    std::ifstream in(v.cubin, std::ios::binary);
    image.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  CUresult r = CUDA_ERROR_INVALID_IMAGE;
  if (!image.empty()) r = cuModuleLoadData(&out.module, image.data());
  if (r != CUDA_SUCCESS) {  // no cubin, or one this driver cannot load: compile here
    out.module = nullptr;
    Compiled c = compileVariant(job, source, v, major, minor);
    if (!c.ok) {
      out.error = c.error;
      return;
    }
    out.spillStores = c.spillStores, out.spillLoads = c.spillLoads;
    lowered = c.lowered;
    r = cuModuleLoadData(&out.module, c.image.data());
    if (r != CUDA_SUCCESS) {
      out.module = nullptr;
      out.error = std::string("cannot load the module: ") + cuName(r);
      return;
    }
  }
  r = cuModuleGetFunction(&out.f, out.module, lowered.c_str());
  if (r != CUDA_SUCCESS) out.error = std::string("kernel not found in the module: ") + cuName(r);
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
  std::vector<void *> launchArgs_[2];
  CUdeviceptr flush_ = 0;
  size_t flushBytes_ = 0;
  std::vector<unsigned char> got_;  // compare()'s copy of an array, kept between variants
  bool haveTargetRef_ = false;
  std::string source_;
  double bestUs_ = 0;  // the fastest first target run so far (for the cutoff)

  bool prepare(Device &device, std::string &error);
  bool reference(std::string &error);
  // A kernel in host loops is run at each of its samples (values of the loop variables); any
  // other kernel has one sample, its sizes.
  size_t samples(int side) const { return std::max<size_t>(1, job_.samples[side].size()); }
  // Launches `f` at sample `i` of `side` (its loop variables set, its grid), nothing when the
  // grid is empty (the host skips such a launch too).
  CUresult launchAt(CUfunction f, const VariantJob &v, int side, size_t i);
  // " at c0=17" for sample `i` of a kernel in host loops, else "".
  std::string sampleName(int side, size_t i) const;
  // Runs `f` from the pristine inputs at `side`: at sample `sample`, or at every sample in turn
  // (-1); a CUDA error in `r`; `ms` the time of the launches.
  CUresult runOnce(CUfunction f, const VariantJob &v, int side, float *ms = nullptr, long sample = -1);
  // Compares the outputs at `side` (after check sample `sample`) with the expected ones; the
  // number of differing elements.
  long long compare(int side, const std::string &where, std::string &badArrays, size_t sample = 0);
  // The baseline's run: the reference at the small size (self-reference) and at the target.
  bool runBaseline(Device &device, std::string &error);
  // Returns false when the CUDA context is no longer usable.
  bool measure(Device &device, const VariantJob &v);
};

inline bool Runner::reference(std::string &error) {
  RefFn fn = nullptr;
  for (size_t i = 0; i < refCount_; ++i)
    if (job_.kernel == refs_[i].kernel) fn = refs_[i].fn;
  if (job_.selfReference) return true;  // the baseline's run fills p.ref
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
        ok = in && count == p.count[Check];
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
    scalars.push_back(p.array ? nullptr : p.scalar[Check]);
  }
  fn(arrays.data(), scalars.data());
  if (!job_.refCache.empty()) {
    std::string tmp = job_.refCache + ".tmp";
    std::ofstream out(tmp, std::ios::binary);
    for (Param &p : job_.params)
      if (p.array) {
        out.write(reinterpret_cast<const char *>(&p.count[Check]), sizeof p.count[Check]);
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
  // The target size's inputs are random too, made after the small size's from the same seed.
  std::vector<void *> targetHost(job_.params.size(), nullptr);
  for (int side : {Check, Target})
    for (size_t i = 0; i < job_.params.size(); ++i) {
      Param &p = job_.params[i];
      bool known = withType(p.type, [&](auto zero) {
        using T = decltype(zero);
        if (p.array) {
          T *a = s.randomArray<T>(p.count[side]);
          if (p.values == "below") s.indexValues(a, p.count[side], p.limit[side]);
          if (p.values == "offsets") s.offsetValues(a, p.count[side], p.limit[side]);
          if (side == Check) {
            p.host = a;
            p.ref = rtcuda_verify::Session::copy(a, p.count[Check]);
          } else {
            targetHost[i] = a;
          }
        } else if (side == Check) {
          T v = p.role == "size" ? T(p.value[Check]) : s.randomValue<T>();
          T t = p.role == "size" ? T(p.value[Target]) : v;
          std::memcpy(p.scalar[Check], &v, sizeof v);
          std::memcpy(p.scalar[Target], &t, sizeof t);
        }
      });
      if (!known) {
        error = "unsupported type '" + p.type + "' of parameter " + p.name;
        return false;
      }
    }
  for (size_t i = 0; i < job_.params.size(); ++i) {
    Param &p = job_.params[i];
    if (!p.array) continue;
    for (int side : {Check, Target}) {
      size_t bytes = p.bytes(side) ? p.bytes(side) : 1;
      const void *from = side == Check ? p.host : targetHost[i];
      CUresult r = cuMemAlloc(&p.pristine[side], bytes);
      if (r == CUDA_SUCCESS) r = cuMemAlloc(&p.work[side], bytes);
      if (r == CUDA_SUCCESS && p.bytes(side)) r = cuMemcpyHtoD(p.pristine[side], from, p.bytes(side));
      if (r != CUDA_SUCCESS) {
        error = std::string("cannot allocate ") + p.name + " on the device: " + cuName(r);
        return false;
      }
    }
    std::free(targetHost[i]);
  }
  for (int side : {Check, Target})
    for (Param &p : job_.params)
      launchArgs_[side].push_back(p.array ? static_cast<void *>(&p.work[side]) : p.scalar[side]);
  // Twice the L2 size, written before every timed run, evicts the inputs from L2.
  if (job_.flush) {
    int l2 = device.attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    flushBytes_ = size_t(l2 > 0 ? l2 : 1 << 20) * 2;
    if (cuMemAlloc(&flush_, flushBytes_) != CUDA_SUCCESS) flush_ = 0;
  }
  return reference(error);
}

inline CUresult Runner::launchAt(CUfunction f, const VariantJob &v, int side, size_t i) {
  if (i < job_.samples[side].size())
    for (const auto &[name, value] : job_.samples[side][i])
      for (Param &p : job_.params)
        if (!p.array && p.name == name)
          withType(p.type, [&](auto zero) {
            decltype(zero) t = decltype(zero)(value);
            std::memcpy(p.scalar[side], &t, sizeof t);
          });
  bool sampled = !v.sampleGrid[side].empty();
  long long gx = sampled ? v.sampleGrid[side][2 * i] : v.grid[side][0];
  long long gy = sampled ? v.sampleGrid[side][2 * i + 1] : v.grid[side][1];
  if (gx == 0 || gy == 0) return CUDA_SUCCESS;
  // The arguments are copied at the launch: the next sample may change the scalars.
  return cuLaunchKernel(f, unsigned(gx), unsigned(gy), 1, unsigned(v.threads), 1, 1, 0, nullptr,
                        launchArgs_[side].data(), nullptr);
}

inline std::string Runner::sampleName(int side, size_t i) const {
  if (i >= job_.samples[side].size()) return "";
  std::string out = " at";
  for (const auto &[name, value] : job_.samples[side][i]) out += " " + name + "=" + std::to_string(value);
  return out;
}

inline CUresult Runner::runOnce(CUfunction f, const VariantJob &v, int side, float *ms, long sample) {
  for (Param &p : job_.params)
    if (p.array && p.bytes(side)) cuMemcpyDtoD(p.work[side], p.pristine[side], p.bytes(side));
  CUevent a = nullptr, b = nullptr;
  if (ms) cuEventCreate(&a, CU_EVENT_DEFAULT), cuEventCreate(&b, CU_EVENT_DEFAULT), cuEventRecord(a, nullptr);
  CUresult r = CUDA_SUCCESS;
  for (size_t i = sample < 0 ? 0 : size_t(sample); r == CUDA_SUCCESS && i < samples(side); ++i) {
    r = launchAt(f, v, side, i);
    if (sample >= 0) break;
  }
  if (ms) cuEventRecord(b, nullptr);
  if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
  if (ms) {
    if (r == CUDA_SUCCESS) cuEventElapsedTime(ms, a, b);
    cuEventDestroy(a), cuEventDestroy(b);
  }
  return r;
}

inline long long Runner::compare(int side, const std::string &where, std::string &badArrays,
                                 size_t sample) {
  rtcuda_verify::Session s;
  s.maxReports = 3;
  long long bad = 0;
  for (Param &p : job_.params) {
    if (!p.array || !p.bytes(side)) continue;
    if (side == Target && !p.written) continue;  // inputs are checked at the small size
    if (got_.size() < p.bytes(side)) got_.resize(p.bytes(side));
    cuMemcpyDtoH(got_.data(), p.work[side], p.bytes(side));
    const void *want = side == Target ? p.targetRef
                       : p.written    ? (sample ? p.sampleRef[sample] : p.ref)
                                      : p.host;
    // The same bytes compare equal element by element: the inputs, and arrays of fixed extents
    // (PolyBench's), most of which a check at the small size leaves as they were, cost a memcmp.
    if (std::memcmp(got_.data(), want, p.bytes(side)) == 0) continue;
    long long before = bad;
    withType(p.type, [&](auto zero) {
      using T = decltype(zero);
      bad += s.compare(job_.kernel.c_str(), where, p.name.c_str(),
                       reinterpret_cast<const T *>(got_.data()), static_cast<const T *>(want),
                       static_cast<const T *>(nullptr), p.count[side],
                       p.written && std::is_floating_point<T>::value ? job_.reduction[side] : 0);
    });
    if (bad > before) badArrays += (badArrays.empty() ? "" : ", ") + p.name;
  }
  return bad;
}

inline bool Runner::runBaseline(Device &device, std::string &error) {
  const VariantJob &b = job_.baseline;
  Loaded l;
  load(job_, source_, b, device.major, device.minor, l);
  if (!l.error.empty()) return error = "the default point " + b.id + ": " + l.error, false;
  if (job_.selfReference)
    for (size_t i = 0; i < samples(Check); ++i) {
      CUresult r = runOnce(l.f, b, Check, nullptr, long(i));
      if (r != CUDA_SUCCESS)
        return error = "the default point " + b.id + " failed" + sampleName(Check, i) + ": " + cuName(r), false;
      for (Param &p : job_.params)
        if (p.array && p.written && p.bytes()) {
          if (i) p.sampleRef.resize(samples(Check), nullptr), p.sampleRef[i] = std::malloc(p.bytes());
          cuMemcpyDtoH(i ? p.sampleRef[i] : p.ref, p.work[Check], p.bytes());
        }
    }
  if (job_.crossCheck) {
    CUresult r = runOnce(l.f, b, Target);
    if (r != CUDA_SUCCESS)
      return error = "the default point " + b.id + " failed at the target size: " + cuName(r), false;
    for (Param &p : job_.params)
      if (p.array && p.written && p.bytes(Target)) {
        p.targetRef = std::malloc(p.bytes(Target));
        cuMemcpyDtoH(p.targetRef, p.work[Target], p.bytes(Target));
      }
    haveTargetRef_ = true;
  }
  return true;
}

inline bool Runner::measure(Device &device, const VariantJob &v) {
  std::ostringstream out;
  out << "{\"event\":\"result\",\"variant\":" << jsonString(v.id);
  auto finish = [&](const std::string &status, const std::string &reason) {
    out << ",\"status\":" << jsonString(status) << ",\"reason\":" << jsonString(reason) << "}";
    emit(out.str());
  };
  Loaded l;
  load(job_, source_, v, device.major, device.minor, l);
  if (!l.error.empty()) return finish("compile-error", l.error), true;
  CUfunction f = l.f;
  int regs = 0, smem = 0, local = 0, maxThreads = 0, blocks = 0;
  cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
  cuFuncGetAttribute(&smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
  cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f);
  cuFuncGetAttribute(&maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f);
  cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, int(v.threads), 0);
  out << ",\"regs\":" << regs << ",\"smem\":" << smem << ",\"local\":" << local
      << ",\"spill_stores\":" << l.spillStores << ",\"spill_loads\":" << l.spillLoads
      << ",\"max_threads\":" << maxThreads << ",\"driver_blocks_per_sm\":" << blocks;
  if (v.threads > maxThreads || blocks == 0)
    return finish("infeasible", "the compiled kernel allows " + std::to_string(maxThreads) +
                                    " threads per block and " + std::to_string(blocks) +
                                    " resident blocks per SM"), true;
  for (int side : {Check, Target}) {
    bool work = false;
    for (size_t i = 0; i < samples(side); ++i)
      work |= v.sampleGrid[side].empty() ? v.grid[side][0] && v.grid[side][1]
                                         : v.sampleGrid[side][2 * i] && v.sampleGrid[side][2 * i + 1];
    if (!work)
      return finish("infeasible", std::string("empty grid at the ") +
                                      (side == Check ? "checking" : "target") + " size"), true;
  }
  // One run from the initial contents at the small size (at each sample of a kernel in host
  // loops, each from the initial contents), compared with the reference.
  std::string badArrays;
  long long bad = 0;
  for (size_t i = 0; i < samples(Check); ++i) {
    CUresult r = runOnce(f, v, Check, nullptr, long(i));
    if (r == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES || r == CUDA_ERROR_INVALID_VALUE)
      return finish("launch-error", std::string("launch failed: ") + cuName(r)), true;
    if (r != CUDA_SUCCESS)
      return finish("crash", std::string("the kernel failed") + sampleName(Check, i) + ": " + cuName(r)), false;
    bad = compare(Check, v.id + sampleName(Check, i), badArrays, i);
    if (bad)
      return finish("wrong", std::to_string(bad) + " element(s) differ from the " +
                                 (job_.selfReference ? "default point's output" : "sequential C") +
                                 " at the checking size" + sampleName(Check, i) + " (" + badArrays + ")"), true;
  }
  // The first run at the target size, from the initial contents: timed (a variant much slower
  // than the best is not timed further) and, in the final round, compared with the baseline.
  float firstMs = 0;
  CUresult r = runOnce(f, v, Target, &firstMs);
  if (r != CUDA_SUCCESS)
    return finish("crash", std::string("the kernel failed at the target size: ") + cuName(r)), false;
  if (haveTargetRef_) {
    bad = compare(Target, v.id + " (target size)", badArrays);
    if (bad)
      return finish("wrong", std::to_string(bad) + " element(s) differ from the default point's "
                             "output at the target size (" + badArrays + ")"), true;
  }
  double firstUs = double(firstMs) * 1000.0;
  out << ",\"first_us\":" << firstUs << ",\"target_checked\":" << (haveTargetRef_ ? "true" : "false");
  double cutoff = job_.cutoffUs;  // < 0: time every variant in full
  if (cutoff >= 0 && bestUs_ > 0 && (cutoff == 0 || 3 * bestUs_ < cutoff)) cutoff = 3 * bestUs_;
  if (cutoff > 0 && firstUs > cutoff) {
    std::ostringstream why;
    why << "its first run at the target size took " << firstUs << " us, over 3x the fastest ("
        << cutoff << " us): not timed further";
    out << ",\"median_us\":" << firstUs << ",\"min_us\":" << firstUs << ",\"max_us\":" << firstUs
        << ",\"q1_us\":" << firstUs << ",\"q3_us\":" << firstUs << ",\"times_us\":[" << firstUs
        << "],\"verified\":true";
    return finish("slow", why.str()), true;
  }
  // Timing at the target size: warm-up, then each repetition between two events, the L2
  // flushed before it.
  // A kernel in host loops: one run launches it at every sample in turn.
  auto launchAll = [&]() {
    for (size_t s = 0; s < samples(Target); ++s) launchAt(f, v, Target, s);
  };
  for (int i = 0; i < job_.warmup; ++i) launchAll();
  int reps = std::max(job_.reps, 1);
  std::vector<CUevent> start(reps), stop(reps);
  for (int i = 0; i < reps; ++i) {
    cuEventCreate(&start[i], CU_EVENT_DEFAULT);
    cuEventCreate(&stop[i], CU_EVENT_DEFAULT);
  }
  for (int i = 0; i < reps; ++i) {
    if (flush_) cuMemsetD32Async(flush_, unsigned(i), flushBytes_ / 4, nullptr);
    cuEventRecord(start[i], nullptr);
    launchAll();
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
  if (bestUs_ <= 0 || st.median < bestUs_) bestUs_ = st.median;
  out << ",\"median_us\":" << st.median << ",\"min_us\":" << st.min << ",\"max_us\":" << st.max
      << ",\"q1_us\":" << st.q1 << ",\"q3_us\":" << st.q3 << ",\"times_us\":[";
  for (size_t i = 0; i < times.size(); ++i) out << (i ? "," : "") << times[i];
  out << "],\"verified\":true";
  finish("ok", "");
  return true;
}

inline int Runner::run(Device &device) {
  std::string error;
  source_ = readText(job_.source);
  if (!prepare(device, error) ||
      ((job_.selfReference || job_.crossCheck) && !job_.baseline.id.empty() && !runBaseline(device, error))) {
    emit("{\"event\":\"error\",\"message\":" + jsonString(error) + "}");
    return 2;
  }
  emit("{\"event\":\"ready\"}");
  for (const VariantJob &v : job_.variants) {
    emit("{\"event\":\"start\",\"variant\":" + jsonString(v.id) + "}");
    if (!measure(device, v)) return 3;
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
  if (job.selfReference && job.baseline.id.empty()) {
    emit("{\"event\":\"error\",\"message\":\"no reference: the kernel has no C function and the job names no default point\"}");
    return 2;
  }
  Runner runner(job, refs, refCount);
  return runner.run(device);
}

}  // namespace rtcuda_tune
