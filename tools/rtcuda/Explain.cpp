// `rtcuda explain <config or output folder> -o report.html`: the translation in memory, then
// the HTML report (lib/Explain, docs/explain.md). translate --explain uses the same recorder.
#include "CommandLine.h"
#include "Commands.h"
#include "Paths.h"

#include "rtcuda/Frontend/Frontend.h"
#include "rtcuda/HostRewrite/HostRewrite.h"
#include "rtcuda/Support/Files.h"

#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

namespace rtcuda {

namespace fs = std::filesystem;

namespace {

const char *kGenerator = "<meta name=\"generator\" content=\"rtcuda explain\">";

// The config copied into a translated output folder (src/config.*), or empty.
std::string configOfOutput(const fs::path &dir) {
  std::error_code ec;
  if (!fs::exists(dir / "manifest.json", ec)) return "";
  for (const char *name : {"config.yaml", "config.yml", "config.txt", "global.txt"})
    if (fs::exists(dir / "src" / name, ec)) return (dir / "src" / name).string();
  return "";
}

}  // namespace

void ExplainRecorder::attach(DumpOptions &dump) {
  dump.observe = [this](const std::string &step, const std::string &summary, const ir::Kernel &k) {
    steps[k.name].push_back({step, summary, k});
  };
}

bool ExplainRecorder::render(const std::string &config, const Translation &t,
                             const fs::path &reportPath, const fs::path &tuningReport,
                             std::string &html, std::string &error) {
  explain::ExplainInput in;
  in.title = displayPath(config);
  in.options = &t.options;
  in.program = &t.program;
  in.sources = &t.sources;
  in.kernels = &t.kernels;
  in.steps = steps;
  Diagnostics quiet;
  in.host = hostSummary(t.options, t.program, quiet);
  std::error_code ec;
  if (!tuningReport.empty() && fs::exists(tuningReport, ec)) {
    if (!readFile(tuningReport.string(), in.tuningReport)) {
      error = "cannot read " + tuningReport.string();
      return false;
    }
    in.tuningReportName = displayPath(tuningReport.string());
  }
  // Links to the pass pages: the project's docs folder, relative to where the report lies.
  fs::path docs = toolPaths().docs;
  fs::path from = fs::absolute(reportPath, ec).parent_path();
  in.docsHref = fs::relative(docs, from, ec).generic_string();
  if (ec || in.docsHref.empty()) in.docsHref = docs.generic_string();
  auto kc = t.files.find("kernel.cu");
  if (kc != t.files.end()) in.kernelCu = kc->second;
  try {
    html = explain::renderReport(in);
  } catch (const std::exception &e) {
    error = e.what();
    return false;
  }
  return true;
}

bool ExplainRecorder::write(const std::string &config, const Translation &t,
                            const fs::path &reportPath, const fs::path &tuningReport,
                            std::string &error) {
  std::error_code ec;
  if (fs::exists(reportPath, ec)) {
    std::string old;
    if (fs::is_directory(reportPath, ec) || !readFile(reportPath.string(), old) ||
        old.find(kGenerator) == std::string::npos) {
      error = "exists and is not an rtcuda explain report; not replacing it";
      return false;
    }
  }
  std::string html;
  if (!render(config, t, reportPath, tuningReport, html, error)) return false;
  fs::path temp = reportPath;
  temp += ".tmp-" + std::to_string(std::random_device{}() % 1000000);
  {
    std::ofstream out(temp, std::ios::binary);
    out << html;
    if (!out) {
      fs::remove(temp, ec);
      error = "cannot write";
      return false;
    }
  }
  fs::rename(temp, reportPath, ec);
  if (ec) {
    fs::remove(temp, ec);
    error = "cannot write: " + ec.message();
    return false;
  }
  return true;
}

int explainCommand(const std::vector<std::string> &args) {
  namespace cl = llvm::cl;
  cl::OptionCategory category("rtcuda explain options");
  cl::SubCommand &sub = subcommand("explain");
  cl::opt<std::string> inputArg(cl::Positional, cl::Required,
                                cl::desc("<config | translated output folder>"),
                                cl::cat(category), cl::sub(sub));
  cl::opt<std::string> reportArg("o", cl::Required, cl::value_desc("report.html"),
                                 cl::desc("the HTML report to write"), cl::cat(category),
                                 cl::sub(sub));
  cl::opt<std::string> tuningArg("tuning-report", cl::value_desc("report.json"),
                                 cl::desc("rtcuda-tune's report (default "
                                          "<folder>/tuning/report.json)"),
                                 cl::cat(category), cl::sub(sub));
  if (auto status = parseCommandLine(
          "explain", args, category,
          "one self-contained HTML page: per kernel the loop nest and the analysis' decisions, "
          "every pipeline step with its reason and IR diff, the mapping onto blocks and threads, "
          "the tuning space and rtcuda-tune's times, and the host's copies; --version prints "
          "the version"))
    return *status;
  const std::string input = inputArg, report = reportArg, tuning = tuningArg;
  Diagnostics diags;
  std::error_code ec;
  std::string config = input;
  fs::path tuningReport = tuning;
  if (fs::is_directory(input, ec)) {
    config = configOfOutput(input);
    if (config.empty()) {
      diags.error(input, "not a config file nor an output folder of rtcuda translate");
      return 1;
    }
    if (tuning.empty()) tuningReport = fs::path(input) / "tuning" / "report.json";
  }
  if (!tuning.empty() && !fs::exists(tuning, ec)) {
    diags.error(tuning, "no such tuning report");
    return 1;
  }
  DumpOptions dump;
  ExplainRecorder recorder;
  recorder.attach(dump);
  Translation t;
  // Nothing is written but the report; the output folder's name only names the program.
  if (!translateConfig(config, fs::path(report).stem().string(), dump, diags, t)) return 1;
  std::string error;
  if (!recorder.write(config, t, report, tuningReport, error)) {
    diags.error(report, error);
    return 1;
  }
  std::cout << "rtcuda: explained " << t.kernels.size() << " kernel(s) of " << displayPath(config)
            << " in " << report << "\n";
  return 0;
}

}  // namespace rtcuda
