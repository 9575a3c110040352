// A dot product accumulates into a scalar declared before the loop and stores it after:
// a + reduction across the parallel loop. Each thread keeps a partial sum (starting at 0), the
// block combines them in shared memory, thread 0 adds the block's sum into a device buffer
// with atomicAdd, and a one-thread finish kernel adds the C's initial value and stores r[0].
// Verified at every tuning point and at prime sizes.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks --print-after=ParallelLoops --print-after=ParallelReduction > %t/ir 2> %t/remarks
// RUN: FileCheck %s < %t/ir
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=CUDA %s < %t/out/kernel.cu
// RUN: FileCheck --check-prefix=HOST %s < %t/out/launch.cuh
// RUN: %rtcuda verify %t/out --seed 11 --sizes 31,97,1031 --max-points 100 | FileCheck --check-prefix=VERIFY %s
// RUN: %rtcuda run %t/out | FileCheck --check-prefix=PROGRAM %s
//
// CHECK-LABEL: IR after ParallelLoops (kernel dot)
// CHECK:      float s = 1.5f;
// CHECK-NEXT: // reduction: s (+) across the parallel loops
// CHECK-NEXT: for (int i = 0; i < n; i++) {  // parallel
// CHECK-NEXT:   s += x[i] * y[i];
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: then once, in one thread (kernel dot_finish):
// CHECK-NEXT: {
// CHECK-NEXT:   r[0] = s;
// CHECK-NEXT: }
//
// CHECK-LABEL: IR after ParallelReduction (kernel dot)
// CHECK:      kernel dot(int n, const float x[n], const float y[n], float r[1], float *s_total)
// CHECK:        float s = 0.0f;
// CHECK:        for (int b = (int)blockIdx.x; b < (int)((n + (DOT_BLOCKSIZE - 1)) / DOT_BLOCKSIZE); b += (int)gridDim.x) {  // block
// CHECK-NEXT:     int i = (int)llmin((long long)b * DOT_BLOCKSIZE + threadIdx.x, (long long)n);
// CHECK-NEXT:     if (i < n) {
// CHECK-NEXT:       s += x[i] * y[i];
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   // combine the threads' partial values: in the block, then across blocks
// CHECK-NEXT:   __shared__ float s_partial[1024];
// CHECK-NEXT:   s_partial[threadIdx.x] = s;
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   int width = DOT_BLOCKSIZE;
// CHECK-NEXT:   while (width > 1) {
// CHECK-NEXT:     int half = (width + 1) / 2;
// CHECK-NEXT:     if ((int)threadIdx.x < width - half) {
// CHECK-NEXT:       s_partial[threadIdx.x] = s_partial[threadIdx.x] + s_partial[threadIdx.x + half];
// CHECK-NEXT:     }
// CHECK-NEXT:     __syncthreads();
// CHECK-NEXT:     width = half;
// CHECK-NEXT:   }
// CHECK-NEXT:   if (threadIdx.x == 0) {
// CHECK-NEXT:     atomicAdd(&s_total[0], s_partial[0]);
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: then once, in one thread (kernel dot_finish):
// CHECK-NEXT: {
// CHECK-NEXT:   float s = 1.5f;
// CHECK-NEXT:   s = s + s_total[0];
// CHECK-NEXT:   s_total[0] = 0.0f;
// CHECK-NEXT:   r[0] = s;
// CHECK-NEXT: }
//
// REMARK: remark: loop 'i' ({{.*}}kernel.c:3:3): parallel; + reduction of 's'
//
// The finish kernel writes r: it is not read-only (no const) in either kernel.
// CUDA:      dot(int n, const float *__restrict__ x, const float *__restrict__ y, float *__restrict__ r,
// CUDA-NEXT: float *s_total) {
// CUDA:      // Kernel 'dot_finish': the statements after the loop nest of 'dot',
// CUDA:      dot_finish(int n, const float *__restrict__ x, const float *__restrict__ y, float *__restrict__ r,
// CUDA-NEXT: float *s_total) {
//
// HOST:      static float *d_s_total = NULL;
// HOST-NEXT: if (!d_s_total) {
// HOST:        const float initial = 0.0f;
// HOST:      RTCUDA_LAUNCH(dot, grid, block, n, x, y, r, d_s_total);
// HOST:      RTCUDA_LAUNCH(dot_finish, dim3(1), dim3(1), n, x, y, r, d_s_total);
//
// PROGRAM: 1001.5
// VERIFY: kernel dot: 32 point(s)
// VERIFY: verified 1 kernel(s) at 32 parameter point(s) and 3 size(s): 0 mismatch(es)

//--- kernel.c
void dot(int n, const float x[n], const float y[n], float r[1]) {
  float s = 1.5f;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  r[0] = s;
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void dot(int n, const float x[n], const float y[n], float r[1]);
int main(void) {
  int n = 1000;
  float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float)), *r = malloc(sizeof(float));
  for (int i = 0; i < n; i++) x[i] = y[i] = 1.0f;
  dot(n, x, y, r);
  printf("%g\n", r[0]);
  free(x); free(y); free(r);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [dot]
