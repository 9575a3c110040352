// The kernel IR: a small structured IR in the spirit of Halide's Stmt/Expr.
//
// Nodes are immutable once built and shared through shared_ptr<const ...>; a pass that changes
// a node builds a new one (see Mutate.h). Every node keeps the source location it came from so
// diagnostics and explanations can point at the user's line.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace rtcuda::ir {

enum class ScalarKind {
  Void, Bool, Char, SChar, UChar, Short, UShort, Int, UInt, Long, ULong, LongLong, ULongLong,
  Float, Double
};

struct Type {
  ScalarKind kind = ScalarKind::Int;
  bool isInteger() const;
  bool isFloat() const { return kind == ScalarKind::Float || kind == ScalarKind::Double; }
  bool isSigned() const;
  int bytes() const;
  std::string cName() const;          // "float", "unsigned int", ...
  bool operator==(const Type &o) const { return kind == o.kind; }
  bool operator!=(const Type &o) const { return kind != o.kind; }
  static Type of(ScalarKind k) { return Type{k}; }
  static Type fromName(const std::string &name, bool *ok = nullptr);
};

struct SourceLoc {
  std::string file;     // as the user named it
  unsigned line = 0;
  unsigned col = 0;
  bool valid() const { return line != 0; }
  std::string str() const;  // "kernel.c:12:5"
};

// ---- expressions --------------------------------------------------------------------------

enum class ExprKind {
  IntImm,    // intValue
  FloatImm,  // floatValue, spelling keeps the user's text ("0.25f")
  Var,       // name: a scalar parameter, local, loop variable, GPU builtin or tuning macro
  Load,      // name = array; operands = indices, outermost dimension first
  Unary,     // name = operator ("-", "!", "~"); operands = {a}
  Binary,    // name = operator ("+", "<=", "&&", ...); operands = {a, b}
  Select,    // operands = {cond, then, else}
  Call,      // name = function; operands = arguments
  Cast,      // type = target; operands = {a}
};

struct ExprNode;
using Expr = std::shared_ptr<const ExprNode>;

struct ExprNode {
  ExprKind kind = ExprKind::IntImm;
  Type type;
  int64_t intValue = 0;
  double floatValue = 0;
  std::string name;
  std::string spelling;
  std::vector<Expr> operands;
  SourceLoc loc;
};

Expr intImm(int64_t v, Type t = Type::of(ScalarKind::Int));
Expr floatImm(double v, Type t, const std::string &spelling = "");
Expr var(const std::string &name, Type t = Type::of(ScalarKind::Int));
Expr load(const std::string &array, std::vector<Expr> indices, Type elem);
Expr unary(const std::string &op, Expr a);
Expr binary(const std::string &op, Expr a, Expr b);
Expr select(Expr c, Expr a, Expr b);
Expr call(const std::string &fn, std::vector<Expr> args, Type t);
Expr cast(Type t, Expr a);
Expr withLoc(Expr e, const SourceLoc &loc);

// Integer arithmetic helpers used by passes; they fold constants as they build.
Expr add(Expr a, Expr b);
Expr sub(Expr a, Expr b);
Expr mul(Expr a, Expr b);
Expr div(Expr a, Expr b);
Expr mod(Expr a, Expr b);
Expr lt(Expr a, Expr b);
Expr land(Expr a, Expr b);

bool isConst(const Expr &e, int64_t *value = nullptr);
bool isComparisonOrLogical(const std::string &op);

// ---- statements ---------------------------------------------------------------------------

enum class LoopKind {
  Serial,     // runs inside one thread
  Parallel,   // proven or declared parallel, not yet mapped
  Collapsed,  // several parallel loops fused into one index
  Block,      // mapped to blockIdx
  Thread,     // mapped to threadIdx
  Merge,      // BlockMerge: results per thread along rows
  Skew,       // BlockSkew: results per thread along columns
  Tile,       // SharedPrefetch: tile loop
  Unrolled,
};
const char *loopKindName(LoopKind k);

enum class StmtKind {
  Block,     // stmts
  For,       // name = variable, type; min, end (exclusive bound), step; body; loopKind
             // (step > 0: v < end; step < 0: v > end)
  While,     // cond; body
  If,        // cond; body; elseBody (may be null)
  Decl,      // name, type; value = initializer (may be null); arraySize (local array, may be null);
             // shared: __shared__ storage, one per block (arrays only)
  Assign,    // name = scalar variable; op ("=", "+=", ...); value
  Store,     // name = array; indices; op; value. An op that is a function name (atomicAdd,
             // rtcuda_atomic_max, ...) is an atomic update: op(&name[indices], value)
  Barrier,   // __syncthreads()
  Break,
  Continue,
  Comment,   // text
};

struct StmtNode;
using Stmt = std::shared_ptr<const StmtNode>;

struct StmtNode {
  StmtKind kind = StmtKind::Block;
  std::string name;
  Type type;
  std::string op = "=";
  std::string text;
  LoopKind loopKind = LoopKind::Serial;
  Expr min, end, step, cond, value, arraySize;
  std::vector<Expr> indices;
  std::vector<Stmt> stmts;
  Stmt body, elseBody;
  SourceLoc loc;
  bool shared = false;
  bool constant = false;  // Decl: printed `const` (a named size that never changes)
};

Stmt block(std::vector<Stmt> stmts);
Stmt forLoop(const std::string &var, Type t, Expr min, Expr end, Expr step, Stmt body,
             LoopKind kind = LoopKind::Serial);
Stmt whileLoop(Expr cond, Stmt body);
Stmt ifThen(Expr cond, Stmt then, Stmt otherwise = nullptr);
Stmt decl(const std::string &name, Type t, Expr init = nullptr, Expr arraySize = nullptr);
Stmt assign(const std::string &name, const std::string &op, Expr value);
Stmt store(const std::string &array, std::vector<Expr> indices, const std::string &op,
           Expr value);
Stmt barrier();
Stmt comment(const std::string &text);
Stmt withLoc(Stmt s, const SourceLoc &loc);

// Number of iterations of a normalized For (step > 0 or < 0), as an expression.
Expr tripCount(const Stmt &loop);

// ---- kernels ------------------------------------------------------------------------------

struct Param {
  std::string name;
  Type type;                  // element type for arrays
  bool isArray = false;
  bool isConst = false;
  bool isRestrict = false;
  std::vector<Expr> dims;     // logical extents, outermost first; dims[0] may be null
  SourceLoc loc;
};

// What the host must do to launch a partitioned kernel; filled by LoopPartition.
struct LaunchDim {
  Expr iterations;   // loop iterations mapped to this grid dimension (over scalar parameters)
  Expr perBlock;     // iterations covered by one block (over tuning macros)
  int64_t maxBlocks = 2147483647;  // hardware limit of the grid dimension
};

struct TuningParam {
  std::string name;           // BLOCKSIZE, MERGE_LEVEL, ...
  std::string macro;          // the kernel's own macro: MATRIX_ADD_BLOCKSIZE
  std::vector<int> values;    // the search space
  int defaultValue = 0;
};

// A scalar declared before the loop nest and combined across the parallel loops (s += x[i]):
// found by the legality analysis, lowered by the ParallelReduction pass.
struct Reduction {
  std::string var;
  std::string op;       // "+", "*", "min", "max"
  Type type;
  SourceLoc loc;        // the scalar's declaration
};

// A device buffer of one element that the launch function allocates for one launch, sets to
// `init`, and passes to the kernels after their parameters (a reduction's accumulator).
struct DeviceBuffer {
  std::string name;
  Type type;
  Expr init;
};

// An array in the GPU's global memory that outlives a launch (`__device__ T name[elements];`
// before the kernel; zero when the module loads): ReductionSplit's per-column partial sums and
// arrival counts, which the kernel sets back to zero itself.
struct DeviceArray {
  std::string name;
  Type type;
  int64_t elements = 0;
};

struct Kernel {
  std::string name;
  std::vector<Param> params;
  Stmt body;
  SourceLoc loc;
  std::string macroPrefix;          // MATRIX_ADD
  std::vector<LaunchDim> grid;      // x, then y
  Expr blockThreads;                // threads per block (a tuning macro)
  int preferredBlockSize = 0;       // a pass's default BLOCKSIZE where the config sets none (0: 256)
  int maxBlockSize = 0;             // a pass's bound on BLOCKSIZE's space (its tiles fit; 0: none)
  int minBlocksPerSM = 0;           // __launch_bounds__'s second value (registers capped; 0: none)
  std::vector<TuningParam> tuning;
  std::vector<std::string> passes;  // passes that changed the kernel, in order
  std::vector<std::string> remarks; // explanations for the user
  // Legality decisions (lib/Analysis/ParallelNest.cpp) and what the passes made of them.
  std::vector<Reduction> reductions;      // scalars reduced across the parallel loops
  std::vector<std::string> atomicArrays;  // arrays whose updates in the nest become atomics
  // A batch (BatchSlices.cpp, docs/passes/BatchSlices.md): the nest's outer parallel loop taken
  // out, each array it indexed as X[b][...] seen as one slice X[...]; BatchBlocks gives every
  // block its slice and declares the variable, which the body may read. Null extent: no batch.
  struct Batch {
    std::string var;     // the loop's variable
    Type type;
    Expr extent;         // its iterations (scalar parameters)
    std::vector<std::pair<std::string, Expr>> slices;  // array -> elements of one slice
    SourceLoc loc;       // the loop
  } batch;
  // Conditions of scalar parameters that hold at every launch (the bounds of the host loops
  // around an outlined kernel, 0 <= j < i): facts for the dependence analysis.
  std::vector<Expr> assumptions;
  std::vector<DeviceBuffer> buffers;      // passed to the kernels after the parameters
  // Statements after the loop nest: run once, by one thread, in a second kernel
  // (<name>_finish) launched after this one. Null when there are none.
  Stmt finish;
  std::vector<DeviceArray> deviceArrays;  // printed before the kernel in kernel.cu
  // Alternative instantiations of the kernel, chosen at launch (RegisterTiling's small-grid
  // tiles, docs/passes/RegisterTiling.md "Tile and size"; docs/architecture.md): each is the
  // same body at fixed values of some tuning parameters (by name). Empty: none. CodeGen prints
  // the i-th as <name>_small_grid (i = 0) or <name>_small_grid<i+1>, with macros
  // <PREFIX>_SG_<PARAM> (<PREFIX>_SG<i+1>_<PARAM>). The macro <PREFIX>_SMALL_GRID chooses: 0 the
  // kernel at its tuning point, 1 the launch's rule (an alternative where the point's grid has
  // fewer blocks than the GPU has SMs), 2 + i always the i-th (verify and the tuner check each).
  std::vector<std::vector<std::pair<std::string, int>>> alternatives;
  // RegisterTiling's split k (docs/passes/RegisterTiling.md, "Split k"): where set, the launch
  // may run gridDim.y chunks of the contraction's k loop per tile (<PREFIX>_SPLIT_K: 0 the
  // launch's rule, N always N chunks). Null `trip`: the kernel cannot be split.
  struct SplitK {
    Expr trip;              // iterations of the k loop (scalar parameters)
    Expr workPerBlock;      // workspace elements one block writes (tuning macros)
    Expr tileK;             // the slab depth's macro (TILE_K)
    int64_t capacity = 0;   // elements of the workspace (a DeviceArray)
    int64_t tiles = 0;      // arrival counts (a DeviceArray): at most this many tiles split
    // What the kernel at its tuning point (never split) prints without: <PREFIX>_SPLIT_CODE
    // chooses `code ? split : whole`; the declarations `names` (the chunk's bounds, the last
    // block's flag) become `values`, and statements whose condition folds are resolved.
    std::vector<std::string> names;
    std::vector<Expr> values;
  } splitK;

  const Param *findParam(const std::string &name) const;
  std::string macro(const std::string &param) const { return macroPrefix + "_" + param; }
};

}  // namespace rtcuda::ir
