// explore3d: hand-written CUDA mappings of the 3-D filters box3d (27 points), star3d (13 points)
// and conv3d (27 taps) of bench/kernels/kernels.c, timed against a device-to-device copy.
// Self-contained; usage: explore3d nz ny nx [filter]   (filter: substring of "kernel:variant")
// Sizes are the C functions' parameters: box3d/star3d read and write nz*ny*nx floats, conv3d reads
// (nz+2)*(ny+2)*(nx+2) floats plus 27 weights and writes nz*ny*nx. Bytes counted = input + output.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>
#include <type_traits>

#define CK(x)                                                                                     \
  do {                                                                                            \
    cudaError_t e_ = (x);                                                                         \
    if (e_ != cudaSuccess) {                                                                      \
      fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorString(e_), __FILE__, __LINE__, \
              #x);                                                                                \
      exit(1);                                                                                    \
    }                                                                                             \
  } while (0)

// ------------------------------------------------------------------------------------------------
// Fill: hash of (index, seed) -> [-1, 1].
__global__ void fill(float *a, long long n, unsigned seed) {
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < n;
       t += (long long)gridDim.x * blockDim.x) {
    unsigned long long h = (unsigned long long)t * 0x9E3779B97F4A7C15ull ^ ((unsigned long long)seed << 32 | seed);
    h ^= h >> 31; h *= 0xBF58476D1CE4E5B9ull; h ^= h >> 27; h *= 0x94D049BB133111EBull; h ^= h >> 31;
    a[t] = (float)(h >> 40) * (2.0f / 16777216.0f) - 1.0f;  // 24 bits -> [-1, 1)
  }
}

// ------------------------------------------------------------------------------------------------
// Reference + check, one thread per element of B: interior points are recomputed (double) and
// compared with tolerance 1e-4 * |ref| + 1e-5 * max(1, sum of |terms|) (the box's terms include
// the 1/27, so there the absolute part is 1e-5); points outside the interior must still hold the
// poison 0xffffffff the harness writes before the checked run (the C code never writes them).
enum Kind { BOX = 0, STAR = 1, CONV = 2 };
__global__ void ref_check(int kind, int nz, int ny, int nx, const float *__restrict__ A,
                          const float *__restrict__ K, const float *__restrict__ B,
                          unsigned long long *bad) {
  long long n = (long long)nz * ny * nx;
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < n;
       t += (long long)gridDim.x * blockDim.x) {
    int i = (int)(t % nx), j = (int)((t / nx) % ny), k = (int)(t / ((long long)nx * ny));
    float got = B[t];
    double r = 0, m = 0;
    bool interior;
    if (kind == BOX) {
      interior = k >= 1 && k < nz - 1 && j >= 1 && j < ny - 1 && i >= 1 && i < nx - 1;
      if (interior) {
        for (int c = -1; c <= 1; c++)
          for (int b = -1; b <= 1; b++)
            for (int a = -1; a <= 1; a++) {
              double v = A[((long long)(k + c) * ny + j + b) * nx + i + a];
              r += v; m += fabs(v);
            }
        r *= 1.0 / 27.0; m *= 1.0 / 27.0;
      }
    } else if (kind == STAR) {
      interior = k >= 2 && k < nz - 2 && j >= 2 && j < ny - 2 && i >= 2 && i < nx - 2;
      if (interior) {
        auto at = [&](int dk, int dj, int di) -> double {
          return A[((long long)(k + dk) * ny + j + dj) * nx + i + di];
        };
        double c0 = at(0, 0, 0);
        double s1 = at(-1, 0, 0) + at(1, 0, 0) + at(0, -1, 0) + at(0, 1, 0) + at(0, 0, -1) + at(0, 0, 1);
        double s2 = at(-2, 0, 0) + at(2, 0, 0) + at(0, -2, 0) + at(0, 2, 0) + at(0, 0, -2) + at(0, 0, 2);
        double a1 = fabs(at(-1, 0, 0)) + fabs(at(1, 0, 0)) + fabs(at(0, -1, 0)) + fabs(at(0, 1, 0)) +
                    fabs(at(0, 0, -1)) + fabs(at(0, 0, 1));
        double a2 = fabs(at(-2, 0, 0)) + fabs(at(2, 0, 0)) + fabs(at(0, -2, 0)) + fabs(at(0, 2, 0)) +
                    fabs(at(0, 0, -2)) + fabs(at(0, 0, 2));
        r = 0.5 * c0 + 0.1 * s1 - 0.025 * s2;
        m = 0.5 * fabs(c0) + 0.1 * a1 + 0.025 * a2;
      }
    } else {
      interior = true;
      int px = nx + 2, py = ny + 2;
      for (int c = 0; c < 3; c++)
        for (int b = 0; b < 3; b++)
          for (int a = 0; a < 3; a++) {
            double v = (double)K[(c * 3 + b) * 3 + a] * A[((long long)(k + c) * py + j + b) * px + i + a];
            r += v; m += fabs(v);
          }
    }
    bool ok;
    if (interior) ok = fabs((double)got - r) <= 1e-4 * fabs(r) + 1e-5 * fmax(1.0, m);  // NaN -> false
    else ok = __float_as_uint(got) == 0xffffffffu;
    if (!ok) {
      unsigned long long c = atomicAdd(bad, 1ull);
      if (c < 5) printf("    mismatch at k=%d j=%d i=%d: got %.7g want %.7g%s\n", k, j, i, got, r,
                        interior ? "" : " (outside the interior: must stay untouched)");
    }
  }
}

#define FULL 0xffffffffu
static int g_sms = 132;            // set from the device properties in main
static int g_smem_optin = 227 * 1024;  // likewise

// ------------------------------------------------------------------------------------------------
// box3d, idea (1)+(3)+(4): no shared memory. Block (32, BY); a thread owns CX columns (32 apart)
// and R consecutive rows, walks the planes k0..k1-1 of its chunk. Per new plane it loads the
// (R+2) x 3 neighbourhood of each column through L1 (__ldg), forms the row 3-sums once and the
// R plane sums from them (row-sum reuse), and rolls the plane sums in registers:
// out[k] = P[k-1] + P[k] + P[k+1]. The loads of plane k+2 are issued before the arithmetic of
// plane k+1 (two register buffers, loop unrolled by two).
template <int R, int CX>
struct BoxRegBuf {
  float v[CX][R + 2][3];
};

template <int BY, int R, int CX>
__global__ void __launch_bounds__(32 * BY) box_reg(int nz, int ny, int nx, int kc, const float *__restrict__ A,
                                                   float *__restrict__ B) {
  const int tx = threadIdx.x;
  const int j0 = 1 + (blockIdx.y * BY + threadIdx.y) * R;
  const int ib = 1 + blockIdx.x * 32 * CX + tx;
  if (j0 > ny - 2 || ib > nx - 2) return;
  const int k0 = 1 + blockIdx.z * kc, k1 = min(k0 + kc, nz - 1);
  int co[CX];
  bool cok[CX];
#pragma unroll
  for (int c = 0; c < CX; c++) {
    int i = ib + 32 * c;
    cok[c] = i <= nx - 2;
    co[c] = min(i, nx - 2) - 1;
  }
  int ro[R + 2];
#pragma unroll
  for (int r = 0; r < R + 2; r++) ro[r] = min(j0 - 1 + r, ny - 1) * nx;
  const size_t plane = (size_t)ny * nx;
  auto load = [&](BoxRegBuf<R, CX> &X, const float *p) {
#pragma unroll
    for (int c = 0; c < CX; c++)
#pragma unroll
      for (int r = 0; r < R + 2; r++)
#pragma unroll
        for (int a = 0; a < 3; a++) X.v[c][r][a] = __ldg(p + ro[r] + co[c] + a);
  };
  float Pm[CX][R], Pc[CX][R];
  auto sums = [&](float (&P)[CX][R], const BoxRegBuf<R, CX> &X) {
#pragma unroll
    for (int c = 0; c < CX; c++) {
      float H[R + 2];
#pragma unroll
      for (int r = 0; r < R + 2; r++) H[r] = X.v[c][r][0] + X.v[c][r][1] + X.v[c][r][2];
#pragma unroll
      for (int q = 0; q < R; q++) P[c][q] = H[q] + H[q + 1] + H[q + 2];
    }
  };
  const float *p = A + (size_t)(k0 - 1) * plane;
  float *ob = B + (size_t)k0 * plane;
  BoxRegBuf<R, CX> Xa, Xb;
  load(Xa, p);
  sums(Pm, Xa);
  p += plane;
  load(Xa, p);
  sums(Pc, Xa);
  p += plane;
  load(Xa, p);  // plane k0 + 1; p points at plane k + 1 below
  auto step = [&](const BoxRegBuf<R, CX> &X) {
    float Pn[CX][R];
    sums(Pn, X);
#pragma unroll
    for (int c = 0; c < CX; c++)
#pragma unroll
      for (int q = 0; q < R; q++) {
        float o = (Pm[c][q] + Pc[c][q] + Pn[c][q]) * (1.0f / 27.0f);
        if (cok[c] && j0 + q <= ny - 2) ob[ro[q + 1] + co[c] + 1] = o;
        Pm[c][q] = Pc[c][q];
        Pc[c][q] = Pn[c][q];
      }
  };
  for (int k = k0;;) {
    if (k + 1 < k1) load(Xb, p + plane);
    step(Xa);
    k++; p += plane; ob += plane;
    if (k >= k1) break;
    if (k + 1 < k1) load(Xa, p + plane);
    step(Xb);
    k++; p += plane; ob += plane;
    if (k >= k1) break;
  }
}

// box3d, idea (3) through shuffles: a thread loads only its own column of rows j0-1..j0+R (plus
// one edge load per row: lanes 0-15 the column left of the warp, lanes 16-31 the one right of
// it), forms vertical 3-sums, and takes the left/right neighbours' vertical sums by __shfl.
template <int BY, int R>
__global__ void __launch_bounds__(32 * BY) box_shfl(int nz, int ny, int nx, int kc, const float *__restrict__ A,
                                                    float *__restrict__ B) {
  const int tx = threadIdx.x;
  const int j0 = 1 + (blockIdx.y * BY + threadIdx.y) * R;
  if (j0 > ny - 2) return;  // warp-uniform
  const int xb = 1 + blockIdx.x * 32;
  const int i = xb + tx;
  const bool iok = i <= nx - 2;
  const int ci = min(i, nx - 1);
  const int ec = tx < 16 ? xb - 1 : min(xb + 32, nx - 1);
  const int k0 = 1 + blockIdx.z * kc, k1 = min(k0 + kc, nz - 1);
  int ro[R + 2];
#pragma unroll
  for (int r = 0; r < R + 2; r++) ro[r] = min(j0 - 1 + r, ny - 1) * nx;
  const size_t plane = (size_t)ny * nx;
  struct Buf { float c[R + 2], e[R + 2]; };
  auto load = [&](Buf &X, const float *p) {
#pragma unroll
    for (int r = 0; r < R + 2; r++) { X.c[r] = __ldg(p + ro[r] + ci); X.e[r] = __ldg(p + ro[r] + ec); }
  };
  auto sums = [&](float (&P)[R], const Buf &X) {
#pragma unroll
    for (int q = 0; q < R; q++) {
      float v = X.c[q] + X.c[q + 1] + X.c[q + 2];
      float e = X.e[q] + X.e[q + 1] + X.e[q + 2];
      float l = __shfl_up_sync(FULL, v, 1), rr = __shfl_down_sync(FULL, v, 1);
      if (tx == 0) l = e;
      if (tx == 31) rr = e;
      P[q] = l + v + rr;
    }
  };
  float Pm[R], Pc[R];
  const float *p = A + (size_t)(k0 - 1) * plane;
  float *ob = B + (size_t)k0 * plane;
  Buf Xa, Xb;
  load(Xa, p); sums(Pm, Xa); p += plane;
  load(Xa, p); sums(Pc, Xa); p += plane;
  load(Xa, p);
  auto step = [&](const Buf &X) {
    float Pn[R];
    sums(Pn, X);
#pragma unroll
    for (int q = 0; q < R; q++) {
      float o = (Pm[q] + Pc[q] + Pn[q]) * (1.0f / 27.0f);
      if (iok && j0 + q <= ny - 2) ob[ro[q + 1] + i] = o;
      Pm[q] = Pc[q];
      Pc[q] = Pn[q];
    }
  };
  for (int k = k0;;) {
    if (k + 1 < k1) load(Xb, p + plane);
    step(Xa);
    k++; p += plane; ob += plane;
    if (k >= k1) break;
    if (k + 1 < k1) load(Xa, p + plane);
    step(Xb);
    k++; p += plane; ob += plane;
    if (k >= k1) break;
  }
}

// ------------------------------------------------------------------------------------------------
// idea (2): classic 2.5-D blocking. A 2-D plane tile (TX+2H) x (BY*R+2H) in shared memory, two
// buffers, filled with ordinary loads into registers one plane ahead (each thread a fixed list of
// tile elements, source coordinates clamped into the array), one __syncthreads per plane. The
// z-direction lives in registers (rolling plane sums for the box; queues for the star).
template <int TX, int BY, int R, int H>
struct TileFill {
  static constexpr int TW = TX + 2 * H, TH = BY * R + 2 * H, E = TW * TH, NT = TX * BY,
                       NL = (E + NT - 1) / NT;
  int off[NL], sidx[NL];
  __device__ void init(int x0, int y0, int ny, int nx) {  // x0, y0: first output column / row
    int t = threadIdx.y * TX + threadIdx.x;
#pragma unroll
    for (int l = 0; l < NL; l++) {
      int e = t + l * NT, ee = min(e, E - 1);
      int r = ee / TW, c = ee - r * TW;
      int gr = min(max(y0 - H + r, 0), ny - 1), gc = min(max(x0 - H + c, 0), nx - 1);
      off[l] = gr * nx + gc;
      sidx[l] = e < E ? e : E;  // slot E: a dump slot
    }
  }
};

template <int TX, int BY, int R>
__global__ void __launch_bounds__(TX * BY) box_smem(int nz, int ny, int nx, int kc, const float *__restrict__ A,
                                                    float *__restrict__ B) {
  using F = TileFill<TX, BY, R, 1>;
  __shared__ float tile[2][F::E + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = 1 + blockIdx.x * TX, y0 = 1 + blockIdx.y * BY * R;
  F f;
  f.init(x0, y0, ny, nx);
  const int i = x0 + tx, j0 = y0 + ty * R;
  const bool iok = i <= nx - 2;
  const int k0 = 1 + blockIdx.z * kc, k1 = min(k0 + kc, nz - 1);
  const size_t plane = (size_t)ny * nx;
  const float *p = A + (size_t)(k0 - 1) * plane;
  float *ob = B + (size_t)(k0 - 1) * plane;  // output of plane pp - 1
  float v[F::NL];
#pragma unroll
  for (int l = 0; l < F::NL; l++) v[l] = __ldg(p + f.off[l]);
  float Pm[R] = {}, Pc[R] = {};  // initialised: a phi of an undefined value may fold away
  int s = 0;
  for (int pp = k0 - 1; pp <= k1; pp++, s ^= 1) {
    float *tb = tile[s];
#pragma unroll
    for (int l = 0; l < F::NL; l++) tb[f.sidx[l]] = v[l];
    if (pp < k1) {
      p += plane;
#pragma unroll
      for (int l = 0; l < F::NL; l++) v[l] = __ldg(p + f.off[l]);
    }
    __syncthreads();
    float H[R + 2], Pn[R];
#pragma unroll
    for (int r = 0; r < R + 2; r++) {
      const float *row = tb + (ty * R + r) * F::TW + tx;
      H[r] = row[0] + row[1] + row[2];
    }
#pragma unroll
    for (int q = 0; q < R; q++) Pn[q] = H[q] + H[q + 1] + H[q + 2];
    if (pp >= k0 + 1) {
#pragma unroll
      for (int q = 0; q < R; q++) {
        float o = (Pm[q] + Pc[q] + Pn[q]) * (1.0f / 27.0f);
        if (iok && j0 + q <= ny - 2) ob[(j0 + q) * nx + i] = o;
      }
    }
    if (pp >= k0) ob += plane;
#pragma unroll
    for (int q = 0; q < R; q++) { Pm[q] = Pc[q]; Pc[q] = Pn[q]; }
  }
}

// ------------------------------------------------------------------------------------------------
// star3d (13 points), idea (2): a shared-memory plane tile (halo 2) as box_smem. The linear body
// is split per plane: each plane p contributes its centre value c(p) (weights 0.5, 0.1, -0.025 as
// the plane is 0, 1, 2 away) and, to the output on plane p, the in-plane part
// w(p) = 0.1 * (4 nearest in-plane) - 0.025 * (4 at distance 2). A thread keeps c of planes
// p-4..p and w of planes p-2..p in registers; output k = p - 2.
template <int TX, int BY, int R>
__global__ void __launch_bounds__(TX * BY) star_smem(int nz, int ny, int nx, int kc, const float *__restrict__ A,
                                                     float *__restrict__ B) {
  using F = TileFill<TX, BY, R, 2>;
  __shared__ float tile[2][F::E + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = 2 + blockIdx.x * TX, y0 = 2 + blockIdx.y * BY * R;
  F f;
  f.init(x0, y0, ny, nx);
  const int i = x0 + tx, j0 = y0 + ty * R;
  const bool iok = i <= nx - 3;
  const int k0 = 2 + blockIdx.z * kc, k1 = min(k0 + kc, nz - 2);
  const size_t plane = (size_t)ny * nx;
  const float *p = A + (size_t)(k0 - 2) * plane;
  float *ob = B + (size_t)k0 * plane;  // output plane pp - 2, advanced after each output
  float v[F::NL];
#pragma unroll
  for (int l = 0; l < F::NL; l++) v[l] = __ldg(p + f.off[l]);
  float C[5][R] = {}, W[3][R] = {};
  int s = 0;
  for (int pp = k0 - 2; pp <= k1 + 1; pp++, s ^= 1) {
    float *tb = tile[s];
#pragma unroll
    for (int l = 0; l < F::NL; l++) tb[f.sidx[l]] = v[l];
    if (pp < k1 + 1) {
      p += plane;
#pragma unroll
      for (int l = 0; l < F::NL; l++) v[l] = __ldg(p + f.off[l]);
    }
    __syncthreads();
    float col[R + 4];
#pragma unroll
    for (int r = 0; r < R + 4; r++) col[r] = tb[(ty * R + r) * F::TW + tx + 2];
#pragma unroll
    for (int q = 0; q < R; q++) {
      const float *row = tb + (ty * R + q + 2) * F::TW + tx;
#pragma unroll
      for (int d = 0; d < 4; d++) C[d][q] = C[d + 1][q];
      W[0][q] = W[1][q];
      W[1][q] = W[2][q];
      C[4][q] = col[q + 2];
      W[2][q] = 0.1f * (col[q + 1] + col[q + 3] + row[1] + row[3]) - 0.025f * (col[q] + col[q + 4] + row[0] + row[4]);
    }
    if (pp >= k0 + 2) {
#pragma unroll
      for (int q = 0; q < R; q++) {
        float o = 0.5f * C[2][q] + 0.1f * (C[1][q] + C[3][q]) - 0.025f * (C[0][q] + C[4][q]) + W[0][q];
        if (iok && j0 + q <= ny - 3) ob[(j0 + q) * nx + i] = o;
      }
      ob += plane;
    }
  }
}

// ------------------------------------------------------------------------------------------------
// conv3d (27 taps, weights K[3][3][3] a device array, as the C code gets them), idea (1) as
// box_reg: a thread owns R rows of one output column, loads the (R+2) x 3 input neighbourhood of
// each new input plane p one plane ahead through L1, and adds it with weights K[c] into the
// accumulators of outputs p - c (c = 0, 1, 2); output p - 2 is then complete. The weights are
// read from K into 27 registers per thread.
__constant__ float cW[27];  // the tile form's copy of K (see tile_k)
template <int R>
struct ConvBuf {
  float v[R + 2][3];
};
template <int BY, int R>
__global__ void __launch_bounds__(32 * BY) conv_reg(int nz, int ny, int nx, int kc, const float *__restrict__ A,
                                                    const float *__restrict__ K, float *__restrict__ B) {
  const int tx = threadIdx.x;
  const int j0 = (blockIdx.y * BY + threadIdx.y) * R;
  const int i = blockIdx.x * 32 + tx;
  if (j0 >= ny || i >= nx) return;
  const int px = nx + 2, py = ny + 2;
  const int k0 = blockIdx.z * kc, k1 = min(k0 + kc, nz);  // outputs k0..k1-1, input planes k0..k1+1
  float w[27];
#pragma unroll
  for (int t = 0; t < 27; t++) w[t] = __ldg(K + t);
  int ro[R + 2];
#pragma unroll
  for (int r = 0; r < R + 2; r++) ro[r] = min(j0 + r, ny + 1) * px + i;
  const size_t plane = (size_t)py * px, oplane = (size_t)ny * nx;
  auto load = [&](ConvBuf<R> &X, const float *p) {
#pragma unroll
    for (int r = 0; r < R + 2; r++)
#pragma unroll
      for (int a = 0; a < 3; a++) X.v[r][a] = __ldg(p + ro[r] + a);
  };
  float acc0[R], acc1[R];  // outputs p, p - 1 (after adding plane p)
  auto add = [&](float &s, const ConvBuf<R> &X, int q, int c) {
#pragma unroll
    for (int b = 0; b < 3; b++)
#pragma unroll
      for (int a = 0; a < 3; a++) s = fmaf(w[(c * 3 + b) * 3 + a], X.v[q + b][a], s);
  };
  const float *p = A + (size_t)k0 * plane;
  float *ob = B + (size_t)k0 * oplane + (size_t)j0 * nx + i;
  ConvBuf<R> Xa, Xb;
  load(Xa, p);
#pragma unroll
  for (int q = 0; q < R; q++) { acc1[q] = 0.f; add(acc1[q], Xa, q, 0); }  // output k0
  p += plane;
  load(Xa, p);
#pragma unroll
  for (int q = 0; q < R; q++) { acc0[q] = 0.f; add(acc0[q], Xa, q, 0); add(acc1[q], Xa, q, 1); }
  p += plane;
  load(Xa, p);  // plane k0 + 2 = k + 2
  auto step = [&](const ConvBuf<R> &X) {
#pragma unroll
    for (int q = 0; q < R; q++) {
      float done = acc1[q];
      add(done, X, q, 2);
      if (j0 + q < ny) ob[q * nx] = done;
      acc1[q] = acc0[q];
      add(acc1[q], X, q, 1);
      acc0[q] = 0.f;
      add(acc0[q], X, q, 0);
    }
  };
  for (int k = k0;;) {
    if (k + 1 < k1) load(Xb, p + plane);
    step(Xa);
    k++; p += plane; ob += oplane;
    if (k >= k1) break;
    if (k + 1 < k1) load(Xa, p + plane);
    step(Xb);
    k++; p += plane; ob += oplane;
    if (k >= k1) break;
  }
}

// ------------------------------------------------------------------------------------------------
// PTX helpers for the TMA form: mbarriers and bulk copies global -> shared (sm_90).
__device__ __forceinline__ unsigned smem_u32(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mbar_init(unsigned long long *b, unsigned cnt) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(b)), "r"(cnt) : "memory");
}
__device__ __forceinline__ void fence_mbar_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
__device__ __forceinline__ void mbar_expect_tx(unsigned long long *b, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(b)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void bulk_g2s(void *dst, const void *src, unsigned bytes, unsigned long long *b) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   smem_u32(dst)),
               "l"(src), "r"(bytes), "r"(smem_u32(b))
               : "memory");
}
__device__ __forceinline__ void mbar_wait(unsigned long long *b, unsigned parity) {
  asm volatile(
      "{\n\t.reg .pred P1;\n\tLAB_WAIT:\n\t"
      "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n\t"
      "@P1 bra DONE;\n\tbra LAB_WAIT;\n\tDONE:\n\t}" ::"r"(smem_u32(b)),
      "r"(parity)
      : "memory");
}
static char g_note[160];
static int round_up(int a, int b) { return (a + b - 1) / b * b; }
// Blocks per SM for (kernel, threads, dynamic smem), for the report line; the shared-memory
// attribute is set once per kernel, and results are cached (host calls would otherwise land
// inside the timed region: the first, untimed warm-up run pays them).
template <class KernelT>
static int blocks_per_sm(KernelT k, int nt, size_t smem) {
  struct Key { const void *k; int nt; size_t smem; int occ; };
  static std::vector<Key> cache;
  for (auto &e : cache)
    if (e.k == (const void *)k && e.nt == nt && e.smem == smem) return e.occ;
  bool seen = false;
  for (auto &e : cache) seen |= e.k == (const void *)k;
  if (!seen) {
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, k));
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, g_smem_optin - (int)fa.sharedSizeBytes));
  }
  int occ = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, k, nt, smem));
  if (occ < 1) { fprintf(stderr, "tile: does not fit (%d threads, %zu bytes of shared memory)\n", nt, smem); exit(1); }
  cache.push_back({(const void *)k, nt, smem, occ});
  return occ;
}
// Thread r of the copying threads: copy rwc floats of A (n floats in all) from element s rounded
// down to 16 bytes into dst (16-byte aligned), completion counted on bar.

__device__ __forceinline__ void row_issue(const float *A, long long n, long long s, int rwc, float *dst,
                                          unsigned long long *bar) {
  long long a0 = s & ~3ll, a1 = a0 + rwc;
  if (a1 > n) {  // only at the very end of the array
    long long a1c = n & ~3ll;
    for (long long t = a1c; t < n; t++) dst[t - a0] = A[t];
    a1 = a1c;
  }
  fence_proxy_async();
  unsigned bytes = (unsigned)(a1 - a0) * 4u;
  mbar_expect_tx(bar, bytes);
  if (bytes) bulk_g2s(dst, A + a0, bytes, bar);
}
// ------------------------------------------------------------------------------------------------
// Idea (4), "tma": the best form found. A block owns a window of W output columns (W = its
// thread count, one column per thread; a row is split into equal windows of at most MAXW, W a
// multiple of 32), R output rows, and a chunk of about KC output planes (grid: windows x row
// bands x chunks, windows fastest). Each input plane's R + 2h rows (h = the halo: 1 for the box
// and the 27-tap filter, 2 for the star) are copied into shared memory by R + 2h TMA bulk
// copies (cp.async.bulk, one per row, issued by threads 0..R+2h-1, completion counted on the
// plane's mbarrier), D planes in flight; a copy starts at the row's first element rounded down to
// 16 bytes (bulk copies need 16-byte alignment) and a reader adds the misalignment, so any row
// length works; where a copy would pass the end of the array (last row of the last plane) its
// last 1-3 floats are copied by ordinary loads before the thread's arrival. One __syncthreads per
// plane (then the plane's buffer is refilled). The z-direction stays in registers: box rolling
// plane sums (row 3-sums shared by the R rows), star 4 accumulators per output, 27-tap filter 2
// accumulators per output with the weights in __constant__ memory (copied from K device to device
// before each launch, inside the timed region: FFMA reads them from the constant bank).
// AL: outputs staged in shared memory (two buffers) and written as 16-byte-aligned float4
// stores, so a warp writes whole 32-byte sectors (4-byte stores of a row of odd length straddle
// 5 sectors per warp); AL=false stores each output directly.
// All indices below are in input coordinates: the output at centre (k, j, i) is the box or star
// centred there, or, for the 27-tap filter (input padded by 2), B[k-1][j-1][i-1].
template <int KIND, int R, int D, bool AL>
__global__ void __launch_bounds__(1024, 1)
    tile_k(int nz, int ny, int nx, int kc, int rwc, int sw, const float *__restrict__ A, float *__restrict__ B) {
  constexpr int h = KIND == STAR ? 2 : 1;  // halo in each direction
  constexpr int oc = KIND == CONV ? 1 : 0;  // output index = centre index - oc
  constexpr int RR = R + 2 * h;             // rows read per plane
  extern __shared__ __align__(128) float sm[];
  __shared__ __align__(8) unsigned long long full[D];
  const int tid = threadIdx.x, NT = blockDim.x;
  if (tid == 0) {
    for (int d = 0; d < D; d++) mbar_init(&full[d], RR);
    fence_mbar_init();
  }
  __syncthreads();
  const int inx = nx + 2 * oc, iny = ny + 2 * oc, inz = nz + 2 * oc;  // input array
  const int cx0 = h + blockIdx.x * NT;            // first centre column of the window
  const int wv = min(NT, inx - h - cx0);          // centres in this window's rows
  const int cy0 = h + blockIdx.y * R;             // first centre row
  const int kc0 = h + blockIdx.z * kc, kc1 = min(kc0 + kc, inz - h);
  const int np = kc1 - kc0 + 2 * h;               // planes kc0-h .. kc1-1+h
  const long long iplane = (long long)iny * inx, oplane = (long long)ny * nx;
  const int bufw = RR * rwc;
  const long long n = iplane * inz;
  // thread r < RR copies row cy0-h+r (clamped) of each plane, from column cx0-h
  const long long src0 = (long long)(kc0 - h) * iplane + (long long)min(cy0 - h + tid, iny - 1) * inx + (cx0 - h);
  if (tid < RR)
    for (int s = 0; s < D && s < np; s++) row_issue(A, n, src0 + s * iplane, rwc, sm + s * bufw + tid * rwc, &full[s]);
  const bool cok = tid < wv;
  const int lc = min(tid, wv - 1);
  const int n3 = inx & 3, p3 = (int)(iplane & 3), on3 = nx & 3, op3 = (int)(oplane & 3);
  int ms = (int)(((long long)(kc0 - h) * iplane + (long long)(cy0 - h) * inx + (cx0 - h)) & 3);  // row 0 of step s, mod 4
  const long long ob0 = (long long)(kc0 - oc) * oplane + (long long)(cy0 - oc) * nx + (cx0 - oc);
  int mo = (int)(ob0 & 3);  // output row 0 of the centre plane completed at step s (from s = 2h), mod 4
  float *ob = B + ob0;
  float *stage0 = sm + D * bufw;
  // per-thread state
  float S0[R] = {}, S1[R] = {}, S2[R] = {}, S3[R] = {};
  int d = 0;
  unsigned ph = 0;
  for (int s = 0; s < np; s++) {
    mbar_wait(&full[d], ph);
    const float *buf = sm + d * bufw + lc;
    float out[R];
    if constexpr (KIND == BOX) {
      float H[RR];
#pragma unroll
      for (int r = 0; r < RR; r++) {
        const float *x = buf + r * rwc + ((ms + r * n3) & 3);
        H[r] = x[0] + x[1] + x[2];
      }
#pragma unroll
      for (int q = 0; q < R; q++) {
        float Pn = H[q] + H[q + 1] + H[q + 2];
        out[q] = (S0[q] + S1[q] + Pn) * (1.0f / 27.0f);  // S0 = P(p-2), S1 = P(p-1)
        S0[q] = S1[q];
        S1[q] = Pn;
      }
    } else if constexpr (KIND == STAR) {
      float col[RR];
#pragma unroll
      for (int r = 0; r < RR; r++) col[r] = buf[r * rwc + ((ms + r * n3) & 3) + 2];
#pragma unroll
      for (int q = 0; q < R; q++) {
        const float *x = buf + (q + 2) * rwc + ((ms + (q + 2) * n3) & 3);
        const float cv = col[q + 2];
        const float w = 0.1f * (col[q + 1] + col[q + 3] + x[1] + x[3]) - 0.025f * (col[q] + col[q + 4] + x[0] + x[4]);
        out[q] = S0[q] - 0.025f * cv;  // centre p-2 complete
        S0[q] = S1[q] + 0.1f * cv;     // centre p-1
        S1[q] = S2[q] + 0.5f * cv + w; // centre p
        S2[q] = S3[q] + 0.1f * cv;     // centre p+1
        S3[q] = -0.025f * cv;          // centre p+2
      }
    } else {
      float X[RR][3];
#pragma unroll
      for (int r = 0; r < RR; r++)
#pragma unroll
        for (int t = 0; t < 3; t++) X[r][t] = buf[r * rwc + ((ms + r * n3) & 3) + t];
#pragma unroll
      for (int q = 0; q < R; q++) {
        float s2 = S1[q], s1 = S0[q], s0 = 0.f;  // S1: centre p-1, S0: centre p
#pragma unroll
        for (int b = 0; b < 3; b++)
#pragma unroll
          for (int t = 0; t < 3; t++) {
            s2 = fmaf(cW[18 + b * 3 + t], X[q + b][t], s2);
            s1 = fmaf(cW[9 + b * 3 + t], X[q + b][t], s1);
            s0 = fmaf(cW[b * 3 + t], X[q + b][t], s0);
          }
        out[q] = s2;
        S1[q] = s1;
        S0[q] = s0;
      }
    }
    const bool emit = s >= 2 * h;
    float *stage = stage0 + (s & 1) * R * sw;
    if (emit) {
#pragma unroll
      for (int q = 0; q < R; q++) {
        if (AL) stage[q * sw + ((mo + q * on3) & 3) + tid] = out[q];
        else if (cok && cy0 + q < iny - h) ob[q * nx + lc] = out[q];
      }
    }
    __syncthreads();  // every thread is done with buffer d (and has staged its outputs)
    if (tid < RR && s + D < np) row_issue(A, n, src0 + (s + D) * iplane, rwc, sm + d * bufw + tid * rwc, &full[d]);
    if (AL && emit) {
      // vector v of row q: window elements [4v - m, 4v - m + 4), m = the row's start mod 4
#pragma unroll
      for (int q = 0; q < R; q++) {
        const int m = (mo + q * on3) & 3, nv = (m + wv + 3) >> 2;
        if (cy0 + q < iny - h && tid < nv) {
          const float4 val = *reinterpret_cast<const float4 *>(stage + q * sw + 4 * tid);
          const int e = 4 * tid - m;
          float *g = ob + q * nx + e;
          if (e >= 0 && e + 3 < wv) *reinterpret_cast<float4 *>(g) = val;
          else {
            if (e >= 0 && e < wv) g[0] = val.x;
            if (e + 1 >= 0 && e + 1 < wv) g[1] = val.y;
            if (e + 2 >= 0 && e + 2 < wv) g[2] = val.z;
            if (e + 3 >= 0 && e + 3 < wv) g[3] = val.w;
          }
        }
      }
    }
    if (emit) {
      ob += oplane;
      mo = (mo + op3) & 3;
    }
    ms = (ms + p3) & 3;
    if (++d == D) { d = 0; ph ^= 1u; }
  }
}
// Chunks of about KC centre planes (equal lengths); windows of at most MAXW columns.
template <int KIND, int R, int D, bool AL>
static void launch_tile(int nz, int ny, int nx, int kct, int maxw, const float *A, const float *K, float *B) {
  constexpr int h = KIND == STAR ? 2 : 1, oc = KIND == CONV ? 1 : 0;
  const int inx = nx + 2 * oc, iny = ny + 2 * oc, inz = nz + 2 * oc;
  const int cols = inx - 2 * h, rows = iny - 2 * h, planes = inz - 2 * h;
  int nwin = (cols + maxw - 1) / maxw;
  const int w = round_up((cols + nwin - 1) / nwin, 32);
  nwin = (cols + w - 1) / w;
  const int rwc = round_up(w + 2 * h + 3, 4), sw = round_up(w + 8, 4);
  const size_t smem = ((size_t)D * (R + 2 * h) * rwc + (AL ? 2 * R * sw : 0)) * 4;
  const int nb = (rows + R - 1) / R;
  int nch = std::max(1, (planes + kct - 1) / kct);
  const int kc = (planes + nch - 1) / nch;
  nch = (planes + kc - 1) / kc;
  const int occ = blocks_per_sm(tile_k<KIND, R, D, AL>, w, smem);
  snprintf(g_note, sizeof g_note, "w=%d smem=%zuK blocks/SM=%d grid=%dx%dx%d (%.1f waves) kc=%d", w, smem >> 10, occ, nwin, nb,
           nch, (double)nwin * nb * nch / ((double)occ * g_sms), kc);
  if (KIND == CONV) CK(cudaMemcpyToSymbolAsync(cW, K, 27 * sizeof(float), 0, cudaMemcpyDeviceToDevice));
  tile_k<KIND, R, D, AL><<<dim3(nwin, nb, nch), w, smem>>>(nz, ny, nx, kc, rwc, sw, A, B);
}

// ------------------------------------------------------------------------------------------------
// Harness.
static unsigned g_seed = 1;
static int g_fails = 0;

struct Problem {
  Kind kind;
  int nz, ny, nx;
  float *A, *K, *B;
  long long na, nb;
  void refill() {
    unsigned s = g_seed++;
    fill<<<2048, 256>>>(A, na, s);
    CK(cudaGetLastError());
    if (kind == CONV) {
      fill<<<1, 32>>>(K, 27, s ^ 0x5a5a5a5au);
      CK(cudaGetLastError());
    }
  }
};

static float median_ms(const std::function<void()> &prep, const std::function<void()> &f) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<float> t;
  for (int r = 0; r < 25; r++) {
    prep();
    CK(cudaEventRecord(a));
    f();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    CK(cudaGetLastError());
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    if (r >= 5) t.push_back(ms);  // 5 warm-ups
  }
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return 0.5f * (t[9] + t[10]);
}

static double g_copy_gbs = 0;
static const char *kname[] = {"box3d", "star3d", "conv3d"};

static void run_variant(Problem &P, const char *filter, const char *vname, const std::function<void()> &launch) {
  std::string full = std::string(kname[P.kind]) + ":" + vname;
  if (filter && !strstr(full.c_str(), filter)) return;
  g_note[0] = 0;
  float ms = median_ms([&] { P.refill(); }, launch);
  // Checked run: poisoned output, fresh input, then the reference compares every element.
  CK(cudaMemset(P.B, 0xff, P.nb * 4));
  P.refill();
  launch();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  unsigned long long *bad;
  CK(cudaMallocManaged(&bad, sizeof(*bad)));
  *bad = 0;
  ref_check<<<4096, 256>>>(P.kind, P.nz, P.ny, P.nx, P.A, P.K, P.B, bad);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  unsigned long long nbad = *bad;
  CK(cudaFree(bad));
  double bytes = 4.0 * (double)(P.na + P.nb);
  double gbs = bytes / ms / 1e6;
  if (nbad) g_fails++;
  printf("%-7s %-24s %4dx%4dx%4d %8.4f ms %7.0f GB/s %6.3fx copy  mismatches %llu  %s\n", kname[P.kind], vname, P.nz,
         P.ny, P.nx, ms, gbs, gbs / g_copy_gbs, nbad, g_note);
  fflush(stdout);
}

static unsigned cdiv(long long a, long long b) { return (unsigned)((a + b - 1) / b); }

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s nz ny nx [filter]\n", argv[0]);
    return 2;
  }
  const int nz = atoi(argv[1]), ny = atoi(argv[2]), nx = atoi(argv[3]);
  const char *filter = argc > 4 ? argv[4] : nullptr;
  if (nz < 1 || ny < 1 || nx < 1 || nz > 2048 || ny > 2048 || nx > 2048) {
    fprintf(stderr, "sizes must be in 1..2048\n");
    return 2;
  }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  g_sms = prop.multiProcessorCount;
  g_smem_optin = (int)prop.sharedMemPerBlockOptin;
  {
    // Device-to-device copy of 512 MiB (bytes counted: read + written), timed the same way.
    const size_t bytes = 512ull << 20;
    float *a, *b;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&b, bytes));
    float ms = median_ms(
        [&] {
          fill<<<2048, 256>>>(a, bytes / 4, g_seed++);
          CK(cudaGetLastError());
        },
        [&] { CK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice)); });
    g_copy_gbs = 2.0 * bytes / ms / 1e6;
    printf("# %s, copy 512 MiB d2d: %.4f ms, %.0f GB/s (read + write)\n", prop.name, ms, g_copy_gbs);
    CK(cudaFree(a));
    CK(cudaFree(b));
  }
  const long long n = (long long)nz * ny * nx;
  const long long nconv = (long long)(nz + 2) * (ny + 2) * (nx + 2);
  float *A, *B, *K;
  CK(cudaMalloc(&A, nconv * 4));
  CK(cudaMalloc(&B, n * 4));
  CK(cudaMalloc(&K, 27 * 4));

  // ---------------- box3d
  if (nz >= 3 && ny >= 3 && nx >= 3) {
    Problem P{BOX, nz, ny, nx, A, K, B, n, n};
    const int iz = nz - 2, iy = ny - 2, ix = nx - 2;
#define BOXREG(BY, R, CX, KC)                                                                               \
    run_variant(P, filter, "reg_32x" #BY "_r" #R "_c" #CX "_k" #KC, [&] {                                    \
      box_reg<BY, R, CX><<<dim3(cdiv(ix, 32 * CX), cdiv(iy, BY * R), cdiv(iz, KC)), dim3(32, BY)>>>(nz, ny, nx, KC, A, B); \
    })
    BOXREG(8, 1, 1, 32);  // (1) one column per thread, 9 loads per plane through L1
    BOXREG(4, 2, 2, 32);  // (1)+(3)+(4) 2 rows x 2 columns per thread, row 3-sums shared by the rows
#define BOXSHFL(BY, R, KC)                                                                                  \
    run_variant(P, filter, "shfl_32x" #BY "_r" #R "_k" #KC, [&] {                                            \
      box_shfl<BY, R><<<dim3(cdiv(ix, 32), cdiv(iy, BY * R), cdiv(iz, KC)), dim3(32, BY)>>>(nz, ny, nx, KC, A, B); \
    })
    BOXSHFL(4, 4, 32);    // (3) horizontal neighbours by warp shuffles
#define BOXSMEM(TX, BY, R, KC)                                                                              \
    run_variant(P, filter, "smem_" #TX "x" #BY "_r" #R "_k" #KC, [&] {                                       \
      box_smem<TX, BY, R><<<dim3(cdiv(ix, TX), cdiv(iy, BY * R), cdiv(iz, KC)), dim3(TX, BY)>>>(nz, ny, nx, KC, A, B); \
    })
    BOXSMEM(32, 8, 1, 32);  // (2) classic 2.5-D, one output row per thread
    BOXSMEM(64, 4, 4, 32);  // (2)+(3) 4 rows per thread, row sums
#define TILE(KIND, R, D, AL, KC, MAXW)                                                                       \
    run_variant(P, filter, "tma_r" #R "_d" #D "_al" #AL "_k" #KC "_w" #MAXW, [&] { launch_tile<KIND, R, D, AL>(nz, ny, nx, KC, MAXW, A, K, B); })
    TILE(BOX, 4, 3, 0, 32, 512);  // (4) TMA row copies, 4 rows per thread
    TILE(BOX, 8, 3, 1, 16, 512);  // (4) 8 rows per thread, aligned float4 stores
  }
  // ---------------- star3d
  if (nz >= 5 && ny >= 5 && nx >= 5) {
    Problem P{STAR, nz, ny, nx, A, K, B, n, n};
    const int iz = nz - 4, iy = ny - 4, ix = nx - 4;
#define STARSMEM(TX, BY, R, KC)                                                                             \
    run_variant(P, filter, "smem_" #TX "x" #BY "_r" #R "_k" #KC, [&] {                                       \
      star_smem<TX, BY, R><<<dim3(cdiv(ix, TX), cdiv(iy, BY * R), cdiv(iz, KC)), dim3(TX, BY)>>>(nz, ny, nx, KC, A, B); \
    })
    STARSMEM(64, 4, 4, 32);
    TILE(STAR, 4, 3, 0, 32, 512);
    TILE(STAR, 8, 3, 1, 32, 512);
  }
  // ---------------- conv3d
  {
    Problem P{CONV, nz, ny, nx, A, K, B, nconv, n};
#define CONVREG(BY, R, KC)                                                                                  \
    run_variant(P, filter, "reg_32x" #BY "_r" #R "_k" #KC, [&] {                                             \
      conv_reg<BY, R><<<dim3(cdiv(nx, 32), cdiv(ny, BY * R), cdiv(nz, KC)), dim3(32, BY)>>>(nz, ny, nx, KC, A, K, B); \
    })
    CONVREG(4, 2, 32);
    TILE(CONV, 4, 3, 0, 32, 512);
    TILE(CONV, 8, 3, 0, 32, 512);
  }
  CK(cudaFree(A));
  CK(cudaFree(B));
  CK(cudaFree(K));
  if (g_fails) printf("# %d variant(s) with mismatches\n", g_fails);
  return g_fails ? 1 : 0;
}
