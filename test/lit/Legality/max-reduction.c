// Two maxima. A row-wise max keeps its accumulator inside the row loop: each thread owns a
// row, the inner loop stays serial, nothing is shared (LaneReduction later gives the row its
// lanes: test/lit/LaneReduction/extrema.c; hence its LANES and ROW_BLOCK points below). A max across the parallel loop itself
// (m declared before the loop) is a max reduction: partial maxima from -INFINITY, fmaxf in
// the block, a compare-and-swap atomic across blocks, then the C's initial value.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks --print-after=ParallelReduction > %t/ir 2> %t/remarks
// RUN: FileCheck %s < %t/ir
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=CUDA %s < %t/out/kernel.cu
// RUN: %rtcuda verify %t/out --seed 5 --sizes 31,97 --max-points 100 | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after ParallelReduction (kernel row_max)
// CHECK:      int i = (int)llmin((long long)blockIdx.x * ROW_MAX_BLOCKSIZE + threadIdx.x, (long long)n);
// CHECK-NEXT: if (i < n) {
// CHECK-NEXT:   float m = -INFINITY;
// CHECK-NEXT:   for (int j = 0; j < k; j++) {
// CHECK-NEXT:     m = fmaxf(m, A[i * k + j]);
// CHECK-NEXT:   }
// CHECK-NEXT:   out[i] = m;
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NOT: then once
//
// CHECK-LABEL: IR after ParallelReduction (kernel vec_max)
// CHECK:      float m = -INFINITY;
// CHECK:        m = fmaxf(m, x[i]);
// CHECK:      m_partial[threadIdx.x] = fmaxf(m_partial[threadIdx.x], m_partial[threadIdx.x + half]);
// CHECK:      rtcuda_atomic_max(&m_total[0], m_partial[0]);
// CHECK:      then once, in one thread (kernel vec_max_finish):
// CHECK-NEXT: {
// CHECK-NEXT:   float m = x0;
// CHECK-NEXT:   m = fmaxf(m, m_total[0]);
// CHECK-NEXT:   m_total[0] = -INFINITY;
// CHECK-NEXT:   r[0] = m;
//
// REMARK: remark: loop 'i' ({{.*}}kernel.c:3:3): parallel
// REMARK: remark: loop 'i' ({{.*}}kernel.c:12:3): parallel; max reduction of 'm'
//
// CUDA:      RTCUDA_ATOMIC_CAS(rtcuda_atomic_max, float, int, __float_as_int,
// CUDA-NEXT: __int_as_float, fmaxf(current, value))
//
// VERIFY: kernel row_max: 100 point(s)
// VERIFY: kernel vec_max: 32 point(s)
// VERIFY: verified 2 kernel(s) at 132 parameter point(s) and 2 size(s): 0 mismatch(es)

//--- kernel.c
#include <math.h>
void row_max(int n, int k, const float A[n][k], float out[n]) {
  for (int i = 0; i < n; i++) {
    float m = -INFINITY;
    for (int j = 0; j < k; j++)
      m = fmaxf(m, A[i][j]);
    out[i] = m;
  }
}
void vec_max(int n, float x0, const float x[n], float r[1]) {
  float m = x0;
  for (int i = 0; i < n; i++)
    m = fmaxf(m, x[i]);
  r[0] = m;
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [row_max, vec_max]
