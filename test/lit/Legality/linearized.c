// Subscripts written by hand as i * n + j are delinearized: when the column part provably stays
// within the row, A[i * n + j] is A[i][j] and the analysis is exact (Delinearize splits these
// arrays first: out[...][n - 16], in[...][n], A[...][m][3]; the dependence analysis has its own
// delinearization, where isl checks 0 <= j < n, for arrays Delinearize leaves flat). An in-place update reading the previous row keeps its row loop serial; an image whose
// rows are n - 16 wide (a polynomial width) is parallel in both loops, and so is an in-place
// update of one field of interleaved triples (A[(i * m + j) * 3 + 1]), without atomics.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks > /dev/null 2> %t/remarks
// RUN: FileCheck --implicit-check-not=atomic --implicit-check-not=serial %s < %t/remarks
// RUN: %rtcuda translate %t/bad.yaml -o %t/bad --remarks > /dev/null 2> %t/err
// RUN: FileCheck --check-prefix=REFUSE %s < %t/err
//
// CHECK: remark: loop 'i' ({{.*}}kernel.c:2:3): parallel
// CHECK: remark: loop 'j' ({{.*}}kernel.c:3:5): parallel
// CHECK: remark: loop 'i' ({{.*}}kernel.c:7:3): parallel
// CHECK: remark: loop 'j' ({{.*}}kernel.c:8:5): parallel
//
// The loop that carries the dependence is interchanged inside the other (Fission): one kernel,
// parallel over the columns, each thread running down its column; the remark names the
// dependence on the subscripts Delinearize gave the array (A[...][n]):
// REFUSE: remark: delinearize: 'A' is indexed a row at a time; the passes see it as an array of rows: A[...][n]
// REFUSE: remark: loop 'i' ({{.*}}bad.c:2:3) and loop 'j' ({{.*}}bad.c:3:5) interchanged after distribution: loop 'j' outside is parallel, loop 'i' outside was serial
// REFUSE: remark: loop 'j' ({{.*}}bad.c:3:5): parallel
// REFUSE: remark: loop 'i' ({{.*}}bad.c:2:3): serial in each thread: loop 'i' carries a dependence: 'A[i][j] = A[i - 1][j] * 0.5f;' reads A[i - 1][j], written by the previous iteration of loop 'i'

//--- kernel.c
void crop(int n, float *out, const float *in) {
  for (int i = 0; i < n - 16; i++)
    for (int j = 0; j < n - 16; j++)
      out[i * (n - 16) + j] = in[(i + 8) * n + j + 8];
}
void scale3(int n, int m, float *A) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      A[(i * m + j) * 3 + 1] = 2.0f * A[(i * m + j) * 3 + 1];
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [crop, scale3]
//--- bad.c
void decay(int n, float *A) {
  for (int i = 1; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i * n + j] = A[(i - 1) * n + j] * 0.5f;
}
//--- bad.yaml
kernel_files: [bad.c]
kernels: [decay]
