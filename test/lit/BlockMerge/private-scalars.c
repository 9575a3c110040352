// Locals of the parallel body that each merged row (or skewed column) owns: assigned under an
// if or while that depends on the row (c = c + 1 under if (A[i][j] > 0); t++ in a while on
// A[i][t]), or in a loop that may break on the row. They were one scalar per thread, shared by
// its MERGE_LEVEL rows (verify found 4528 mismatches in cnt, wh and cols); now each row has its
// own copy (c[m_]). A local declared inside a statement that runs once per row stays scalar
// (nested: it was made an array on its uses only, and kernel.cu did not compile).
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=BlockMerge > %t/ir
// RUN: FileCheck %s < %t/ir
// RUN: %rtcuda verify %t/out --seed 3 --sizes 7,37 --max-points 4 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after BlockMerge (kernel cnt)
// CHECK:     int c[CNT_MERGE_LEVEL];
// CHECK:     c[m_] = c[m_] + 1;
// CHECK-LABEL: IR after BlockMerge (kernel nested)
// CHECK:     int d = i * 2;
// CHECK:     C[i] = d;
// VERIFY: verified 5 kernel(s) at 20 parameter point(s) and 2 size(s): 0 mismatch(es)

//--- kernel.c
void cnt(int n, int m, const int A[n][m], int C[n]) {
  for (int i = 0; i < n; i++) {
    int c = 0;
    for (int j = 0; j < m; j++)
      if (A[i][j] > 0) c = c + 1;
    C[i] = c;
  }
}
void wh(int n, int m, const int A[n][m], int C[n]) {
  for (int i = 0; i < n; i++) {
    int c = 0;
    if (A[i][0] > 0) c = 3;
    int t = 0;
    while (t < m && A[i][t] < 5) { c += A[i][t]; t++; }
    C[i] = c + t;
  }
}
void cols(int n, int m, const int A[n][m], int C[n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      int c = 1;
      if (A[i][j] > 2) c = 5;
      if (j > 3) c += 2;
      C[i][j] = c * A[i][j];
    }
}
void brk(int n, int m, const int A[n][m], int C[n]) {
  for (int i = 0; i < n; i++) {
    int c = 0;
    for (int j = 0; j < m; j++) {
      if (A[i][j] > 7) break;
      c += 1;
    }
    C[i] = c;
  }
}
void nested(int n, int m, const int A[n][m], int C[n]) {
  for (int i = 0; i < n; i++) {
    C[i] = 0;
    if (A[i][0] > 0) {
      int d = i * 2;
      d += A[i][1];
      C[i] = d;
    }
  }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels:
  - name: cnt
    merge: true
    tuning: {block_size: [32, 64], merge_level: [2, 4]}
  - name: wh
    merge: true
    tuning: {block_size: [32, 64], merge_level: [2, 4]}
  - name: cols
    merge: true
    skew: true
    tuning: {block_size: [32, 64], merge_level: [2, 4], skew_level: [2, 4]}
  - name: brk
    merge: true
    tuning: {block_size: [32, 64], merge_level: [2, 4]}
  - name: nested
    merge: true
    tuning: {block_size: [32, 64], merge_level: [2, 4]}
