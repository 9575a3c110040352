// The mapping drawn: the lowered kernel is run for a small size (Interpret.cpp) and every
// source iteration is drawn in the colour of the block that computed it, labelled with the
// thread; the elements block (0, 0) stages in shared memory are drawn per array and round.
#include "Interpret.h"
#include "Sections.h"

#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"

#include <cstdlib>

namespace rtcuda::explain {

namespace {

using namespace ir;

const char *kBlockColours[] = {"#bbdefb", "#c8e6c9", "#ffe0b2", "#e1bee7",
                               "#fff9c4", "#b2dfdb", "#f8bbd0", "#d7ccc8"};

struct Setup {
  std::map<std::string, long long> ints;
  std::vector<std::string> loopVars;
  std::vector<long long> extents, mins, steps;  // trip count, first value and step per loop
  std::string sizesText, pointText;
};

// Sizes that make the parallel loops about 8 x 8 (one loop: about 40, so several blocks show),
// BLOCKSIZE 16, and for every other tuning parameter its smallest value from 2 up (the default
// when it has none, as 0/1 switches).
bool chooseSetup(const KernelView &k, Setup &s) {
  const LoweredKernel &lk = *k.lowered;
  const StepSnapshot *front = findStep(k, "Frontend");
  std::set<std::string> sourceLoops;
  if (front)
    visitStmt(front->kernel.body, [&](const Stmt &st) {
      if (st->kind == StmtKind::For) sourceLoops.insert(st->name);
    });
  std::vector<Stmt> loops;
  visitStmt(lk.source.body, [&](const Stmt &st) {
    if (st->kind == StmtKind::For && st->loopKind == LoopKind::Parallel && sourceLoops.count(st->name))
      loops.push_back(st);
  });
  // A kernel kept sequential has no parallel source loop: draw its outer source loops.
  if (loops.empty() && front)
    visitStmt(front->kernel.body, [&](const Stmt &st) {
      if (st->kind == StmtKind::For) loops.push_back(st);
    });
  if (loops.empty()) return false;
  if (loops.size() > 2) loops.resize(2);
  std::vector<std::string> sizes;
  for (const Param &p : lk.kernel.params)
    if (!p.isArray && p.type.isInteger()) sizes.push_back(p.name);
  long long target = loops.size() == 1 ? 40 : 8, best = -1, bestScore = 0;
  for (long long v = 1; v <= 300; ++v) {
    std::map<std::string, long long> ints;
    for (const std::string &n : sizes) ints[n] = v;
    long long score = 0;
    bool ok = true;
    for (const Stmt &l : loops) {
      long long e;
      ok &= evalInt(tripCount(l), ints, e) && e >= 1;
      if (ok) score += std::llabs(e - target);
    }
    if (ok && (best < 0 || score < bestScore)) best = v, bestScore = score;
  }
  if (best < 0) return false;
  for (const std::string &n : sizes) {
    s.ints[n] = best;
    s.sizesText += (s.sizesText.empty() ? "" : ", ") + n + " = " + std::to_string(best);
  }
  for (const Stmt &l : loops) {
    long long e = 0, first = 0, step = 1;
    evalInt(tripCount(l), s.ints, e);
    evalInt(l->min, s.ints, first);
    evalInt(l->step, s.ints, step);
    s.extents.push_back(e);
    s.mins.push_back(first);
    s.steps.push_back(step);
    s.loopVars.push_back(l->name);
  }
  for (const TuningParam &t : lk.kernel.tuning) {
    int v = t.defaultValue;
    // The smallest value from 2 up: several results per thread, small tiles (more rounds).
    int smallest = 0;
    for (int x : t.values)
      if (x >= 2 && (smallest == 0 || x < smallest)) smallest = x;
    if (t.name == "BLOCKSIZE") v = 16;
    else if (smallest) v = smallest;
    s.ints[t.macro] = v;
    s.pointText += (s.pointText.empty() ? "" : ", ") + t.name + " " + std::to_string(v);
  }
  return true;
}

std::string cellColour(const ThreadId &t, const MappingRun &run) {
  long long b = t.block[1] * run.blocks[0] + t.block[0];
  return kBlockColours[b % 8];
}

std::string blockName(const ThreadId &t, const MappingRun &run) {
  return run.blocks[1] > 1 ? "(" + std::to_string(t.block[0]) + "," + std::to_string(t.block[1]) + ")"
                           : std::to_string(t.block[0]);
}

void rect(Html &h, double x, double y, double w, double hh, const std::string &fill,
          const std::string &extra = "") {
  h.raw("<rect x=\"" + fixed(x, 1) + "\" y=\"" + fixed(y, 1) + "\" width=\"" + fixed(w, 1) +
        "\" height=\"" + fixed(hh, 1) + "\" fill=\"" + fill + "\"" + extra + "/>");
}

void label(Html &h, double x, double y, const std::string &t, const std::string &extra = "") {
  h.raw("<text x=\"" + fixed(x, 1) + "\" y=\"" + fixed(y, 1) + "\"" + extra + ">" + escape(t) + "</text>");
}

// The iteration space, one cell per source iteration.
void iterationPicture(Html &h, const Setup &s, const MappingRun &run) {
  bool twoD = s.extents.size() == 2;
  long long rows = twoD ? s.extents[0] : (s.extents[0] + 15) / 16;
  long long cols = twoD ? s.extents[1] : std::min<long long>(16, s.extents[0]);
  const double cell = 40, left = 34, top = 26;
  double width = left + cols * cell + 10, height = top + rows * cell + 10;
  h.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"mapping\" role=\"img\" width=\"" +
        fixed(width, 0) + "\" height=\"" + fixed(height, 0) + "\" viewBox=\"0 0 " + fixed(width, 0) +
        " " + fixed(height, 0) + "\" aria-label=\"iterations by block and thread\">");
  label(h, left, 12, twoD ? s.loopVars[1] + " →" : s.loopVars[0] + " →", " font-size=\"12\" fill=\"#5f6b7a\"");
  if (twoD) label(h, 2, top + 14, s.loopVars[0] + "↓", " font-size=\"12\" fill=\"#5f6b7a\"");
  ThreadId highlight;
  for (long long r = 0; r < rows; ++r)
    for (long long c = 0; c < cols; ++c) {
      if (!twoD && r * 16 + c >= s.extents[0]) continue;
      // The loops' own values (they may start elsewhere than 0).
      std::vector<long long> at =
          twoD ? std::vector<long long>{s.mins[0] + r * s.steps[0], s.mins[1] + c * s.steps[1]}
               : std::vector<long long>{s.mins[0] + (r * 16 + c) * s.steps[0]};
      double x = left + c * cell, y = top + r * cell;
      auto it = run.iterations.find(at);
      std::string title;
      if (it == run.iterations.end() || it->second.empty()) {
        rect(h, x + 1, y + 1, cell - 2, cell - 2, "#ffffff", " stroke=\"#d8dee6\"");
        label(h, x + cell / 2, y + cell / 2 + 4, "—", " text-anchor=\"middle\" font-size=\"11\"");
        continue;
      }
      const ThreadId &t = *it->second.begin();
      bool mine = !(t < highlight) && !(highlight < t);
      rect(h, x + 1, y + 1, cell - 2, cell - 2, cellColour(t, run),
           mine ? " stroke=\"#1d2330\" stroke-width=\"3\"" : " stroke=\"#ffffff\"");
      std::string text = "t" + std::to_string(t.thread);
      if (it->second.size() > 1) text += "+" + std::to_string(it->second.size() - 1);
      label(h, x + cell / 2, y + 17, text, " text-anchor=\"middle\" font-size=\"11\" font-weight=\"600\"");
      label(h, x + cell / 2, y + 31, "b" + blockName(t, run), " text-anchor=\"middle\" font-size=\"10\" fill=\"#37414f\"");
    }
  h.raw("</svg>");
}

// Elements of one array staged by block (0, 0), coloured by round.
void stagingPicture(Html &h, const KernelView &k, const Setup &s, const MappingRun &run,
                    const std::string &array) {
  const StepSnapshot *front = findStep(k, "Frontend");
  const Param *p = front ? front->kernel.findParam(array) : nullptr;
  long long rows = 1, cols = 1;
  if (p && p->dims.size() == 2) {
    if (!p->dims[0] || !evalInt(p->dims[0], s.ints, rows)) {
      auto f = k.lowered->footprints.find(array);
      if (f == k.lowered->footprints.end() || !evalInt(f->second.rows, s.ints, rows)) rows = 0;
    }
    if (!evalInt(p->dims[1], s.ints, cols)) cols = 0;
  } else {
    long long max = 0;
    for (const StagedElement &e : run.staged) max = std::max(max, e.index + 1);
    cols = std::min<long long>(16, max), rows = (max + 15) / 16;
  }
  if (rows <= 0 || cols <= 0 || rows > 24 || cols > 24) {
    h.element("p", "(" + array + " is too large to draw at this size)", attr("class", "mute"));
    return;
  }
  std::map<long long, int> round;
  for (const StagedElement &e : run.staged)
    if (e.array == array && !round.count(e.index)) round[e.index] = e.round;
  const double cell = 26, left = 30, top = 22;
  double width = left + cols * cell + 10, height = top + rows * cell + 10;
  h.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"staging\" role=\"img\" width=\"" +
        fixed(width, 0) + "\" height=\"" + fixed(height, 0) + "\" viewBox=\"0 0 " + fixed(width, 0) +
        " " + fixed(height, 0) + "\" aria-label=\"elements of " + escape(array) + " staged\">");
  label(h, left, 13, array + " (" + std::to_string(rows) + " x " + std::to_string(cols) + ")",
        " font-size=\"12\" fill=\"#5f6b7a\"");
  const char *shades[] = {"#1565c0", "#42a5f5", "#90caf9", "#0d47a1", "#64b5f6"};
  for (long long r = 0; r < rows; ++r)
    for (long long c = 0; c < cols; ++c) {
      auto it = round.find(r * cols + c);
      double x = left + c * cell, y = top + r * cell;
      if (it == round.end()) {
        rect(h, x + 1, y + 1, cell - 2, cell - 2, "#f0f3f6");
        continue;
      }
      rect(h, x + 1, y + 1, cell - 2, cell - 2, shades[(it->second - 1) % 5]);
      label(h, x + cell / 2, y + cell / 2 + 4, std::to_string(it->second),
            " text-anchor=\"middle\" font-size=\"10\" fill=\"#ffffff\"");
    }
  h.raw("</svg>");
}

}  // namespace

void mappingSection(Html &h, const KernelView &k) {
  h.open("section", attr("class", "mapping") + attr("id", k.id + "-mapping"));
  h.element("h3", "3. The mapping: which iterations a thread and a block compute");
  Setup s;
  if (!chooseSetup(k, s)) {
    h.element("p", "No parallel loop of this kernel has a trip count that is an expression of "
                   "its integer parameters, so no picture is drawn.", attr("class", "mute"));
    h.close();
    return;
  }
  MappingRequest req;
  req.kernel = &k.lowered->kernel;
  req.ints = s.ints;
  req.loopVars = s.loopVars;
  visitStmt(k.lowered->source.body, [&](const Stmt &st) {
    if (st->kind == StmtKind::Store || st->kind == StmtKind::Assign) req.bodyLines.insert(st->loc.line);
  });
  MappingRun run = runMapping(req);
  std::string grid = std::to_string(run.blocks[0]) + (run.blocks[1] > 1 ? " x " + std::to_string(run.blocks[1]) : "");
  h.open("p").text("Drawn for " + s.sizesText + " at " + s.pointText +
                   " (BLOCKSIZE 16 is smaller than the tuner's range, so that several blocks "
                   "show): a grid of " + grid + " block(s) of " + std::to_string(run.threads) +
                   " thread(s). The kernel's IR after every pass was run for this size, thread by "
                   "thread; each cell is one iteration of the source loops (" );
  for (size_t i = 0; i < s.loopVars.size(); ++i) h.text((i ? ", " : "") + s.loopVars[i]);
  h.text("), coloured by its block and labelled with its thread. The outlined cells are thread 0 of block 0.").close();
  h.open("div", attr("class", "figs"));
  h.open("figure");
  iterationPicture(h, s, run);
  // What the run saw: every iteration once, several threads (lanes) on one, or none.
  long long expected = 1;
  for (long long e : s.extents) expected *= e;
  long long once = 0, shared = 0;
  std::vector<std::string> mine;
  for (const auto &[at, threads] : run.iterations) {
    (threads.size() == 1 ? once : shared)++;
    for (const ThreadId &t : threads)
      if (t.block[0] == 0 && t.block[1] == 0 && t.thread == 0) {
        std::string c = "(";
        for (size_t i = 0; i < at.size(); ++i) c += (i ? "," : "") + std::to_string(at[i]);
        mine.push_back(c + ")");
      }
  }
  std::string caption = std::to_string(run.iterations.size()) + " of " + std::to_string(expected) +
                        " iterations computed";
  if (shared) caption += ", " + std::to_string(shared) + " of them by several threads together (t0+N: N more threads)";
  else if ((long long)run.iterations.size() == expected) caption += ", each by exactly one thread";
  caption += ". Thread 0 of block 0 computes ";
  for (size_t i = 0; i < mine.size() && i < 8; ++i) caption += (i ? " " : "") + mine[i];
  if (mine.size() > 8) caption += " … (" + std::to_string(mine.size()) + " in all)";
  if (mine.empty()) caption += "nothing";
  h.element("figcaption", caption + ".", attr("class", "mapping-check"));
  h.close();
  std::set<std::string> stagedArrays;
  for (const StagedElement &e : run.staged) stagedArrays.insert(e.array);
  for (const std::string &a : stagedArrays) {
    h.open("figure");
    stagingPicture(h, k, s, run, a);
    int rounds = 0;
    size_t count = 0;
    std::set<long long> distinct;
    for (const StagedElement &e : run.staged)
      if (e.array == a) rounds = std::max(rounds, e.round), distinct.insert(e.index);
    count = distinct.size();
    std::string into;
    for (const auto &[name, n] : run.sharedArrays)
      into += (into.empty() ? "" : ", ") + name + "[" + std::to_string(n) + "]";
    h.element("figcaption", "Shared memory: block 0 stages " + std::to_string(count) +
                                " element(s) of " + a + " (blue; the number is the staging round, " +
                                std::to_string(rounds) + " in all) into " +
                                (into.empty() ? "shared memory" : into) + ".");
    h.close();
  }
  h.close();
  if (stagedArrays.empty())
    h.element("p", run.sharedArrays.empty() ? "Nothing is staged in shared memory: every thread reads its operands from global memory."
                                            : "Shared memory is used for the block's partial results, not to stage array elements.",
              attr("class", "mute"));
  for (const std::string &n : run.notes) h.element("p", "Note: " + n + ".", attr("class", "mute"));
  h.close().raw("\n");
}

}  // namespace rtcuda::explain
