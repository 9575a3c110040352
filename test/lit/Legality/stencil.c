// A stencil that reads one array and writes another carries no dependence: both loops are
// parallel. Updating in place (a[i] = f(a[i - 1], a[i + 1])) is not: reading a[i + 1] before the
// next iteration overwrites it is an anti-dependence, refused with its line. A row update that
// reads only the row above is parallel along the row (j) but not down the rows (i).
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks --print-after=ParallelLoops > %t/ir 2> %t/remarks
// RUN: FileCheck %s < %t/ir
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: %exit1 %rtcuda translate %t/inplace.yaml -o %t/bad 2> %t/err
// RUN: FileCheck --check-prefix=REFUSE %s < %t/err
// RUN: test ! -e %t/bad
//
// CHECK-LABEL: IR after ParallelLoops (kernel blur)
// CHECK:      for (int i = 1; i < n - 1; i++) {  // parallel
// CHECK-NEXT:   for (int j = 1; j < m - 1; j++) {  // parallel
// CHECK-NEXT:     out[i][j] = 0.2f * (in[i][j] + in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1]);
//
// REMARK: remark: loop 'i' ({{.*}}kernel.c:2:3): parallel
// REMARK: remark: loop 'j' ({{.*}}kernel.c:3:5): parallel
//
// REFUSE: inplace.c:3:5: error: loop 'i' carries a dependence: 'a[i] = 0.5f * (a[i - 1] + a[i + 1]);' reads a[i - 1], written by the previous iteration of loop 'i'
// REFUSE: inplace.c:7:5: error: loop 'i' carries a dependence: 'a[i] = a[i + 1] - a[i];' reads a[i + 1], which the next iteration of loop 'i' overwrites
// REFUSE: inplace.c:12:7: error: loop 'i' carries a dependence: 'A[i][j] = A[i][j] + A[i - 1][j];' reads A[i - 1][j], written by the previous iteration of loop 'i'; it cannot run in parallel

//--- kernel.c
void blur(int n, int m, float out[n][m], const float in[n][m]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      out[i][j] = 0.2f * (in[i][j] + in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1]);
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [blur]
//--- inplace.c
void smooth(int n, float a[n]) {
  for (int i = 1; i < n - 1; i++)
    a[i] = 0.5f * (a[i - 1] + a[i + 1]);
}
void shift(int n, float a[n]) {
  for (int i = 0; i < n - 1; i++)
    a[i] = a[i + 1] - a[i];
}
void rows(int n, int m, float A[n][m]) {
  for (int i = 1; i < n; i++)
    for (int j = 0; j < m; j++)
      A[i][j] = A[i][j] + A[i - 1][j];
}
//--- inplace.yaml
kernel_files: [inplace.c]
kernels:
  - smooth
  - shift
  - name: rows
    parallel_loops: 2
