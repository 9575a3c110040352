#include "Batch.h"

#include "rtcuda/Support/Files.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Program.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <thread>

namespace rtcuda {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::string selfExecutable() {
  static int anchor;
  return llvm::sys::fs::getMainExecutable("rtcuda", &anchor);
}

namespace {

struct Running {
  size_t job;
  llvm::sys::ProcessInfo process;
  std::string outLog, errLog;
  Clock::time_point start;
};

struct Outcome {
  enum Status { NotRun, Ok, Failed } status = NotRun;
  int exitCode = 0;
  double seconds = 0;
  std::string firstError;
  nlohmann::json result = nlohmann::json::object();  // what the child wrote about itself
};

std::string tempFile(const char *suffix) {
  llvm::SmallString<128> path;
  if (llvm::sys::fs::createTemporaryFile("rtcuda-batch", suffix, path)) return "";
  return std::string(path);
}

std::string slurp(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The first line that reports an error: a Clang-style "error:" line, a verify mismatch, or a
// sanitizer's report.
std::string firstErrorLine(const std::string &text) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line))
    if (line.find("error:") != std::string::npos || line.rfind("MISMATCH", 0) == 0 ||
        line.find("ERROR: AddressSanitizer") != std::string::npos)
      return line;
  return "";
}

void finish(const BatchJob &job, Running &r, int code, const std::string &why,
            const BatchSettings &settings, Outcome &out) {
  out.seconds = std::chrono::duration<double>(Clock::now() - r.start).count();
  out.exitCode = code;
  out.status = code == 0 ? Outcome::Ok : Outcome::Failed;
  std::string stdoutText = slurp(r.outLog), stderrText = slurp(r.errLog);
  out.firstError = firstErrorLine(stderrText);
  if (out.firstError.empty()) out.firstError = firstErrorLine(stdoutText);
  if (out.status == Outcome::Failed && out.firstError.empty())
    out.firstError = why.empty() ? "exit status " + std::to_string(code) : why;
  if (!job.resultFile.empty()) {
    std::ifstream in(job.resultFile);
    out.result = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (out.result.is_discarded()) out.result = nlohmann::json::object();
    std::remove(job.resultFile.c_str());
  }
  // The child's own messages, grouped per program so that parallel runs do not interleave.
  if (settings.replayStdout || (settings.command == "verify" && out.status == Outcome::Failed))
    std::cout << stdoutText;
  if (!stderrText.empty()) std::cerr << "== " << job.name << " ==\n" << stderrText;
  std::remove(r.outLog.c_str());
  std::remove(r.errLog.c_str());
}

nlohmann::json summaryJson(const std::vector<BatchJob> &jobs, const std::vector<Outcome> &outcomes,
                           const BatchSettings &settings) {
  nlohmann::json programs = nlohmann::json::array();
  int failed = 0, ok = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const Outcome &o = outcomes[i];
    nlohmann::json p;
    p["name"] = jobs[i].name;
    p["input"] = jobs[i].input;
    if (!jobs[i].output.empty()) p["output"] = jobs[i].output;
    p["status"] = o.status == Outcome::Ok ? "ok" : o.status == Outcome::Failed ? "failed" : "not run";
    if (o.status != Outcome::NotRun) {
      p["exit_status"] = o.exitCode;
      p["time_s"] = std::round(o.seconds * 1000) / 1000;
    }
    p["kernels"] = o.result.value("kernels", nlohmann::json::array());
    p["first_error"] = o.firstError.empty() ? nlohmann::json() : nlohmann::json(o.firstError);
    failed += o.status == Outcome::Failed;
    ok += o.status == Outcome::Ok;
    programs.push_back(p);
  }
  return {{"command", settings.command}, {"programs", programs}, {"ok", ok}, {"failed", failed},
          {"not_run", int(jobs.size()) - ok - failed}};
}

void printTable(const std::vector<BatchJob> &jobs, const std::vector<Outcome> &outcomes) {
  size_t width = 7;
  for (const BatchJob &j : jobs) width = std::max(width, j.name.size());
  std::cout << std::left << std::setw(int(width) + 2) << "program" << std::setw(9) << "status"
            << std::setw(9) << "kernels" << std::setw(10) << "time" << "first error\n";
  for (size_t i = 0; i < jobs.size(); ++i) {
    const Outcome &o = outcomes[i];
    std::ostringstream time;
    if (o.status != Outcome::NotRun) time << std::fixed << std::setprecision(1) << o.seconds << " s";
    std::string kernels = o.result.contains("kernels")
                              ? std::to_string(o.result["kernels"].size()) : std::string("-");
    std::cout << std::setw(int(width) + 2) << jobs[i].name
              << std::setw(9)
              << (o.status == Outcome::Ok ? "ok" : o.status == Outcome::Failed ? "FAILED" : "not run")
              << std::setw(9) << kernels << std::setw(10) << time.str() << o.firstError << "\n";
  }
}

}  // namespace

int runBatch(const std::vector<BatchJob> &jobs, const BatchSettings &settings) {
  std::string self = selfExecutable();
  std::vector<Outcome> outcomes(jobs.size());
  std::vector<Running> running;
  size_t next = 0;
  bool stop = false;
  while ((next < jobs.size() && !stop) || !running.empty()) {
    while (!stop && next < jobs.size() && running.size() < size_t(std::max(1, settings.jobs))) {
      const BatchJob &job = jobs[next];
      Running r{next, {}, tempFile("out"), tempFile("err"), Clock::now()};
      std::vector<llvm::StringRef> argv = {self};
      for (const std::string &a : job.args) argv.push_back(a);
      std::optional<llvm::StringRef> redirects[] = {llvm::StringRef("/dev/null"),
                                                    llvm::StringRef(r.outLog),
                                                    llvm::StringRef(r.errLog)};
      std::string error;
      bool failed = false;
      r.process = llvm::sys::ExecuteNoWait(self, argv, std::nullopt, redirects, 0, &error,
                                           &failed);
      if (failed) {
        outcomes[next].status = Outcome::Failed;
        outcomes[next].exitCode = -1;
        outcomes[next].firstError = "cannot start rtcuda: " + error;
        stop = !settings.keepGoing;
      } else {
        running.push_back(std::move(r));
      }
      ++next;
    }
    bool progressed = false;
    for (size_t i = 0; i < running.size();) {
      std::string error;
      llvm::sys::ProcessInfo done =
          llvm::sys::Wait(running[i].process, 0u, &error, nullptr, /*Polling=*/true);
      if (done.Pid != 0) {
        // ReturnCode is -2 for a crash; keep the words of why in the first error.
        finish(jobs[running[i].job], running[i], done.ReturnCode, error, settings,
               outcomes[running[i].job]);
        if (outcomes[running[i].job].status == Outcome::Failed && !settings.keepGoing) stop = true;
        running.erase(running.begin() + long(i));
        progressed = true;
      } else {
        ++i;
      }
    }
    if (!progressed && !running.empty())
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  printTable(jobs, outcomes);
  nlohmann::json summary = summaryJson(jobs, outcomes, settings);
  int failed = summary["failed"].get<int>(), notRun = summary["not_run"].get<int>();
  if (!settings.summaryPath.empty()) {
    std::error_code ec;
    fs::path parent = fs::path(settings.summaryPath).parent_path();
    if (!parent.empty()) fs::create_directories(parent, ec);
    std::ofstream out(settings.summaryPath);
    out << summary.dump(2) << "\n";
    if (!out) {
      std::cerr << "rtcuda " << settings.command << ": error: cannot write "
                << settings.summaryPath << "\n";
      return 1;
    }
  }
  std::cout << "rtcuda " << settings.command << ": " << summary["ok"].get<int>() << " ok, "
            << failed << " failed" << (notRun ? ", " + std::to_string(notRun) + " not run" : "")
            << (settings.summaryPath.empty() ? "" : "; summary in " + settings.summaryPath)
            << "\n";
  return failed || notRun ? 1 : 0;
}

}  // namespace rtcuda
