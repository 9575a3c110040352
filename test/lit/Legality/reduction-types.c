// Reductions for +, *, min and max on int, unsigned, float and double, in the forms C code
// writes them: s += e, s = s * e, s = fmin(s, e), s = s > e ? s : e, if (e < s) s = e. Several
// in one loop, a reduction over a 2-D nest (collapsed), and statements after the loop that
// combine the results. Each result equals the sequential one (within verify's tolerance).
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks > /dev/null 2> %t/remarks
// RUN: FileCheck %s < %t/remarks
// RUN: FileCheck --check-prefix=CUDA %s < %t/out/kernel.cu
// RUN: %rtcuda verify %t/out --seed 21 --sizes 31,97 | FileCheck --check-prefix=VERIFY %s
//
// CHECK: remark: loop 'i' ({{.*}}kernel.c:4:3): parallel; min reduction of 'lo'
// CHECK: remark: loop 'i' ({{.*}}kernel.c:11:3): parallel; * reduction of 'p'
// CHECK: remark: loop 'i' ({{.*}}kernel.c:17:3): parallel; + reduction of 's'
// CHECK: remark: loop 'j' ({{.*}}kernel.c:18:5): parallel
// CHECK: remark: loop 'i' ({{.*}}kernel.c:24:3): parallel; + reduction of 's'; max reduction of 'm'
//
// CUDA:      atomicMin(&lo_total[0], lo_partial[0]);
// CUDA:      rtcuda_atomic_mul(&p_total[0], p_partial[0]);
// CUDA:      atomicAdd(&s_total[0], s_partial[0]);
// CUDA:      mean_max_finish(
// CUDA:        s = s + s_total[0];
// CUDA:        m = fmax(m, m_total[0]);
// CUDA:        r[0] = s / n;
// CUDA-NEXT:   r[1] = m;
//
// VERIFY: verified 4 kernel(s) at 48 parameter point(s) and 2 size(s): 0 mismatch(es)

//--- kernel.c
#include <math.h>
void int_min(int n, const int x[n], int r[1]) {
  int lo = 1000000;
  for (int i = 0; i < n; i++)
    if (x[i] < lo)
      lo = x[i];
  r[0] = lo;
}
void odd_product(int n, const unsigned x[n], unsigned r[1]) {
  unsigned p = 1u;
  for (int i = 0; i < n; i++)
    p = p * ((x[i] & 3u) + 1u);
  r[0] = p;
}
void total(int n, int m, const double A[n][m], double r[1]) {
  double s = 0.5;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      s += A[i][j];
  r[0] = s;
}
void mean_max(int n, const double x[n], double y[n], double r[2]) {
  double s = 0.0, m = -HUGE_VAL;
  for (int i = 0; i < n; i++) {
    y[i] = x[i] * x[i];
    s += y[i];
    m = m > x[i] ? m : x[i];
  }
  r[0] = s / n;
  r[1] = m;
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [int_min, odd_product, total, mean_max]
