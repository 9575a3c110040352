// The page: head with the inline style sheet, a table of contents, then one article per kernel
// made of the sections of Sections.h.
#include "Sections.h"

#include "rtcuda/IR/Printer.h"

#include <stdexcept>

namespace rtcuda::explain {

namespace {

const char *kStyle = R"css(
:root { --par: #2e7d32; --par-bg: #e8f5e9; --seq: #c62828; --seq-bg: #ffebee; --red: #6a1b9a;
  --red-bg: #f3e5f5; --atom: #e65100; --atom-bg: #fff3e0; --ink: #1d2330; --mute: #5f6b7a;
  --line: #d8dee6; --mapped: #1565c0; --mapped-bg: #e3f2fd; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
  margin: 0; background: #f6f8fa; }
header.page { background: #1d2330; color: #fff; padding: 14px 28px; }
header.page h1 { margin: 0; font-size: 21px; }
header.page p { margin: 2px 0 0; color: #c5cdd8; font-size: 13px; }
nav.toc { padding: 8px 28px; background: #fff; border-bottom: 1px solid var(--line); font-size: 14px; }
nav.toc a { margin-right: 14px; }
main { padding: 12px 28px 40px; max-width: 1280px; }
article.kernel { background: #fff; border: 1px solid var(--line); border-radius: 8px;
  padding: 4px 22px 18px; margin: 18px 0; }
h2 { font-size: 20px; margin: 14px 0 4px; }
h3 { font-size: 16px; margin: 18px 0 6px; border-bottom: 1px solid var(--line); padding-bottom: 3px; }
h4 { font-size: 15px; margin: 0; display: inline; }
code, pre { font: 12.5px/1.45 ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
pre { background: #fbfcfd; border: 1px solid var(--line); border-radius: 5px; padding: 8px 10px;
  overflow-x: auto; margin: 6px 0; }
a { color: #0b57d0; }
.mute { color: var(--mute); font-size: 13px; }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px;
  font-weight: 600; margin-right: 4px; white-space: nowrap; }
.b-par { background: var(--par-bg); color: var(--par); } .b-seq { background: var(--seq-bg); color: var(--seq); }
.b-red { background: var(--red-bg); color: var(--red); } .b-atom { background: var(--atom-bg); color: var(--atom); }
.b-pass { background: var(--mapped-bg); color: var(--mapped); }
.legend { font-size: 13px; margin: 4px 0 8px; }
table.src { border-collapse: collapse; width: 100%; font: 12.5px/1.5 ui-monospace, "DejaVu Sans Mono", monospace; }
table.src td { padding: 0 6px; vertical-align: top; white-space: pre; }
table.src td.ln { color: #98a2ae; text-align: right; width: 3em; user-select: none; }
table.src td.gut { width: 1%; padding: 0; }
.bar { display: inline-block; width: 6px; height: 19px; margin-right: 2px; vertical-align: top; }
.bar.par { background: var(--par); } .bar.seq { background: var(--seq); } .bar.none { background: transparent; }
tr.loop-par td.code { background: var(--par-bg); } tr.loop-seq td.code { background: var(--seq-bg); }
tr.dep td.code { background: #fff59d; box-shadow: inset 3px 0 #f9a825; }
tr.red td.code { background: var(--red-bg); } tr.atom td.code { background: var(--atom-bg); }
td.note { font-family: system-ui, sans-serif !important; white-space: normal !important; font-size: 12.5px; color: var(--mute); }
.decision { margin: 4px 0; padding: 6px 10px; border-left: 4px solid var(--line); background: #fafbfc; font-size: 14px; }
.decision.par { border-color: var(--par); } .decision.seq { border-color: var(--seq); }
.decision.dep { border-color: #f9a825; background: #fffde7; }
ol.steps { list-style: none; padding: 0; margin: 0; counter-reset: step; }
ol.steps > li { border: 1px solid var(--line); border-radius: 6px; margin: 8px 0; padding: 8px 12px; }
ol.steps > li.changed { border-left: 5px solid var(--mapped); }
ol.steps > li.unchanged { border-left: 5px solid #b0bac5; background: #fafbfc; }
.step-head { display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
.step-head .num { color: var(--mute); font-weight: 600; }
.doc { font-size: 13.5px; color: #37414f; margin: 4px 0; }
ul.remarks { margin: 4px 0; padding-left: 20px; font-size: 13.5px; }
pre.diff span { display: block; } pre.diff .add { background: #e6ffec; color: #116329; }
pre.diff .del { background: #ffebe9; color: #82071e; } pre.diff .hunk { color: #8250df; background: #f6f0ff; }
details > summary { cursor: pointer; font-size: 13.5px; color: #37414f; }
ul.why { font-size: 13.5px; margin: 4px 0; }
table.data { border-collapse: collapse; font-size: 13px; margin: 6px 0; }
table.data th, table.data td { border: 1px solid var(--line); padding: 2px 8px; text-align: left; }
table.data th { background: #f0f3f6; }
.figs { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
figure { margin: 6px 0; } figcaption { font-size: 13px; color: var(--mute); max-width: 560px; }
svg text { font-family: system-ui, sans-serif; }
.tools { float: right; font-size: 13px; }
.tools button { font-size: 12px; margin-left: 4px; }
)css";

// Folding: every step and listing is a <details>; these buttons open or close them all.
const char *kScript = R"js(
function rtcudaFold(open) {
  document.querySelectorAll('details').forEach(function (d) { d.open = open; });
}
)js";

std::string kernelId(const std::string &name) { return "k-" + name; }

}  // namespace

const StepSnapshot *findStep(const KernelView &k, const std::string &step) {
  for (const StepSnapshot &s : *k.steps)
    if (s.step == step) return &s;
  return nullptr;
}

std::string renderReport(const ExplainInput &in) {
  nlohmann::json tuning;
  if (!in.tuningReport.empty()) {
    try {
      tuning = nlohmann::json::parse(in.tuningReport);
    } catch (const nlohmann::json::exception &e) {
      throw std::runtime_error(in.tuningReportName + ": not a tuning report (" + e.what() + ")");
    }
    if (!tuning.is_object() || tuning.value("format", "") != "rtcuda-tune-report")
      throw std::runtime_error(in.tuningReportName + ": not an rtcuda-tune report");
  }
  Html h;
  h.raw("<!DOCTYPE html>\n");
  h.open("html", attr("lang", "en")).raw("\n").open("head").raw("\n");
  h.raw("<meta charset=\"utf-8\">\n<meta name=\"generator\" content=\"rtcuda explain\">\n");
  h.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
  h.element("title", "rtcuda explain: " + in.title).raw("\n");
  h.open("style").raw(kStyle).close().raw("\n");
  h.open("script").raw(kScript).close().raw("\n");
  h.close().raw("\n").open("body").raw("\n");
  h.open("header", attr("class", "page"));
  h.element("h1", "rtcuda explain: " + in.title);
  std::string kernelsLine = std::to_string(in.kernels->size()) + " kernel(s)";
  if (!in.host.mainFile.empty()) kernelsLine += ", host program " + in.host.mainFile;
  h.element("p", kernelsLine + ". Each kernel: what the analysis decided about its loops, what "
                 "every pipeline step changed and why, how its iterations map onto blocks and "
                 "threads, its tuning space and what the host copies.");
  h.close().raw("\n");
  h.open("nav", attr("class", "toc"));
  h.open("span", attr("class", "tools"));
  h.raw("<button type=\"button\" onclick=\"rtcudaFold(true)\">expand all</button>");
  h.raw("<button type=\"button\" onclick=\"rtcudaFold(false)\">collapse all</button>");
  h.close();
  h.text("Kernels: ");
  for (const LoweredKernel &lk : *in.kernels)
    h.element("a", lk.kernel.name, attr("href", "#" + kernelId(lk.kernel.name)));
  h.close().raw("\n").open("main").raw("\n");
  for (size_t i = 0; i < in.kernels->size(); ++i) {
    const LoweredKernel &lk = (*in.kernels)[i];
    KernelView k;
    k.lowered = &lk;
    for (const KernelSource &s : in.sources ? *in.sources : in.program->kernels)
      if (s.kernel.name == lk.kernel.name) k.source = &s;
    static const std::vector<StepSnapshot> none;
    auto steps = in.steps.find(lk.kernel.name);
    k.steps = steps == in.steps.end() ? &none : &steps->second;
    k.id = kernelId(lk.kernel.name);
    if (tuning.is_object()) {
      k.tuningRun = &tuning;
      for (const nlohmann::json &kr : tuning["kernels"])
        if (kr.value("kernel", "") == lk.kernel.name) k.tuning = &kr;
    }
    h.open("article", attr("class", "kernel") + attr("id", k.id) +
                          attr("data-kernel", lk.kernel.name));
    h.open("h2").text("kernel ").open("code").text(lk.kernel.name).close().close();
    h.open("p", attr("class", "mute"));
    h.text((k.source ? k.source->file : lk.kernel.loc.file) + ":" +
           std::to_string(lk.kernel.loc.line) + " · passes that changed it: ");
    for (const std::string &p : lk.kernel.passes) h.element("span", p, attr("class", "badge b-pass"));
    if (lk.kernel.passes.empty()) h.text("none");
    h.close().raw("\n");
    sourceSection(h, k, in);
    pipelineSection(h, k, in);
    mappingSection(h, k);
    tuningSection(h, k, in);
    hostSection(h, k, in);
    h.close().raw("\n");
  }
  h.close().raw("\n");
  h.open("footer", attr("class", "mute") + attr("style", "padding: 0 28px 20px"));
  h.text("Written by rtcuda explain. Self-contained: no network access, no external files; "
         "links to the pass pages point into the project's docs/ folder.");
  h.close().raw("\n");
  h.close().raw("\n").close().raw("\n");
  return h.str();
}

}  // namespace rtcuda::explain
