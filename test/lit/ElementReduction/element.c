// ElementReduction: every iteration of a nest adding into one array element (a result written
// through a pointer, *out += v; t[0] = t[0] + v; out[k] -= v with k a parameter) sums in a
// scalar reduction, added to the element once after the nest, instead of an atomic addition per
// iteration; ParallelReduction then folds several iterations a thread where there are many. Left alone: an
// element the nest also reads (out[0] += x[i] * out[1]: atomics as before), a subscript the
// data picks (a histogram), and a type no scalar reduction takes (long long: refused as
// before). Verified at odd sizes with the race check, the function with its first statement
// (*out = 0) outlined into three launches.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks=ElementReduction --print-after=ParallelReduction > %t/dump 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck %s < %t/dump
// RUN: %rtcuda verify %t/out --sizes 1,7,37,1000 --max-points 4 | FileCheck --check-prefix=VERIFY %s
// Above 1024 blocks of iterations (n = 300007) each thread folds several: planted, a stride of
// two grids skips blocks.
// RUN: %rtcuda verify %t/out --size n=300007 --size k=3 --size rows=5 --size cols=7 --max-points 2 --no-race-check | FileCheck --check-prefix=LARGE %s
// RUN: cp -r %t/out %t/strided && sed -i 's|b += (int)gridDim.x)|b += 2 * (int)gridDim.x)|' %t/strided/kernel.cu
// RUN: %exit1 %rtcuda verify %t/strided --size n=300007 --size k=3 --size rows=5 --size cols=7 --max-points 1 --no-race-check | FileCheck --check-prefix=CAUGHT %s
// RUN: %exit1 %rtcuda translate %t/bad.yaml -o %t/bad 2>&1 | FileCheck --check-prefix=BAD %s
// Planted: the element set to the sum instead of added to (its value before the nest lost).
// RUN: sed -i 's|out\[k\] += out_sum1;|out[k] = out_sum1;|' %t/out/kernel.cu
// RUN: grep -c 'out\[k\] = out_sum1;' %t/out/kernel.cu | FileCheck --check-prefix=PLANTED %s
// RUN: %exit1 %rtcuda verify %t/out --sizes 7,37 --max-points 1 --no-race-check | FileCheck --check-prefix=CAUGHT %s
//
// REMARK: kernel.c:4:5: remark: element reduction: every iteration of the nest adds into out[0]; the sum is a reduction of scalar 'out_sum', added to the element once after the nest [-Rpass=ElementReduction]
// REMARK: kernel.c:8:5: remark: element reduction: every iteration of the nest adds into out[0]; the sum is a reduction of scalar 'out_sum', added to the element once after the nest [-Rpass=ElementReduction]
// REMARK: kernel.c:9:5: remark: element reduction: every iteration of the nest adds into out[k]; the sum is a reduction of scalar 'out_sum1', added to the element once after the nest [-Rpass=ElementReduction]
// REMARK: kernel.c:15:7: remark: element reduction: every iteration of the nest adds into t[0]; the sum is a reduction of scalar 't_sum', added to the element once after the nest [-Rpass=ElementReduction]
// REMARK-NOT: element reduction
//
// CHECK-LABEL: IR after ParallelReduction (kernel norm2_2)
// CHECK:      for (int b = (int)blockIdx.x; b < (int)((n + (NORM2_2_BLOCKSIZE - 1)) / NORM2_2_BLOCKSIZE); b += (int)gridDim.x) {  // block
// CHECK:          out_sum += x[i] * x[i];
// CHECK-LABEL: IR after ParallelReduction (kernel two)
// CHECK:          out_sum += x[i];
// CHECK-NEXT:     out_sum1 -= x[i] * x[i];
// CHECK:      then once, in one thread (kernel two_finish):
// CHECK:        out[0] += out_sum;
// CHECK-NEXT:   out[k] += out_sum1;
// CHECK-LABEL: IR after ParallelReduction (kernel total)
// CHECK:          t_sum += A[i * cols + j];
// CHECK-LABEL: IR after ParallelReduction (kernel reads)
// CHECK:        atomicAdd(&out[0], x[i] * out[1]);
// CHECK-LABEL: IR after ParallelReduction (kernel hist)
// CHECK:        atomicAdd(&h[v[i] & 7], 1);
//
// VERIFY: verified 5 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 4 size(s): 0 mismatch(es)
// LARGE: 0 mismatch(es)
// PLANTED: 1
// CAUGHT: {{[1-9][0-9]*}} mismatch(es)
// BAD: kernel.c:3:5: error: loop 'i' carries a dependence: 'out[0] += v[i];' updates out[0], which other iterations of loop 'i' update too (no atomic operation for 'long long')

//--- kernel.c
void norm2(int n, const double *restrict x, double *restrict out) {
  *out = 0.0;
  for (int i = 0; i < n; i++)
    *out += x[i] * x[i];
}
void two(int n, int k, const float *restrict x, float *restrict out) {
  for (int i = 0; i < n; i++) {
    out[0] = out[0] + x[i];
    out[k] -= x[i] * x[i];
  }
}
void total(int rows, int cols, const float A[restrict rows][cols], float t[restrict 1]) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      t[0] += A[i][j];
}
void reads(int n, const float *restrict x, float *restrict out) {
  for (int i = 0; i < n; i++)
    out[0] += x[i] * out[1];
}
void hist(int n, const int *restrict v, int h[restrict 8]) {
  for (int i = 0; i < n; i++)
    h[v[i] & 7] += 1;
}

//--- config.yaml
kernel_files: [kernel.c]
kernels: [norm2, two, total, reads, hist]

//--- bad/kernel.c
void isum(int n, const long long *restrict v, long long *restrict out) {
  for (int i = 0; i < n; i++)
    out[0] += v[i];
}

//--- bad.yaml
kernel_files: [bad/kernel.c]
kernels: [isum]
