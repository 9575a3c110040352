// The new tuner logic on made-up numbers: successive halving's rounds, the decision against the
// default point under noise (a variant that is not really faster never replaces it; one that
// fails its check never wins), the ETA's arithmetic, the checking sizes, and the kernels of
// an outlined function with what is skipped and why.
#include "rtcuda/Tuner/Alternatives.h"
#include "rtcuda/Tuner/Selection.h"
#include "rtcuda/Tuner/Space.h"
#include "rtcuda_tune_stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <unistd.h>
#include <fstream>
#include <filesystem>
#include <cmath>
#include <random>

using namespace rtcuda::tune;

namespace {

const std::string data = RTCUDA_TUNER_TEST_DATA;

// `reps` runs of a kernel whose true time is `us`: Gaussian noise of relative size `sigma`
// and, now and then, a run three times slower (another process, a clock change).
Measurement measured(double us, double sigma, int reps, std::mt19937 &rng) {
  std::normal_distribution<double> noise(0, sigma);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) t.push_back(us * (1 + noise(rng)) * (u(rng) < 0.05 ? 3 : 1));
  std::sort(t.begin(), t.end());
  // The harness' own statistics, so the decision is tested on what it would report.
  rtcuda_tune::Stats s = rtcuda_tune::stats(t);
  Measurement m;
  m.status = "ok";
  m.verified = true;
  m.timesUs = t;
  m.medianUs = s.median, m.q1Us = s.q1, m.q3Us = s.q3, m.minUs = s.min, m.maxUs = s.max;
  return m;
}

}  // namespace

// The quartiles interpolate linearly between order statistics (numpy's default), whatever the
// order of the runs.
TEST(Selection, HarnessStatistics) {
  rtcuda_tune::Stats odd = rtcuda_tune::stats({5, 1, 3, 2, 4});
  EXPECT_DOUBLE_EQ(odd.median, 3);
  EXPECT_DOUBLE_EQ(odd.q1, 2);
  EXPECT_DOUBLE_EQ(odd.q3, 4);
  EXPECT_DOUBLE_EQ(odd.min, 1);
  EXPECT_DOUBLE_EQ(odd.max, 5);
  rtcuda_tune::Stats even = rtcuda_tune::stats({4, 3, 2, 1});
  EXPECT_DOUBLE_EQ(even.median, 2.5);
  EXPECT_DOUBLE_EQ(even.q1, 1.75);
  EXPECT_DOUBLE_EQ(even.q3, 3.25);
  rtcuda_tune::Stats one = rtcuda_tune::stats({7});
  EXPECT_DOUBLE_EQ(one.median, 7);
  EXPECT_DOUBLE_EQ(one.q1, 7);
  EXPECT_DOUBLE_EQ(one.q3, 7);
  EXPECT_DOUBLE_EQ(rtcuda_tune::stats({}).median, 0);
}

TEST(Selection, RoundsHalveAndEndWithTheFullRepetitions) {
  auto rounds = planRounds(256, 20, 2);
  ASSERT_EQ(rounds.size(), 4u);
  EXPECT_EQ(rounds[0].keep, 0u);  // every candidate
  EXPECT_EQ(rounds[0].reps, 3);
  EXPECT_FALSE(rounds[0].final);
  EXPECT_EQ(rounds[1].keep, 64u);
  EXPECT_EQ(rounds[2].keep, 16u);
  EXPECT_LT(rounds[1].reps, rounds[2].reps);
  EXPECT_EQ(rounds[3].keep, 3u);
  EXPECT_EQ(rounds[3].reps, 20);
  EXPECT_EQ(rounds[3].warmup, 2);
  EXPECT_TRUE(rounds[3].final);
  auto small = planRounds(6, 20, 2);  // small spaces: everything in full, once
  ASSERT_EQ(small.size(), 1u);
  EXPECT_TRUE(small[0].final);
  EXPECT_EQ(small[0].reps, 20);
  EXPECT_EQ(planRounds(32, 20, 2).size(), 3u);  // 32, 8, 3 + default
  EXPECT_EQ(planRounds(1024, 20, 2).size(), 5u);
}

TEST(Selection, AVariantThatFailedItsCheckNeverWins) {
  std::mt19937 rng(3);
  Measurement ok = measured(100, 0.01, 20, rng), fast = measured(50, 0.01, 20, rng);
  Measurement wrong = fast, slow = fast, crash = Measurement::failure("crash", "trap");
  wrong.status = "wrong", wrong.verified = false;
  slow.status = "slow";
  Measurement unverified = fast;
  unverified.verified = false;
  std::vector<std::pair<size_t, Measurement>> finals = {
      {0, ok}, {1, wrong}, {2, slow}, {3, crash}, {4, unverified}};
  Decision d = decide(finals, 0);
  EXPECT_EQ(d.chosen, 0);
  EXPECT_TRUE(d.keptDefault);
  EXPECT_EQ(survivors(finals, 3), std::vector<size_t>{0});
  // Nothing verified: nothing is chosen (the tuner keeps the default and says so).
  EXPECT_EQ(decide({{1, wrong}, {3, crash}}, 0).chosen, -1);
  // Without a usable default, the fastest verified variant.
  Decision noDefault = decide({{1, wrong}, {5, ok}}, 1);
  EXPECT_EQ(noDefault.chosen, 5);
  EXPECT_NE(noDefault.why.find("default point failed"), std::string::npos) << noDefault.why;
}

TEST(Selection, NeverReplacesTheDefaultWithASlowerPointUnderNoise) {
  std::mt19937 rng(2026);
  std::uniform_real_distribution<double> share(-0.3, 0.3);
  int keptWhenEqual = 0, equalTrials = 0, fasterFound = 0, fasterTrials = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    double sigma = 0.005 + 0.03 * (trial % 7) / 6;  // 0.5% to 3.5% noise per run
    int kind = trial % 3;  // 0: all equal, 1: random, 2: one 20% faster
    std::vector<double> truth = {100};  // index 0 is the default point
    for (int v = 1; v < 9; ++v)
      truth.push_back(kind == 0 ? 100 : kind == 1 ? 100 * (1 + share(rng)) : 100 * (1 + std::fabs(share(rng)) / 3));
    if (kind == 2) truth[5] = 80;
    std::vector<std::pair<size_t, Measurement>> finals;
    for (size_t v = 0; v < truth.size(); ++v) finals.push_back({v, measured(truth[v], sigma, 20, rng)});
    Decision d = decide(finals, 0);
    ASSERT_GE(d.chosen, 0);
    const Measurement &picked = finals[size_t(d.chosen)].second, &def = finals[0].second;
    // Measured: the pick is never slower than the default in the same run.
    EXPECT_LE(picked.medianUs, def.medianUs);
    // True times: a pick never costs more than 1% over the default.
    EXPECT_LE(truth[size_t(d.chosen)], truth[0] * 1.01)
        << "trial " << trial << " picked " << d.chosen << ": " << d.why;
    if (kind == 0) ++equalTrials, keptWhenEqual += d.keptDefault;
    if (kind == 2) ++fasterTrials, fasterFound += d.chosen == 5;
  }
  EXPECT_GE(keptWhenEqual, equalTrials * 95 / 100) << "equal points: the default stays";
  EXPECT_GE(fasterFound, fasterTrials * 99 / 100) << "a point 20% faster replaces it";
}

TEST(Selection, EtaArithmetic) {
  EtaInput in;
  in.rounds = {{0, 3, 0, false}, {3, 20, 2, true}};
  in.counts = {100, 4};
  EXPECT_EQ(etaSeconds(in), -1);  // nothing known before the first variant
  in.done = 25;
  in.roundSeconds = 10;  // 0.4 s a variant
  in.meanUs = 1000;      // 5 runs of 1 ms in round 1: 0.395 s overhead a variant
  in.startSeconds = 1;
  // 75 left at 0.4 s, then a harness start and 4 variants of 0.395 s + 24 runs of 1 ms.
  EXPECT_NEAR(etaSeconds(in), 75 * 0.4 + 1 + 4 * (0.395 + 0.024), 1e-9);
  in.round = 1;
  in.done = 2;
  in.roundSeconds = 1;
  EXPECT_NEAR(etaSeconds(in), 2 * 0.5, 1e-9);  // the last round: its own rate only
  EXPECT_EQ(formatEta(65), "1:05");
  EXPECT_EQ(formatEta(12.4), "12 s");
  EXPECT_EQ(formatEta(-1), "?");
}

TEST(Space, CheckSizesAreSmallOddAndLeaveSmallTargetsAlone) {
  rtcuda::Manifest m = rtcuda::readManifest(data + "/planted");
  TuneKernel k = loadKernels(m).at(0);  // arrays of n elements
  auto small = checkSizes(k, {{"n", 1000}});
  EXPECT_EQ(small.at("n"), 1000);
  auto check = checkSizes(k, {{"n", 10000000}});
  EXPECT_LE(check.at("n"), 1 << 18);
  EXPECT_GT(check.at("n"), 1 << 16);
  EXPECT_EQ(check.at("n") % 2, 1);
  // Fixed extents (PolyBench's arrays): the two largest sizes stand for a 2-D array.
  k.k.params[0].elements = "720000";
  k.k.params[1].elements = "720000";
  k.k.params[2].elements = "720000";
  EXPECT_TRUE(hasFixedExtent(k.k.params[0]));
  auto fixed = checkSizes(k, {{"n", 800}, {"m", 900}, {"t", 20}});
  EXPECT_LE(fixed.at("n") * fixed.at("m"), 1 << 18);
  EXPECT_EQ(fixed.at("t"), 20);  // small sizes stay
  EXPECT_EQ(fixed.at("n") % 2, 1);
  // Extents equal to target sizes stand for those sizes: mvt's A[8192][8192] with only n=8192,
  // doitgen's A[256][256][256] with np = nq = nr = 256.
  k.k.params[0].dims = {"8192", "8192"};
  k.k.params[0].elements = "67108864";
  auto square = checkSizes(k, {{"n", 8192}});
  EXPECT_LE(square.at("n") * square.at("n"), 1 << 18);
  EXPECT_EQ(square.at("n") % 2, 1);
  k.k.params[0].dims = {"256", "256", "256"};
  k.k.params[0].elements = "16777216";
  auto cube = checkSizes(k, {{"np", 256}, {"nq", 256}, {"nr", 256}});
  EXPECT_LE(cube.at("np") * cube.at("nq") * cube.at("nr"), 1 << 18);
  EXPECT_EQ(cube.at("nr"), 63);
}

// A size whose loops index a dimension of constant extent (manifest "at_most"; rtcuda verify
// caps its sizes there) is never checked, nor by default targeted, past that extent.
TEST(Space, CheckAndDefaultSizesStayWithinAtMost) {
  rtcuda::Manifest m = rtcuda::readManifest(data + "/planted");
  TuneKernel k = loadKernels(m).at(0);  // arrays of n elements
  ASSERT_EQ(k.k.params[3].name, "n");
  k.k.params[3].atMost = 1001;
  auto scaled = checkSizes(k, {{"n", 10000000}});  // scaled down to ~2^18, then capped
  EXPECT_EQ(scaled.at("n"), 1001);
  auto small = checkSizes(k, {{"n", 5000}});  // small enough to check at the target: capped
  EXPECT_EQ(small.at("n"), 1001);
  k.k.params[3].atMost = 9000000;  // over the scaled size: the scaled size stays
  EXPECT_EQ(checkSizes(k, {{"n", 10000000}}).at("n"), checkSizes(loadKernels(m).at(0), {{"n", 10000000}}).at("n"));
  m.dir = "/nonexistent";  // no main.c: the default target (2^22) is capped too
  k.k.params[3].atMost = 777;
  std::map<std::string, std::string> origin;
  EXPECT_EQ(chooseSizes(m, k, {}, &origin).at("n"), 777);
  EXPECT_EQ(chooseSizes(m, k, {{"n", 5000}}, &origin).at("n"), 5000);  // given: refused by the tuner
}

// The launch's rule as the tuner evaluates it: manifest.json's launch_choice (the expression
// LaunchFunction.cpp's launchChoice writes and launch.cuh returns), with the point's macros, the
// selector and the SM count. Small grids: an alternative only for a grid smaller than the SM
// count, the one with the most blocks not passing it; a forced value names its alternative.
// Index width: the 64-bit kernel where a bound passes 2^31 - 1, or always with 2.
TEST(Space, TheLaunchRuleIsTheManifestsLaunchChoice) {
  rtcuda::Manifest m = rtcuda::readManifest(data + "/planted");
  TuneKernel k = loadKernels(m).at(0);  // grid: n iterations, PLANTED_BLOCKSIZE per block
  auto alt = [](const std::string &name, const std::string &rule, int value, int perBlock) {
    rtcuda::ManifestAlternative a;
    a.name = name, a.rule = rule, a.selectMacro = rule == "small_grid" ? "SG" : "WIDE";
    a.selectValue = value;
    a.gridIterations = {"n"}, a.gridPerBlock = {std::to_string(perBlock)}, a.gridMaxBlocks = {2147483647};
    a.blockThreads = "128";
    return a;
  };
  k.k.alternatives = {alt("sg", "small_grid", 2, 1024), alt("sg2", "small_grid", 3, 512)};
  EXPECT_EQ(launchedAlternative(k, {{"n", 20000}}, {256}, 1, 132), -1);  // no launch_choice
  // As launchChoice writes it for these two alternatives.
  const std::string b0 = "rtcuda_ceil_div((long long)n, 1024)", b1 = "rtcuda_ceil_div((long long)n, 512)";
  k.k.launchChoice = "(SG >= 2 ? SG - 2 : (SG == 1 && rtcuda_ceil_div((long long)n, PLANTED_BLOCKSIZE)"
                     " < rtcuda_sms) ? ((" + b0 + " <= rtcuda_sms && " + b0 + " > 0 && !(" + b1 +
                     " <= rtcuda_sms && " + b1 + " > " + b0 + ")) ? 0 : (" + b1 + " <= rtcuda_sms && " +
                     b1 + " > 0 && !(" + b0 + " <= rtcuda_sms && " + b0 + " >= " + b1 + ")) ? 1 : -1) : -1)";
  // n = 20000: sg 20 blocks, sg2 40: both fit 132 SMs, sg2 fills more.
  EXPECT_EQ(launchedAlternative(k, {{"n", 40000}}, {256}, 1, 132), -1);  // 157 blocks: its own
  EXPECT_EQ(launchedAlternative(k, {{"n", 20000}}, {256}, 1, 132), 1);   // 79 blocks < 132
  EXPECT_EQ(launchedAlternative(k, {{"n", 40000}}, {128}, 1, 132), -1);  // 313 blocks: its own
  EXPECT_EQ(launchedAlternative(k, {{"n", 100000}}, {1024}, 1, 132), 0); // 98 blocks; sg2's 196 too many
  EXPECT_EQ(launchedAlternative(k, {{"n", 20000}}, {256}, 0, 132), -1);  // 0: never
  EXPECT_EQ(launchedAlternative(k, {{"n", 40000}}, {128}, 2, 132), 0);   // 2: always sg
  EXPECT_EQ(launchedAlternative(k, {{"n", 40000}}, {128}, 3, 132), 1);   // 3: always sg2
  EXPECT_EQ(launchedAlternative(k, {{"n", 40000}}, {128}, 4, 132), -1);  // names none
  EXPECT_EQ(launchedAlternative(k, {{"n", 20000}}, {256}, 1, 16), -1);   // 16 SMs: 79 blocks fill them
  // The 64-bit instantiation: where n * BLOCKSIZE passes 2^31 - 1 (a made-up bound).
  k.k.alternatives = {alt("wide", "index_width", 2, 1)};
  k.k.launchChoice = "(WIDE == 2 || (WIDE == 1 && !((long long)n * PLANTED_BLOCKSIZE <= 2147483647LL)))"
                     " ? 0 : -1";
  EXPECT_EQ(launchedAlternative(k, {{"n", 1000}}, {256}, 1, 132), -1);
  EXPECT_EQ(launchedAlternative(k, {{"n", 10000000}}, {256}, 1, 132), 0);
  EXPECT_EQ(launchedAlternative(k, {{"n", 10000000}}, {128}, 1, 132), -1);  // fits at 128
  EXPECT_EQ(launchedAlternative(k, {{"n", 1000}}, {256}, 2, 132), 0);       // 2: always
  EXPECT_EQ(launchedAlternative(k, {{"n", 10000000}}, {256}, 0, 132), -1);  // 0: never
}

// A split instantiation's chunks of k (CodeGen's splitCount) are its grid[1] in the manifest,
// over <NAME>_SPLIT_K as the header sets it and the SM count (launchNames): the harness launches
// the grid the program's launch computes. Here a made-up rule: SPLIT_K >= 2 that many, 1 the SMs
// over the tiles, 0 one.
TEST(Space, ASplitAlternativesSecondGridDimensionIsTheLaunchsChunks) {
  rtcuda::Manifest m = rtcuda::readManifest(data + "/planted");
  TuneKernel k = loadKernels(m).at(0);
  rtcuda::ManifestAlternative a;
  a.name = "sg", a.selectMacro = "SG", a.selectValue = 2, a.splitMacro = "PLANTED_SPLIT_K";
  a.gridIterations = {"n", "PLANTED_SPLIT_K >= 2 ? PLANTED_SPLIT_K : PLANTED_SPLIT_K == 1 ? "
                           "rtcuda_max(1, rtcuda_sms / rtcuda_ceil_div(n, 1024)) : 1"};
  a.gridPerBlock = {"1024", "1"}, a.gridMaxBlocks = {2147483647, 65535};
  a.blockThreads = "256";
  k.k.alternatives = {a};
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("rtcuda-split-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto chunks = [&](const std::string &header, long long n, long long sms) {
    std::ofstream(dir / k.k.paramsHeader) << header;
    Variant v;
    TuneKernel ak = alternativeKernel(k, a, &v);
    std::map<std::string, long long> sizes{{"n", n}};
    for (const auto &[name, value] : launchNames(dir.string(), k, sms)) sizes.emplace(name, value);
    Geometry g = geometry(ak, sizes, v);
    EXPECT_EQ(g.blocks[0], (n + 1023) / 1024);
    return g.blocks[1];
  };
  EXPECT_EQ(chunks("#define PLANTED_SPLIT_K 1\n", 20000, 132), 6);   // 20 tiles: 132 / 20
  EXPECT_EQ(chunks("#define PLANTED_SPLIT_K 1\n", 20000, 16), 1);    // 16 SMs
  EXPECT_EQ(chunks("", 20000, 132), 6);                                // no macro: its default 1
  EXPECT_EQ(chunks("#define PLANTED_SPLIT_K 0\n", 20000, 132), 1);
  EXPECT_EQ(chunks("#define PLANTED_SPLIT_K 5\n", 20000, 132), 5);
  std::filesystem::remove_all(dir);
}

TEST(Space, OutlinedKernelsAreEnumeratedWithWhatIsSkipped) {
  rtcuda::Manifest m = rtcuda::readManifest(data + "/outlined");
  ASSERT_EQ(m.functions.size(), 1u);
  ASSERT_EQ(m.functions[0].outlined.size(), 3u);
  std::vector<TuneKernel> ks = loadKernels(m);
  ASSERT_EQ(ks.size(), 3u);
  for (const TuneKernel &k : ks) EXPECT_EQ(k.function, "prog");
  EXPECT_EQ(ks[0].k.name, "prog_1");
  EXPECT_TRUE(ks[0].notMeasurable.empty()) << ks[0].notMeasurable;
  EXPECT_EQ(ks[0].grid.size(), 1u);
  EXPECT_EQ(ks[0].blockThreads, "PROG_1_BLOCKSIZE");
  EXPECT_EQ(enumerateSpace(ks[0]).size(), 10u);
  // `steps` is a parameter of the function (a value): random, as for any kernel.
  EXPECT_EQ(ks[0].k.params[1].role, "value");
  EXPECT_NE(ks[1].notMeasurable.find("'t'"), std::string::npos) << ks[1].notMeasurable;
  EXPECT_NE(ks[1].notMeasurable.find("host"), std::string::npos);
  EXPECT_NE(ks[2].notMeasurable.find("no tuning parameters"), std::string::npos) << ks[2].notMeasurable;
}
