// What rtcuda-tune leaves in the output folder: the picked values in each kernel's parameter
// header (so that a plain rebuild uses them) and <outdir>/tuning/report.{md,json} with every
// variant.
#pragma once

#include "rtcuda/Tuner/Tuner.h"

#include <nlohmann/json.hpp>

#include <string>

namespace rtcuda::tune {

// Rewrites the `#define <macro> <value>` lines of <outDir>/<params_header> for `v` and notes
// why in a comment. Returns false with a message when the header is missing a macro.
bool writeParamsHeader(const std::string &outDir, const TuneKernel &k, const Variant &v,
                       const std::string &why, std::string *error);

nlohmann::json reportJson(const TuneRun &run);
std::string reportMarkdown(const TuneRun &run);
// Writes both into <outDir>/tuning/.
void writeReports(const TuneRun &run);

}  // namespace rtcuda::tune
