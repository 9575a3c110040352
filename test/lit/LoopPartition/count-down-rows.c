// The 2-D form (collapse: false) with an outer loop that counts down: the grid's y blocks walk
// the rows from the top (i = n - 1 - i_row), so every row is computed once; a parallel loop
// body with `continue` is refused at the statement, not compiled into a guard with no loop.
// (Both were listed as known problems in docs/translate.md before.)
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=LoopPartition | FileCheck %s
// RUN: %exit1 %rtcuda translate %t/skip.yaml -o %t/skip 2>&1 | FileCheck --check-prefix=SKIP %s
//
// CHECK-LABEL: IR after LoopPartition (kernel down)
// CHECK:      for (long long i_row = (long long)blockIdx.y; i_row < (long long)n; i_row += (long long)gridDim.y) {  // block
// CHECK-NEXT:   int i = n - i_row - 1LL;
// CHECK-NEXT:   int j = (int)llmin((long long)blockIdx.x * DOWN_BLOCKSIZE + threadIdx.x, (long long)m);
// CHECK-NEXT:   if (j < m) {
//
// SKIP: kernel.c:8:19: error: continue in the body of a parallel loop is not supported; use if around the statements instead

//--- kernel.c
void down(int n, int m, float a[n][m]) {
  for (int i = n - 1; i >= 0; i--)
    for (int j = 0; j < m; j++)
      a[i][j] = 2.0f * a[i][j];
}
void skip_negative(int n, float a[n]) {
  for (int i = 0; i < n; i++) {
    if (a[i] < 0) continue;
    a[i] = 2.0f * a[i];
  }
}
//--- config.yaml
kernel_files: kernel.c
kernels:
  - name: down
    collapse: false
//--- skip.yaml
kernel_files: kernel.c
kernels: [skip_negative]
