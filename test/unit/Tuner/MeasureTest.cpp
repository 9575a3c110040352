// Everything around the measurement that needs no GPU: the compiler's resource report, the
// cache, the strategies, the parameter header, the child-process loop (with a fake harness that
// crashes, hangs and computes wrong results), and a whole --model-only run.
#include <algorithm>
#include "rtcuda/Tuner/Harness.h"
#include "rtcuda/Tuner/Report.h"
#include "rtcuda/Tuner/Tuner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

using namespace rtcuda::tune;
namespace fs = std::filesystem;

namespace {

const std::string data = RTCUDA_TUNER_TEST_DATA;

fs::path scratch(const std::string &name) {
  fs::path p = fs::temp_directory_path() / ("rtcuda-tuner-test-" + std::to_string(getpid()) + "-" + name);
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

fs::path copyPlanted(const std::string &name) {
  fs::path dir = scratch(name) / "planted";
  fs::copy(data + "/planted", dir, fs::copy_options::recursive);
  return dir;
}

std::string readText(const fs::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST(Resources, ParsesPtxasReport) {
  const char *log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function '_Z2mmPfS_S_i' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z2mmPfS_S_i\n"
      "ptxas         .     16 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n"
      "ptxas info    : Used 53 registers, used 1 barriers, 2048 bytes smem, 380 bytes cmem[0]\n"
      "ptxas info    : Compiling entry function 'plain_c_kernel' for 'sm_90'\n"
      "ptxas info    : Function properties for plain_c_kernel\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 8 registers, used 0 barriers\n";
  auto r = parsePtxasLog(log);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_TRUE(r["mm"].known);
  EXPECT_EQ(r["mm"].regs, 53);
  EXPECT_EQ(r["mm"].smem, 2048);
  EXPECT_EQ(r["mm"].stack, 16);
  EXPECT_EQ(r["mm"].spillStores, 8);
  EXPECT_EQ(r["mm"].spillLoads, 12);
  EXPECT_EQ(r["mm"].barriers, 1);
  EXPECT_EQ(r["plain_c_kernel"].regs, 8);
  EXPECT_EQ(plainKernelName("_Z13scaleaddstorePfS_S_if"), "scaleaddstore");
}

TEST(Cache, KeepsResultsAcrossRuns) {
  fs::path dir = scratch("cache");
  std::string path = (dir / "tuning" / "cache.json").string();
  std::string key = measurementKey("abc", "NVIDIA H100", "driver 13.0", "float", "N=1");
  {
    Cache c(path);
    EXPECT_FALSE(c.find(key, "BLOCKSIZE=32"));
    Measurement m;
    m.status = "ok";
    m.verified = true;
    m.timesUs = {1, 2, 3};
    m.medianUs = 2;
    c.put(key, {{"kernel", "mm"}}, "BLOCKSIZE=32", m);  // saved at once
  }
  Cache again(path);
  auto hit = again.find(key, "BLOCKSIZE=32");
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->status, "ok");
  EXPECT_DOUBLE_EQ(hit->medianUs, 2);
  EXPECT_FALSE(again.find(measurementKey("abc", "NVIDIA H100", "driver 13.0", "double", "N=1"),
                          "BLOCKSIZE=32"));
  // A damaged file is set aside, not trusted.
  std::ofstream(path) << "{ not json";
  Cache damaged(path);
  EXPECT_FALSE(damaged.find(key, "BLOCKSIZE=32"));
  EXPECT_TRUE(fs::exists(path + ".bad"));
  EXPECT_NE(contentHash("a"), contentHash("b"));
}

TEST(Strategy, PrunedTimesTheBestRankedFraction) {
  std::vector<size_t> ranked = {5, 3, 9, 0, 1, 2, 4, 6, 7, 8};
  auto chosen = prunedSelection(ranked, 10, 0.3, std::nullopt);
  EXPECT_EQ(chosen, (std::vector<size_t>{5, 3, 9}));
  chosen = prunedSelection(ranked, 10, 0.3, 7);  // the default replaces the last kept
  EXPECT_EQ(chosen, (std::vector<size_t>{5, 3, 7}));
  chosen = prunedSelection(ranked, 10, 0.0, 3);
  EXPECT_EQ(chosen.size(), 1u);
}

TEST(Strategy, LargeSpacesAreSampledWithTheDefaultKept) {
  std::vector<Variant> space;
  for (int a = 0; a < 40; ++a)
    for (int b = 0; b < 25; ++b) space.push_back({a, b});
  const Variant def{39, 24};  // the last point: a sample taken from the front would miss it
  std::vector<Variant> small(space.begin(), space.begin() + 10);
  EXPECT_EQ(sampleSpace(small, small[3], 256, 1), small);  // small spaces stay whole
  EXPECT_EQ(sampleSpace(space, def, 0, 1), space);         // 0: never sampled
  std::vector<Variant> sample = sampleSpace(space, def, 100, 1);
  EXPECT_EQ(sample.size(), 100u);
  EXPECT_NE(std::find(sample.begin(), sample.end(), def), sample.end());
  EXPECT_EQ(std::set<Variant>(sample.begin(), sample.end()).size(), 100u);  // nothing twice
  EXPECT_TRUE(std::is_sorted(sample.begin(), sample.end()));  // the space's order
  EXPECT_EQ(sampleSpace(space, def, 100, 1), sample);          // the seed decides
  EXPECT_NE(sampleSpace(space, def, 100, 2), sample);
  std::set<int> firsts;  // spread over the space, not one corner of it
  for (const Variant &v : sample) firsts.insert(v[0]);
  EXPECT_GT(firsts.size(), 20u);
}

TEST(Strategy, BudgetSearchFindsTheMinimumOfASmoothSpace) {
  rtcuda::Manifest m = rtcuda::readManifest(data + "/planted");
  TuneKernel k = loadKernels(m).at(0);
  k.k.tuning[0].values.clear();
  for (int v = 32; v <= 1024; v += 32) k.k.tuning[0].values.push_back(v);
  std::vector<Variant> space = enumerateSpace(k);
  std::vector<bool> feasible(space.size(), true);
  std::vector<int> rank(space.size());
  for (size_t i = 0; i < space.size(); ++i) rank[i] = int(i + 1);
  // Time is smallest at 384 threads.
  auto cost = [&](size_t i) { return std::fabs(space[i][0] - 384.0) + 10; };
  size_t calls = 0;
  auto order = budgetSearch(k, space, feasible, rank, 12, 7, [&](const std::vector<size_t> &batch) {
    ++calls;
    std::map<size_t, double> t;
    for (size_t i : batch) t[i] = cost(i);
    return t;
  });
  EXPECT_EQ(order.size(), 12u);
  EXPECT_EQ(std::set<size_t>(order.begin(), order.end()).size(), 12u);  // nothing twice
  size_t best = order[0];
  for (size_t i : order)
    if (cost(i) < cost(best)) best = i;
  EXPECT_LE(std::fabs(space[best][0] - 384.0), 32.0);
  EXPECT_GT(calls, 2u);
}

TEST(Report, RewritesTheParameterHeader) {
  fs::path dir = copyPlanted("header");
  rtcuda::Manifest m = rtcuda::readManifest(dir.string());
  TuneKernel k = loadKernels(m).at(0);
  std::string error;
  ASSERT_TRUE(writeParamsHeader(dir.string(), k, {160}, "BLOCKSIZE=160 for a test", &error)) << error;
  ASSERT_TRUE(writeParamsHeader(dir.string(), k, {128}, "BLOCKSIZE=128 again", &error)) << error;
  std::string text = readText(dir / "planted_params.h");
  EXPECT_NE(text.find("#define PLANTED_BLOCKSIZE 128\n"), std::string::npos) << text;
  EXPECT_NE(text.find("#ifndef PLANTED_BLOCKSIZE"), std::string::npos);
  EXPECT_EQ(text.find("for a test"), std::string::npos) << "one note, replaced on every run";
  EXPECT_NE(text.find("// rtcuda-tune picked BLOCKSIZE=128 again\n#ifndef"), std::string::npos) << text;
}

// A measurement job over the planted output copied to `dir`, at n = 1000.
static MeasureJob plantedJob(const TuneKernel &k, const fs::path &dir) {
  MeasureJob job;
  job.kernel = &k;
  job.outDir = dir.string();
  job.jobPath = (dir / "job.txt").string();
  job.sizes = {{"n", 1000}};
  return job;
}

static void addVariant(MeasureJob &job, const Variant &v) {
  const TuneKernel &k = *job.kernel;
  VariantLaunch l;
  l.id = variantId(k, v);
  l.geo = geometry(k, job.sizes, v);
  l.defines = macroValues(k, v);
  job.variants.push_back(l);
}

TEST(Measure, ExcludesCrashesHangsAndWrongResultsAndGoesOn) {
  fs::path dir = copyPlanted("measure");
  rtcuda::Manifest m = rtcuda::readManifest(dir.string());
  TuneKernel k = loadKernels(m).at(0);
  MeasureJob job = plantedJob(k, dir);
  job.refCache = (dir / "ref.bin").string();
  job.timeout = 1.5;
  job.setupTimeout = 10;
  for (const Variant &v : enumerateSpace(k)) addVariant(job, v);
  std::map<std::string, Measurement> got;
  std::vector<std::string> started;
  bool finished = runMeasurements(
      data + "/fake_harness.sh", job, nullptr, [&](const std::string &id) { started.push_back(id); },
      [&](const std::string &id, const Measurement &r) { got[id] = r; });
  EXPECT_TRUE(finished);
  ASSERT_EQ(got.size(), 6u);
  EXPECT_EQ(got["BLOCKSIZE=64"].status, "crash");
  EXPECT_NE(got["BLOCKSIZE=64"].reason.find("signal 11"), std::string::npos) << got["BLOCKSIZE=64"].reason;
  EXPECT_NE(got["BLOCKSIZE=64"].reason.find("some log text"), std::string::npos);
  EXPECT_EQ(got["BLOCKSIZE=96"].status, "timeout");
  EXPECT_EQ(got["BLOCKSIZE=128"].status, "wrong");
  EXPECT_EQ(got["BLOCKSIZE=160"].status, "crash");
  EXPECT_EQ(got["BLOCKSIZE=160"].reason, "CUDA_ERROR_LAUNCH_FAILED");
  for (const char *ok : {"BLOCKSIZE=32", "BLOCKSIZE=256"}) {
    EXPECT_EQ(got[ok].status, "ok") << ok;
    EXPECT_TRUE(got[ok].verified);
  }
  EXPECT_NEAR(got["BLOCKSIZE=256"].medianUs, 100.0 / 256, 1e-4);
  EXPECT_EQ(started.size(), 6u);  // each variant once, after every restart
}

// Interrupted (Ctrl-C sets the flag) or past the job's stopAt (--kernel-seconds): the child is
// killed and the call returns false with the results it had; the hung variant is not a result.
TEST(Measure, StopsWhenInterruptedOrAtTheKernelTimeLimit) {
  for (bool limit : {false, true}) {
    fs::path dir = copyPlanted(limit ? "limit" : "interrupt");
    rtcuda::Manifest m = rtcuda::readManifest(dir.string());
    TuneKernel k = loadKernels(m).at(0);
    MeasureJob job = plantedJob(k, dir);
    job.timeout = 60;
    addVariant(job, Variant{32});
    addVariant(job, Variant{96});  // never answers
    volatile bool stop = false;
    std::thread interrupter;
    auto t0 = std::chrono::steady_clock::now();
    if (limit)
      job.stopAt = t0 + std::chrono::milliseconds(700);
    else
      interrupter = std::thread([&]() {
        std::this_thread::sleep_for(std::chrono::milliseconds(700));
        stop = true;
      });
    std::map<std::string, Measurement> got;
    bool finished = runMeasurements(data + "/fake_harness.sh", job, &stop, [](const std::string &) {},
                                    [&](const std::string &id, const Measurement &r) { got[id] = r; });
    if (interrupter.joinable()) interrupter.join();
    EXPECT_FALSE(finished) << limit;
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0);
    EXPECT_EQ(got.size(), 1u) << limit;
    EXPECT_EQ(got["BLOCKSIZE=32"].status, "ok") << limit;
  }
}

TEST(Harness, RefusesKernelsItCannotLaunch) {
  fs::path dir = copyPlanted("finish");
  std::ofstream(dir / "kernel.cu", std::ios::app)
      << "__global__ void planted_finish(float *C, const float *A, const float *B, int n, float *t) {}\n";
  TuneKernel k = loadKernels(rtcuda::readManifest(dir.string())).at(0);
  EXPECT_NE(k.notMeasurable.find("planted_finish"), std::string::npos);
  EXPECT_TRUE(loadKernels(rtcuda::readManifest(data + "/planted")).at(0).notMeasurable.empty());
}

TEST(Harness, GeneratesReferenceGlue) {
  rtcuda::Manifest m = rtcuda::readManifest(data + "/planted");
  std::string src = harnessSource(m);
  EXPECT_NE(src.find("extern \"C\" void rtcuda_ref_planted(float *C, const float *A, const float *B, int n);"),
            std::string::npos)
      << src;
  EXPECT_NE(src.find("*(int *)s[3]"), std::string::npos);
  EXPECT_NE(src.find("{\"planted\", glue_planted}"), std::string::npos);
}

TEST(Tune, ModelOnlyPicksWritesAndSaysNothingWasMeasured) {
  fs::path dir = copyPlanted("modelonly");
  TuneOptions o;
  o.outDir = dir.string();
  o.modelOnly = true;
  o.quiet = true;
  o.sizes = {{"n", 1 << 20}};
  testing::internal::CaptureStdout();
  int status = tuneOutput(o);
  std::string out = testing::internal::GetCapturedStdout();
  ASSERT_EQ(status, 0) << out;
  EXPECT_NE(out.find("nothing will be measured"), std::string::npos) << out;
  std::string md = readText(dir / "tuning" / "report.md");
  EXPECT_NE(md.find("Model only: nothing was measured"), std::string::npos);
  for (const char *v : {"BLOCKSIZE=32", "BLOCKSIZE=64", "BLOCKSIZE=96", "BLOCKSIZE=128",
                        "BLOCKSIZE=160", "BLOCKSIZE=256"})
    EXPECT_TRUE(md.find("| " + std::string(v) + " |") != std::string::npos ||
                md.find("| **" + std::string(v) + "** |") != std::string::npos)
        << "every variant is listed: " << v;
  nlohmann::json j = nlohmann::json::parse(readText(dir / "tuning" / "report.json"));
  EXPECT_FALSE(j["measured"].get<bool>());
  const auto &kernel = j["kernels"][0];
  EXPECT_EQ(kernel["variants"].size(), 6u);
  EXPECT_EQ(kernel["chosen_by"], "model");
  std::string chosen = kernel["chosen"];
  std::string header = readText(dir / "planted_params.h");
  EXPECT_NE(header.find("#define PLANTED_BLOCKSIZE " + chosen.substr(chosen.find('=') + 1) + "\n"),
            std::string::npos)
      << header;
  EXPECT_NE(header.find("nothing measured"), std::string::npos);
  // A second run takes the resources from the cache.
  testing::internal::CaptureStdout();
  EXPECT_EQ(tuneOutput(o), 0);
  testing::internal::GetCapturedStdout();
  nlohmann::json again = nlohmann::json::parse(readText(dir / "tuning" / "report.json"));
  EXPECT_EQ(again["kernels"][0]["chosen"], kernel["chosen"]);
}
