// explore2d.cu: hand-written CUDA mappings of a 2-D R x R convolution (session 14).
//   B[i][j] = sum_a sum_b K[a][b] * A[i + a][j + b],  A: (rows + R - 1) x (cols + R - 1),
//   K: R x R floats in device memory, B: rows x cols (bench/kernels/kernels.c conv2d5/66/7/9).
// Usage: explore2d R rows cols [variant-substring]   (R = 5, 6, 7 or 9)
// Every variant is checked against a one-thread-per-output kernel (same order of the sums) on
// fresh random inputs (output poisoned with NaN first), then timed with events (5 warm-ups,
// median of 20, fresh inputs before each run); the ratio is to a 512 MB device-to-device
// cudaMemcpyAsync timed the same way (bytes: A read once + B written once). "ffma-peak" is the
// FFMA rate of the card under a pure-FFMA load and the time R*R FFMAs per output alone would take.
// Taps: _gK read from device memory, _regK loaded into registers, _cK __constant__ (the
// device-to-device copy into it is inside the timed region), _pK a by-value (__grid_constant__)
// kernel parameter (the host knows the taps).
// Variants (TX: consecutive output columns per thread; H: output rows a thread slides down):
//   naive_gK        the reference: one thread per output (timed too)
//   tile4_regK      block tile (4 warps stacked, H = R + 1, TX = 4, 128-bit shared reads), cp.async
//                   fill, one barrier; each thread reads each input row once and adds it to the R
//                   output rows in flight (row sums); stores through a per-warp stage (coalesced)
//   tile4_cK, tile4_pK   the same, taps __constant__ / by value
//   tile8_pK, tile16_pK  the same with 8 / 16 warps stacked per block (less halo, fewer blocks)
//   tileP4_pK       tile4_pK with persistent blocks, the next tile copied while this one computes
//   arow16_gK       TX = 16 outputs of one row per thread, a run-time loop over the filter's rows
//                   (small code), inputs and one tap row per step from shared memory
//   warp4_cK        no block barrier: each warp streams down a tall strip (H ~ rows * strips /
//                   resident warps, one wave), ring of R rows filled R - 1 rows ahead, TX = 4
//   warp4_cK_direct the same, each thread storing its 4 columns itself (strided stores)
//   ldg4_cK         no shared memory: the same tasks, input rows through L1 (__ldg), TX = 4
// Self-contained: no rtcuda headers.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CK(x)                                                                                 \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      fprintf(stderr, "CUDA error '%s' at %s:%d: %s\n", cudaGetErrorString(e_), __FILE__,    \
              __LINE__, #x);                                                                  \
      exit(1);                                                                                \
    }                                                                                         \
  } while (0)
#define CKL() CK(cudaGetLastError())

constexpr int MAXR = 9;
constexpr int SLACK = 64;  // floats after A's last element (only the __ldg variants read there)
__constant__ float cK[MAXR * MAXR];

// ---------------------------------------------------------------------------------- random fill
__host__ __device__ inline float hval(unsigned long long seed, unsigned long long i) {
  unsigned long long z = seed * 0x9E3779B97F4A7C15ull + i * 0xBF58476D1CE4E5B9ull + 0x94D049BB133111EBull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return (float)(z >> 40) * (2.0f / 16777216.0f) - 1.0f;  // [-1, 1)
}
__global__ void k_fill(float *p, size_t n, unsigned long long seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = hval(seed, i);
}
__global__ void k_poison(float *p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = __int_as_float(0x7fc00001);  // a NaN: an output left unwritten fails the check
}
__global__ void k_compare(const float *b, const float *ref, size_t n, float atol, float rtol,
                          unsigned long long *bad, unsigned *maxerr) {
  unsigned nb = 0;
  float me = 0.0f;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    float d = fabsf(b[i] - ref[i]);
    if (!(d <= atol + rtol * fabsf(ref[i]))) nb++;  // NaN counts as a mismatch
    if (d == d) me = fmaxf(me, d);
    else me = 3.0e38f;
  }
  for (int o = 16; o > 0; o >>= 1) {
    nb += __shfl_xor_sync(0xffffffffu, nb, o);
    me = fmaxf(me, __shfl_xor_sync(0xffffffffu, me, o));
  }
  if ((threadIdx.x & 31) == 0) {
    if (nb) atomicAdd(bad, (unsigned long long)nb);
    atomicMax(maxerr, __float_as_uint(me));  // non-negative floats order as their bits
  }
}

// FFMA throughput of the device as it runs (its clock under this load): 8 independent chains.
__global__ void k_fmapeak(float *out, float c1, float c2, int iters) {
  float a[8];
#pragma unroll
  for (int j = 0; j < 8; j++) a[j] = threadIdx.x * 1e-7f + j;
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int j = 0; j < 8; j++) a[j] = fmaf(a[j], c1, c2);
  }
  float s = 0.0f;
#pragma unroll
  for (int j = 0; j < 8; j++) s += a[j];
  if (s == 1234.5f) out[threadIdx.x] = s;  // never true; keeps the chains live
}

// ------------------------------------------------------------------------------------- taps
// An opaque zero added to the taps' indices in each input row keeps the front end from loading
// each tap once and holding it across rows. Seen in the SASS (CUDA 13.0): in the fully unrolled
// kernels (k_tile) ptxas then reads the taps into uniform registers (ULDC) near their uses,
// about 2.5 (7 x 7) to 5 (9 x 9) ULDC/LDC per output; around a run-time row loop (k_warp,
// k_ldg) it still hoists all R*R taps into ordinary registers (their high register counts).
__device__ __forceinline__ int opaque0() {
  int z;
  asm volatile("mov.u32 %0, 0;" : "=r"(z));
  return z;
}
template <int R> struct TapsP { float k[R * R]; };  // the taps passed by value
template <bool OPQ = true> struct KConst {  // taps in __constant__ memory (bank 3)
  int z = 0;
  __device__ __forceinline__ void refresh() { if (OPQ) z = opaque0(); }
  __device__ __forceinline__ float operator()(int i) const { return cK[i + z]; }
};
template <int R, bool OPQ = true> struct KParam {  // taps in a __grid_constant__ parameter (bank 0)
  const TapsP<R> *p;
  int z = 0;
  __device__ __forceinline__ void refresh() { if (OPQ) z = opaque0(); }
  __device__ __forceinline__ float operator()(int i) const { return p->k[i + z]; }
};
template <int R> struct KReg {  // loaded once from device memory into registers
  float k[R * R];
  __device__ __forceinline__ void refresh() {}
  __device__ __forceinline__ void load(const float *__restrict__ g) {
#pragma unroll
    for (int i = 0; i < R * R; i++) k[i] = __ldg(g + i);
  }
  __device__ __forceinline__ float operator()(int i) const { return k[i]; }
};
enum { T_REG = 0, T_CONST = 1, T_PARAM = 2 };

// ------------------------------------------------------------------------ small PTX helpers
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void cp_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// Shared-memory read of N consecutive floats at s (s aligned to 4 * VW bytes), VW-wide pieces.
template <int N, int VW> __device__ __forceinline__ void lds_run(const float *s, float (&x)[N]) {
  constexpr int N4 = VW >= 4 ? N / 4 * 4 : 0;
  constexpr int N2 = VW >= 2 ? N4 + (N - N4) / 2 * 2 : N4;
#pragma unroll
  for (int e = 0; e < N4; e += 4) {
    float4 v = *reinterpret_cast<const float4 *>(s + e);
    x[e] = v.x; x[e + 1] = v.y; x[e + 2] = v.z; x[e + 3] = v.w;
  }
#pragma unroll
  for (int e = N4; e < N2; e += 2) {
    float2 v = *reinterpret_cast<const float2 *>(s + e);
    x[e] = v.x; x[e + 1] = v.y;
  }
#pragma unroll
  for (int e = N2; e < N; e++) x[e] = s[e];
}

// A warp's row copy: NCOL floats of global row g (from the strip's first column) into s, as
// 4-byte cp.async with immediate offsets, lane l columns l, l + 32, ...; ok bit k: column
// 32k + lane is inside the row piece and inside A.
template <int K, int KC> __device__ __forceinline__ void cp_k(unsigned sd, const float *g, unsigned ok) {
  if constexpr (K < KC) {
    if (ok & (1u << K))
      asm volatile("cp.async.ca.shared.global [%0+%2], [%1+%2], 4;\n" ::"r"(sd), "l"(g), "n"(K * 128) : "memory");
    cp_k<K + 1, KC>(sd, g, ok);
  }
}
template <int NCOL> __device__ __forceinline__ void copy_row(float *s, const float *g, int lane, unsigned ok) {
  cp_k<0, (NCOL + 31) / 32>((unsigned)__cvta_generic_to_shared(s + lane), g + lane, ok);
}
template <int NCOL> __device__ __forceinline__ unsigned col_ok(int j0, int lane, int W) {
  constexpr int KC = (NCOL + 31) / 32;
  unsigned m = 0;
#pragma unroll
  for (int k = 0; k < KC; k++) m |= (k * 32 + lane < NCOL && j0 + k * 32 + lane < W ? 1u : 0u) << k;
  return m;
}

// --------------------------------------------------------------------- the vertical slide
// A thread owns TX consecutive output columns and slides down H = m*R + 1 output rows, reading
// each of its H + R - 1 input rows once (TX + R - 1 floats) and adding it to the R output rows
// in flight (acc slot = output row mod R); the row loop is unrolled by R so that the slots are
// static; the first and last R input rows skip the products of output rows outside [0, H).
// Each output sums its R*R products in the C order (a, then b): equal to the reference.
enum { FIRST = 0, MID = 1, LAST = 2 };
template <int R, int TX, int PART, class KT, class SRC, class SINK>
__device__ __forceinline__ void chunk(int q0, float (&acc)[R][TX], KT &K, SRC &src, SINK &sink) {
#pragma unroll
  for (int u = 0; u < R; u++) {
    K.refresh();
    float x[TX + R - 1];
    src.template row<PART>(q0 + u, u, x);
#pragma unroll
    for (int a = 0; a < R; a++) {
      if (PART == FIRST && a > u) continue;  // output row q - a < 0
      if (PART == LAST && a < u) continue;   // output row q - a >= H
      const int s = (u - a + R) % R;
#pragma unroll
      for (int t = 0; t < TX; t++) {
        float v = a == 0 ? K(0) * x[t] : fmaf(K(a * R), x[t], acc[s][t]);
#pragma unroll
        for (int b = 1; b < R; b++) v = fmaf(K(a * R + b), x[t + b], v);
        acc[s][t] = v;
      }
      if (a == R - 1) sink.store(q0 + u - (R - 1), acc[s]);
    }
  }
}
// MS > 0: m = MS, all unrolled (no loop: the taps stay out of ordinary registers);
// MS = 0: m at run time, a loop over the middle groups (ptxas then hoists the tap loads out of
// the loop into registers: R*R more registers).
template <int R, int TX, int MS, class KT, class SRC, class SINK>
__device__ __forceinline__ void slide(int m, KT &K, SRC &src, SINK &sink) {
  float acc[R][TX];
  chunk<R, TX, FIRST>(0, acc, K, src, sink);
  if constexpr (MS > 0) {
#pragma unroll
    for (int c = 1; c < MS; c++) chunk<R, TX, MID>(c * R, acc, K, src, sink);
    chunk<R, TX, LAST>(MS * R, acc, K, src, sink);
  } else {
#pragma unroll 1
    for (int c = 1; c < m; c++) chunk<R, TX, MID>(c * R, acc, K, src, sink);
    chunk<R, TX, LAST>(m * R, acc, K, src, sink);
  }
}

// Sources of input rows (q: row of the segment, 0 .. (m+1)R - 1).
template <int R, int TX> struct Geo {
  static constexpr int NCOL = 32 * TX + R - 1;       // a warp's columns of A
  static constexpr int P = (NCOL + 3) / 4 * 4;       // shared row pitch
  static constexpr int VW = TX >= 4 ? 4 : TX;        // shared read width
};
// (a) a per-warp ring of R rows in shared memory, D rows copied ahead (cp.async), no barrier
template <int R, int TX, int D> struct RingSrc {
  using G = Geo<R, TX>;
  float *ring;
  const float *A;  // &A[0][j0]
  int W, nA, i0, lane, nq;
  unsigned ok;
  __device__ __forceinline__ void issue(int q, int slot) {
    const int r = min(i0 + q, nA - 1);
    copy_row<G::NCOL>(ring + slot * G::P, A + (size_t)r * W, lane, ok);
    cp_commit();
  }
  __device__ __forceinline__ void start() {
    __syncwarp();
#pragma unroll
    for (int q = 0; q < D; q++) issue(q, q);
  }
  template <int PART> __device__ __forceinline__ void row(int q, int u, float (&x)[TX + R - 1]) {
    cp_wait<D - 1>();
    __syncwarp();
    lds_run<TX + R - 1, G::VW>(ring + u * G::P + lane * TX, x);
    if (PART != LAST || u + D < R) issue(q + D, (u + D) % R);
    else cp_commit();  // an empty group keeps the count of groups per row
  }
};
// (b) a block tile already in shared memory (one barrier before the slide)
template <int R, int TX> struct TileSrc {
  using G = Geo<R, TX>;
  const float *t;  // this warp's first row, its lane's first column
  template <int PART> __device__ __forceinline__ void row(int q, int, float (&x)[TX + R - 1]) {
    lds_run<TX + R - 1, G::VW>(t + q * G::P, x);
  }
};
// (c) no shared memory: __ldg through L1, two rows ahead in registers
template <int R, int TX> struct LdgSrc {
  static constexpr int N = TX + R - 1;
  const float *A;  // &A[0][j] of the thread's first column (clamped inside the allocation)
  int W, nA, i0, nq;
  float n1[N], n2[N];
  __device__ __forceinline__ void get(int q, float (&x)[N]) {
    const float *p = A + (size_t)min(i0 + q, nA - 1) * W;
#pragma unroll
    for (int e = 0; e < N; e++) x[e] = __ldg(p + e);
  }
  __device__ __forceinline__ void start() { get(0, n1); get(1, n2); }
  template <int PART> __device__ __forceinline__ void row(int q, int u, float (&x)[N]) {
#pragma unroll
    for (int e = 0; e < N; e++) { x[e] = n1[e]; n1[e] = n2[e]; }
    if (PART != LAST || u + 2 < R) get(q + 2, n2);
  }
};

// Sinks of finished output rows (o: row of the segment).
template <int TX> struct DirectSink {  // each thread stores its TX columns (strided when TX > 1)
  float *B;  // &B[0][jt], jt the thread's first column
  int cols, rows, i0, jt;
  __device__ __forceinline__ void store(int o, const float (&v)[TX]) {
    if (i0 + o >= rows) return;
    float *p = B + (size_t)(i0 + o) * cols;
#pragma unroll
    for (int t = 0; t < TX; t++)
      if (jt + t < cols) p[t] = v[t];
  }
};
template <int TX> struct StagedSink {  // through a per-warp row of shared memory: coalesced stores
  float *B;  // &B[0][j0], j0 the warp's first column
  float *st; // 2 x 32 * TX floats of shared memory (alternate output rows)
  int cols, rows, i0, j0, lane;
  __device__ __forceinline__ void store(int o, const float (&v)[TX]) {
    if (i0 + o >= rows) return;
    float *b = st + (o & 1) * 32 * TX;  // the buffer of row o - 2 was read before row o - 1's barrier
    if constexpr (TX % 4 == 0) {
#pragma unroll
      for (int c = 0; c < TX; c += 4)
        *reinterpret_cast<float4 *>(b + lane * TX + c) = make_float4(v[c], v[c + 1], v[c + 2], v[c + 3]);
    } else if constexpr (TX == 2) *reinterpret_cast<float2 *>(b + lane * 2) = make_float2(v[0], v[1]);
    else b[lane] = v[0];
    __syncwarp();
    float *p = B + (size_t)(i0 + o) * cols;
#pragma unroll
    for (int k = 0; k < TX; k++)
      if (j0 + k * 32 + lane < cols) p[k * 32 + lane] = b[k * 32 + lane];
  }
};

// ------------------------------------------------------------------------------- kernels
// Reference: one thread per output, taps from device memory.
template <int R>
__global__ void k_naive(const float *__restrict__ A, const float *__restrict__ K, float *__restrict__ B,
                        int rows, int cols) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= rows || j >= cols) return;
  const int W = cols + R - 1;
  float s = 0.0f;
  for (int a = 0; a < R; a++)
    for (int b = 0; b < R; b++) s = fmaf(K[a * R + b], A[(size_t)(i + a) * W + j + b], s);
  B[(size_t)i * cols + j] = s;
}

template <int R, int TAPS, bool OPQ> struct TapsOf;
template <int R, bool OPQ> struct TapsOf<R, T_CONST, OPQ> { using T = KConst<OPQ>; };
template <int R, bool OPQ> struct TapsOf<R, T_PARAM, OPQ> { using T = KParam<R, OPQ>; };
template <int R, bool OPQ> struct TapsOf<R, T_REG, OPQ> { using T = KReg<R>; };
template <int R, int TAPS, bool OPQ = true>
__device__ __forceinline__ typename TapsOf<R, TAPS, OPQ>::T make_taps(const float *Kg, const TapsP<R> *tp) {
  typename TapsOf<R, TAPS, OPQ>::T k;
  if constexpr (TAPS == T_PARAM) k.p = tp;
  if constexpr (TAPS == T_REG) k.load(Kg);
  return k;
}

// Block tile: NW warps stacked, each H = M*R + 1 rows of 32*TX columns; the whole tile
// ((NW*H + R - 1) rows) copied by cp.async (unrolled, immediate offsets), one barrier, then each
// warp slides down its rows (fully unrolled, no loop: the taps stay out of ordinary registers).
template <int R, int TX, int M, int NW> struct TileG {
  static constexpr int H = M * R + 1, TR = NW * H + R - 1, RPW = (TR + NW - 1) / NW;
  static constexpr int TSZ = TR * Geo<R, TX>::P, SSZ = NW * (TX > 1 ? 64 * TX : 0);  // floats
};
template <int R, int TX, int M, int NW> constexpr int tile_smem(int nbuf = 1) {  // bytes, dynamic
  return (nbuf * TileG<R, TX, M, NW>::TSZ + TileG<R, TX, M, NW>::SSZ) * 4;
}
// The copy of one block tile (rows ib .., columns j0 ..) into buf: warp w rows w, w + NW, ...
template <int R, int TX, int M, int NW>
__device__ __forceinline__ void tile_fill(float *buf, const float *A, int j0, int ib, int W, int nA, int warp, int lane) {
  using G = Geo<R, TX>;
  using T = TileG<R, TX, M, NW>;
  const unsigned ok = col_ok<G::NCOL>(j0, lane, W);
  const float *a0 = A + j0;
#pragma unroll
  for (int k = 0; k < T::RPW; k++) {
    const int r = warp + k * NW;
    if (k < T::RPW - 1 || r < T::TR)
      copy_row<G::NCOL>(buf + r * G::P, a0 + (size_t)min(ib + r, nA - 1) * W, lane, ok);
  }
}
// Each warp's slide over its H rows of a tile in shared memory.
template <int R, int TX, int M, int NW, class KT>
__device__ __forceinline__ void tile_compute(const float *buf, float *stage, KT &K, float *B, int j0, int ib,
                                             int rows, int cols, int warp, int lane) {
  using G = Geo<R, TX>;
  constexpr int H = M * R + 1;
  TileSrc<R, TX> src{buf + warp * H * G::P + lane * TX};
  const int i0 = ib + warp * H;
  if constexpr (TX == 1) {
    DirectSink<TX> sink{B + j0 + lane, cols, rows, i0, j0 + lane};
    slide<R, TX, M>(M, K, src, sink);
  } else {
    StagedSink<TX> sink{B + j0, stage + warp * 64 * TX, cols, rows, i0, j0, lane};
    slide<R, TX, M>(M, K, src, sink);
  }
}
template <int R, int TX, int M, int NW, int TAPS, bool OPQ>
__global__ void __launch_bounds__(NW * 32) k_tile(const float *__restrict__ A, const float *__restrict__ Kg,
                                                  float *__restrict__ B, int rows, int cols,
                                                  const __grid_constant__ TapsP<R> tp) {
  using T = TileG<R, TX, M, NW>;
  extern __shared__ __align__(16) float dsm[];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int W = cols + R - 1, nA = rows + R - 1;
  const int j0 = blockIdx.x * 32 * TX, ib = blockIdx.y * NW * T::H;
  tile_fill<R, TX, M, NW>(dsm, A, j0, ib, W, nA, warp, lane);
  cp_commit();
  auto K = make_taps<R, TAPS, OPQ>(Kg, &tp);
  cp_wait<0>();
  __syncthreads();
  tile_compute<R, TX, M, NW>(dsm, dsm + T::TSZ, K, B, j0, ib, rows, cols, warp, lane);
}
// Persistent blocks, two tile buffers: the next tile's copies are in flight while this one is
// computed (tiles t = blockIdx.x, + gridDim.x, ...: the blocks sweep the output together).
template <int R, int TX, int M, int NW, int TAPS>
__global__ void __launch_bounds__(NW * 32) k_tilep(const float *__restrict__ A, const float *__restrict__ Kg,
                                                   float *__restrict__ B, int rows, int cols,
                                                   const __grid_constant__ TapsP<R> tp) {
  using T = TileG<R, TX, M, NW>;
  extern __shared__ __align__(16) float dsm[];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int W = cols + R - 1, nA = rows + R - 1;
  const int tx = (cols + 32 * TX - 1) / (32 * TX), nt = tx * ((rows + NW * T::H - 1) / (NW * T::H));
  auto K = make_taps<R, TAPS, false>(Kg, &tp);  // the taps may stay in (uniform) registers
  int t = blockIdx.x;
  if (t < nt) tile_fill<R, TX, M, NW>(dsm, A, t % tx * 32 * TX, t / tx * NW * T::H, W, nA, warp, lane);
  cp_commit();
  for (int it = 0; t < nt; t += gridDim.x, it++) {
    float *cur = dsm + (it & 1) * T::TSZ, *nxt = dsm + ((it + 1) & 1) * T::TSZ;
    const int tn = t + gridDim.x;
    if (tn < nt) tile_fill<R, TX, M, NW>(nxt, A, tn % tx * 32 * TX, tn / tx * NW * T::H, W, nA, warp, lane);
    cp_commit();
    cp_wait<1>();
    __syncthreads();
    tile_compute<R, TX, M, NW>(cur, dsm + 2 * T::TSZ, K, B, t % tx * 32 * TX, t / tx * NW * T::H, rows, cols, warp, lane);
    __syncthreads();  // cur is refilled by the next iteration's copies
  }
}

// Row runs with a loop over the filter's rows: a thread computes TX consecutive outputs of one
// row; for a = 0 .. R-1 (a run-time loop: small code) it reads its TX + R - 1 inputs of tile row
// (its row + a) and the R taps of row a from shared memory (a broadcast), TX*R FFMAs. The block:
// 4 column groups x BH rows (4*BH threads), a tile of BH + R - 1 rows of 4*TX + R - 1 columns
// (cp.async, one barrier); taps copied from device memory into shared memory by each block.
// Lanes: 8 rows x 4 column groups per warp; the row pitch is an odd multiple of 4 floats, so
// each quarter-warp's 16-byte reads hit distinct banks. Stores go through a per-warp stage.
template <int R, int TX, int BH> struct ARow {
  static constexpr int CG = 4, BW = CG * TX, NT = CG * BH, NW = NT / 32;
  static constexpr int NCOL = BW + R - 1, P4 = (NCOL + 3) / 4, P = 4 * (P4 % 2 ? P4 : P4 + 1);
  static constexpr int TR = BH + R - 1, SP = BW + 4, KP = (R + 3) / 4 * 4;
  static constexpr int SMEM = (TR * P + NW * 8 * SP + R * KP) * 4;
};
template <int R, int TX, int BH>
__global__ void __launch_bounds__(4 * BH) k_arow(const float *__restrict__ A, const float *__restrict__ Kg,
                                                float *__restrict__ B, int rows, int cols) {
  using G = ARow<R, TX, BH>;
  extern __shared__ __align__(16) float dsm[];
  float *tile = dsm, *stage = dsm + G::TR * G::P, *taps = stage + G::NW * 8 * G::SP;
  const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
  const int cg = (lane >> 3) & 3, ry = lane & 7, rg = warp * 8 + ry;
  const int W = cols + R - 1, nA = rows + R - 1;
  const int j0 = blockIdx.x * G::BW, i0 = blockIdx.y * BH;
  {
    const unsigned ok = col_ok<G::NCOL>(j0, lane, W);
    const float *a0 = A + j0;
    constexpr int RPW = (G::TR + G::NW - 1) / G::NW;
#pragma unroll
    for (int k = 0; k < RPW; k++) {
      const int r = warp + k * G::NW;
      if (k < RPW - 1 || r < G::TR)
        copy_row<G::NCOL>(tile + r * G::P, a0 + (size_t)min(i0 + r, nA - 1) * W, lane, ok);
    }
    cp_commit();
  }
  for (int e = tid; e < R * R; e += G::NT) taps[e / R * G::KP + e % R] = __ldg(Kg + e);
  cp_wait<0>();
  __syncthreads();
  float acc[TX];
#pragma unroll
  for (int t = 0; t < TX; t++) acc[t] = 0.0f;
  const float *xr = tile + rg * G::P + cg * TX;
#pragma unroll 1
  for (int a = 0; a < R; a++) {
    float x[TX + R - 1], k[R];
    lds_run<TX + R - 1, 4>(xr + a * G::P, x);
    lds_run<R, 4>(taps + a * G::KP, k);
#pragma unroll
    for (int t = 0; t < TX; t++)
#pragma unroll
      for (int b = 0; b < R; b++) acc[t] = fmaf(k[b], x[t + b], acc[t]);
  }
  float *st = stage + warp * 8 * G::SP;
#pragma unroll
  for (int c = 0; c < TX; c += 4)
    *reinterpret_cast<float4 *>(st + ry * G::SP + cg * TX + c) = make_float4(acc[c], acc[c + 1], acc[c + 2], acc[c + 3]);
  __syncwarp();
#pragma unroll
  for (int k = 0; k < 8 * G::BW / 32; k++) {
    const int row = k * 32 / G::BW, col = (k * 32) % G::BW + lane;
    const int gi = i0 + warp * 8 + row, gj = j0 + col;
    if (gi < rows && gj < cols) B[(size_t)gi * cols + gj] = st[row * G::SP + col];
  }
}

// Per-warp stream: each warp owns a task (a strip of 32*TX columns, a segment of H = m*R + 1
// rows, m chosen by the host so that all tasks run in one wave), a ring of R rows in shared
// memory filled R - 1 rows ahead by cp.async; no block barrier.
template <int R, int TX, int MS, int TAPS, bool STAGE>
__global__ void __launch_bounds__(128) k_warp(const float *__restrict__ A, const float *__restrict__ Kg,
                                              float *__restrict__ B, int rows, int cols, int m,
                                              int nstrip, int ntask, const __grid_constant__ TapsP<R> tp) {
  using G = Geo<R, TX>;
  constexpr int D = R - 1;
  __shared__ __align__(16) float ring[4][R * G::P];
  __shared__ __align__(16) float stage[4][STAGE ? 64 * TX : 1];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int W = cols + R - 1, nA = rows + R - 1, H = m * R + 1;
  auto K = make_taps<R, TAPS>(Kg, &tp);
  {
    const int task = blockIdx.x * 4 + warp;
    if (task >= ntask) return;
    const int i0 = task / nstrip * H, j0 = task % nstrip * 32 * TX;
    (void)MS;
    RingSrc<R, TX, D> src{ring[warp], A + j0, W, nA, i0, lane, (m + 1) * R, col_ok<G::NCOL>(j0, lane, W)};
    src.start();
    if constexpr (STAGE) {
      StagedSink<TX> sink{B + j0, stage[warp], cols, rows, i0, j0, lane};
      slide<R, TX, MS>(m, K, src, sink);
    } else {
      DirectSink<TX> sink{B + j0 + lane * TX, cols, rows, i0, j0 + lane * TX};
      slide<R, TX, MS>(m, K, src, sink);
    }
  }
}

// No shared memory: the same tasks, rows read through L1 (__ldg) two rows ahead.
template <int R, int TX, int TAPS>
__global__ void __launch_bounds__(128) k_ldg(const float *__restrict__ A, const float *__restrict__ Kg,
                                             float *__restrict__ B, int rows, int cols, int m,
                                             int nstrip, int ntask, const __grid_constant__ TapsP<R> tp) {
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int W = cols + R - 1, nA = rows + R - 1, H = m * R + 1;
  auto K = make_taps<R, TAPS>(Kg, &tp);
  {
    const int task = blockIdx.x * 4 + warp;
    if (task >= ntask) return;
    const int i0 = task / nstrip * H, jt = task % nstrip * 32 * TX + lane * TX;
    LdgSrc<R, TX> src;
    src.A = A + min(jt, cols - 1);  // reads stay in the row, the next one or SLACK
    src.W = W; src.nA = nA; src.i0 = i0; src.nq = (m + 1) * R;
    src.start();
    DirectSink<TX> sink{B + jt, cols, rows, i0, jt};
    slide<R, TX, 0>(m, K, src, sink);
  }
}

// ---------------------------------------------------------------------------------- host
struct Ctx {
  int R, rows, cols, W, nA, nsm;
  size_t nAel, nBel;
  float *A, *K, *B, *Ref;
  unsigned long long *bad;
  unsigned *maxerr;
  unsigned long long seed;
  cudaEvent_t e0, e1;
  std::vector<float> hK;
};
static void fill_inputs(Ctx &c) {
  c.seed++;
  k_fill<<<1024, 256>>>(c.A, c.nAel + SLACK, c.seed * 2 + 1);
  CKL();
  k_fill<<<1, 128>>>(c.K, (size_t)c.R * c.R, c.seed * 2 + 2);
  CKL();
  for (int i = 0; i < c.R * c.R; i++) c.hK[i] = hval(c.seed * 2 + 2, i);
}
static float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5f * (v[n / 2 - 1] + v[n / 2]);
}

struct Plan { int m, nstrip, ntask, grid; };
double g_copy_gbs = 0;

struct Variant;
static Plan plan_tasks(const struct Ctx &c, const Variant &v);
struct Variant {
  const char *name;
  bool constTaps;  // the taps go to __constant__ memory before each launch (timed with it)
  const void *fn;  // for the attributes
  int block;       // threads per block (occupancy)
  // launch(ctx, taps by value): the kernel on stream 0 into c.B
  void (*launch)(Ctx &, const void *tp, const Plan &);
  int tx;          // columns per thread (tasks of the warp kernels)
  int kind;        // 0 naive, 1 tile / row runs, 2 warp/ldg tasks, 3 persistent tiles
  int ms;          // kind 2: static m (0: chosen at run time for one wave); kind 1: M
  int dsmem;       // bytes of dynamic shared memory
};

template <int R> static void launch_naive(Ctx &c, const void *, const Plan &) {
  dim3 blk(32, 8), grd((c.cols + 31) / 32, (c.rows + 7) / 8);
  k_naive<R><<<grd, blk>>>(c.A, c.K, c.B, c.rows, c.cols);
  CKL();
}
template <int R, int TX, int M, int NW, int TAPS, bool OPQ> static void launch_tile(Ctx &c, const void *tp, const Plan &) {
  constexpr int H = M * R + 1, SM = tile_smem<R, TX, M, NW>();
  dim3 grd((c.cols + 32 * TX - 1) / (32 * TX), (c.rows + NW * H - 1) / (NW * H));
  k_tile<R, TX, M, NW, TAPS, OPQ><<<grd, NW * 32, SM>>>(c.A, c.K, c.B, c.rows, c.cols, *(const TapsP<R> *)tp);
  CKL();
}
template <int R, int TX, int M, int NW, int TAPS> static void launch_tilep(Ctx &c, const void *tp, const Plan &p) {
  k_tilep<R, TX, M, NW, TAPS><<<p.grid, NW * 32, tile_smem<R, TX, M, NW>(2)>>>(c.A, c.K, c.B, c.rows, c.cols, *(const TapsP<R> *)tp);
  CKL();
}
template <int R, int TX, int BH> static void launch_arow(Ctx &c, const void *, const Plan &) {
  using G = ARow<R, TX, BH>;
  dim3 grd((c.cols + G::BW - 1) / G::BW, (c.rows + BH - 1) / BH);
  k_arow<R, TX, BH><<<grd, G::NT, G::SMEM>>>(c.A, c.K, c.B, c.rows, c.cols);
  CKL();
}
// One wave: m such that strips * segments <= resident warps.
static Plan plan_tasks(const Ctx &c, const Variant &v) {
  int m, nstrip, ntask, grid;
  nstrip = (c.cols + 32 * v.tx - 1) / (32 * v.tx);
  if (v.ms > 0) {  // one task per warp, as many as the sizes need
    m = v.ms;
    ntask = nstrip * ((c.rows + m * c.R) / (m * c.R + 1));
    return Plan{m, nstrip, ntask, (ntask + 3) / 4};
  }
  int nb = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, v.fn, 128, 0));
  if (nb < 1) nb = 1;
  const int resident = nb * c.nsm * 4;
  const int segs = std::max(1, resident / nstrip);
  const int ht = (c.rows + segs - 1) / segs;
  m = std::max(1, (ht - 1 + c.R - 1) / c.R);
  const int H = m * c.R + 1;
  ntask = nstrip * ((c.rows + H - 1) / H);
  grid = (ntask + 3) / 4;  // <= nb * c.nsm: one task per warp, all resident at once
  return Plan{m, nstrip, ntask, grid};
}
template <int R, int TX, int MS, int TAPS, bool STAGE> static void launch_warp(Ctx &c, const void *tp, const Plan &p) {
  k_warp<R, TX, MS, TAPS, STAGE><<<p.grid, 128>>>(c.A, c.K, c.B, c.rows, c.cols, p.m, p.nstrip, p.ntask, *(const TapsP<R> *)tp);
  CKL();
}
template <int R, int TX, int TAPS> static void launch_ldg(Ctx &c, const void *tp, const Plan &p) {
  k_ldg<R, TX, TAPS><<<p.grid, 128>>>(c.A, c.K, c.B, c.rows, c.cols, p.m, p.nstrip, p.ntask, *(const TapsP<R> *)tp);
  CKL();
}

template <int R> static std::vector<Variant> variants() {
  std::vector<Variant> v;
  v.push_back({"naive_gK", false, (const void *)k_naive<R>, 256, launch_naive<R>, 1, 0, 0, 0});
#define TILE(name, ct, TX, M, NW, T, O) \
  v.push_back({name, ct, (const void *)k_tile<R, TX, M, NW, T, O>, NW * 32, launch_tile<R, TX, M, NW, T, O>, TX, 1, M, \
               tile_smem<R, TX, M, NW>()})
  TILE("tile4_regK", false, 4, 1, 4, T_REG, true);
  TILE("tile4_cK", true, 4, 1, 4, T_CONST, true);
  TILE("tile4_pK", false, 4, 1, 4, T_PARAM, true);
  TILE("tile8_pK", false, 4, 1, 8, T_PARAM, true);
  TILE("tile16_pK", false, 4, 1, 16, T_PARAM, true);
#undef TILE
#define TILEP(name, TX, M, NW) \
  v.push_back({name, false, (const void *)k_tilep<R, TX, M, NW, T_PARAM>, NW * 32, launch_tilep<R, TX, M, NW, T_PARAM>, TX, 3, M, \
               tile_smem<R, TX, M, NW>(2)})
  TILEP("tileP4_pK", 4, 1, 4);
#undef TILEP
  v.push_back({"arow16_gK", false, (const void *)k_arow<R, 16, 32>, 128, launch_arow<R, 16, 32>, 16, 1, 0, ARow<R, 16, 32>::SMEM});
#define WARP(name, TX, MS, ST) \
  v.push_back({name, true, (const void *)k_warp<R, TX, MS, T_CONST, ST>, 128, launch_warp<R, TX, MS, T_CONST, ST>, TX, 2, MS, 0})
  WARP("warp4_cK", 4, 0, true);
  WARP("warp4_cK_direct", 4, 0, false);
#undef WARP
  v.push_back({"ldg4_cK", true, (const void *)k_ldg<R, 4, T_CONST>, 128, launch_ldg<R, 4, T_CONST>, 4, 2, 0, 0});
  return v;
}

template <int R> static void run_variant(Ctx &c, const Variant &v) {
  if (v.dsmem > 0) CK(cudaFuncSetAttribute(v.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, v.dsmem));
  Plan plan = v.kind == 2 ? plan_tasks(c, v) : Plan{0, 0, 0, 0};
  if (v.kind == 3) {  // persistent: as many blocks as fit at once, at most one per tile
    int nb = 0;
    CK(cudaFuncSetAttribute(v.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, v.dsmem));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, v.fn, v.block, v.dsmem));
    const int H = v.ms * R + 1, nw = v.block / 32;
    const long nt = (long)((c.cols + 32 * v.tx - 1) / (32 * v.tx)) * ((c.rows + nw * H - 1) / (nw * H));
    plan.grid = (int)std::min<long>(nt, (long)std::max(nb, 1) * c.nsm);
  }
  const int RR = c.R * c.R;
  std::vector<char> tp(RR * sizeof(float));
  auto set_taps = [&]() {  // before the events: by value; inside them: the copy to __constant__
    memcpy(tp.data(), c.hK.data(), RR * sizeof(float));
  };
  auto to_const = [&]() {
    if (v.constTaps)
      CK(cudaMemcpyToSymbolAsync(cK, c.K, RR * sizeof(float), 0, cudaMemcpyDeviceToDevice, 0));
  };
  const int gs = 1024, bs = 256;
  // check: fresh inputs, the reference, a poisoned output, the variant, the comparison
  fill_inputs(c);
  set_taps();
  {
    dim3 blk(32, 8), grd((c.cols + 31) / 32, (c.rows + 7) / 8);
    k_naive<R><<<grd, blk>>>(c.A, c.K, c.Ref, c.rows, c.cols);
    CKL();
  }
  k_poison<<<gs, bs>>>(c.B, c.nBel);
  CKL();
  to_const();
  v.launch(c, tp.data(), plan);
  CK(cudaMemsetAsync(c.bad, 0, sizeof(unsigned long long)));
  CK(cudaMemsetAsync(c.maxerr, 0, sizeof(unsigned)));
  const float atol = 1e-4f * RR, rtol = 1e-4f;
  k_compare<<<gs, bs>>>(c.B, c.Ref, c.nBel, atol, rtol, c.bad, c.maxerr);
  CKL();
  unsigned long long bad = 0;
  unsigned me = 0;
  CK(cudaMemcpy(&bad, c.bad, sizeof bad, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&me, c.maxerr, sizeof me, cudaMemcpyDeviceToHost));
  float maxerr;
  memcpy(&maxerr, &me, sizeof maxerr);
  // timing
  std::vector<float> t;
  for (int it = 0; it < 25; it++) {
    fill_inputs(c);
    set_taps();
    CK(cudaEventRecord(c.e0, 0));
    to_const();
    v.launch(c, tp.data(), plan);
    CK(cudaEventRecord(c.e1, 0));
    CK(cudaEventSynchronize(c.e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, c.e0, c.e1));
    if (it >= 5) t.push_back(ms);
  }
  cudaFuncAttributes fa;
  CK(cudaFuncGetAttributes(&fa, v.fn));
  int nb = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, v.fn, v.block, v.dsmem));
  const float ms = median(t);
  const double bytes = 4.0 * ((double)c.nA * c.W + (double)c.rows * c.cols);
  const double gbs = bytes / (ms * 1e-3) / 1e9;
  const int H = v.kind == 2 ? plan.m * R + 1 : v.kind == 1 || v.kind == 3 ? v.ms * R + 1 : 1;
  printf("%-16s R=%d rows=%d cols=%d H=%d ms=%.4f min=%.4f max=%.4f GB/s=%.0f ratio=%.3f mismatches=%llu maxerr=%.2e regs=%d smem=%zu blocks/SM=%d\n",
         v.name, c.R, c.rows, c.cols, H, ms, *std::min_element(t.begin(), t.end()),
         *std::max_element(t.begin(), t.end()), gbs, gbs / g_copy_gbs, bad, maxerr, fa.numRegs,
         fa.sharedSizeBytes + v.dsmem, nb);
  fflush(stdout);
}
static double time_copy() {
  const size_t n = 512ull << 20;
  char *s, *d;
  CK(cudaMalloc(&s, n));
  CK(cudaMalloc(&d, n));
  k_fill<<<1024, 256>>>((float *)s, n / 4, 12345);
  CKL();
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<float> t;
  for (int it = 0; it < 25; it++) {
    k_fill<<<1024, 256>>>((float *)s, n / 4, 777 + it);
    CKL();
    CK(cudaEventRecord(e0, 0));
    CK(cudaMemcpyAsync(d, s, n, cudaMemcpyDeviceToDevice, 0));
    CK(cudaEventRecord(e1, 0));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (it >= 5) t.push_back(ms);
  }
  const float ms = median(t);
  const double gbs = 2.0 * n / (ms * 1e-3) / 1e9;
  printf("copy            512 MB device-to-device ms=%.4f GB/s=%.0f (bytes read + written)\n", ms, gbs);
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  CK(cudaFree(s));
  CK(cudaFree(d));
  return gbs;
}

static double time_fmapeak(int nsm) {  // FFMA per second
  float *o;
  CK(cudaMalloc(&o, 1024 * sizeof(float)));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  const int grid = nsm * 8, block = 256, iters = 8192;
  std::vector<float> t;
  for (int it = 0; it < 7; it++) {
    CK(cudaEventRecord(e0, 0));
    k_fmapeak<<<grid, block>>>(o, 0.999f, 1e-4f, iters);
    CKL();
    CK(cudaEventRecord(e1, 0));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (it >= 2) t.push_back(ms);
  }
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  CK(cudaFree(o));
  return (double)grid * block * iters * 8 / (median(t) * 1e-3);
}

template <int R> static int run_all(int rows, int cols, const char *only) {
  Ctx c;
  c.R = R; c.rows = rows; c.cols = cols; c.W = cols + R - 1; c.nA = rows + R - 1;
  c.nAel = (size_t)c.nA * c.W;
  c.nBel = (size_t)rows * cols;
  c.seed = 1000ull * R + 7;
  c.hK.resize(R * R);
  int dev;
  CK(cudaGetDevice(&dev));
  CK(cudaDeviceGetAttribute(&c.nsm, cudaDevAttrMultiProcessorCount, dev));
  CK(cudaMalloc(&c.A, (c.nAel + SLACK) * sizeof(float)));
  CK(cudaMalloc(&c.K, R * R * sizeof(float)));
  CK(cudaMalloc(&c.B, c.nBel * sizeof(float)));
  CK(cudaMalloc(&c.Ref, c.nBel * sizeof(float)));
  CK(cudaMalloc(&c.bad, sizeof(unsigned long long)));
  CK(cudaMalloc(&c.maxerr, sizeof(unsigned)));
  CK(cudaEventCreate(&c.e0));
  CK(cudaEventCreate(&c.e1));
  g_copy_gbs = time_copy();
  {
    const double rate = time_fmapeak(c.nsm), floor_ms = (double)rows * cols * R * R / rate * 1e3;
    const double bytes = 4.0 * ((double)c.nA * c.W + (double)rows * cols);
    printf("ffma-peak       %.1f G FFMA/s (%.0f MHz x %d SMs x 128); R*R FFMA per output alone: "
           "floor ms=%.4f, ratio ceiling=%.3f\n", rate / 1e9, rate / (c.nsm * 128.0) / 1e6, c.nsm, floor_ms,
           bytes / (floor_ms * 1e-3) / 1e9 / g_copy_gbs);
  }
  for (const Variant &v : variants<R>())
    if (!only || strstr(v.name, only)) run_variant<R>(c, v);
  CK(cudaEventDestroy(c.e0));
  CK(cudaEventDestroy(c.e1));
  CK(cudaFree(c.A)); CK(cudaFree(c.K)); CK(cudaFree(c.B)); CK(cudaFree(c.Ref));
  CK(cudaFree(c.bad)); CK(cudaFree(c.maxerr));
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 4 && argc != 5) {
    fprintf(stderr, "usage: %s R rows cols [variant-substring]   (R = 5, 6, 7, 9)\n", argv[0]);
    return 2;
  }
  const int R = atoi(argv[1]), rows = atoi(argv[2]), cols = atoi(argv[3]);
  const char *only = argc == 5 ? argv[4] : nullptr;
  if (rows < 1 || cols < 1) {
    fprintf(stderr, "rows and cols must be positive\n");
    return 2;
  }
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  printf("device %s, %d SMs, R=%d rows=%d cols=%d\n", p.name, p.multiProcessorCount, R, rows, cols);
  switch (R) {
    case 5: return run_all<5>(rows, cols, only);
    case 6: return run_all<6>(rows, cols, only);
    case 7: return run_all<7>(rows, cols, only);
    case 9: return run_all<9>(rows, cols, only);
    default: fprintf(stderr, "R must be 5, 6, 7 or 9\n"); return 2;
  }
}
