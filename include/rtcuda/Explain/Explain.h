// rtcuda explain: one self-contained HTML page (inline CSS and SVG, no network) that shows, per
// kernel, what the analysis decided about each loop, what every pipeline step changed and why,
// how iterations map onto blocks and threads, the tuning space (and rtcuda-tune's results),
// and what the host copies when. docs/explain.md.
#pragma once

#include "rtcuda/CodeGen/CodeGen.h"
#include "rtcuda/Transforms/Pipeline.h"

#include <map>
#include <string>
#include <vector>

namespace rtcuda::explain {

// The kernel as one pipeline step left it (DumpOptions::observe).
struct StepSnapshot {
  std::string step, summary;
  ir::Kernel kernel;
};

struct ExplainInput {
  std::string title;                          // the config, as the user named it
  const Options *options = nullptr;
  const ParsedProgram *program = nullptr;
  const std::vector<KernelSource> *sources = nullptr;  // what was lowered (null: the program's)
  const std::vector<LoweredKernel> *kernels = nullptr;
  std::map<std::string, std::vector<StepSnapshot>> steps;  // by kernel name, in order
  HostSummary host;
  std::string tuningReport;      // text of tuning/report.json, or empty
  std::string tuningReportName;  // where it was read, for the page
  std::string docsHref;          // the docs folder relative to the report ("../docs")
  std::string kernelCu;          // the generated kernel.cu, shown at the end of each kernel
};

// The page; throws std::runtime_error when the tuning report is not valid JSON.
std::string renderReport(const ExplainInput &in);

}  // namespace rtcuda::explain
