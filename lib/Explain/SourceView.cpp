// The kernel's source with its loops coloured by the analysis' decision (parallel, sequential),
// the statements of a dependence that keeps a loop sequential highlighted as a pair, reduced
// scalars and atomic updates marked, and the decisions in words (ParallelLoops' remarks).
#include "Sections.h"

#include "rtcuda/Analysis/Dependence.h"
#include "rtcuda/IR/Mutate.h"

#include <fstream>
#include <set>

namespace rtcuda::explain {

namespace {

using namespace ir;

unsigned lastLine(const Stmt &s) {
  unsigned last = 0;
  visitStmt(s, [&](const Stmt &n) { last = std::max(last, n->loc.line); });
  return last;
}

// The loops perfectly nested from the kernel's first loop down.
std::vector<Stmt> perfectLoops(const Kernel &k) {
  std::vector<Stmt> nest;
  Stmt s;
  for (const Stmt &c : k.body->stmts)
    if (c->kind == StmtKind::For) {
      s = c;
      break;
    }
  while (s && s->kind == StmtKind::For) {
    nest.push_back(s);
    Stmt body = s->body;
    s = nullptr;
    while (body && body->kind == StmtKind::Block) {
      std::vector<Stmt> real;
      for (const Stmt &c : body->stmts)
        if (c->kind != StmtKind::Comment) real.push_back(c);
      body = real.size() == 1 ? real[0] : nullptr;
    }
    if (body && body->kind == StmtKind::For) s = body;
  }
  return nest;
}

struct LoopMark {
  std::string name;
  unsigned first = 0, last = 0;
  bool parallel = false;
};

}  // namespace

void sourceSection(Html &h, const KernelView &k, const ExplainInput &in) {
  (void)in;
  h.open("section", attr("class", "source") + attr("id", k.id + "-source"));
  h.element("h3", "1. The loop nest and what the analysis decided");
  const StepSnapshot *front = findStep(k, "Frontend");
  const StepSnapshot *marked = findStep(k, "ParallelLoops");
  if (!front || !marked || !k.source) {
    h.element("p", "The analysis was not recorded for this kernel.").close();
    return;
  }
  const Kernel &src = front->kernel;
  std::map<unsigned, std::string> sourceLoops;  // line -> loop variable
  visitStmt(src.body, [&](const Stmt &s) {
    if (s->kind == StmtKind::For) sourceLoops[s->loc.line] = s->name;
  });
  std::vector<LoopMark> loops;
  std::set<unsigned> marks;
  visitStmt(marked->kernel.body, [&](const Stmt &s) {
    auto it = sourceLoops.find(s->loc.line);
    if (s->kind != StmtKind::For || it == sourceLoops.end() || marks.count(s->loc.line)) return;
    // A loop kept sequential around it spreads this one over the block's threads: it keeps
    // the source line but strides by the block size (ParallelNest.cpp, on_dependence).
    bool spread = s->name != it->second && !isConst(s->step);
    if (s->name != it->second && !spread) return;
    marks.insert(s->loc.line);
    loops.push_back({it->second, s->loc.line, std::max(s->loc.line, lastLine(s->body)),
                     spread || s->loopKind == LoopKind::Parallel});
  });
  // Dependences that keep a loop of the nest sequential: both statements of each.
  std::vector<Dependence> deps;
  std::vector<Stmt> nest = perfectLoops(src);
  for (const Dependence &d : carriedDependences(src, nest)) {
    bool serial = false;
    for (const LoopMark &l : loops) serial |= l.name == nest[size_t(d.level)]->name && !l.parallel;
    if (!serial) continue;
    bool seen = false;
    for (const Dependence &e : deps) seen |= e.level == d.level;
    if (seen) continue;  // the most informative one per loop (the analysis sorts them)
    deps.push_back(d);
  }
  std::set<unsigned> depSet, redLines, atomLines;
  for (const Dependence &d : deps) depSet.insert(d.loc.line), depSet.insert(d.otherLoc.line);
  for (const Reduction &r : marked->kernel.reductions)
    visitStmt(marked->kernel.body, [&](const Stmt &s) {
      if (s->kind == StmtKind::Assign && s->name == r.var) redLines.insert(s->loc.line);
    });
  for (const std::string &a : marked->kernel.atomicArrays)
    visitStmt(marked->kernel.body, [&](const Stmt &s) {
      if (s->kind == StmtKind::Store && s->name == a) atomLines.insert(s->loc.line);
    });

  h.open("p", attr("class", "legend"));
  h.element("span", "parallel loop", attr("class", "badge b-par"));
  h.element("span", "sequential loop", attr("class", "badge b-seq"));
  h.element("span", "dependence (the pair of statements)", attr("class", "badge") +
                                                               attr("style", "background:#fff59d"));
  h.element("span", "reduction", attr("class", "badge b-red"));
  h.element("span", "atomic update", attr("class", "badge b-atom"));
  h.close();

  std::ifstream file(k.source->file);
  std::vector<std::string> text;
  for (std::string line; std::getline(file, line);) text.push_back(line);
  unsigned first = src.loc.line, last = std::max(first, lastLine(src.body));
  while (last < text.size() && text[last].find_first_not_of(" \t}") == std::string::npos &&
         text[last].find('}') != std::string::npos)
    ++last;
  if (text.size() < last || first == 0) {
    h.element("p", "cannot read " + k.source->file + " to show the source", attr("class", "mute"));
  } else {
    h.open("table", attr("class", "src") + attr("aria-label", "source of " + src.name)).open("tbody");
    for (unsigned line = first; line <= last; ++line) {
      std::string cls, note;
      for (const LoopMark &l : loops)
        if (l.first == line) {
          cls = l.parallel ? "loop-par" : "loop-seq";
          note = "loop " + l.name + ": " + (l.parallel ? "parallel" : "sequential");
        }
      if (redLines.count(line)) cls = "red", note = "reduction: combined across threads";
      if (atomLines.count(line)) cls = "atom", note = "atomic update";
      for (size_t d = 0; d < deps.size(); ++d) {
        if (deps[d].otherLoc.line == line) cls = "dep", note = "dependence: first access (loop " + nest[size_t(deps[d].level)]->name + ")";
        if (deps[d].loc.line == line) cls = "dep", note = "dependence: second access (loop " + nest[size_t(deps[d].level)]->name + ")";
      }
      h.open("tr", cls.empty() ? "" : attr("class", cls));
      h.element("td", std::to_string(line), attr("class", "ln"));
      h.open("td", attr("class", "gut"));
      for (const LoopMark &l : loops)
        if (line >= l.first && line <= l.last)
          h.raw("<span class=\"bar " + std::string(l.parallel ? "par" : "seq") + "\" title=\"loop " +
                escape(l.name) + "\">&nbsp;</span>");
      h.close();
      h.element("td", text[line - 1], attr("class", "code"));
      h.element("td", note, attr("class", "note"));
      h.close();
    }
    h.close().close();
  }
  // The decisions in words.
  const StepSnapshot *prev = front;
  for (size_t i = prev->kernel.remarks.size(); i < marked->kernel.remarks.size(); ++i) {
    const std::string &r = marked->kernel.remarks[i];
    bool par = r.find("): parallel") != std::string::npos;
    h.element("div", r, attr("class", std::string("decision ") + (par ? "par" : "seq")));
  }
  for (const Dependence &d : deps)
    h.element("div", "Dependence keeping loop '" + nest[size_t(d.level)]->name + "' sequential: " +
                         (d.otherLoc.line == d.loc.line
                              ? d.loc.str() + " with itself, in another iteration"
                              : d.otherLoc.str() + " and " + d.loc.str()) + ": " + d.message +
                         (d.exact ? "" : " (a subscript is not affine: the analysis assumes the worst)"),
              attr("class", "decision dep"));
  for (const Reduction &r : marked->kernel.reductions)
    h.element("div", "Reduction: scalar '" + r.var + "' (" + r.op + ", declared at " + r.loc.str() +
                         ") is combined across the parallel loops (ParallelReduction)",
              attr("class", "decision par"));
  for (const std::string &a : marked->kernel.atomicArrays)
    h.element("div", "Atomic: different iterations may update the same element of '" + a +
                         "'; its updates become atomic (AtomicUpdates)",
              attr("class", "decision par"));
  h.close().raw("\n");
}

}  // namespace rtcuda::explain
