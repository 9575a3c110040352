// rtcuda explain shows a dependence that keeps a loop sequential as the pair of statements that
// carry it (the write of a[i] on line 9 and the read of a[i - 1] on line 8), a statement that
// depends on itself in another iteration (line 4), and the loop spread over a block's threads
// under a sequential one (on_dependence: sequential) as parallel.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda explain %t/config.yaml -o %t/r.html 2> %t/warn
// RUN: sed -e 's/<tr/\n<tr/g; s/<div class="decision/\n<div class="decision/g' %t/r.html | FileCheck %s
//
// CHECK-LABEL: <article class="kernel" id="k-accumulate_rows"
// CHECK:       <tr class="loop-seq"><td class="ln">2</td>{{.*}}loop i: sequential
// CHECK-NEXT:  <tr class="loop-par"><td class="ln">3</td>{{.*}}loop j: parallel
// CHECK-NEXT:  <tr class="dep"><td class="ln">4</td>{{.*}}dependence: second access (loop i)
// CHECK:       <div class="decision dep">Dependence keeping loop 'i' sequential: {{.*}}kernel.c:4:7 with itself, in another iteration
// CHECK-LABEL: <article class="kernel" id="k-shift"
// CHECK:       <tr class="loop-seq"><td class="ln">7</td>{{.*}}loop i: sequential
// CHECK-NEXT:  <tr class="dep"><td class="ln">8</td>{{.*}}dependence: second access (loop i)
// CHECK-NEXT:  <tr class="dep"><td class="ln">9</td>{{.*}}dependence: first access (loop i)
// CHECK:       <div class="decision dep">Dependence keeping loop 'i' sequential: {{.*}}kernel.c:9:5 and {{.*}}kernel.c:8:5: 'b[i] = a[i - 1] * 2.0f;' reads a[i - 1], written by the previous iteration of loop 'i'

//--- kernel.c
void accumulate_rows(int n, int m, float A[n][m]) {
  for (int i = 1; i < n; i++)
    for (int j = 0; j < m; j++)
      A[i][j] = A[i][j] + A[i - 1][j];
}
void shift(int n, float a[n], float b[n]) {
  for (int i = 1; i < n; i++) {
    b[i] = a[i - 1] * 2.0f;
    a[i] = b[i] + 1.0f;
  }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels:
  - name: accumulate_rows
    on_dependence: sequential
  - name: shift
    on_dependence: sequential
