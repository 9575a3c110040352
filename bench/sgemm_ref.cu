// Hand-written reference for the structure RegisterTiling should emit (issue 13), timed against
// cublasSgemm (FP32, no TF32) in one process: random inputs, results compared with cuBLAS,
// CUDA events, warm-up, median of 20.
//   nvcc -O3 -arch=sm_90 bench/sgemm_ref.cu -lcublas -o sgemm_ref && ./sgemm_ref [seed [filter]]
// Row-major C (M x N) = A (M x K) * B (K x N). A block of BM x BN, threads of TM x TN results
// each, split in groups of 4 rows (4 columns) BM/GM (BN/GN) apart, so a warp's shared reads of B
// are consecutive 16-byte vectors (no bank conflict) and of A are broadcasts.
// MODE 0: one buffer, two barriers per slab (today's RegisterTiling);
// MODE 1: two buffers, the next slab loaded into registers during the multiply-adds;
// MODE 2: two buffers filled with cp.async (__pipeline_memcpy_async) during the multiply-adds.
#include <cublas_v2.h>
#include <cuda_pipeline.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)
#define CKB(x) do { cublasStatus_t s_ = (x); if (s_ != CUBLAS_STATUS_SUCCESS) { \
  fprintf(stderr, "%s:%d %s: status %d\n", __FILE__, __LINE__, #x, (int)s_); exit(1); } } while (0)

template <int BM, int BN, int BK, int TM, int TN, int MODE, int MINB = 1>
__global__ void __launch_bounds__((BM / TM) * (BN / TN), MINB)
sgemm(int M, int N, int K, const float *__restrict__ A, const float *__restrict__ B,
      float *__restrict__ C, int vec) {
  constexpr int NT = (BM / TM) * (BN / TN), TC = BN / TN, GM = TM / 4, GN = TN / 4;
  constexpr int AP = BM + 4;  // pitch of the transposed A slab: conflict-free staging stores
  constexpr int NB = MODE == 0 ? 1 : 2;
  __shared__ __align__(16) float As[NB][BK][AP];
  __shared__ __align__(16) float Bs[NB][BK][BN];
  const int tid = threadIdx.x, tx = tid % TC, ty = tid / TC;
  const int tilesN = (N + BN - 1) / BN;
  const int row0 = blockIdx.x / tilesN * BM, col0 = blockIdx.x % tilesN * BN;
  constexpr int AV = BM * BK / 4 / NT, BV = BK * BN / 4 / NT;  // float4s per thread
  static_assert(AV >= 1 && BV >= 1, "tile too small");
  float4 ra[AV], rb[BV];
  auto loadA = [&](int k0, int v, float *dst /* 4 */, bool async, float *sdst, int sstride) {
    int e = v * NT + tid, r = e / (BK / 4), q = e % (BK / 4) * 4;
    int gr = row0 + r, gk = k0 + q;
    const float *src = A + (long long)gr * K + gk;
    if (vec && gr < M && gk + 3 < K) {
      if (async) {
        for (int j = 0; j < 4; j++) __pipeline_memcpy_async(sdst + (q + j) * sstride + r, src + j, 4);
      } else {
        float4 x = *reinterpret_cast<const float4 *>(src);
        dst[0] = x.x; dst[1] = x.y; dst[2] = x.z; dst[3] = x.w;
      }
    } else {
      for (int j = 0; j < 4; j++) {
        bool in = gr < M && gk + j < K;
        if (async) __pipeline_memcpy_async(sdst + (q + j) * sstride + r, in ? src + j : A, 4, in ? 0 : 4);
        else dst[j] = in ? src[j] : 0.f;
      }
    }
  };
  auto loadB = [&](int k0, int v, float *dst, bool async, float *sdst) {
    int e = v * NT + tid, r = e / (BN / 4), q = e % (BN / 4) * 4;
    int gk = k0 + r, gc = col0 + q;
    const float *src = B + (long long)gk * N + gc;
    if (vec && gk < K && gc + 3 < N) {
      if (async) __pipeline_memcpy_async(sdst + r * BN + q, src, 16);
      else *reinterpret_cast<float4 *>(dst) = *reinterpret_cast<const float4 *>(src);
    } else {
      for (int j = 0; j < 4; j++) {
        bool in = gk < K && gc + j < N;
        if (async) __pipeline_memcpy_async(sdst + r * BN + q + j, in ? src + j : B, 4, in ? 0 : 4);
        else dst[j] = in ? src[j] : 0.f;
      }
    }
  };
  auto fetch = [&](int k0) {
#pragma unroll
    for (int v = 0; v < AV; v++) loadA(k0, v, &ra[v].x, false, nullptr, 0);
#pragma unroll
    for (int v = 0; v < BV; v++) loadB(k0, v, &rb[v].x, false, nullptr);
  };
  auto put = [&](int buf) {
#pragma unroll
    for (int v = 0; v < AV; v++) {
      int e = v * NT + tid, r = e / (BK / 4), q = e % (BK / 4) * 4;
      As[buf][q][r] = ra[v].x; As[buf][q + 1][r] = ra[v].y;
      As[buf][q + 2][r] = ra[v].z; As[buf][q + 3][r] = ra[v].w;
    }
#pragma unroll
    for (int v = 0; v < BV; v++) {
      int e = v * NT + tid, r = e / (BN / 4), q = e % (BN / 4) * 4;
      *reinterpret_cast<float4 *>(&Bs[buf][r][q]) = rb[v];
    }
  };
  auto issue = [&](int k0, int buf) {
#pragma unroll
    for (int v = 0; v < AV; v++) loadA(k0, v, nullptr, true, &As[buf][0][0], AP);
#pragma unroll
    for (int v = 0; v < BV; v++) loadB(k0, v, nullptr, true, &Bs[buf][0][0]);
    __pipeline_commit();
  };
  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++) acc[i][j] = 0.f;
  auto compute = [&](int buf) {
#pragma unroll
    for (int kk = 0; kk < BK; kk++) {
      float a[TM], b[TN];
#pragma unroll
      for (int g = 0; g < GM; g++)
        *reinterpret_cast<float4 *>(&a[4 * g]) =
            *reinterpret_cast<const float4 *>(&As[buf][kk][g * (BM / GM) + ty * 4]);
#pragma unroll
      for (int g = 0; g < GN; g++)
        *reinterpret_cast<float4 *>(&b[4 * g]) =
            *reinterpret_cast<const float4 *>(&Bs[buf][kk][g * (BN / GN) + tx * 4]);
#pragma unroll
      for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) acc[i][j] += a[i] * b[j];
    }
  };
  if (MODE == 0) {
    for (int k0 = 0; k0 < K; k0 += BK) {
      fetch(k0); put(0); __syncthreads();
      compute(0); __syncthreads();
    }
  } else if (MODE == 1) {
    fetch(0); put(0); __syncthreads();
    for (int k0 = 0, cur = 0; k0 < K; k0 += BK, cur ^= 1) {
      bool more = k0 + BK < K;
      if (more) fetch(k0 + BK);
      compute(cur);
      if (more) put(cur ^ 1);
      __syncthreads();
    }
  } else {
    issue(0, 0);
    for (int k0 = 0, cur = 0; k0 < K; k0 += BK, cur ^= 1) {
      if (k0 + BK < K) { issue(k0 + BK, cur ^ 1); __pipeline_wait_prior(1); }
      else __pipeline_wait_prior(0);
      __syncthreads();
      compute(cur);
      __syncthreads();
    }
  }
#pragma unroll
  for (int i = 0; i < TM; i++) {
    int r = row0 + i / 4 * (BM / GM) + ty * 4 + i % 4;
    if (r >= M) continue;
#pragma unroll
    for (int g = 0; g < GN; g++) {
      int c = col0 + g * (BN / GN) + tx * 4;
      float *dst = C + (long long)r * N + c;
      if (vec && c + 3 < N)
        *reinterpret_cast<float4 *>(dst) = make_float4(acc[i][4 * g], acc[i][4 * g + 1], acc[i][4 * g + 2], acc[i][4 * g + 3]);
      else
        for (int j = 0; j < 4; j++) if (c + j < N) dst[j] = acc[i][4 * g + j];
    }
  }
}

struct Problem { int M, N, K; };
static const char *variant_filter = "";  // argv[2]: run only the variants whose name holds it

template <typename F>
float median_ms(F f) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  for (int i = 0; i < 5; i++) f();
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int i = 0; i < 20; i++) {
    CK(cudaEventRecord(a)); f(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
    CK(cudaGetLastError());
    float ms; CK(cudaEventElapsedTime(&ms, a, b)); t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  CK(cudaEventDestroy(a)); CK(cudaEventDestroy(b));
  return t[10];
}

template <int BM, int BN, int BK, int TM, int TN, int MODE, int MINB = 1>
void variant(const char *name, Problem p, const float *A, const float *B, float *C,
             const std::vector<float> &ref, float blas_ms, int force_scalar) {
  if (!strstr(name, variant_filter)) return;
  int vec = !force_scalar && p.K % 4 == 0 && p.N % 4 == 0;
  int blocks = ((p.M + BM - 1) / BM) * ((p.N + BN - 1) / BN);
  auto run = [&] { sgemm<BM, BN, BK, TM, TN, MODE, MINB><<<blocks, (BM / TM) * (BN / TN)>>>(p.M, p.N, p.K, A, B, C, vec); };
  CK(cudaMemset(C, 0xff, sizeof(float) * p.M * p.N));  // NaN poison: every element must be written
  run(); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  std::vector<float> out((size_t)p.M * p.N);
  CK(cudaMemcpy(out.data(), C, out.size() * 4, cudaMemcpyDeviceToHost));
  double num = 0, den = 0;
  for (size_t i = 0; i < out.size(); i++) {
    double d = (double)out[i] - ref[i];
    num += std::isnan(out[i]) ? 1e30 : d * d; den += (double)ref[i] * ref[i];
  }
  double rel = std::sqrt(num / den);
  float ms = median_ms(run);
  double tf = 2.0 * p.M * p.N * (double)p.K / ms / 1e9;
  printf("VARIANT %dx%dx%d %-28s vec=%d ms=%.4f tflops=%.2f ratio=%.3f relerr=%.2e %s\n", p.M, p.N,
         p.K, name, vec, ms, tf, blas_ms / ms, rel, rel < 1e-5 ? "ok" : "WRONG");
}

int main(int argc, char **argv) {
  std::vector<Problem> probs{{4096, 4096, 4096}, {1000, 1100, 1200}, {997, 1009, 1013}};
  cublasHandle_t h;
  CKB(cublasCreate(&h));
  CKB(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
  std::mt19937 rng(argc > 1 ? atoi(argv[1]) : 12345);
  if (argc > 2) variant_filter = argv[2];
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  for (Problem p : probs) {
    std::vector<float> hA((size_t)p.M * p.K), hB((size_t)p.K * p.N);
    for (float &x : hA) x = dist(rng);
    for (float &x : hB) x = dist(rng);
    float *A, *B, *C;
    CK(cudaMalloc(&A, hA.size() * 4)); CK(cudaMalloc(&B, hB.size() * 4));
    CK(cudaMalloc(&C, sizeof(float) * p.M * p.N));
    CK(cudaMemcpy(A, hA.data(), hA.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(B, hB.data(), hB.size() * 4, cudaMemcpyHostToDevice));
    const float one = 1, zero = 0;
    // Row-major C = A B is column-major C^T = B^T A^T.
    auto blas = [&] { CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, p.N, p.M, p.K, &one, B, p.N, A, p.K, &zero, C, p.N)); };
    blas(); CK(cudaDeviceSynchronize());
    std::vector<float> ref((size_t)p.M * p.N);
    CK(cudaMemcpy(ref.data(), C, ref.size() * 4, cudaMemcpyDeviceToHost));
    // Spot check of cuBLAS itself against a double-precision dot product.
    double worst = 0;
    for (int s = 0; s < 64; s++) {
      int i = rng() % p.M, j = rng() % p.N; double d = 0;
      for (int k = 0; k < p.K; k++) d += (double)hA[(size_t)i * p.K + k] * hB[(size_t)k * p.N + j];
      worst = std::max(worst, std::fabs(d - ref[(size_t)i * p.N + j]));
    }
    float bms = median_ms(blas);
    printf("CUBLAS  %dx%dx%d sgemm ms=%.4f tflops=%.2f spot_maxabs=%.2e\n", p.M, p.N, p.K, bms,
           2.0 * p.M * p.N * (double)p.K / bms / 1e9, worst);
    variant<128, 128, 8, 8, 8, 0>("128x128x8 8x8 one-buffer", p, A, B, C, ref, bms, 0);
    variant<128, 128, 8, 8, 8, 1>("128x128x8 8x8 reg-prefetch", p, A, B, C, ref, bms, 0);
    variant<128, 128, 16, 8, 8, 1>("128x128x16 8x8 reg-prefetch", p, A, B, C, ref, bms, 0);
    variant<128, 128, 8, 8, 8, 2>("128x128x8 8x8 cp.async", p, A, B, C, ref, bms, 0);
    variant<128, 128, 16, 8, 8, 2>("128x128x16 8x8 cp.async", p, A, B, C, ref, bms, 0);
    variant<128, 128, 8, 8, 8, 1>("128x128x8 8x8 reg-pf scalar", p, A, B, C, ref, bms, 1);
    variant<128, 128, 16, 8, 8, 2>("128x128x16 8x8 cp.async scal", p, A, B, C, ref, bms, 1);
    variant<128, 64, 16, 8, 8, 1>("128x64x16 8x8 reg-prefetch", p, A, B, C, ref, bms, 0);
    variant<128, 64, 16, 8, 8, 2>("128x64x16 8x8 cp.async", p, A, B, C, ref, bms, 0);
    variant<64, 64, 16, 8, 8, 1>("64x64x16 8x8 reg-prefetch", p, A, B, C, ref, bms, 0);
    variant<64, 64, 16, 8, 8, 2>("64x64x16 8x8 cp.async", p, A, B, C, ref, bms, 0);
    variant<64, 64, 16, 4, 4, 2>("64x64x16 4x4 cp.async", p, A, B, C, ref, bms, 0);
    variant<128, 128, 16, 8, 4, 2>("128x128x16 8x4 cp.async", p, A, B, C, ref, bms, 0);
    variant<128, 128, 8, 8, 8, 1, 2>("128x128x8 8x8 reg-pf minb2", p, A, B, C, ref, bms, 0);
    variant<128, 128, 16, 8, 8, 1, 2>("128x128x16 8x8 reg-pf minb2", p, A, B, C, ref, bms, 0);
    variant<128, 128, 16, 8, 8, 2, 2>("128x128x16 8x8 cp.as minb2", p, A, B, C, ref, bms, 0);
    variant<128, 64, 16, 8, 8, 1, 3>("128x64x16 8x8 reg-pf minb3", p, A, B, C, ref, bms, 0);
    CK(cudaFree(A)); CK(cudaFree(B)); CK(cudaFree(C));
  }
  CKB(cublasDestroy(h));
  return 0;
}
