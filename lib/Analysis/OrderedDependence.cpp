// Dependences between two statements under a given order of their iterations (Fusion,
// Interchange): does any instance of `source` touch an element that an instance of `sink`
// touches, with the two iterations related by `order`? Uses the analyzer of Dependence.cpp.
#include "DependenceAnalyzer.h"

#include <isl/options.h>

namespace rtcuda {

using namespace ir;

namespace dependence {

// The statements of `s`'s subtree (an access's `stmt` is one of them when it lies inside).
static std::set<const StmtNode *> subtree(const Stmt &s) {
  std::set<const StmtNode *> out;
  visitStmt(s, [&](const Stmt &n) { out.insert(n.get()); });
  return out;
}

std::optional<Dependence> Analyzer::ordered(const Stmt &source, const Stmt &sink,
                                            const std::string &order, const std::string &phrase) {
  std::set<const StmtNode *> inSource = subtree(source), inSink = subtree(sink);
  size_t n = nestLoops.size();
  std::vector<const Access *> from, to;
  for (const Access &a : accesses) {
    if (!inSource.count(a.stmt.get()) && !inSink.count(a.stmt.get())) continue;
    if (a.loops.size() < n) {
      // Read in the bounds of one of the loops: not an iteration of the whole nest.
      Dependence d{0, a.array, false, false, a.stmt->loc,
                   "could not analyze " + a.text() + " at " + a.stmt->loc.str() +
                       ": it is read outside the loops being reordered", a.stmt->loc};
      d.failed = true;
      return d;
    }
    if (inSource.count(a.stmt.get())) from.push_back(&a);
    if (inSink.count(a.stmt.get())) to.push_back(&a);
  }
  std::optional<Dependence> found;
  isl_ctx *raw = isl_ctx_alloc();
  isl_options_set_on_error(raw, ISL_ON_ERROR_CONTINUE);
  {
    isl::ctx ctx(raw);
    isl_ctx_set_max_operations(raw, maxOperations());
    try {
      shapeArrays(ctx);
      isl::map relates(ctx, "{ " + tuple(n, "x") + " -> " + tuple(n, "y") + " : " + order + " }");
      for (const Access *a : from) {
        for (const Access *b : to) {
          if (a->array != b->array || (!a->write && !b->write)) continue;
          isl_ctx_reset_operations(raw);
          isl::map same = relation(ctx, *a).apply_range(relation(ctx, *b).reverse());
          if (same.intersect(relates).is_empty()) continue;
          std::string what = !a->write ? "reads" : b->write ? "also writes" : "writes";
          Dependence d;
          d.array = a->array;
          d.commutative = a->update && b->update && *a->update == *b->update;
          d.exact = !unknownArrays.count(a->array);
          d.loc = b->stmt->loc;
          d.otherLoc = a->stmt->loc;
          d.message = shortText(b->stmt) + " " + (b->write ? "writes " : "reads ") + b->text() +
                      ", which " + shortText(a->stmt) + " (" + a->stmt->loc.str() + ") " + what +
                      " " + phrase;
          if (!d.exact)
            d.message += "; the subscripts of '" + a->array + "' are not affine functions of "
                         "the loop variables and parameters, so any iteration may touch any "
                         "element";
          found = d;
          break;
        }
        if (found) break;
      }
    } catch (const isl::exception &e) {
      Dependence d{0, "", false, false, source->loc,
                   "could not analyze the reordering: isl: " + islMessage(e), sink->loc};
      d.failed = true;
      found = d;
    }
  }
  isl_ctx_free(raw);
  return found;
}

}  // namespace dependence

std::string sameIterationsOrder(size_t depth) {
  std::string order;
  for (size_t d = 0; d < depth; ++d)
    order += "x" + std::to_string(d) + " = y" + std::to_string(d) + " and ";
  return order;
}

std::optional<Dependence> orderedDependence(const Kernel &k, const std::vector<Stmt> &loops,
                                            const Stmt &source, const Stmt &sink,
                                            const std::string &order, const std::string &phrase) {
  if (loops.empty()) return std::nullopt;
  dependence::Analyzer a(k, loops);
  return a.ordered(source, sink, order, phrase);
}

}  // namespace rtcuda
