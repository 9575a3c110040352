// The job file of rtcuda-tune's measurement harness (see rtcuda_tune_harness.h, which includes
// it): what rtcuda-tune asks one harness process to measure (lib/Tuner/Harness.cpp writes it),
// the parameters and variants it names, and the C element types the harness handles.
#pragma once

#include <cuda.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace rtcuda_tune {
// One size of the job: 0 the small size every variant is checked at, 1 the target size.
enum { Check = 0, Target = 1 };

struct Param {
  bool array = false;
  std::string type, name, role;
  long long count[2] = {0, 0};  // arrays: elements at each size
  // An index array's values ("below": each under limit; "offsets": non-decreasing up to it).
  std::string values;
  long long limit[2] = {0, 0};
  bool read = false, written = false;
  long long value[2] = {0, 0};  // size scalars
  alignas(8) unsigned char scalar[2][8] = {{0}, {0}};
  void *host = nullptr, *ref = nullptr;  // the small size's inputs and expected outputs
  void *targetRef = nullptr;             // the baseline's outputs at the target size
  std::vector<void *> sampleRef;         // a kernel in host loops: the outputs at check sample i > 0
  CUdeviceptr pristine[2] = {0, 0}, work[2] = {0, 0};
  size_t bytes(int side = Check) const;
};

struct VariantJob {
  std::string id;
  long long threads = 0, grid[2][2] = {{0, 1}, {0, 1}};  // [side][x, y]
  std::string cubin, lowered;  // compiled by rtcuda-tune ("-": compile here)
  std::string kernel;          // the __global__ function, when not the job's kernel (an
                               // alternative instantiation chosen at launch, e.g. mm_small_grid)
  std::vector<std::string> defines;
  // A kernel in host loops: the grid (x, y) at each sample of the side; empty: grid[side] alone.
  std::vector<long long> sampleGrid[2];
};

struct Job {
  std::string kernel, source, include, refCache;
  std::vector<Param> params;
  std::vector<VariantJob> variants;
  // A kernel that reads host loop variables: their values at each sample of each side ("host"
  // parameters); each is checked on its own, a timed run launches the kernel at all in turn.
  std::vector<std::vector<std::pair<std::string, long long>>> samples[2];
  VariantJob baseline;          // the default point (empty id: none)
  bool selfReference = false;   // no C function: the baseline's output is the reference
  bool crossCheck = false;      // compare each variant's target output with the baseline's
  double cutoffUs = 0;          // a first target run slower than this is not timed further
  unsigned seed = 1;
  long long reduction[2] = {1, 1};
  int reps = 20, warmup = 2;
  bool flush = true;
};

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

inline size_t Param::bytes(int side) const {
  return size_t(count[side] > 0 ? count[side] : 0) * typeSize(type);
}

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
    else if (key == "reduction") ls >> job.reduction[Check] >> job.reduction[Target];
    else if (key == "reference") job.selfReference = rest() == "baseline";
    else if (key == "crosscheck") ls >> job.crossCheck;
    else if (key == "cutoff") ls >> job.cutoffUs;
    else if (key == "reps") ls >> job.reps;
    else if (key == "warmup") ls >> job.warmup;
    else if (key == "flush") ls >> job.flush;
    else if (key == "sample") {
      std::string side, binding;
      ls >> side;
      std::vector<std::pair<std::string, long long>> b;
      while (ls >> binding) {
        size_t eq = binding.find('=');
        if (eq == std::string::npos) continue;
        b.push_back({binding.substr(0, eq), std::atoll(binding.c_str() + eq + 1)});
      }
      job.samples[side == "check" ? Check : Target].push_back(b);
    } else if (key == "array") {
      Param p;
      std::string access;
      p.array = true;
      ls >> p.type >> p.name >> p.count[Check] >> p.count[Target] >> access;
      if (ls >> p.values) ls >> p.limit[Check] >> p.limit[Target];
      p.read = access.find('r') != std::string::npos;
      p.written = access.find('w') != std::string::npos;
      job.params.push_back(p);
    } else if (key == "scalar") {
      Param p;
      ls >> p.type >> p.name >> p.role >> p.value[Check] >> p.value[Target];
      job.params.push_back(p);
    } else if (key == "variant" || key == "baseline") {
      // id threads target-grid-x target-grid-y check-grid-x check-grid-y cubin lowered n defines
      // [grids ...] [kernel NAME]
      VariantJob v;
      size_t n = 0;
      ls >> v.id >> v.threads >> v.grid[Target][0] >> v.grid[Target][1] >> v.grid[Check][0] >>
          v.grid[Check][1] >> v.cubin >> v.lowered >> n;
      if (v.cubin == "-") v.cubin.clear();
      for (size_t i = 0; i < n; ++i) {
        std::string d;
        ls >> d;
        v.defines.push_back("-D" + d);
      }
      // Optional: "grids" and the grid at each sample; "kernel" and the __global__ function
      // when it is not the job's (an alternative instantiation chosen at launch).
      for (std::string more; ls >> more;) {
        if (more == "grids")
          for (int side : {Check, Target}) {
            size_t count = 0;
            ls >> count;
            v.sampleGrid[side].resize(2 * count);
            for (long long &g : v.sampleGrid[side]) ls >> g;
          }
        else if (more == "kernel")
          ls >> v.kernel;
      }
      // A kernel in host loops (its samples come first) needs a grid per sample.
      for (int side : {Check, Target})
        if (!job.samples[side].empty() && v.sampleGrid[side].size() != 2 * job.samples[side].size())
          return error = "variant " + v.id + ": no grid per sample", false;
      (key == "variant" ? job.variants.push_back(v) : void(job.baseline = v));
    }
  }
  if (job.samples[Check].empty() != job.samples[Target].empty() ||
      (!job.samples[Check].empty() && !job.selfReference))
    return error = "samples at one size only, or with a C reference (a kernel in host loops has none)", false;
  if (job.kernel.empty() || job.source.empty()) {
    error = std::string("incomplete job file ") + path;
    return false;
  }
  return true;
}

}  // namespace rtcuda_tune
