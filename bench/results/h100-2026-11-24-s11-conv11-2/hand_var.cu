// Session 10, halo10: hand-written variants of the 2-D halo tile for a KH x KW filter
// (B[i][j] = sum_a sum_b K[a][b] * A[i + a][j + b], A of (rows + KH - 1) x (cols + KW - 1)).
// One binary per point (-D flags):
//   KH, KW   filter extents;  BS threads;  IT output rows per thread;  X output columns per thread
//   MODE 0   the generated form: the window's rows read one by one as the outputs need them
//            (AHEAD 1: one row ahead), each output sums its KH x KW taps
//   MODE 1   row sums into accumulators: each window row is read once per thread and adds its
//            KH taps' rows to the KH output rows it belongs to (same order of the sums as the C)
//   MODE 2   the whole window before the outputs (the 3 x 3 form)
//   LOAD 0   the generated load phase: element e of the tile by thread e % BS, e / W and e % W
//   LOAD 1   rows by warps: warp w loads tile rows w, w + BS / 32, ...; lane l columns l, l + 32..
//   GUARD 1  (MODE 0, 2) an output's sums inside its bounds check, as generated; 0: only the store
//   VEC      width of a thread's shared reads of its row (1, 2 or 4 floats)
// Checked against a one-thread-per-output kernel with the same order of sums (max relative
// error over the output); timed with events, median of 20, after 3 warm-ups; the copy bandwidth
// of a 512 MiB device-to-device copy in the same process.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>
#ifndef KH
#define KH 7
#endif
#ifndef KW
#define KW 7
#endif
#ifndef BS
#define BS 128
#endif
#ifndef IT
#define IT 8
#endif
#ifndef X
#define X 1
#endif
#ifndef MODE
#define MODE 0
#endif
#ifndef AHEAD
#define AHEAD 0
#endif
#ifndef LOAD
#define LOAD 0
#endif
#ifndef VEC
#define VEC 1
#endif
#ifndef GUARD
#define GUARD 0
#endif
#ifndef ASYNC
#define ASYNC 0   // 1: TILES tiles per block, the next tile's copy (cp.async, 2 slots) in flight
#endif
#ifndef TILES
#define TILES 4
#endif
#ifndef PAD
#define PAD 0     // extra shared floats per block (fewer blocks per SM)
#endif
#define CK(c) do { cudaError_t e_ = (c); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

constexpr int H = (BS / 32) * IT, WT = 32 * X, TH = H + KH - 1;
constexpr int RW = X + KW - 1;                       // a thread's row of the window
constexpr int RV = (RW + VEC - 1) / VEC * VEC;       // read as VEC-wide pieces
constexpr int TWP = (32 * X + RV - X + VEC - 1) / VEC * VEC + (VEC == 1 ? 0 : 0);  // tile pitch
constexpr int TSIZE = TH * TWP;

__device__ __forceinline__ void cpa(float *to, const float *from) {
  unsigned d = (unsigned)__cvta_generic_to_shared(to);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" :: "r"(d), "l"(from) : "memory");
}
__global__ void __launch_bounds__(BS) conv(int rows, int cols, const float *__restrict__ A,
                                           const float *__restrict__ K, float *__restrict__ B) {
  float Kr[KH * KW];
#pragma unroll
  for (int e = 0; e < KH * KW; e++) Kr[e] = K[e];
#if ASYNC
  __shared__ __align__(16) float TT[2 * TSIZE + PAD];
#else
  __shared__ __align__(16) float TT[TSIZE + PAD];
#endif
  float *T = TT;
  const int lda = cols + KW - 1, arows = rows + KH - 1;
  const int tid = threadIdx.x, col = tid % 32, grp = tid / 32;
  const int tilesJ = (cols + WT - 1) / WT, all = (rows + H - 1) / H * tilesJ;
#if ASYNC
  constexpr int LOADS = (TSIZE + BS - 1) / BS;
  auto copyTile = [&](int t, float *slot) {
    const int i0 = t / tilesJ * H, j0 = WT * (t % tilesJ);
#pragma unroll 4
    for (int r = 0; r < LOADS; r++) {
      int e = tid + r * BS;
      if (e < TSIZE) {
        int ia = min(i0 + e / TWP, arows - 1), ja = min(j0 + e % TWP, lda - 1);
        cpa(slot + e, A + (size_t)ia * lda + ja);
      }
    }
    asm volatile("cp.async.commit_group;\n" ::: "memory");
  };
  int slot = 0;
  if (blockIdx.x < all) copyTile(blockIdx.x, TT);
  for (int tile = blockIdx.x; tile < all; tile += gridDim.x) {
    const int i0 = tile / tilesJ * H, j0 = WT * (tile % tilesJ);
    asm volatile("cp.async.wait_group 0;\n" ::: "memory");
    __syncthreads();
    if (tile + gridDim.x < all) copyTile(tile + gridDim.x, TT + (1 - slot) * TSIZE);
    T = TT + slot * TSIZE;
    slot = 1 - slot;
#elif 1
  for (int tile = blockIdx.x; tile < all; tile += gridDim.x) {
    const int i0 = tile / tilesJ * H, j0 = WT * (tile % tilesJ);
#endif
#if ASYNC
#elif LOAD == 0
    constexpr int LOADS = (TSIZE + BS - 1) / BS, CH = LOADS < 16 ? LOADS : 16;
    for (int r0 = 0; r0 < LOADS; r0 += CH) {
      float v[CH];
#pragma unroll
      for (int r = 0; r < CH; r++) {
        int e = tid + (r0 + r) * BS, ia = i0 + e / TWP, ja = j0 + e % TWP;
        v[r] = e < TSIZE && ia < arows && ja < lda ? A[(size_t)ia * lda + ja] : 0.0f;
      }
#pragma unroll
      for (int r = 0; r < CH; r++) {
        int e = tid + (r0 + r) * BS;
        if (e < TSIZE) T[e] = v[r];
      }
    }
#elif LOAD == 1
    constexpr int NW = BS / 32, RPW = (TH + NW - 1) / NW, CPR = (TWP + 31) / 32;
    constexpr int ALL = RPW * CPR, CH = ALL < 16 ? ALL : 16;
    for (int f0 = 0; f0 < ALL; f0 += CH) {
      float v[CH];
#pragma unroll
      for (int f = 0; f < CH; f++) {
        int rr = (f0 + f) / CPR, cc = (f0 + f) % CPR, r = grp + rr * NW, c = col + cc * 32;
        int ia = i0 + r, ja = j0 + c;
        v[f] = f0 + f < ALL && r < TH && c < TWP && ia < arows && ja < lda ? A[(size_t)ia * lda + ja] : 0.0f;
      }
#pragma unroll
      for (int f = 0; f < CH; f++) {
        int rr = (f0 + f) / CPR, cc = (f0 + f) % CPR, r = grp + rr * NW, c = col + cc * 32;
        if (f0 + f < ALL && r < TH && c < TWP) T[r * TWP + c] = v[f];
      }
    }
#endif
#if !ASYNC
    __syncthreads();
#endif
    const float *base = T + grp * IT * TWP + col * X;
    auto readRow = [&](int r, float *dst) {
      const float *p = base + r * TWP;
#pragma unroll
      for (int e = 0; e < RV; e += VEC) {
        if (VEC == 4) {
          float4 t = *reinterpret_cast<const float4 *>(p + e);
          dst[e] = t.x; dst[e + 1] = t.y; dst[e + 2] = t.z; dst[e + 3] = t.w;
        } else if (VEC == 2) {
          float2 t = *reinterpret_cast<const float2 *>(p + e);
          dst[e] = t.x; dst[e + 1] = t.y;
        } else dst[e] = p[e];
      }
    };
    const int ib = i0 + grp * IT, jb = j0 + col * X;
#if MODE == 1
    float acc[KH][X];
    float row[RV];
#pragma unroll
    for (int r = 0; r < IT + KH - 1; r++) {
      readRow(r, row);
#pragma unroll
      for (int a = 0; a < KH; a++) {
        const int o = r - a;
        if (o < 0 || o >= IT) continue;
#pragma unroll
        for (int x = 0; x < X; x++) {
          float s = a == 0 ? 0.0f : acc[o % KH][x];
#pragma unroll
          for (int b = 0; b < KW; b++) s += Kr[a * KW + b] * row[x + b];
          acc[o % KH][x] = s;
          if (a == KH - 1 && ib + o < rows && jb + x < cols) B[(size_t)(ib + o) * cols + jb + x] = s;
        }
      }
    }
#else
    float win[IT + KH][RV];
#if MODE == 2
#pragma unroll
    for (int r = 0; r < IT + KH - 1; r++) readRow(r, win[r]);
#endif
#pragma unroll
    for (int q = 0; q < IT; q++) {
#if MODE == 0
#pragma unroll
      for (int r = q < 1 ? 0 : q + KH - 1 + AHEAD; r < q + KH + AHEAD; r++)
        if (r < IT + KH - 1) readRow(r, win[r]);
#endif
#pragma unroll
      for (int x = 0; x < X; x++) {
        if (GUARD && !(ib + q < rows && jb + x < cols)) continue;  // GUARD 1: the generated form
        float s = 0.0f;
#pragma unroll
        for (int a = 0; a < KH; a++)
#pragma unroll
          for (int b = 0; b < KW; b++) s += Kr[a * KW + b] * win[q + a][x + b];
        if (ib + q < rows && jb + x < cols) B[(size_t)(ib + q) * cols + jb + x] = s;
      }
    }
#endif
#if !ASYNC
    __syncthreads();
#endif
  }
}

__global__ void naive(int rows, int cols, const float *A, const float *K, float *B) {
  long long n = (long long)rows * cols;
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < n;
       t += (long long)gridDim.x * blockDim.x) {
    int i = t / cols, j = t % cols, lda = cols + KW - 1;
    float s = 0.0f;
    for (int a = 0; a < KH; a++)
      for (int b = 0; b < KW; b++) s = fmaf(K[a * KW + b], A[(size_t)(i + a) * lda + j + b], s);
    B[t] = s;
  }
}

__global__ void fill(float *a, long long n, unsigned seed) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    unsigned h = (unsigned)i * 2654435761u ^ seed; h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
    a[i] = (float)((int)(h % 2001u) - 1000) / 1000.0f;
  }
}


int main(int argc, char **argv) {
  int rows = argc > 1 ? atoi(argv[1]) : 8191, cols = argc > 2 ? atoi(argv[2]) : 8193;
  int reps = argc > 3 ? atoi(argv[3]) : 20;
  size_t na = (size_t)(rows + KH - 1) * (cols + KW - 1), nb = (size_t)rows * cols;
  float *A, *K, *B, *R;
  CK(cudaMalloc(&A, na * 4)); CK(cudaMalloc(&K, KH * KW * 4));
  CK(cudaMalloc(&B, nb * 4)); CK(cudaMalloc(&R, nb * 4));
  unsigned seed = (unsigned)time(nullptr);
  fill<<<1024, 256>>>(A, na, seed); fill<<<1, 64>>>(K, KH * KW, seed * 7 + 1);
  CK(cudaMemset(B, 0xff, nb * 4));  // NaN: every element must be written
  const int H_ = H, tiles0 = (rows + H_ - 1) / H_ * ((cols + WT - 1) / WT);
  const int tiles = ASYNC ? (tiles0 + TILES - 1) / TILES : tiles0;  // the grid
  conv<<<tiles, BS>>>(rows, cols, A, K, B);
  CK(cudaGetLastError());
  naive<<<4096, 256>>>(rows, cols, A, K, R);
  CK(cudaDeviceSynchronize());
  std::vector<float> hb(nb), hr(nb);
  CK(cudaMemcpy(hb.data(), B, nb * 4, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hr.data(), R, nb * 4, cudaMemcpyDeviceToHost));
  double err = 0, ref = 0;
  for (size_t t = 0; t < nb; t++) {
    double d = std::fabs((double)hb[t] - hr[t]);
    if (!(d <= 1e30)) d = 1e30;
    err = std::max(err, d); ref = std::max(ref, std::fabs((double)hr[t]));
  }
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  std::vector<float> ms;
  for (int r = 0; r < reps + 3; r++) {
    CK(cudaEventRecord(e0));
    conv<<<tiles, BS>>>(rows, cols, A, K, B);
    CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
    float t; CK(cudaEventElapsedTime(&t, e0, e1));
    if (r >= 3) ms.push_back(t);
  }
  CK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  // Copy bandwidth, same process: 512 MiB device to device, median of 20.
  size_t cn = (size_t)rows * cols < (1 << 20) ? 1 << 20 : 512ull << 20; char *c0, *c1;  // small: no copy figure
  CK(cudaMalloc(&c0, cn)); CK(cudaMalloc(&c1, cn));
  CK(cudaMemset(c0, 1, cn));
  std::vector<float> cm;
  for (int r = 0; r < 23; r++) {
    CK(cudaEventRecord(e0)); CK(cudaMemcpyAsync(c1, c0, cn, cudaMemcpyDeviceToDevice));
    CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
    float t; CK(cudaEventElapsedTime(&t, e0, e1));
    if (r >= 3) cm.push_back(t);
  }
  std::sort(cm.begin(), cm.end());
  double copy = 2.0 * cn / (cm[cm.size() / 2] * 1e-3) / 1e9;
  double med = ms[ms.size() / 2], gbs = (na + nb) * 4.0 / (med * 1e-3) / 1e9;
  printf("VAR ASYNC=%d TILES=%d PAD=%d KH=%d KW=%d BS=%d IT=%d X=%d MODE=%d AHEAD=%d LOAD=%d VEC=%d GUARD=%d rows=%d cols=%d "
         "ms=%.5f min=%.5f gbs=%.0f copy=%.0f ratio=%.3f relerr=%.2e %s\n",
         ASYNC, TILES, PAD, KH, KW, BS, IT, X, MODE, AHEAD, LOAD, VEC, GUARD, rows, cols, med, ms[0], gbs, copy, gbs / copy,
         err / (ref > 0 ? ref : 1), err / (ref > 0 ? ref : 1) < 1e-5 ? "ok" : "WRONG");
  return 0;
}
