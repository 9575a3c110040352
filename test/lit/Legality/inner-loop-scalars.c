// A scalar declared before the nest and first assigned inside an inner loop (ludcmp:
// w = A[i][j]; for (k ...) w -= ...; B[i][j] = w;) is private to each iteration of the
// parallel loop: every read follows an assignment of the same iteration. Read after an inner
// loop that may run zero times, or in a branch that does not assign it, it may carry the
// previous iteration's value: refused, naming that read. Verified.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: %rtcuda verify %t/out --seed 5 --sizes 7,13 --max-points 3 | FileCheck --check-prefix=VERIFY %s
// RUN: %exit1 %rtcuda translate %t/carried.yaml -o %t/bad 2> %t/err
// RUN: FileCheck --check-prefix=REFUSE %s < %t/err
// RUN: test ! -e %t/bad
//
// REMARK: remark: loop 'i' ({{.*}}kernel.c:3:3): parallel
// REMARK: remark: loop 'i' ({{.*}}kernel.c:20:3): parallel
// VERIFY: verified 2 kernel(s) at 6 parameter point(s) and 2 size(s): 0 mismatch(es)
//
// REFUSE: carried.c:2:10: error: scalar 'w' carries a value from one iteration of the parallel loop to the next (it is used before it is assigned in the loop body); declare and initialize it inside the loop ({{.*}}carried.c:6:5 reads the value of the previous iteration)
// REFUSE: carried.c:10:10: error: scalar 'w' carries a value {{.*}}({{.*}}carried.c:15:5 reads the value of the previous iteration)

//--- kernel.c
void solve(int n, const double A[n][n], double B[n][n]) {
  double w;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      w = A[i][j];
      for (int k = 0; k < j; k++)
        w -= A[i][k] * A[k][j];
      B[i][j] = w / (A[j][j] + 2 * n);
    }
    for (int j = i; j < n; j++) {
      w = A[i][j];
      for (int k = 0; k < i; k++)
        w -= A[i][k] * A[k][j];
      B[i][j] = w;
    }
  }
}
void branches(int n, const double A[n][n], double x[n]) {
  double w;
  for (int i = 0; i < n; i++) {
    if (A[i][0] > 0)
      w = A[i][0];
    else
      w = -A[i][0];
    for (int k = 1; k < n; k++) {
      double t = A[i][k];
      if (t > w) w = t;
    }
    x[i] = w;
  }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [solve, branches]
//--- carried.c
void after(int n, int m, const double A[n][m], double x[n]) {
  double w = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++)
      w = A[i][j];
    x[i] = w;
  }
}
void half(int n, const double A[n], double x[n]) {
  double w = 0;
  for (int i = 0; i < n; i++) {
    if (A[i] > 0) {
      w = A[i];
    }
    x[i] = w;
  }
}
//--- carried.yaml
kernel_files: [carried.c]
kernels: [after, half]
