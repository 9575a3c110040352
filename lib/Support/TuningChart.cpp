// The tuning chart (see TuningChart.h): shared by rtcuda-tune's tuning/<kernel>.svg and the
// chart of rtcuda explain, so that both draw the same points the same way.
#include "rtcuda/Support/TuningChart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rtcuda {

using nlohmann::json;

namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

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

}  // namespace

std::string xmlEscape(const std::string &text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;  // attribute values are written in double quotes
    default: out += c;
    }
  }
  return out;
}

TuningChart tuningChart(const json &report, const json &kernel, size_t maxPoints) {
  TuningChart c;
  c.measured = report.value("measured", false);
  c.picked = kernel.contains("chosen") && kernel["chosen"].is_string() ? kernel["chosen"].get<std::string>() : "";
  c.defaultId = kernel.contains("default") && kernel["default"].is_string() ? kernel["default"].get<std::string>() : "";
  c.xName = c.measured ? "model's prediction (us)" : "model's rank (1 = best)";
  c.yName = c.measured ? "measured median (us)" : "predicted time (model units)";
  bool &fitted = c.fitted;
  std::vector<ChartPoint> pts;
  for (const json &v : kernel.value("variants", json::array())) {
    if (!v.value("feasible", false)) continue;
    ChartPoint p;
    p.id = v.value("variant", "");
    p.rank = v.value("predicted_rank", 0);
    const json &m = v.contains("model") ? v["model"] : json::object();
    if (c.measured) {
      if (!v.contains("measured") || !v["measured"].contains("median_us") ||
          v["measured"].value("status", "") != "ok")
        continue;
      fitted = fitted || m.value("predicted_us", 0.0) > 0;
      p.x = m.value("predicted_us", 0.0) > 0 ? m.value("predicted_us", 0.0) : m.value("units", 0.0);
      p.y = v["measured"].value("median_us", 0.0);
    } else {
      p.x = p.rank;
      p.y = m.value("units", 0.0);
    }
    pts.push_back(p);
  }
  if (c.measured && !fitted) c.xName = "model's prediction (model units)";
  std::sort(pts.begin(), pts.end(), [](const ChartPoint &a, const ChartPoint &b) { return a.rank < b.rank; });
  c.drawable = pts.size();
  if (pts.size() > maxPoints) {  // the best-ranked ones, and the picked and default points
    std::vector<ChartPoint> kept(pts.begin(), pts.begin() + long(maxPoints));
    for (size_t i = maxPoints; i < pts.size(); ++i)
      if (pts[i].id == c.picked || pts[i].id == c.defaultId) kept.push_back(pts[i]);
    pts = kept;
  }
  c.points = pts;
  return c;
}

std::string tuningChartSvg(const TuningChart &c, const std::string &title) {
  const double W = 660, L = 64, R = 16, B = 46;
  const double T = title.empty() ? 16 : 52, H = title.empty() ? 360 : 396;
  const std::vector<ChartPoint> &pts = c.points;
  std::string o;
  auto raw = [&](const std::string &s) { o += s; };
  double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
  for (const ChartPoint &p : pts) x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
  if (pts.empty()) x0 = y0 = 0, x1 = y1 = 1;
  if (x1 <= x0) x1 = x0 + 1;
  if (y1 <= y0) y1 = y0 + 1;
  double padX = (x1 - x0) * 0.05, padY = (y1 - y0) * 0.05;
  x0 -= padX, x1 += padX, y0 -= padY, y1 += padY;
  auto sx = [&](double v) { return L + (v - x0) / (x1 - x0) * (W - L - R); };
  auto sy = [&](double v) { return H - B - (v - y0) / (y1 - y0) * (H - T - B); };
  raw("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"tuning-chart\" role=\"img\" width=\"" +
      fixed(W, 0) + "\" height=\"" + fixed(H, 0) + "\" viewBox=\"0 0 " + fixed(W, 0) + " " +
      fixed(H, 0) + "\" aria-label=\"" + xmlEscape(c.yName + " against " + c.xName) + "\">");
  if (!title.empty()) {
    raw("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>");
    raw("<text x=\"" + fixed(L, 0) + "\" y=\"20\" font-size=\"14\" font-weight=\"600\">" +
        xmlEscape(title) + "</text>");
    raw("<circle cx=\"" + fixed(L + 6, 0) + "\" cy=\"36\" r=\"6\" fill=\"none\" stroke=\"#c62828\" "
        "stroke-width=\"2.5\"/><text x=\"" + fixed(L + 18, 0) + "\" y=\"40\" font-size=\"11\">picked</text>");
    raw("<rect x=\"" + fixed(L + 70, 0) + "\" y=\"30\" width=\"12\" height=\"12\" fill=\"none\" "
        "stroke=\"#5f6b7a\" stroke-width=\"2\"/><text x=\"" + fixed(L + 88, 0) +
        "\" y=\"40\" font-size=\"11\">default</text>");
    raw("<circle cx=\"" + fixed(L + 146, 0) + "\" cy=\"36\" r=\"3\" fill=\"#1565c0\" "
        "fill-opacity=\"0.55\"/><text x=\"" + fixed(L + 154, 0) + "\" y=\"40\" font-size=\"11\">" +
        std::string(c.measured ? "a variant that ran and was verified" : "a feasible variant (model only, nothing measured)") +
        "</text>");
  }
  raw("<rect x=\"" + fixed(L, 0) + "\" y=\"" + fixed(T, 0) + "\" width=\"" + fixed(W - L - R, 0) +
      "\" height=\"" + fixed(H - T - B, 0) + "\" fill=\"#fbfcfd\" stroke=\"#d8dee6\"/>");
  for (double t : ticks(x0, x1)) {
    raw("<line x1=\"" + fixed(sx(t), 1) + "\" x2=\"" + fixed(sx(t), 1) + "\" y1=\"" + fixed(T, 0) +
        "\" y2=\"" + fixed(H - B, 0) + "\" stroke=\"#eef1f4\"/>");
    raw("<text x=\"" + fixed(sx(t), 1) + "\" y=\"" + fixed(H - B + 16, 0) +
        "\" text-anchor=\"middle\" font-size=\"11\" fill=\"#5f6b7a\">" + num(t) + "</text>");
  }
  for (double t : ticks(y0, y1)) {
    raw("<line x1=\"" + fixed(L, 0) + "\" x2=\"" + fixed(W - R, 0) + "\" y1=\"" + fixed(sy(t), 1) +
        "\" y2=\"" + fixed(sy(t), 1) + "\" stroke=\"#eef1f4\"/>");
    raw("<text x=\"" + fixed(L - 6, 0) + "\" y=\"" + fixed(sy(t) + 4, 1) +
        "\" text-anchor=\"end\" font-size=\"11\" fill=\"#5f6b7a\">" + num(t) + "</text>");
  }
  raw("<text x=\"" + fixed((L + W - R) / 2, 0) + "\" y=\"" + fixed(H - 8, 0) +
      "\" text-anchor=\"middle\" font-size=\"12\">" + xmlEscape(c.xName) + "</text>");
  raw("<text transform=\"translate(14," + fixed((T + H - B) / 2, 0) +
      ") rotate(-90)\" text-anchor=\"middle\" font-size=\"12\">" + xmlEscape(c.yName) + "</text>");
  // Where the measured time equals the prediction: dots above it ran slower than predicted.
  double d0 = std::max(x0, y0), d1 = std::min(x1, y1);
  if (c.fitted && d1 > d0)
    raw("<line class=\"prediction-line\" x1=\"" + fixed(sx(d0), 1) + "\" y1=\"" + fixed(sy(d0), 1) +
        "\" x2=\"" + fixed(sx(d1), 1) + "\" y2=\"" + fixed(sy(d1), 1) +
        "\" stroke=\"#9aa5b1\" stroke-dasharray=\"4 4\"><title>measured = predicted</title></line>");
  const ChartPoint *pick = nullptr, *def = nullptr;
  for (const ChartPoint &p : pts) {
    if (p.id == c.picked) pick = &p;
    if (p.id == c.defaultId) def = &p;
    raw("<circle cx=\"" + fixed(sx(p.x), 1) + "\" cy=\"" + fixed(sy(p.y), 1) +
        "\" r=\"3\" fill=\"#1565c0\" fill-opacity=\"0.55\"><title>" +
        xmlEscape(p.id + ": " + c.xName + " " + num(p.x) + ", " + c.yName + " " + num(p.y) +
                  ", model rank " + std::to_string(p.rank)) +
        "</title></circle>");
  }
  if (def && def != pick)
    raw("<rect class=\"default-point\" x=\"" + fixed(sx(def->x) - 6, 1) + "\" y=\"" +
        fixed(sy(def->y) - 6, 1) + "\" width=\"12\" height=\"12\" fill=\"none\" stroke=\"#5f6b7a\" "
        "stroke-width=\"2\"><title>default: " + xmlEscape(def->id) + "</title></rect>");
  if (pick) {
    double px = sx(pick->x), py = sy(pick->y);
    raw("<circle class=\"picked-point\" cx=\"" + fixed(px, 1) + "\" cy=\"" + fixed(py, 1) +
        "\" r=\"8\" fill=\"none\" stroke=\"#c62828\" stroke-width=\"2.5\"><title>picked: " +
        xmlEscape(pick->id) + "</title></circle>");
    bool leftSide = px > W * 0.6;
    raw("<text x=\"" + fixed(px + (leftSide ? -12 : 12), 1) + "\" y=\"" + fixed(py - 10, 1) +
        "\" font-size=\"12\" font-weight=\"600\" fill=\"#c62828\"" +
        (leftSide ? " text-anchor=\"end\"" : "") + ">picked: " + xmlEscape(pick->id) + "</text>");
  }
  if (pts.empty())
    raw("<text x=\"" + fixed((L + W - R) / 2, 0) + "\" y=\"" + fixed((T + H - B) / 2, 0) +
        "\" text-anchor=\"middle\" font-size=\"12\" fill=\"#5f6b7a\">no variant has a result to draw</text>");
  raw("</svg>");
  return o;
}

}  // namespace rtcuda
