// The host side of a kernel: which arrays its launch copies in and out (its footprints), where
// main.c launches it, and which of those launches sit in a resident loop, whose arrays stay on
// the GPU until the loop ends.
#include "Sections.h"

#include "rtcuda/IR/Printer.h"

namespace rtcuda::explain {

void hostSection(Html &h, const KernelView &k, const ExplainInput &in) {
  h.open("section", attr("class", "host") + attr("id", k.id + "-host"));
  h.element("h3", "5. The host side: what is copied when");
  const LoweredKernel &lk = *k.lowered;
  bool managed = in.options && in.options->memory == "managed";
  h.open("table", attr("class", "data")).open("thead").open("tr");
  for (std::string c : {"array", "kernel", "elements", "before the launch", "after the launch"})
    h.element("th", c);
  h.close().close().open("tbody");
  for (const ir::Param &p : lk.kernel.params) {
    if (!p.isArray) continue;
    auto f = lk.footprints.find(p.name);
    bool read = f != lk.footprints.end() && f->second.read;
    bool written = f != lk.footprints.end() && f->second.written;
    std::string use = read && written ? "reads and writes" : read ? "reads" : written ? "writes" : "does not touch";
    h.open("tr").open("td").element("code", p.name).close().element("td", use);
    h.element("td", f != lk.footprints.end() && f->second.elements ? ir::print(f->second.elements) : "—");
    if (managed) {
      h.element("td", "managed memory: no copy").element("td", "managed memory: no copy");
    } else if (!read && !written) {
      h.element("td", "nothing (passed as NULL)").element("td", "nothing");
    } else {
      // rtcuda_array_in copies every touched array, a written one too: a partial write keeps
      // the rest (LaunchFunction.cpp).
      h.element("td", "copied to the GPU");
      h.element("td", written ? "copied back to the host" : "nothing (not written)");
    }
    h.close();
  }
  h.close().close();
  if (in.host.mainFile.empty()) {
    h.element("p", "The config names no host program: only the launch function (launch.cuh) "
                   "is generated.", attr("class", "mute"));
    h.close().raw("\n");
    return;
  }
  std::vector<const HostSummary::Call *> calls;
  for (const HostSummary::Call &c : in.host.calls)
    if (c.kernel == lk.kernel.name) calls.push_back(&c);
  if (calls.empty()) {
    h.element("p", in.host.mainFile + " does not call this kernel directly (an outlined kernel is launched by its function's host function).", attr("class", "mute"));
    h.close().raw("\n");
    return;
  }
  h.open("ul", attr("class", "calls"));
  for (const HostSummary::Call *c : calls) {
    h.open("li").text(in.host.mainFile + ":" + std::to_string(c->line) + ": ");
    if (managed) {
      h.text("launched on managed memory; the driver moves pages on demand.");
    } else if (c->loop < 0) {
      h.text("each call copies the arrays in, launches, waits, and copies the written ones back.");
    } else {
      const HostSummary::Loop &l = in.host.loops[size_t(c->loop)];
      h.open("strong").text("resident loop").close();
      h.text(" (lines " + std::to_string(l.firstLine) + "–" + std::to_string(l.lastLine) +
             "): the loop stays on the device. Each array is copied in at its first launch in the "
             "loop and stays on the GPU; the arrays kernels wrote are copied back once, when the "
             "loop ends.");
      if (!l.rtapiCalls.empty()) {
        std::string calls;
        for (const std::string &r : l.rtapiCalls) calls += (calls.empty() ? "" : ", ") + r;
        h.text(" Its RT-API calls (" + calls + ") work on the same device copies.");
      }
    }
    h.close();
  }
  h.close();
  h.close().raw("\n");
}

}  // namespace rtcuda::explain
