// Kernels that read the variable of a host loop around their launch (lu's pivot loop, fdtd-2d's
// time loop): the values they are measured at (the loop's first, middle and last iteration,
// those where the kernel has no work left out), what makes one unmeasurable, the manifest's
// host_loops, and the harness job an end-to-end run writes for one (data/hostloop, with
// data/fake_gpu.py answering for the GPU; the planted wrong variants there need a real GPU).
#include "rtcuda/Tuner/Expr.h"
#include "rtcuda/Support/Files.h"
#include "rtcuda/Tuner/Tuner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

using namespace rtcuda::tune;
namespace fs = std::filesystem;

namespace {

const std::string data = RTCUDA_TUNER_TEST_DATA;

std::string text(const fs::path &p) { return rtcuda::readFile(p.string()); }

// A kernel of lu's shape: launched in `for (c0 = 0; c0 < n - 1; c0++)`, its grid n - c0 - 2.
TuneKernel pivotKernel() {
  TuneKernel k;
  k.k.name = "lu_2";
  k.k.params.resize(2);
  k.k.params[0].name = "n", k.k.params[0].role = "size";
  k.k.params[1].name = "c0", k.k.params[1].role = "host";
  k.k.hostLoops = {{"c0", "int", "0", "n - 1", 1}};
  k.grid = {{"n - c0 - 2", "256", 2147483647}};
  return k;
}

std::vector<long long> values(const std::vector<std::map<std::string, long long>> &samples,
                              const std::string &var) {
  std::vector<long long> out;
  for (const auto &b : samples) out.push_back(b.count(var) ? b.at(var) : -1);
  return out;
}

fs::path copyHostloop(const std::string &tag) {
  fs::path dir = fs::temp_directory_path() / ("rtcuda-tune-hostloop-" + std::to_string(getpid()) + "-" + tag);
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy(data + "/hostloop", dir / "hostloop", fs::copy_options::recursive);
  return dir / "hostloop";
}

}  // namespace

TEST(HostLoop, SamplesAreTheFirstMiddleAndLastIterationWithWork) {
  TuneKernel k = pivotKernel();
  ASSERT_TRUE(readsHostLoop(k));
  // c0 = 4094, the last iteration, leaves lu_2 no work: the host skips that launch.
  auto at = hostSamples(k, {{"n", 4096}});
  EXPECT_EQ(values(at, "c0"), (std::vector<long long>{0, 2047}));
  EXPECT_EQ(at[0].at("n"), 4096);
  EXPECT_EQ(samplesId(k, at), " at c0=0; c0=2047");
  // n = 3: c0 runs over 0 and 1; only c0 = 0 has work.
  EXPECT_EQ(values(hostSamples(k, {{"n", 3}}), "c0"), (std::vector<long long>{0}));
  EXPECT_TRUE(hostSamples(k, {{"n", 2}}).empty());
  // A grid that never empties keeps all three; a loop counting down runs from min towards end.
  k.grid = {{"n", "256", 2147483647}};
  EXPECT_EQ(values(hostSamples(k, {{"n", 4096}}), "c0"), (std::vector<long long>{0, 2047, 4094}));
  k.k.hostLoops = {{"c0", "int", "n - 1", "0", -2}};
  EXPECT_EQ(values(hostSamples(k, {{"n", 10}}), "c0"), (std::vector<long long>{9, 5, 1}));
}

TEST(HostLoop, NestedLoopsTakeTheSamePositionInTheirRange) {
  TuneKernel k = pivotKernel();
  k.k.params[1].name = "i";
  k.k.params.push_back(k.k.params[1]);
  k.k.params[2].name = "j";
  k.k.hostLoops = {{"i", "int", "0", "n", 1}, {"j", "int", "0", "i", 1}};
  k.grid = {{"j + 1", "32", 2147483647}};
  auto at = hostSamples(k, {{"n", 100}});
  // i = 0 leaves j no iteration; i = 50 gives j = 25, i = 99 gives j = 98.
  EXPECT_EQ(values(at, "i"), (std::vector<long long>{50, 99}));
  EXPECT_EQ(values(at, "j"), (std::vector<long long>{25, 98}));
  EXPECT_EQ(samplesId(k, at), " at i=50 j=25; i=99 j=98");
}

TEST(HostLoop, BoundsItCannotEvaluateThrow) {
  TuneKernel k = pivotKernel();
  k.k.hostLoops[0].end = "last";  // a local scalar of the host code
  EXPECT_THROW(hostSamples(k, {{"n", 64}}), ExprError);
  // A kernel that reads no host loop's variable is measured at its sizes alone.
  TuneKernel plain = pivotKernel();
  plain.k.params.pop_back();
  EXPECT_FALSE(readsHostLoop(plain));
  auto at = hostSamples(plain, {{"n", 64}});
  ASSERT_EQ(at.size(), 1u);
  EXPECT_EQ(at[0], (std::map<std::string, long long>{{"n", 64}}));
  EXPECT_EQ(samplesId(plain, at), "");
}

TEST(HostLoop, TheManifestSaysWhichLoopsAndTheTunerWhatItCannotKnow) {
  fs::path dir = copyHostloop("manifest");
  std::vector<TuneKernel> ks = loadKernels(rtcuda::readManifest(dir.string()));
  ASSERT_EQ(ks.size(), 2u);
  ASSERT_EQ(ks[1].k.hostLoops.size(), 1u);
  EXPECT_EQ(ks[1].k.hostLoops[0].end, "steps");
  EXPECT_TRUE(ks[1].notMeasurable.empty()) << ks[1].notMeasurable;
  EXPECT_EQ(ks[1].k.params[2].role, "host");
  // Under an if inside the loops, the values it runs at are unknown: not measured.
  nlohmann::json m = nlohmann::json::parse(text(dir / "manifest.json"));
  m["functions"][0]["outlined_kernels"][1]["host_conditional"] = true;
  std::ofstream(dir / "manifest.json") << m.dump(1);
  ks = loadKernels(rtcuda::readManifest(dir.string()));
  EXPECT_NE(ks[1].notMeasurable.find("an if or a while"), std::string::npos) << ks[1].notMeasurable;
  // A step of 0 or a call in a bound is a malformed manifest.
  m["functions"][0]["outlined_kernels"][1]["host_loops"][0]["step"] = 0;
  std::ofstream(dir / "manifest.json") << m.dump(1);
  EXPECT_THROW(rtcuda::readManifest(dir.string()), rtcuda::ManifestError);
  m["functions"][0]["outlined_kernels"][1]["host_loops"][0]["step"] = 1;
  m["functions"][0]["outlined_kernels"][1]["host_loops"][0]["end"] = "f(steps)";
  std::ofstream(dir / "manifest.json") << m.dump(1);
  EXPECT_THROW(rtcuda::readManifest(dir.string()), rtcuda::ManifestError);
}

TEST(HostLoop, EachSampleIsCheckedAndTimedThroughTheHarnessJob) {
  fs::path dir = copyHostloop("tune");
  std::ofstream(dir / "fake_times.json") << R"({"BLOCKSIZE=32": {"median": 50}})";
  TuneOptions o;
  o.outDir = dir.string();
  o.sizes = {{"n", 1000000}, {"steps", 64}};
  o.harness = data + "/fake_gpu.py";
  o.quiet = true;
  o.jobs = 2;
  o.strategy = Strategy::Exhaustive;
  ASSERT_EQ(tuneOutput(o), 0);
  nlohmann::json report = nlohmann::json::parse(text(dir / "tuning" / "report.json"));
  const auto &k = report["kernels"][1];
  EXPECT_EQ(k["kernel"], "prog_2");
  EXPECT_EQ(k["chosen"], "BLOCKSIZE=32");
  // The loop's first, middle and last values at both sizes (steps <= 64 is not scaled down).
  std::string log = text(dir / "fake_log.txt");
  EXPECT_NE(log.find("reference baseline baseline BLOCKSIZE=256 checked"), std::string::npos) << log;
  EXPECT_NE(log.find("samples check:t=0 check:t=32 check:t=63 target:t=0 target:t=32 target:t=63"),
            std::string::npos) << log;
  // Every launch line has a grid per sample: n = 1000000 at 32 threads is 31250 blocks.
  std::string job = text(dir / "tuning" / "work" / "prog_2.job");
  EXPECT_NE(job.find("scalar int t host"), std::string::npos) << job;
  EXPECT_NE(job.find("PROG_2_BLOCKSIZE=32 grids 3 "), std::string::npos) << job;
  EXPECT_NE(job.find(" 3 31250 1 31250 1 31250 1\n"), std::string::npos) << job;
  std::string table = text(dir / "tuning" / "default-vs-tuned.md");
  EXPECT_NE(table.find("| n=1000000 at t=0; t=32; t=63 |"), std::string::npos) << table;
}
