// The tuning space, and after rtcuda-tune the variants' measured times against the model's
// prediction (tuning/report.json) as an SVG scatter chart with the picked point marked.
#include "Sections.h"

#include "rtcuda/Support/TuningChart.h"

#include <cstdio>

namespace rtcuda::explain {

namespace {

using nlohmann::json;

std::string valuesText(const std::vector<int> &v) {
  std::string t;
  if (v.size() > 8) {
    t = std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + ", …, " +
        std::to_string(v.back()) + " (" + std::to_string(v.size()) + " values)";
    return t;
  }
  for (size_t i = 0; i < v.size(); ++i) t += (i ? ", " : "") + std::to_string(v[i]);
  return t;
}

}  // namespace

void tuningSection(Html &h, const KernelView &k, const ExplainInput &in) {
  h.open("section", attr("class", "tuning") + attr("id", k.id + "-tuning"));
  h.element("h3", "4. The tuning space");
  const ir::Kernel &kernel = k.lowered->kernel;
  long long points = 1;
  h.open("table", attr("class", "data")).open("thead").open("tr");
  for (std::string c : {"parameter", "macro", "values", "default"}) h.element("th", c);
  h.close().close().open("tbody");
  for (const ir::TuningParam &t : kernel.tuning) {
    points *= (long long)t.values.size();
    h.open("tr").element("td", t.name).open("td").element("code", t.macro).close();
    h.element("td", valuesText(t.values)).element("td", std::to_string(t.defaultValue)).close();
  }
  h.close().close();
  h.element("p", std::to_string(points) + " point(s). Every point computes the same result "
                 "(rtcuda verify checks them on the CPU); rtcuda-tune picks one.", attr("class", "mute"));
  if (!k.tuning) {
    h.element("p", in.tuningReport.empty()
                       ? "No tuning report: run rtcuda-tune on the translated output and give its "
                         "tuning/report.json with --tuning-report to see the measured times here."
                       : "The tuning report (" + in.tuningReportName + ") has no entry for this kernel.",
              attr("class", "mute"));
    h.close().raw("\n");
    return;
  }
  const json &kr = *k.tuning;
  bool measured = k.tuningRun->value("measured", false);
  TuningChart chart = tuningChart(*k.tuningRun, kr);
  const std::string &picked = chart.picked, &def = chart.defaultId;
  const json &dev = k.tuningRun->contains("device") ? (*k.tuningRun)["device"] : json::object();
  h.open("p").text("rtcuda-tune (" + in.tuningReportName + "): ");
  h.text(measured ? "measured on " : "model only, nothing measured, for ");
  h.text(dev.value("name", std::string("an unnamed device")) + ", strategy " +
         k.tuningRun->value("strategy", std::string("?")) + "; " +
         std::to_string(kr.value("variants_timed", 0)) + " of " +
         std::to_string(kr.value("variants_total", 0)) + " variants timed. Picked ");
  h.open("strong").text(picked.empty() ? "nothing" : picked).close();
  h.text(" (" + kr.value("chosen_by", std::string("")) + ")" + (def.empty() ? "" : "; default " + def) + ".");
  h.close();
  // The default point against the tuned one at the target size (rtcuda-tune's table).
  for (const json &row : k.tuningRun->value("default_vs_tuned", json::array())) {
    if (row.value("kernel", "") != kr.value("kernel", "")) continue;
    auto us = [&](const char *key) {
      if (!row.contains(key) || !row[key].is_number()) return std::string("-");
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.2f us", row[key].get<double>());
      return std::string(buf);
    };
    h.open("table", attr("class", "data")).open("thead").open("tr");
    for (std::string c : {"target size", "checked at", "default point", "default", "tuned point", "tuned", "decision"})
      h.element("th", c);
    h.close().close().open("tbody").open("tr");
    h.element("td", row.value("sizes", "")).element("td", row.value("check_sizes", ""));
    h.element("td", row.value("default", "")).element("td", us("default_us"));
    h.element("td", row.value("tuned", "")).element("td", us("tuned_us"));
    h.element("td", row.value("decision", "")).close().close().close();
  }
  if (chart.points.empty()) {
    h.element("p", "No variant has a result to draw.", attr("class", "mute"));
  } else {
    h.open("figure");
    h.raw(tuningChartSvg(chart));
    std::string cap = measured ? "Each dot is a variant that ran and was verified: the model's "
                                 "prediction across, the measured median up. A model that ranks "
                                 "well puts the dots on a rising line."
                               : "Model only: each dot is a feasible variant, ranked by the model; "
                                 "no time was measured. Run rtcuda-tune on a GPU for measured times.";
    cap += " Red ring: the picked point; grey square: the default.";
    if (chart.drawable > chart.points.size())
      cap += " The " + std::to_string(chart.points.size()) + " best-ranked of " +
             std::to_string(chart.drawable) + " feasible variants are drawn.";
    h.element("figcaption", cap);
    h.close();
  }
  h.close().raw("\n");
}

}  // namespace rtcuda::explain
