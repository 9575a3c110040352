// Runs a lowered kernel's IR for a small problem, thread by thread, to draw its mapping: which
// source iterations each thread of each block computes, and which array elements a block
// stages in shared memory. Array contents are not modelled (loads of the kernel's arrays read
// 1), so the picture is exact for mappings that depend only on indices and sizes; the report
// says when the run saw something else (a call it does not know, a step limit).
#pragma once

#include "rtcuda/IR/IR.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace rtcuda::explain {

struct ThreadId {
  long long block[2] = {0, 0};  // blockIdx.x, .y
  long long thread = 0;         // threadIdx.x
  bool operator<(const ThreadId &o) const {
    if (block[1] != o.block[1]) return block[1] < o.block[1];
    if (block[0] != o.block[0]) return block[0] < o.block[0];
    return thread < o.thread;
  }
};

struct StagedElement {
  std::string array;   // the kernel's array read into shared memory
  long long index = 0; // its flat element index
  int round = 0;       // 1 for the first staging round of the block, 2 for the next, ...
};

struct MappingRun {
  long long blocks[2] = {1, 1};
  long long threads = 1;
  // Source iteration (values of the recorded loop variables) -> the threads that computed it.
  std::map<std::vector<long long>, std::set<ThreadId>> iterations;
  std::vector<StagedElement> staged;  // by block (0, 0)
  std::map<std::string, long long> sharedArrays;  // shared array -> elements (block (0, 0))
  std::vector<std::string> notes;  // what the run could not model
};

struct MappingRequest {
  const ir::Kernel *kernel = nullptr;     // after every pass
  std::map<std::string, long long> ints;  // scalar parameters and tuning macros
  std::vector<std::string> loopVars;      // the source's parallel loop variables
  std::set<unsigned> bodyLines;           // lines of the source statements that compute
  long long maxThreads = 8192;            // blocks x threads run at most
};

MappingRun runMapping(const MappingRequest &request);

// An integer expression over `ints` (null when it uses anything else).
bool evalInt(const ir::Expr &e, const std::map<std::string, long long> &ints, long long &out);

}  // namespace rtcuda::explain
