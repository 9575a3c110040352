// The tuning chart: one kernel of rtcuda-tune's report (tuning/report.json) as an SVG scatter
// chart, each variant's measured median against the model's prediction (after --model-only:
// predicted time against the model's rank), the picked point ringed and the default boxed.
// rtcuda-tune writes it as tuning/<kernel>.svg; rtcuda explain draws it in its report.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace rtcuda {

struct ChartPoint {
  std::string id;   // the variant, "BLOCKSIZE=256,MERGE_LEVEL=2"
  double x = 0, y = 0;
  int rank = 0;     // the model's rank, 1 = best predicted
};

struct TuningChart {
  bool measured = false;
  bool fitted = false;             // measured, and predictions in us: a y = x line is drawn
  std::string xName, yName;
  std::string picked, defaultId;   // variant ids ("" when none)
  std::vector<ChartPoint> points;  // the best-ranked ones when there are very many
  size_t drawable = 0;             // points before that cut
};

// The points of `kernel` (an entry of report["kernels"]); `report` says whether it was measured.
// Measured: every feasible variant that ran and was verified, at (predicted us, or model units
// when no time was fitted; measured median us). Model only: every feasible variant at (rank,
// model units). At most `maxPoints`, the best-ranked, plus the picked and default ones.
TuningChart tuningChart(const nlohmann::json &report, const nlohmann::json &kernel,
                        size_t maxPoints = 1500);

// The chart as an <svg> element (inline in HTML, or a file's content after an XML declaration).
// `title`, when given, is drawn above the plot with a legend of the marks (for a file that has
// no caption around it). The picked point is a circle of class "picked-point", the default a
// rect of class "default-point"; each point is a circle with a <title> naming its variant.
std::string tuningChartSvg(const TuningChart &chart, const std::string &title = "");

// Text escaped for XML (and HTML) element content and attribute values in double quotes.
std::string xmlEscape(const std::string &text);

}  // namespace rtcuda
