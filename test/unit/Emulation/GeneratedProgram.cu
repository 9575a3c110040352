// A program in the shape of generated kernel.cu + main.cu, compiled unchanged as C++ (-x c++).
// Tiled matrix multiply C = A * B with shared-memory staging (SharedPrefetch-style).
#include "rtcuda_runtime.h"

#define TILE 16

static __device__ __forceinline__ float load_or_zero(const float *__restrict__ m, int rows,
                                                     int cols, int r, int c) {
  return (r < rows && c < cols) ? __ldg(&m[r * cols + c]) : 0.0f;
}

__global__ void __launch_bounds__(TILE *TILE)
    matmul_kernel(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                  int M, int N, int K) {
  __shared__ float As[TILE][TILE + 1];
  __shared__ float Bs[TILE][TILE + 1];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[threadIdx.y][threadIdx.x] = load_or_zero(A, M, K, row, k0 + threadIdx.x);
    Bs[threadIdx.y][threadIdx.x] = load_or_zero(B, K, N, k0 + threadIdx.y, col);
    __syncthreads();
    int kmax = min(TILE, K - k0);
    for (int k = 0; k < kmax; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

// main() of the generated program, renamed so that a test can call it; returns the exit code.
int generated_matmul_main(int M, int N, int K) {
  float *A = (float *)malloc(sizeof(float) * M * K);
  float *B = (float *)malloc(sizeof(float) * K * N);
  float *C = (float *)malloc(sizeof(float) * M * N);
  for (int i = 0; i < M * K; ++i) A[i] = (float)(i % 7) - 3.0f;
  for (int i = 0; i < K * N; ++i) B[i] = (float)(i % 5) * 0.5f;
  float *d_A = (float *)rtcuda_copy_in(A, sizeof(float) * M * K, RTCUDA_HERE);
  float *d_B = (float *)rtcuda_copy_in(B, sizeof(float) * K * N, RTCUDA_HERE);
  float *d_C = (float *)rtcuda_device_buffer(C, sizeof(float) * M * N, RTCUDA_HERE);
  dim3 grid(rtcuda_ceil_div(N, TILE), rtcuda_ceil_div(M, TILE));
  dim3 block(TILE, TILE);
  RTCUDA_LAUNCH(matmul_kernel, grid, block, d_A, d_B, d_C, M, N, K);
  rtcuda_check_launch("matmul_kernel", RTCUDA_HERE);
  rtcuda_copy_out(C, sizeof(float) * M * N, RTCUDA_HERE);
  int status = 0;
  for (int i = 0; i < M && !status; ++i)
    for (int j = 0; j < N; ++j) {
      float expect = 0.0f;
      for (int k = 0; k < K; ++k) expect += A[i * K + k] * B[k * N + j];
      if (fabsf(expect - C[i * N + j]) > 1e-3f * (1.0f + fabsf(expect))) {
        printf("C[%d][%d] = %f, expected %f\n", i, j, C[i * N + j], expect);
        status = 1;
        break;
      }
    }
  rtcuda_host_free(A);
  rtcuda_host_free(B);
  rtcuda_host_free(C);
  return status;
}
