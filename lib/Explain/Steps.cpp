// The pipeline as steps: each step that changed the kernel with its summary, the pass page's
// first paragraph and a link to it, the remarks it left and a diff of the IR; the steps that
// changed nothing folded into one line each run, with why (their remarks, or when they apply).
#include "Diff.h"
#include "Sections.h"

#include "rtcuda/IR/Printer.h"

namespace rtcuda::explain {

namespace {

// Remarks `after` has beyond those of `before` (passes only append).
std::vector<std::string> newRemarks(const ir::Kernel &before, const ir::Kernel &after) {
  if (after.remarks.size() < before.remarks.size()) return after.remarks;
  return std::vector<std::string>(after.remarks.begin() + long(before.remarks.size()),
                                  after.remarks.end());
}

void diffBlock(Html &h, const std::string &before, const std::string &after) {
  std::vector<DiffLine> all = diffLines(before, after);
  int added = 0, removed = 0;
  for (const DiffLine &l : all) added += l.kind == '+', removed += l.kind == '-';
  h.open("details", attr("class", "ir-diff") + " open");
  h.element("summary", "IR before → after: +" + std::to_string(added) + " −" +
                           std::to_string(removed) + " lines (unified diff)");
  h.open("pre", attr("class", "diff"));
  for (const DiffLine &l : hunks(all)) {
    const char *cls = l.kind == '+' ? "add" : l.kind == '-' ? "del" : l.kind == '@' ? "hunk" : "ctx";
    std::string prefix = l.kind == '@' ? "@@ " : std::string(1, l.kind) + " ";
    h.element("span", prefix + l.text, attr("class", cls));
  }
  h.close().close();
}

void docLink(Html &h, const std::string &pass, const ExplainInput &in) {
  std::string href = in.docsHref + "/passes/" + pass + ".md";
  h.open("a", attr("class", "doclink") + attr("href", href)).text("docs/passes/" + pass + ".md").close();
}

void changedStep(Html &h, const KernelView &k, const ExplainInput &in, size_t n,
                 const StepSnapshot &before, const StepSnapshot &after) {
  h.open("li", attr("class", "changed") + attr("id", k.id + "-step-" + after.step) +
                   attr("data-pass", after.step));
  h.open("div", attr("class", "step-head"));
  h.element("span", std::to_string(n) + ".", attr("class", "num"));
  h.element("h4", after.step);
  h.element("span", after.summary);
  h.open("span", attr("class", "mute")).text("· ");
  docLink(h, after.step, in);
  h.close();
  h.close();
  std::string doc = passDocParagraph(after.step);
  if (!doc.empty()) h.open("p", attr("class", "doc")).raw(doc).close();
  std::vector<std::string> remarks = newRemarks(before.kernel, after.kernel);
  if (!remarks.empty()) {
    h.open("ul", attr("class", "remarks"));
    for (const std::string &r : remarks) h.open("li").text("Why: " + r).close();
    h.close();
  } else {
    h.element("p", "The pass left no remark.", attr("class", "mute"));
  }
  diffBlock(h, ir::printKernel(before.kernel), ir::printKernel(after.kernel));
  h.close().raw("\n");
}

void unchangedSteps(Html &h, const KernelView &k, const ExplainInput &in,
                    const std::vector<std::pair<const StepSnapshot *, const StepSnapshot *>> &run) {
  std::string names;
  for (const auto &[before, after] : run) names += (names.empty() ? "" : ", ") + after->step;
  h.open("li", attr("class", "unchanged") + attr("id", k.id + "-unchanged-" + run.front().second->step));
  h.open("details");
  h.open("summary").open("strong").text(names).close();
  h.text(run.size() == 1 ? ": did not change the kernel (why not ▸)"
                         : ": did not change the kernel (why not, for each ▸)");
  h.close();
  h.open("ul", attr("class", "why"));
  for (const auto &[before, after] : run) {
    h.open("li", attr("data-unchanged", after->step)).open("strong").text(after->step).close();
    h.text(" (" + after->summary + "): ");
    std::vector<std::string> remarks = newRemarks(before->kernel, after->kernel);
    std::string when = passWhenItApplies(after->step);
    if (!remarks.empty()) {
      for (size_t i = 0; i < remarks.size(); ++i) h.text((i ? "; " : "") + remarks[i]);
    } else if (!when.empty()) {
      h.text("no remark; it applies when: ").raw(when);
    } else {
      h.text("no remark; nothing in this kernel for it to do.");
    }
    h.text(" ");
    docLink(h, after->step, in);
    h.close();
  }
  h.close().close().close().raw("\n");
}

}  // namespace

void pipelineSection(Html &h, const KernelView &k, const ExplainInput &in) {
  h.open("section", attr("class", "pipeline") + attr("id", k.id + "-pipeline"));
  h.element("h3", "2. The pipeline, step by step");
  const std::vector<StepSnapshot> &steps = *k.steps;
  if (steps.empty()) {
    h.element("p", "No pipeline steps were recorded.").close();
    return;
  }
  h.element("p", "Each pass runs once, in this order. A pass that changed the kernel shows what "
                 "it did, why (its remarks), the IR before and after, and its page; passes that "
                 "changed nothing are folded into one line.", attr("class", "mute"));
  h.open("ol", attr("class", "steps"));
  h.open("li", attr("class", "changed") + attr("data-step", steps[0].step));
  h.open("div", attr("class", "step-head"));
  h.element("span", "1.", attr("class", "num")).element("h4", steps[0].step).element("span", steps[0].summary);
  h.close();
  h.open("details").element("summary", "the IR as read (teaching dump)");
  h.element("pre", ir::printKernel(steps[0].kernel));
  h.close().close().raw("\n");
  std::vector<std::pair<const StepSnapshot *, const StepSnapshot *>> folded;
  size_t n = 1;
  for (size_t i = 1; i < steps.size(); ++i) {
    const StepSnapshot &before = steps[i - 1], &after = steps[i];
    bool changed = after.kernel.passes.size() > before.kernel.passes.size() ||
                   ir::printKernel(before.kernel) != ir::printKernel(after.kernel);
    if (!changed) {
      folded.push_back({&before, &after});
      continue;
    }
    if (!folded.empty()) unchangedSteps(h, k, in, folded), folded.clear();
    changedStep(h, k, in, ++n, before, after);
  }
  if (!folded.empty()) unchangedSteps(h, k, in, folded);
  h.close();
  h.open("details").element("summary", "the kernel as written to kernel.cu (CUDA)");
  h.element("pre", ir::printKernel(k.lowered->kernel, ir::PrintMode::Cuda));
  h.close();
  h.close().raw("\n");
}

}  // namespace rtcuda::explain
