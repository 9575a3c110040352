// LaneReduction: LANES threads share one row of a matrix-vector product (rows n != columns m),
// each summing every LANES-th product; warp shuffles add the partial sums of a row
// (rtcuda_lane_sum: every thread of the block calls it, the threads past the end with zero), and
// lane 0 runs the statement after the loop. In the CPU emulation the helper adds the same pairs
// through shared memory, which verify runs at odd and prime sizes. Maxima and minima:
// extrema.c.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=LaneReduction | FileCheck %s
// RUN: FileCheck --check-prefix=PARAMS %s < %t/out/gemv_params.h
// RUN: FileCheck --check-prefix=CUDA %s < %t/out/kernel.cu
// RUN: %rtcuda verify %t/out --seed 6 --sizes 1,7,37,101 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after LaneReduction (kernel gemv)
// CHECK:      int i = (int)llmin((long long)blockIdx.x * (GEMV_BLOCKSIZE / lanes) + threadIdx.x / lanes, (long long)n);
// CHECK-NEXT: int lane = (int)(threadIdx.x % lanes);
// CHECK-NEXT: float sum;
// CHECK-NEXT: __shared__ float sum_lanes[GEMV_BLOCKSIZE];
// CHECK-NEXT: if (i < n) {
// CHECK-NEXT:   sum = 0.0f;
// CHECK-NEXT:   for (int k = lane; k < m; k += lanes) {
// CHECK-NEXT:     sum += A[i * m + k] * x[k];
// CHECK:      // combine the lanes' partial sums of sum (warp shuffles)
// CHECK-NEXT: if (!(i < n)) {
// CHECK-NEXT:   sum = 0.0f;
// CHECK-NEXT: }
// CHECK-NEXT: sum = rtcuda_lane_sum(sum, lanes, sum_lanes);
// CHECK-NEXT: if (i < n && lane == 0) {
// CHECK-NEXT:   y[i] = alpha * sum + beta * y[i];
// CHECK-NOT:  __syncthreads
//
// CUDA:      static __device__ __forceinline__ T rtcuda_lane_combine(T v, int lanes, T *slots, Op op, int all) {
// CUDA-NEXT: #ifdef RTCUDA_EMU
// CUDA:          slots[threadIdx.x] = op(slots[threadIdx.x], slots[threadIdx.x + (n + 1) / 2]);
// CUDA:      #else
// CUDA:        for (int w = lanes / 2; w > 0; w /= 2) v = op(v, __shfl_xor_sync(mask, v, w, lanes));
// CUDA:        if (threadIdx.x % 32 == 0) slots[threadIdx.x / 32] = v;
// CUDA:          for (int w = 1; w < lanes / 32; w++) v = op(v, slots[threadIdx.x / 32 + w]);
// CUDA:      static __device__ __forceinline__ T rtcuda_lane_sum(T v, int lanes, T *slots, int all = 0) {
// CUDA-NEXT:   return rtcuda_lane_combine(v, lanes, slots, rtcuda_lane_add(), all);
//
// PARAMS: // LANES: search space 1, 2, 4, 8, 16, 32
// PARAMS: #define GEMV_LANES 32
//
// VERIFY: verified 1 kernel(s) at 12 parameter point(s) and 4 size(s): 0 mismatch(es)

//--- kernel.c
#include <math.h>
void gemv(int n, int m, float y[n], const float A[n][m], const float x[m], float alpha, float beta) {
  for (int i = 0; i < n; i++) {
    float sum = 0.0f;
    for (int k = 0; k < m; k++)
      sum += A[i][k] * x[k];
    y[i] = alpha * sum + beta * y[i];
  }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels:
  - name: gemv
