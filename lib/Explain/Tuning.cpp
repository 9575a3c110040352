// The tuning space, and after rtcuda-tune the variants' measured times against the model's
// prediction (tuning/report.json) as an SVG scatter chart with the picked point marked.
#include "Sections.h"

#include <algorithm>
#include <cmath>

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

struct Point {
  std::string id;
  double x = 0, y = 0;
  int rank = 0;
};

// Round axis ticks over [lo, hi].
std::vector<double> ticks(double lo, double hi) {
  double span = hi - lo;
  if (span <= 0) span = std::fabs(hi) > 0 ? std::fabs(hi) : 1;
  double step = std::pow(10, std::floor(std::log10(span / 4)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (span / (step * m) <= 6) {
      step *= m;
      break;
    }
  std::vector<double> t;
  for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step)
    t.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);  // no "-0" label
  return t;
}

std::string num(double v) {
  if (std::fabs(v) >= 100 || v == std::floor(v)) return fixed(v, 0);
  return fixed(v, std::fabs(v) >= 10 ? 1 : 2);
}

void chart(Html &h, const std::vector<Point> &pts, const std::string &xName, const std::string &yName,
           const std::string &picked, const std::string &defaultId) {
  const double W = 660, H = 360, L = 64, R = 16, T = 16, B = 46;
  double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
  for (const Point &p : pts) x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
  if (x1 <= x0) x1 = x0 + 1;
  if (y1 <= y0) y1 = y0 + 1;
  double padX = (x1 - x0) * 0.05, padY = (y1 - y0) * 0.05;
  x0 -= padX, x1 += padX, y0 -= padY, y1 += padY;
  auto sx = [&](double v) { return L + (v - x0) / (x1 - x0) * (W - L - R); };
  auto sy = [&](double v) { return H - B - (v - y0) / (y1 - y0) * (H - T - B); };
  h.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"tuning-chart\" role=\"img\" width=\"" +
        fixed(W, 0) + "\" height=\"" + fixed(H, 0) + "\" viewBox=\"0 0 " + fixed(W, 0) + " " +
        fixed(H, 0) + "\" aria-label=\"" + escape(yName + " against " + xName) + "\">");
  h.raw("<rect x=\"" + fixed(L, 0) + "\" y=\"" + fixed(T, 0) + "\" width=\"" + fixed(W - L - R, 0) +
        "\" height=\"" + fixed(H - T - B, 0) + "\" fill=\"#fbfcfd\" stroke=\"#d8dee6\"/>");
  for (double t : ticks(x0, x1)) {
    h.raw("<line x1=\"" + fixed(sx(t), 1) + "\" x2=\"" + fixed(sx(t), 1) + "\" y1=\"" + fixed(T, 0) +
          "\" y2=\"" + fixed(H - B, 0) + "\" stroke=\"#eef1f4\"/>");
    h.raw("<text x=\"" + fixed(sx(t), 1) + "\" y=\"" + fixed(H - B + 16, 0) +
          "\" text-anchor=\"middle\" font-size=\"11\" fill=\"#5f6b7a\">" + num(t) + "</text>");
  }
  for (double t : ticks(y0, y1)) {
    h.raw("<line x1=\"" + fixed(L, 0) + "\" x2=\"" + fixed(W - R, 0) + "\" y1=\"" + fixed(sy(t), 1) +
          "\" y2=\"" + fixed(sy(t), 1) + "\" stroke=\"#eef1f4\"/>");
    h.raw("<text x=\"" + fixed(L - 6, 0) + "\" y=\"" + fixed(sy(t) + 4, 1) +
          "\" text-anchor=\"end\" font-size=\"11\" fill=\"#5f6b7a\">" + num(t) + "</text>");
  }
  h.raw("<text x=\"" + fixed((L + W - R) / 2, 0) + "\" y=\"" + fixed(H - 8, 0) +
        "\" text-anchor=\"middle\" font-size=\"12\">" + escape(xName) + "</text>");
  h.raw("<text transform=\"translate(14," + fixed((T + H - B) / 2, 0) +
        ") rotate(-90)\" text-anchor=\"middle\" font-size=\"12\">" + escape(yName) + "</text>");
  const Point *pick = nullptr, *def = nullptr;
  for (const Point &p : pts) {
    if (p.id == picked) pick = &p;
    if (p.id == defaultId) def = &p;
    h.raw("<circle cx=\"" + fixed(sx(p.x), 1) + "\" cy=\"" + fixed(sy(p.y), 1) +
          "\" r=\"3\" fill=\"#1565c0\" fill-opacity=\"0.55\"><title>" +
          escape(p.id + ": " + xName + " " + num(p.x) + ", " + yName + " " + num(p.y) +
                 ", model rank " + std::to_string(p.rank)) +
          "</title></circle>");
  }
  if (def && def != pick)
    h.raw("<rect class=\"default-point\" x=\"" + fixed(sx(def->x) - 6, 1) + "\" y=\"" +
          fixed(sy(def->y) - 6, 1) + "\" width=\"12\" height=\"12\" fill=\"none\" stroke=\"#5f6b7a\" "
          "stroke-width=\"2\"><title>default: " + escape(def->id) + "</title></rect>");
  if (pick) {
    double px = sx(pick->x), py = sy(pick->y);
    h.raw("<circle class=\"picked-point\" cx=\"" + fixed(px, 1) + "\" cy=\"" + fixed(py, 1) +
          "\" r=\"8\" fill=\"none\" stroke=\"#c62828\" stroke-width=\"2.5\"><title>picked: " +
          escape(pick->id) + "</title></circle>");
    bool leftSide = px > W * 0.6;
    h.raw("<text x=\"" + fixed(px + (leftSide ? -12 : 12), 1) + "\" y=\"" + fixed(py - 10, 1) +
          "\" font-size=\"12\" font-weight=\"600\" fill=\"#c62828\"" +
          (leftSide ? " text-anchor=\"end\"" : "") + ">picked: " + escape(pick->id) + "</text>");
  }
  h.raw("</svg>");
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
  std::string picked = kr["chosen"].is_string() ? kr["chosen"].get<std::string>() : "";
  std::string def = kr["default"].is_string() ? kr["default"].get<std::string>() : "";
  std::vector<Point> pts;
  for (const json &v : kr["variants"]) {
    if (!v.value("feasible", false)) continue;
    Point p;
    p.id = v.value("variant", "");
    p.rank = v.value("predicted_rank", 0);
    const json &m = v.contains("model") ? v["model"] : json::object();
    if (measured) {
      if (!v.contains("measured") || !v["measured"].contains("median_us") ||
          v["measured"].value("status", "") != "ok")
        continue;
      p.x = m.value("predicted_us", 0.0) > 0 ? m.value("predicted_us", 0.0) : m.value("units", 0.0);
      p.y = v["measured"].value("median_us", 0.0);
    } else {
      p.x = p.rank;
      p.y = m.value("units", 0.0);
    }
    pts.push_back(p);
  }
  std::sort(pts.begin(), pts.end(), [](const Point &a, const Point &b) { return a.rank < b.rank; });
  size_t all = pts.size();
  if (pts.size() > 1500) {  // the best-ranked ones, and the picked and default points
    std::vector<Point> kept(pts.begin(), pts.begin() + 1500);
    for (size_t i = 1500; i < pts.size(); ++i)
      if (pts[i].id == picked || pts[i].id == def) kept.push_back(pts[i]);
    pts = kept;
  }
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
  if (pts.empty()) {
    h.element("p", "No variant has a result to draw.", attr("class", "mute"));
  } else {
    h.open("figure");
    if (measured)
      chart(h, pts, "model's prediction (us)", "measured median (us)", picked, def);
    else
      chart(h, pts, "model's rank (1 = best)", "predicted time (model units)", picked, def);
    std::string cap = measured ? "Each dot is a variant that ran and was verified: the model's "
                                 "prediction across, the measured median up. A model that ranks "
                                 "well puts the dots on a rising line."
                               : "Model only: each dot is a feasible variant, ranked by the model; "
                                 "no time was measured. Run rtcuda-tune on a GPU for measured times.";
    cap += " Red ring: the picked point; grey square: the default.";
    if (all > pts.size()) cap += " The " + std::to_string(pts.size()) + " best-ranked of " + std::to_string(all) + " feasible variants are drawn.";
    h.element("figcaption", cap);
    h.close();
  }
  h.close().raw("\n");
}

}  // namespace rtcuda::explain
