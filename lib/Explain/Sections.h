// The sections of one kernel's part of the report (Report.cpp assembles them).
#pragma once

#include "Html.h"

#include "rtcuda/Explain/Explain.h"

#include <nlohmann/json.hpp>

namespace rtcuda::explain {

struct KernelView {
  const LoweredKernel *lowered = nullptr;
  const KernelSource *source = nullptr;
  const std::vector<StepSnapshot> *steps = nullptr;
  const nlohmann::json *tuning = nullptr;  // this kernel's entry of report.json, or null
  const nlohmann::json *tuningRun = nullptr;  // the whole report.json, or null
  std::string id;                          // HTML id prefix ("k-mm")
};

// The step snapshot of `step`, or null.
const StepSnapshot *findStep(const KernelView &k, const std::string &step);

void sourceSection(Html &h, const KernelView &k, const ExplainInput &in);
void pipelineSection(Html &h, const KernelView &k, const ExplainInput &in);
void mappingSection(Html &h, const KernelView &k);
void tuningSection(Html &h, const KernelView &k, const ExplainInput &in);
void hostSection(Html &h, const KernelView &k, const ExplainInput &in);

// Pass documentation embedded at build time (docs/passes/<name>.md): its first paragraph and
// its "When it applies" paragraph, as HTML; empty when the page or paragraph is missing.
std::string passDocParagraph(const std::string &pass);
std::string passWhenItApplies(const std::string &pass);
bool passHasDoc(const std::string &pass);

}  // namespace rtcuda::explain
