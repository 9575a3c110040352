// What rtcuda-tune leaves in the output folder: the picked values in each kernel's parameter
// header (so that a plain rebuild uses them), <outdir>/tuning/report.{md,json} with every
// variant, and per kernel <kernel>.svg (its chart) and <kernel>.csv (its variants).
#pragma once

#include "rtcuda/Tuner/Tuner.h"

#include <nlohmann/json.hpp>

#include <string>

namespace rtcuda::tune {

// Rewrites the `#define <macro> <value>` lines of <outDir>/<params_header> for `v` and notes
// why in a comment. Returns false with a message when the header is missing a macro.
bool writeParamsHeader(const std::string &outDir, const TuneKernel &k, const Variant &v,
                       const std::string &why, std::string *error);
// Sets `#define <macro>` (an alternative instantiation's selecting macro) to 0 in the kernel's
// header: the launch then never takes an alternative that failed its check.
bool turnOffAlternatives(const std::string &outDir, const TuneKernel &k, const std::string &macro,
                         std::string *error);

// One row of the table of the default point against the tuned one at the target size.
struct SummaryRow {
  std::string kernel, function, sizes, checkSizes, defaultId, tunedId, decision;
  std::string defaultLaunch, tunedLaunch;  // the alternative each runs at the target size, if any
  double defaultUs = -1, tunedUs = -1;  // medians at the target size (-1: not timed)
  double seconds = 0;
};
std::vector<SummaryRow> summaryRows(const TuneRun &run);
// The table (markdown), also written to <outDir>/tuning/default-vs-tuned.md.
std::string summaryMarkdown(const std::vector<SummaryRow> &rows);

nlohmann::json reportJson(const TuneRun &run);
std::string reportMarkdown(const TuneRun &run);
// One row per variant: its parameter values, the model's prediction, resources, occupancy and
// the measurement, whether it was picked or is the default.
std::string reportCsv(const TuneRun &run, const KernelResult &kr);
// The chart of one kernel (see rtcuda/Support/TuningChart.h) as an SVG file's text, from
// `report` = reportJson(run).
std::string reportSvg(const TuneRun &run, const nlohmann::json &report, const KernelResult &kr);
// Writes them all into <outDir>/tuning/.
void writeReports(const TuneRun &run);

}  // namespace rtcuda::tune
