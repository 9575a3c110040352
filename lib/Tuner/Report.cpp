// Parameter headers and reports (see Report.h).
#include "rtcuda/Tuner/Report.h"

#include "rtcuda/Support/TuningChart.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace rtcuda::tune {

namespace fs = std::filesystem;
using nlohmann::json;

bool writeParamsHeader(const std::string &outDir, const TuneKernel &k, const Variant &v,
                       const std::string &why, std::string *error) {
  fs::path path = fs::path(outDir) / k.k.paramsHeader;
  std::ifstream in(path);
  if (!in) {
    *error = path.string() + ": cannot read the parameter header";
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  for (size_t i = 0; i < k.k.tuning.size() && i < v.size(); ++i) {
    std::regex define("(#\\s*define\\s+" + k.k.tuning[i].macro + "\\s+)[^\\n]*");
    std::smatch m;
    if (!std::regex_search(text, m, define)) {
      *error = path.string() + ": no '#define " + k.k.tuning[i].macro + "' to rewrite";
      return false;
    }
    text = m.prefix().str() + m[1].str() + std::to_string(v[i]) + m.suffix().str();
  }
  // One note line, replaced on every run.
  text = std::regex_replace(text, std::regex("// rtcuda-tune picked[^\\n]*\\n"), "");
  size_t at = text.find("#ifndef");
  std::string note = "// rtcuda-tune picked " + why + "\n";
  text.insert(at == std::string::npos ? text.size() : at, note);
  std::ofstream out(path);
  out << text;
  if (!out) {
    *error = path.string() + ": cannot write";
    return false;
  }
  return true;
}

bool turnOffAlternatives(const std::string &outDir, const TuneKernel &k, const std::string &macro,
                         std::string *error) {
  fs::path path = fs::path(outDir) / k.k.paramsHeader;
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  std::regex define("(#\\s*define\\s+" + macro + "\\s+)[^\\n]*");
  std::smatch m;
  if (!in || !std::regex_search(text, m, define)) {
    *error = path.string() + ": no '#define " + macro + "' to set to 0";
    return false;
  }
  text = m.prefix().str() + m[1].str() + "0  // rtcuda-tune: an alternative failed its check" +
         m.suffix().str();
  std::ofstream out(path);
  out << text;
  if (!out) {
    *error = path.string() + ": cannot write";
    return false;
  }
  return true;
}

namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string sizesText(const KernelResult &kr) {
  std::string s;
  for (const auto &[name, value] : kr.sizes) {
    s += (s.empty() ? "" : ", ") + name + "=" + std::to_string(value);
    auto it = kr.sizeOrigin.find(name);
    if (it != kr.sizeOrigin.end()) s += " (" + it->second + ")";
  }
  return s.empty() ? "none" : s;
}

json variantJson(const VariantRecord &r) {
  json j = {{"variant", r.id},
            {"feasible", r.feasible},
            {"excluded", r.excluded},
            {"predicted_rank", r.rank},
            {"resources", toJson(r.res)},
            {"grid", {r.geo.blocks[0], r.geo.blocks[1]}},
            {"threads_per_block", r.geo.threads},
            {"occupancy",
             {{"blocks_per_sm", r.occ.blocksPerSM},
              {"active_warps", r.occ.activeWarps},
              {"fraction", r.occ.fraction},
              {"limiter", r.occ.limiter},
              {"limits",
               {{"warps", r.occ.limitWarps}, {"registers", r.occ.limitRegs},
                {"shared_memory", r.occ.limitSmem}, {"blocks", r.occ.limitBlocks}}}}},
            {"model",
             {{"units", r.pred.units},
              {"optimistic", r.pred.optimistic},
              {"spread", r.pred.spread},
              {"bucket", r.pred.bucket},
              {"waves", r.pred.waves},
              {"last_wave_fill", r.pred.lastWaveFill},
              {"active_thread_fraction", r.pred.activeThreadFraction},
              {"predicted_us", r.predictedUs}}}};
  if (r.meas) {
    j["measured"] = toJson(*r.meas);
    j["measured"]["spread_percent"] = r.meas->spreadPercent();
    j["measured"]["from_cache"] = r.cached;
  }
  // What the program's launch runs for this point at the target size (an alternative's name;
  // empty: its own kernel), and why a point with alternatives has none or was timed as another.
  j["launch"] = r.launch;
  if (!r.launchNote.empty()) j["launch_note"] = r.launchNote;
  j["verified"] = r.meas ? (r.meas->verified ? "yes" : "no") : "not run";
  j["round"] = r.round + 1;  // the last round of successive halving it ran in (0: none)
  return j;
}

}  // namespace

std::vector<SummaryRow> summaryRows(const TuneRun &run) {
  std::vector<SummaryRow> rows;
  for (const KernelResult &kr : run.kernels) {
    SummaryRow row;
    row.kernel = kr.kernel->k.name;
    row.function = kr.kernel->function;
    row.sizes = sizesId(kr.sizes) + samplesId(*kr.kernel, kr.samples);
    row.checkSizes = sizesId(kr.checkSizes) + samplesId(*kr.kernel, kr.checkSamples);
    row.seconds = kr.seconds;
    auto timed = [](const VariantRecord &r) {
      return r.meas && r.meas->status == "ok" ? r.meas->medianUs : -1.0;
    };
    if (kr.defaultIndex >= 0) {
      row.defaultId = kr.variants[size_t(kr.defaultIndex)].id;
      row.defaultUs = timed(kr.variants[size_t(kr.defaultIndex)]);
      row.defaultLaunch = kr.variants[size_t(kr.defaultIndex)].launch;
    }
    if (kr.chosen >= 0) {
      row.tunedId = kr.variants[size_t(kr.chosen)].id;
      row.tunedUs = timed(kr.variants[size_t(kr.chosen)]);
      row.tunedLaunch = kr.variants[size_t(kr.chosen)].launch;
    }
    bool skipped = !kr.kernel->notMeasurable.empty() && run.measured;
    row.decision = skipped ? "not tuned: " + kr.kernel->notMeasurable
                   : kr.chosenBy == "measured" ? kr.why
                   : kr.chosenBy == "model" ? "model only: nothing measured"
                                            : kr.chosenBy;
    rows.push_back(row);
  }
  return rows;
}

std::string summaryMarkdown(const std::vector<SummaryRow> &rows) {
  std::ostringstream o;
  auto us = [](double v) { return v >= 0 ? fixed(v, 2) : std::string("-"); };
  o << "| kernel | target size | checked at | default point | default us | tuned point | tuned us "
       "| default/tuned | decision | seconds |\n|---|---|---|---|---|---|---|---|---|---|\n";
  for (const SummaryRow &r : rows) {
    std::string decision = r.decision;
    for (char &ch : decision)
      if (ch == '|' || ch == '\n') ch = ' ';
    auto runs = [](const std::string &launch) { return launch.empty() ? "" : " (runs " + launch + ")"; };
    o << "| " << r.kernel << (r.function.empty() ? "" : " (of " + r.function + ")") << " | "
      << r.sizes << " | " << r.checkSizes << " | " << r.defaultId << runs(r.defaultLaunch) << " | "
      << us(r.defaultUs) << " | " << r.tunedId << runs(r.tunedLaunch) << " | " << us(r.tunedUs) << " | "
      << (r.defaultUs > 0 && r.tunedUs > 0 ? fixed(r.defaultUs / r.tunedUs, 3) : std::string("-"))
      << " | " << decision << " | " << fixed(r.seconds, 1) << " |\n";
  }
  return o.str();
}

json reportJson(const TuneRun &run) {
  json j = {{"format", "rtcuda-tune-report"},
            {"version", 1},
            {"output", run.options.outDir},
            {"device", toJson(run.device)},
            {"toolkit", run.toolkit},
            {"resource_compiler", run.resourceCompiler},
            {"measured", run.measured},
            {"interrupted", run.interrupted},
            {"strategy", run.options.modelOnly ? "model-only" : strategyName(run.options.strategy)},
            {"fraction", run.options.fraction},
            {"budget", run.options.budget},
            {"repetitions", run.options.reps},
            {"warmup", run.options.warmup},
            {"l2_flush", run.options.flush},
            {"seconds", run.seconds},
            {"kernels", json::array()}};
  if (!run.measured) j["note"] = "nothing was measured: the parameters were picked by the model";
  for (const KernelResult &kr : run.kernels) {
    json jk = {{"kernel", kr.kernel->k.name},
               {"sizes", kr.sizes},
               {"size_origin", kr.sizeOrigin},
               {"data_type", kr.kernel->dataType},
               {"chosen", kr.chosen >= 0 ? json(kr.variants[size_t(kr.chosen)].id) : json(nullptr)},
               {"chosen_by", kr.chosenBy},
               {"default", kr.defaultIndex >= 0 ? json(kr.variants[size_t(kr.defaultIndex)].id)
                                                : json(nullptr)},
               {"variants_total", kr.variants.size()},
               {"variants_timed", kr.timed},
               {"variants_from_cache", kr.fromCache},
               {"occupancy_disagreements", kr.occupancyDisagreements},
               {"check_sizes", kr.checkSizes},
               // A kernel in host loops: the loops' values it was timed and checked at.
               {"host_samples", readsHostLoop(*kr.kernel) ? json(kr.samples) : json::array()},
               {"check_host_samples", readsHostLoop(*kr.kernel) ? json(kr.checkSamples) : json::array()},
               {"function", kr.kernel->function},
               {"not_measurable", kr.kernel->notMeasurable},
               {"decision", kr.why},
               {"rounds", kr.rounds},
               {"seconds", kr.seconds},
               {"compile_seconds", kr.compileSeconds},
               {"variants", json::array()}};
    for (const VariantRecord &r : kr.variants) jk["variants"].push_back(variantJson(r));
    j["kernels"].push_back(jk);
  }
  j["default_vs_tuned"] = json::array();
  for (const SummaryRow &r : summaryRows(run))
    j["default_vs_tuned"].push_back({{"kernel", r.kernel}, {"function", r.function},
                                     {"sizes", r.sizes}, {"check_sizes", r.checkSizes},
                                     {"default", r.defaultId},
                                     {"default_us", r.defaultUs >= 0 ? json(r.defaultUs) : json(nullptr)},
                                     {"tuned", r.tunedId},
                                     {"tuned_us", r.tunedUs >= 0 ? json(r.tunedUs) : json(nullptr)},
                                     {"default_launch", r.defaultLaunch}, {"tuned_launch", r.tunedLaunch},
                                     {"decision", r.decision}, {"seconds", r.seconds}});
  return j;
}

namespace {

// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
std::string csvField(const std::string &s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

}  // namespace

std::string reportCsv(const TuneRun &run, const KernelResult &kr) {
  std::vector<std::string> head = {"variant"};
  for (const auto &t : kr.kernel->k.tuning) head.push_back(t.macro);
  for (const char *c : {"picked", "default", "feasible", "excluded", "predicted_rank",
                        "model_units", "predicted_us", "regs", "smem_bytes", "spill_bytes",
                        "blocks_per_sm", "driver_blocks_per_sm", "occupancy", "limiter", "grid_x",
                        "grid_y", "threads_per_block", "waves", "status", "verified",
                        "median_us", "min_us", "max_us", "spread_percent", "from_cache"})
    head.push_back(c);
  std::string o;
  auto row = [&](const std::vector<std::string> &cells) {
    for (size_t i = 0; i < cells.size(); ++i) o += (i ? "," : "") + csvField(cells[i]);
    o += "\n";
  };
  row(head);
  for (const VariantRecord &r : kr.variants) {
    const Measurement *m = r.meas ? &*r.meas : nullptr;
    int index = int(&r - kr.variants.data());
    std::vector<std::string> c = {r.id};
    for (size_t i = 0; i < kr.kernel->k.tuning.size(); ++i)
      c.push_back(i < r.v.size() ? std::to_string(r.v[i]) : "");
    bool ok = m && m->status == "ok";
    int regs = m && m->regs >= 0 ? m->regs : r.res.known ? r.res.regs : -1;
    long long smem = m && m->smem >= 0 ? m->smem : r.res.smem;
    long long spill = m && m->spillStores >= 0 ? m->spillStores + m->spillLoads
                                               : r.res.spillStores + r.res.spillLoads;
    for (const std::string &cell : std::vector<std::string>{
         std::string(index == kr.chosen ? "yes" : "no"), std::string(index == kr.defaultIndex ? "yes" : "no"),
          std::string(r.feasible ? "yes" : "no"), r.excluded, r.rank ? std::to_string(r.rank) : "",
          fixed(r.pred.units, 4), r.predictedUs > 0 ? fixed(r.predictedUs, 3) : "",
          regs >= 0 ? std::to_string(regs) : "", std::to_string(smem), std::to_string(spill),
          std::to_string(r.occ.blocksPerSM),
          m && m->driverBlocksPerSM >= 0 ? std::to_string(m->driverBlocksPerSM) : "",
          fixed(r.occ.fraction, 4), r.occ.limiter, std::to_string(r.geo.blocks[0]),
          std::to_string(r.geo.blocks[1]), std::to_string(r.geo.threads), fixed(r.pred.waves, 3),
          m ? m->status : std::string(run.measured ? "not timed" : "not run"),
          std::string(m ? (m->verified ? "yes" : "no") : ""), ok ? fixed(m->medianUs, 3) : "",
          ok ? fixed(m->minUs, 3) : "", ok ? fixed(m->maxUs, 3) : "",
          ok ? fixed(m->spreadPercent(), 2) : "", std::string(r.cached && m ? "yes" : "no")})
      c.push_back(cell);
    row(c);
  }
  return o;
}

std::string reportMarkdown(const TuneRun &run) {
  std::ostringstream o;
  const DeviceLimits &d = run.device;
  o << "# rtcuda-tune report\n\n";
  if (!run.measured)
    o << "**Model only: nothing was measured.** The parameters below were picked by the "
         "occupancy and wave model for the device described, without running any kernel.\n\n";
  if (run.interrupted)
    o << "**Interrupted:** this report covers what finished; run rtcuda-tune again to resume "
         "(finished variants are cached and not timed again).\n\n";
  o << "- Output: `" << run.options.outDir << "`\n"
    << "- Device: " << d.name << " (" << d.arch() << ", " << d.smCount << " SMs, "
    << (d.offline ? "offline table" : "measured on this device") << ")\n"
    << "- Toolkit: " << run.toolkit << "; resources from " << run.resourceCompiler << "\n";
  if (run.measured)
    o << "- Strategy: " << strategyName(run.options.strategy)
      << (run.options.strategy == Strategy::Pruned
              ? " (the model's best " + fixed(100 * run.options.fraction, 0) + "% of each space)"
              : run.options.strategy == Strategy::Budget
                    ? " (" + std::to_string(run.options.budget) + " variants per kernel)"
                    : "")
      << "; " << run.options.reps << " timed runs after " << run.options.warmup
      << " warm-up runs, CUDA events, " << (run.options.flush ? "L2 flushed before each" : "no L2 flush")
      << "; every variant checked against the sequential C before it may win\n";
  o << "- Time: " << fixed(run.seconds, 1) << " s\n";
  o << "\n## Default and tuned point at the target size\n\n";
  if (run.measured)
    o << "Each variant was checked at the *checked at* size against the sequential C (an outlined "
         "kernel: against its default point's output), then timed at the target size; the "
         "last round timed the best few and the default point in one run, and compared their "
         "outputs at the target size. The tuned point replaces the default only when it is "
         "faster by more than the noise of both.\n\n";
  o << summaryMarkdown(summaryRows(run));
  for (const KernelResult &kr : run.kernels) {
    o << "\n## " << kr.kernel->k.name << "\n\nSizes: " << sizesText(kr) << ". ";
    if (kr.chosen >= 0) {
      const VariantRecord &c = kr.variants[size_t(kr.chosen)];
      o << "Picked **" << c.id << "** (" << kr.chosenBy;
      if (c.meas && c.meas->status == "ok") o << ", median " << fixed(c.meas->medianUs, 2) << " us";
      if (kr.defaultIndex >= 0 && kr.defaultIndex != kr.chosen) {
        const VariantRecord &def = kr.variants[size_t(kr.defaultIndex)];
        if (c.meas && def.meas && c.meas->status == "ok" && def.meas->status == "ok")
          o << "; the default " << def.id << " takes " << fixed(def.meas->medianUs, 2) << " us";
        else
          o << "; default " << def.id;
      }
      o << ").";
    } else {
      o << "Nothing picked.";
    }
    const std::string &name = kr.kernel->k.name;
    o << "\n\n![" << name
      << (run.measured ? ": measured time against the model's prediction"
                       : ": the model's predicted time against its rank")
      << ", the picked point ringed]("
      << name << ".svg)\n\nChart: [" << name << ".svg](" << name << ".svg); every variant: ["
      << name << ".csv](" << name << ".csv).";
    o << " Timed " << kr.timed << " of " << kr.variants.size() << " variants";
    if (kr.fromCache) o << " (" << kr.fromCache << " from the cache)";
    o << ".";
    if (kr.occupancyDisagreements)
      o << " **The occupancy model disagreed with the driver on " << kr.occupancyDisagreements
        << " variant(s)** (column blocks/SM shows model/driver).";
    o << "\n\n| variant | regs | smem B | spill B | blocks/SM | occupancy | limiter | grid | waves "
         "| rank | predicted | median us | spread | verified | excluded / status |\n"
      << "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const VariantRecord &r : kr.variants) {
      const Measurement *m = r.meas ? &*r.meas : nullptr;
      int regs = m && m->regs >= 0 ? m->regs : r.res.regs;
      long long smem = m && m->smem >= 0 ? m->smem : r.res.smem;
      long long spill = m && m->spillStores >= 0 ? m->spillStores + m->spillLoads
                                                 : r.res.spillStores + r.res.spillLoads;
      std::string blocks = std::to_string(r.occ.blocksPerSM);
      if (m && m->driverBlocksPerSM >= 0) blocks += "/" + std::to_string(m->driverBlocksPerSM);
      o << "| " << (int(&r - kr.variants.data()) == kr.chosen ? "**" + r.id + "**" : r.id) << " | "
        << (r.res.known || (m && m->regs >= 0) ? std::to_string(regs) : "?") << " | " << smem
        << " | " << spill << " | " << blocks << " | " << fixed(100 * r.occ.fraction, 0) << "% | "
        << r.occ.limiter << " | " << r.geo.blocks[0] << (r.geo.blocks[1] > 1 ? "x" + std::to_string(r.geo.blocks[1]) : "")
        << " | " << fixed(r.pred.waves, 2) << " | " << (r.rank ? std::to_string(r.rank) : "-") << " | "
        << (r.predictedUs > 0 ? fixed(r.predictedUs, 2) + " us" : fixed(r.pred.units, 2)) << " | ";
      if (m && m->status == "ok")
        o << fixed(m->medianUs, 2) << " | " << fixed(m->spreadPercent(), 1) << "% | yes";
      else
        o << "- | - | " << (m ? "no" : "-");
      std::string status = !r.excluded.empty() ? r.excluded
                           : m ? (m->status == "ok" ? std::string("ok") : m->status + ": " + m->reason)
                               : std::string(run.measured ? "not timed" : "");
      if (!r.launch.empty() && m) status += " (runs " + r.launch + " at the target size)";
      if (!r.launchNote.empty()) status += (status.empty() ? "" : "; ") + r.launchNote;
      if (r.cached && m) status += " (cached)";
      if (m && r.round >= 0 && kr.rounds > 1) status += " (round " + std::to_string(r.round + 1) + ")";
      for (char &ch : status)
        if (ch == '|' || ch == '\n') ch = ' ';
      o << " | " << status << " |\n";
    }
  }
  o << "\nColumns: *blocks/SM* resident blocks per SM (model/driver when measured); *occupancy* "
       "resident warps over the SM's warp slots; *waves* grid blocks over (blocks/SM x SMs); "
       "*rank* the model's order (1 = best predicted); *predicted* model time (us when fitted to "
       "the measurements, else model units); *spread* interquartile range over the median.\n";
  return o.str();
}

std::string reportSvg(const TuneRun &run, const json &report, const KernelResult &kr) {
  const json *kj = nullptr;
  for (const json &k : report["kernels"])
    if (k.value("kernel", "") == kr.kernel->k.name) kj = &k;
  TuningChart chart = tuningChart(report, kj ? *kj : json::object());
  std::string title = kr.kernel->k.name + ": " +
                      (run.measured ? "measured on " : "model only, for ") + run.device.name +
                      (chart.picked.empty() ? "; nothing picked" : "");
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + tuningChartSvg(chart, title) + "\n";
}

void writeReports(const TuneRun &run) {
  fs::path dir = fs::path(run.options.outDir) / "tuning";
  fs::create_directories(dir);
  json report = reportJson(run);
  std::ofstream(dir / "report.json") << report.dump(1) << "\n";
  std::ofstream(dir / "report.md") << reportMarkdown(run);
  std::ofstream(dir / "default-vs-tuned.md") << summaryMarkdown(summaryRows(run));
  for (const KernelResult &kr : run.kernels) {
    std::ofstream(dir / (kr.kernel->k.name + ".svg")) << reportSvg(run, report, kr);
    std::ofstream(dir / (kr.kernel->k.name + ".csv")) << reportCsv(run, kr);
  }
}

}  // namespace rtcuda::tune
