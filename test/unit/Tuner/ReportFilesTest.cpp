// The per-kernel files of rtcuda-tune's report on made-up measurements (no GPU): the CSV holds
// every variant with its values, prediction and measurement, and marks the pick; the SVG chart
// is well-formed XML (python3's parser), draws each verified variant once at (prediction,
// median) and rings the picked one at its point.
#include "rtcuda/Support/Process.h"
#include "rtcuda/Tuner/Report.h"
#include "rtcuda/Tuner/Tuner.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <unistd.h>

using namespace rtcuda::tune;
namespace fs = std::filesystem;

namespace {

struct MadeUp {
  TuneKernel kernel;
  TuneRun run;
};

// Kernel "mm" with BLOCKSIZE x MERGE_LEVEL; five variants: three measured and verified, one
// that computed a wrong result, one infeasible. The fastest verified one (index 1) is picked;
// index 0 is the default.
void makeRun(MadeUp &m, bool measured) {
  m.kernel.k.name = "mm";
  m.kernel.k.tuning = {{"BLOCKSIZE", "MM_BLOCKSIZE", {64, 128, 256}, 128},
                       {"MERGE_LEVEL", "MM_MERGE_LEVEL", {1, 2}, 1}};
  m.run.options.outDir = "out/mm";
  m.run.device.name = "Made-up GPU";
  m.run.measured = measured;
  KernelResult kr;
  kr.kernel = &m.kernel;
  struct Row { int bs, ml; double units, predUs, median; const char *status; bool feasible; };
  const Row rows[] = {{128, 1, 40, 400, 410, "ok", true},
                      {256, 2, 20, 200, 190, "ok", true},
                      {64, 1, 60, 600, 650, "ok", true},
                      {64, 2, 30, 300, 0, "wrong", true},
                      {256, 1, 0, 0, 0, "", false}};
  int rank = 1;
  for (const Row &r : rows) {
    VariantRecord v;
    v.v = {r.bs, r.ml};
    v.id = "BLOCKSIZE=" + std::to_string(r.bs) + ",MERGE_LEVEL=" + std::to_string(r.ml);
    v.feasible = r.feasible;
    v.pred.units = r.units;
    v.predictedUs = measured ? r.predUs : 0;
    v.geo.threads = r.bs;
    if (!r.feasible) v.excluded = "shared memory: 70000 bytes, more than \"48 KB\", per block";
    else v.rank = rank++;
    if (measured && r.feasible) {
      Measurement me;
      me.status = r.status;
      if (me.status == "ok") {
        me.timesUs = {r.median - 1, r.median, r.median + 2};
        me.medianUs = r.median, me.minUs = r.median - 1, me.maxUs = r.median + 2;
        me.q1Us = r.median - 1, me.q3Us = r.median + 1, me.verified = true;
      } else {
        me.reason = "element 7 differs";
      }
      v.meas = me;
    }
    kr.variants.push_back(v);
  }
  kr.chosen = 1;
  kr.defaultIndex = 0;
  kr.chosenBy = measured ? "measured" : "model";
  m.run.kernels.push_back(kr);
}

std::vector<std::string> lines(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The dot drawn for variant `id`: {cx, cy}, or empty strings when there is none.
std::pair<std::string, std::string> dotOf(const std::string &svg, const std::string &id) {
  std::smatch m;
  std::regex dot("<circle cx=\"([0-9.]+)\" cy=\"([0-9.]+)\" r=\"3\"[^>]*><title>" +
                 std::regex_replace(id, std::regex("[=,]"), "[$&]") + ":");
  if (!std::regex_search(svg, m, dot)) return {"", ""};
  return {m[1], m[2]};
}

// Circles of radius 3 with a title: the variants (the legend's dot has no title).
size_t variantDots(const std::string &svg) {
  std::regex dot("<circle [^>]*r=\"3\"[^>]*><title>");
  return size_t(std::distance(std::sregex_iterator(svg.begin(), svg.end(), dot), std::sregex_iterator()));
}

}  // namespace

TEST(ReportFiles, CsvHasEveryVariantAndMarksThePick) {
  MadeUp m;
  makeRun(m, true);
  auto rows = lines(reportCsv(m.run, m.run.kernels[0]));
  ASSERT_EQ(rows.size(), 6u);  // header + 5 variants
  EXPECT_EQ(rows[0].rfind("variant,MM_BLOCKSIZE,MM_MERGE_LEVEL,picked,default,feasible,excluded,", 0), 0u)
      << rows[0];
  // Picked, not the default, feasible, rank 2, its prediction and median.
  EXPECT_EQ(rows[2].rfind("\"BLOCKSIZE=256,MERGE_LEVEL=2\",256,2,yes,no,yes,,2,20.0000,200.000,", 0), 0u)
      << rows[2];
  EXPECT_NE(rows[2].find(",ok,yes,190.000,189.000,192.000,"), std::string::npos) << rows[2];
  EXPECT_EQ(rows[1].rfind("\"BLOCKSIZE=128,MERGE_LEVEL=1\",128,1,no,yes,", 0), 0u) << rows[1];
  EXPECT_NE(rows[4].find(",wrong,no,,,,,"), std::string::npos) << rows[4];
  // A reason with commas and quotes is one quoted field.
  EXPECT_NE(rows[5].find(",no,\"shared memory: 70000 bytes, more than \"\"48 KB\"\", per block\","),
            std::string::npos)
      << rows[5];
  // Every row has as many fields as the header, outside quotes.
  auto fields = [](const std::string &row) {
    size_t n = 1;
    bool quoted = false;
    for (char c : row) {
      if (c == '"') quoted = !quoted;
      else if (c == ',' && !quoted) ++n;
    }
    return n;
  };
  for (const std::string &r : rows) EXPECT_EQ(fields(r), fields(rows[0])) << r;
}

TEST(ReportFiles, SvgMarksThePickedPointAndIsWellFormed) {
  MadeUp m;
  makeRun(m, true);
  nlohmann::json report = reportJson(m.run);
  std::string svg = reportSvg(m.run, report, m.run.kernels[0]);
  // The three verified variants are drawn, the wrong and the infeasible ones are not.
  size_t dots = variantDots(svg);
  EXPECT_EQ(dots, 3u);
  EXPECT_EQ(dotOf(svg, "BLOCKSIZE=64,MERGE_LEVEL=2").first, "");
  // The ring is at the picked variant's dot, which lies lowest (fastest) and leftmost.
  auto picked = dotOf(svg, "BLOCKSIZE=256,MERGE_LEVEL=2");
  auto slow = dotOf(svg, "BLOCKSIZE=64,MERGE_LEVEL=1");
  ASSERT_NE(picked.first, "");
  EXPECT_NE(svg.find("<circle class=\"picked-point\" cx=\"" + picked.first + "\" cy=\"" +
                     picked.second + "\""),
            std::string::npos)
      << svg;
  EXPECT_LT(std::stod(picked.first), std::stod(slow.first));
  EXPECT_GT(std::stod(picked.second), std::stod(slow.second));  // SVG's y grows downwards
  EXPECT_NE(svg.find("<title>default: BLOCKSIZE=128,MERGE_LEVEL=1</title></rect>"), std::string::npos);
  EXPECT_NE(svg.find("measured median (us)"), std::string::npos);
  EXPECT_NE(svg.find(">mm: measured on Made-up GPU</text>"), std::string::npos);
  EXPECT_NE(svg.find(">picked: BLOCKSIZE=256,MERGE_LEVEL=2</text>"), std::string::npos);
  EXPECT_NE(svg.find("class=\"prediction-line\""), std::string::npos);

  // Well-formed XML, by python3's parser, whose root is an SVG element.
  if (rtcuda::findProgram("python3").empty()) GTEST_SKIP() << "no python3 to parse the SVG";
  fs::path dir = fs::temp_directory_path() / ("rtcuda-report-files-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "mm.svg") << svg;
  std::string out;
  int status = rtcuda::runProcess(
      {"python3", "-c",
       "import sys, xml.etree.ElementTree as E\n"
       "root = E.parse(sys.argv[1]).getroot()\n"
       "ns = '{http://www.w3.org/2000/svg}'\n"
       "assert root.tag == ns + 'svg', root.tag\n"
       "print(len([c for c in root.iter(ns + 'circle') if c.get('class') == 'picked-point']))\n",
       (dir / "mm.svg").string()},
      {{}, "", &out});
  fs::remove_all(dir);
  EXPECT_EQ(status, 0) << out;
  EXPECT_EQ(out, "1\n");
}

TEST(ReportFiles, ModelOnlyChartsRankAgainstPrediction) {
  MadeUp m;
  makeRun(m, false);
  std::string svg = reportSvg(m.run, reportJson(m.run), m.run.kernels[0]);
  size_t dots = variantDots(svg);
  EXPECT_EQ(dots, 4u);  // every feasible variant
  EXPECT_NE(svg.find("model's rank (1 = best)"), std::string::npos);
  EXPECT_NE(svg.find("mm: model only, for Made-up GPU"), std::string::npos);
  EXPECT_EQ(svg.find("class=\"prediction-line\""), std::string::npos);  // no times to compare
  auto picked = dotOf(svg, "BLOCKSIZE=256,MERGE_LEVEL=2");
  EXPECT_NE(svg.find("class=\"picked-point\" cx=\"" + picked.first + "\" cy=\"" + picked.second), std::string::npos);
  auto rows = lines(reportCsv(m.run, m.run.kernels[0]));
  EXPECT_NE(rows[1].find(",not run,,,,,,no"), std::string::npos) << rows[1];
}

TEST(ReportFiles, WrittenBesideTheReport) {
  MadeUp m;
  makeRun(m, true);
  fs::path dir = fs::temp_directory_path() / ("rtcuda-report-dir-" + std::to_string(getpid()));
  fs::remove_all(dir);
  m.run.options.outDir = dir.string();
  writeReports(m.run);
  EXPECT_TRUE(fs::exists(dir / "tuning" / "mm.svg"));
  EXPECT_TRUE(fs::exists(dir / "tuning" / "mm.csv"));
  std::ifstream md(dir / "tuning" / "report.md");
  std::stringstream ss;
  ss << md.rdbuf();
  EXPECT_NE(ss.str().find("](mm.svg)"), std::string::npos);
  EXPECT_NE(ss.str().find("[mm.csv](mm.csv)"), std::string::npos);
  fs::remove_all(dir);
}
