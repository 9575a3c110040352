// ReadOnlyCache: `const T *__restrict__` on every array the kernel never writes and that no
// call in the host program passes together with another argument sharing its memory; such
// loads may go through the read-only data cache. Checked, never taken on trust: a `restrict`
// the user wrote is dropped when a call site aliases the array, and without a host program to
// check nothing is added.
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/Transforms/Pass.h"

#include <set>

namespace rtcuda {

using namespace ir;

Kernel readOnlyCache(const Kernel &k, const PassContext &ctx) {
  std::set<std::string> written;
  for (const Stmt &body : {k.body, k.finish})  // the finish kernel shares the parameters
    visitStmt(body, [&](const Stmt &s) {
      if (s->kind == StmtKind::Store) written.insert(s->name);
    });
  Kernel out = k;
  bool changed = false;
  const CallSites *sites = ctx.callSites;
  for (Param &p : out.params) {
    if (!p.isArray) continue;
    if (!sites || !sites->known) continue;
    bool aliased = sites->mayAlias.count(p.name) > 0;
    bool readOnly = !written.count(p.name);
    if (aliased) {
      if (p.isRestrict)
        out.remarks.push_back("read-only cache: '" + p.name + "' shares memory with another "
                              "argument at a call site: restrict dropped");
      changed |= p.isRestrict;
      p.isRestrict = false;
      continue;
    }
    if (readOnly && !(p.isConst && p.isRestrict)) {
      p.isConst = true;
      p.isRestrict = true;
      changed = true;
      out.remarks.push_back("read-only cache: '" + p.name + "' is never written and not aliased "
                            "at the " + std::to_string(sites->calls) +
                            " call site(s): const __restrict__");
    } else if (!readOnly && !p.isRestrict) {
      p.isRestrict = true;
      changed = true;
    }
  }
  if (sites && !sites->known)
    out.remarks.push_back("read-only cache: no host program to check aliasing; parameters kept "
                          "as written");
  if (changed) out.passes.push_back("ReadOnlyCache");
  return out;
}

}  // namespace rtcuda
