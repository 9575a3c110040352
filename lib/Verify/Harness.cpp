// The verify harness: one C++ program per output folder that, for every kernel, every problem
// size and every covered tuning point, runs the sequential C function (the reference) and the
// kernel through its launch function (as main.cu would), on the same random inputs, and
// compares every array. Tuning macros become variables so one build covers every point.
#include "rtcuda/Verify/Verify.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <sstream>

namespace rtcuda {

// The points spread evenly over the cross product of the tuning values, the product taken as a
// mixed-radix number (the last parameter varies fastest) and never built: an outlined function
// with six kernels of 32 block sizes each has 32^6 points.
std::vector<std::map<std::string, int>> verifyPoints(const ManifestKernel &k, size_t cap) {
  long double total = 1;
  for (const ManifestTuning &t : k.tuning) total *= (long double)std::max<size_t>(t.values.size(), 1);
  auto point = [&](long double index) {
    std::map<std::string, int> p;
    for (size_t d = k.tuning.size(); d-- > 0;) {
      const ManifestTuning &t = k.tuning[d];
      if (t.values.empty()) continue;
      long double radix = (long double)t.values.size();
      long double digit = std::fmod(index, radix);
      p[t.name] = t.values[(size_t)digit];
      index = std::floor(index / radix);
    }
    return p;
  };
  std::vector<std::map<std::string, int>> points;
  if (total <= (long double)cap) {
    for (long double i = 0; i < total; i += 1) points.push_back(point(i));
    return points;
  }
  // The default point: what the output runs unless tuned. One point is that one (before, a cap
  // of 1 enumerated the whole product: 294912 points for doitgen's two kernels).
  std::map<std::string, int> byDefault;
  for (const ManifestTuning &t : k.tuning)
    if (!t.values.empty()) byDefault[t.name] = t.defaultValue;
  if (cap <= 1) return {byDefault};
  // Two: the extremes. More: the extremes and an even spread between them, the default point
  // taking the second place when the spread misses it (always `cap` points).
  for (size_t i = 0; i < cap; ++i) points.push_back(point(std::floor(i * (total - 1) / (cap - 1))));
  if (cap >= 3 && std::find(points.begin(), points.end(), byDefault) == points.end())
    points[1] = byDefault;
  return points;
}

namespace {

std::string pointerType(const ManifestParam &p) {
  return std::string(p.isConst ? "const " : "") + p.type + " *";
}

void emitKernel(std::ostringstream &out, const ManifestKernel &k, const VerifyOptions &options) {
  std::vector<const ManifestParam *> sizes, values, arrays;
  for (const ManifestParam &p : k.params) {
    if (p.isArray()) arrays.push_back(&p);
    else if (p.role == "size") sizes.push_back(&p);
    else values.push_back(&p);
  }
  auto points = verifyPoints(k, options.maxPointsPerKernel);
  out << "\n// ---- kernel " << k.name << " (" << k.location << ") ----\n";
  out << "static const int points_" << k.name << "[][" << std::max<size_t>(k.tuning.size(), 1)
      << "] = {";
  for (const auto &p : points) {
    out << "{";
    size_t i = 0;
    for (const ManifestTuning &t : k.tuning) out << (i++ ? ", " : "") << p.at(t.name);
    if (k.tuning.empty()) out << "0";
    out << "}, ";
  }
  out << "};\n";
  // Sizes bounded by the constant extents their loops index (manifest "at_most").
  std::string limits;
  auto atMost = [](const ManifestParam *p) {
    return p->atMost == std::numeric_limits<long long>::max()
               ? std::string()
               : ", " + std::to_string(p->atMost) + "LL";
  };
  for (const ManifestParam *p : sizes)
    if (!atMost(p).empty())
      limits += (limits.empty() ? "; " : ", ") + p->name + " at most " + std::to_string(p->atMost);
  if (!limits.empty()) limits += " (the constant extents its loops index)";
  out << "static void verify_" << k.name << "(rtcuda_verify::Session &rtcuda_s) {\n"
      << "  printf(\"kernel " << k.name << ": " << points.size() << " point(s)" << limits
      << "\\n\");\n"
      << "  for (long long rtcuda_base : rtcuda_s.sizeBases) {\n";
  // Sizes of arrays get base + 2j (non-square shapes); a size that only bounds loops gets the
  // smallest of them (the C caller keeps it within the arrays), or the base if there is none.
  int j = 0;
  std::string smallest = "rtcuda_base";
  for (const ManifestParam *p : sizes) {
    if (p->boundsOnly) continue;
    out << "    " << p->type << " " << p->name << " = (" << p->type << ")rtcuda_s.size(\"" << p->name
        << "\", rtcuda_base, " << j++ << atMost(p) << ");\n";
    smallest = smallest == "rtcuda_base" ? "(long long)" + p->name
                                         : "rtcuda_min(" + smallest + ", (long long)" + p->name + ")";
  }
  for (const ManifestParam *p : sizes)
    if (p->boundsOnly)
      out << "    " << p->type << " " << p->name << " = (" << p->type << ")rtcuda_s.size(\""
          << p->name << "\", " << smallest << ", 0" << atMost(p) << ");\n";
  out << "    long long rtcuda_reduction = 1;\n";
  for (const ManifestParam *p : sizes)
    out << "    rtcuda_reduction = rtcuda_max(rtcuda_reduction, (long long)" << p->name << ");\n";
  for (const ManifestParam *p : values)
    out << "    " << p->type << " " << p->name << " = rtcuda_s.randomValue<" << p->type << ">();\n";
  out << "    std::string rtcuda_sizes = \"\"";
  for (const ManifestParam *p : sizes)
    out << " \" " << p->name << "=\" + std::to_string((long long)" << p->name << ") +";
  out << " \"\";\n";
  for (const ManifestParam *a : arrays) {
    out << "    long long " << a->name << "_count = rtcuda_nonnegative(" << a->elements << ");\n"
        << "    " << a->type << " *" << a->name << "_init = rtcuda_s.randomArray<" << a->type << ">("
        << a->name << "_count);\n";
    // Index arrays (manifest "index_values"): values the C can run on, not random integers.
    const std::vector<std::string> &limits = a->indexLimits();
    if (!limits.empty()) {
      std::string least = "(long long)(" + limits[0] + ")";
      for (size_t i = 1; i < limits.size(); ++i)
        least = "rtcuda_min(" + least + ", (long long)(" + limits[i] + "))";
      out << "    rtcuda_s." << (a->isOffsets() ? "offsetValues" : "indexValues") << "(" << a->name
          << "_init, " << a->name << "_count, " << least << ");\n";
    }
    out << "    " << a->type << " *" << a->name << "_ref = rtcuda_s.copy(" << a->name << "_init, "
        << a->name << "_count);\n"
        << "    " << a->type << " *" << a->name << "_moved = rtcuda_s.moved(" << a->name
        << "_init, " << a->name << "_count, rtcuda_reduction);\n";
  }
  // The reference on the inputs, then on the moved inputs: how far rounding moves its answer.
  for (const char *copy : {"_ref", "_moved"}) {
    out << "    rtcuda_ref_" << k.name << "(";
    for (size_t i = 0; i < k.params.size(); ++i)
      out << (i ? ", " : "") << k.params[i].name << (k.params[i].isArray() ? copy : "");
    out << ");\n";
  }
  // Written arrays must equal the reference; the others must come back untouched.
  auto compareAndFree = [&](const std::string &where) {
    for (const ManifestParam *a : arrays) {
      bool tolerant = a->written && a->isFloat();
      out << "      rtcuda_s.compare(\"" << k.name << "\", " << where << ", \"" << a->name << "\", "
          << a->name << "_dev, " << a->name << (a->written ? "_ref" : "_init") << ", "
          << (tolerant ? a->name + "_moved" : "(" + a->type + " *)nullptr") << ", " << a->name
          << "_count, " << (tolerant ? "rtcuda_reduction" : "0") << ");\n"
          << "      rtcuda_host_free(" << a->name << "_dev);\n";
    }
  };
  out << "    for (const auto &rtcuda_point : points_" << k.name << ") {\n";
  size_t t = 0;
  for (const ManifestTuning &tp : k.tuning)
    out << "      if (!rtcuda_s.selected(\"" << tp.name << "\", rtcuda_point[" << t++ << "])) continue;\n";
  t = 0;
  out << "      std::string rtcuda_where = rtcuda_sizes";
  for (const ManifestTuning &tp : k.tuning)
    out << " + \" " << tp.name << "=\" + std::to_string(rtcuda_point[" << t++ << "])";
  out << ";\n";
  t = 0;
  for (const ManifestTuning &tp : k.tuning)
    out << "      rtcuda_verify_" << tp.macro << " = rtcuda_point[" << t++ << "];\n";
  for (const ManifestParam *a : arrays)
    out << "      " << a->type << " *" << a->name << "_dev = rtcuda_s.copy(" << a->name << "_init, "
        << a->name << "_count);\n";
  out << "      " << k.launchFunction << "(\"rtcuda verify\"";
  for (const ManifestParam &p : k.params) out << ", " << p.name << (p.isArray() ? "_dev" : "");
  out << ");\n";
  compareAndFree("rtcuda_where");
  out << "      ++rtcuda_s.points;\n    }\n";
  // Each alternative instantiation chosen at launch, forced by its selecting macro (the
  // points above ran with every selector at 0: the kernel at the point they name).
  for (const ManifestAlternative &alt : k.alternatives) {
    out << "    {\n      std::string rtcuda_where = rtcuda_sizes + \" " << alt.name << " ("
        << alt.selectMacro << "=" << alt.selectValue << ")\";\n";
    for (const ManifestTuning &tp : k.tuning)
      out << "      rtcuda_verify_" << tp.macro << " = " << tp.defaultValue << ";\n";
    out << "      rtcuda_verify_" << alt.selectMacro << " = " << alt.selectValue << ";\n";
    for (const ManifestParam *a : arrays)
      out << "      " << a->type << " *" << a->name << "_dev = rtcuda_s.copy(" << a->name << "_init, "
          << a->name << "_count);\n";
    out << "      " << k.launchFunction << "(\"rtcuda verify\"";
    for (const ManifestParam &p : k.params) out << ", " << p.name << (p.isArray() ? "_dev" : "");
    out << ");\n      rtcuda_verify_" << alt.selectMacro << " = 0;\n";
    compareAndFree("rtcuda_where");
    out << "      ++rtcuda_s.alternatives;\n    }\n";
  }
  for (const ManifestParam *a : arrays)
    out << "    free(" << a->name << "_init);\n    free(" << a->name << "_ref);\n    free(" << a->name
        << "_moved);\n";
  out << "  }\n}\n";
}

}  // namespace

std::string verifyHarness(const Manifest &m, const VerifyOptions &options) {
  std::ostringstream out;
  out << "// Generated by rtcuda verify for " << m.dir << ".\n"
      << "#include \"rtcuda_runtime.h\"\n#include \"rtcuda_verify.h\"\n\n"
      << "// Shared arrays sized by tuning macros: every point of a space fits the 48 KB of static\n"
      << "// shared memory, so each block gets that much (plain thread_local storage: no\n"
      << "// initialization guard for the race checker to trip over).\n"
      << "#define RTCUDA_SHARED_ARRAY(T, NAME, COUNT) \\\n"
      << "  static thread_local T NAME[49152 / sizeof(T)]; \\\n"
      << "  if ((size_t)(COUNT) > 49152 / sizeof(T)) { \\\n"
      << "    fprintf(stderr, \"rtcuda verify: shared array %s exceeds 48 KB\\n\", #NAME); abort(); }\n"
      << "// Tuning macros as variables: one build covers every point.\n";
  for (const ManifestKernel &k : m.verified())
    for (const ManifestTuning &t : k.tuning)
      out << "static int rtcuda_verify_" << t.macro << " = " << t.defaultValue << ";\n#define "
          << t.macro << " rtcuda_verify_" << t.macro << "\n";
  // The macros that choose among a kernel's instantiations at launch: 0 (the kernel at the
  // point being checked) unless an alternative is being checked.
  std::set<std::string> selectors;
  for (const ManifestKernel &k : m.verified())
    for (const ManifestAlternative &alt : k.alternatives)
      if (selectors.insert(alt.selectMacro).second)
        out << "static int rtcuda_verify_" << alt.selectMacro << " = 0;\n#define " << alt.selectMacro
            << " rtcuda_verify_" << alt.selectMacro << "\n";
  out << "#include \"launch.cuh\"\n\n// The sequential C functions (reference/), renamed.\n";
  for (const ManifestKernel &k : m.verified()) {
    out << "extern \"C\" void rtcuda_ref_" << k.name << "(";
    for (size_t i = 0; i < k.params.size(); ++i) {
      const ManifestParam &p = k.params[i];
      out << (i ? ", " : "") << (p.isArray() ? pointerType(p) : p.type + " ") << p.name;
    }
    out << ");\n";
  }
  for (const ManifestKernel &k : m.verified()) emitKernel(out, k, options);
  out << "\nint main(int argc, char **argv) {\n"
      << "  rtcuda_verify::Session s;\n"
      << "  for (int i = 1; i + 1 < argc; i += 2) {\n"
      << "    std::string flag = argv[i], value = argv[i + 1];\n"
      << "    std::string name = value.substr(0, value.find('='));\n"
      << "    long long number = atoll(value.c_str() + value.find('=') + 1);\n"
      << "    if (flag == \"--seed\") s.seed = (unsigned)atoll(value.c_str());\n"
      << "    else if (flag == \"--base\") s.sizeBases.push_back(atoll(value.c_str()));\n"
      << "    else if (flag == \"--size\") s.sizeOverrides[name] = number;\n"
      << "    else if (flag == \"--point\") s.pointFilter[name] = (int)number;\n"
      << "    else if (flag == \"--tolerance\") s.tolerance = atof(value.c_str());\n"
      << "  }\n"
      << "  s.rng.seed(s.seed);\n"
      << "  s.moveRng.seed(s.seed + 0x9e3779b9u);\n";
  for (const ManifestKernel &k : m.verified()) out << "  verify_" << k.name << "(s);\n";
  out << "  printf(\"harness: %d kernel(s) %lld point(s) %zu size(s) %lld mismatch(es)\\n\", "
      << m.verified().size() << ", s.points, s.sizeBases.size(), s.mismatches);\n"
      << "  if (s.alternatives)\n    printf(\"harness: %lld run(s) of alternative instantiations, each compared as "
         "above\\n\", s.alternatives);\n"
      << "  return s.mismatches ? 1 : 0;\n}\n";
  return out.str();
}

}  // namespace rtcuda
