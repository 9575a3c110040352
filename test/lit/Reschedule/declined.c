// Where Reschedule declines, the remark says what it found and the function maps as before:
// a scalar carried between the statements (ludcmp's 'w'), an 'if' with an 'else' (nussinov),
// and a nest whose launches sit inside one host loop only (no remark: not a candidate).
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks=Reschedule 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: %rtcuda verify %t/out --sizes 1,13 --max-points 2 --tolerance 1000 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// REMARK: kernel.c:3:3: remark: loop 'i' ({{.*}}kernel.c:3:3): not rescheduled (launches 3 inside 2 host loops, 1 inside 1 host loop): no exact polyhedral model: 'w = A[i][j];' at {{.*}}kernel.c:5:7 assigns the scalar 'w' (its value would order every iteration that uses it) [-Rpass=Reschedule]
// REMARK: kernel.c:17:3: remark: loop 'i' ({{.*}}kernel.c:17:3): not rescheduled (launches 2 inside 2 host loops, 1 inside 1 host loop): no exact polyhedral model: the 'if' at {{.*}}kernel.c:20:9 has an 'else' [-Rpass=Reschedule]
// REMARK-NOT: kernel.c:32
//
// VERIFY: verified 3 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 2 size(s): 0 mismatch(es)

//--- kernel.c
void scalar(int n, double A[n][n]) {
  int i, j, k; double w;
  for (i = 0; i < n; i++) {
    for (j = 0; j < i; j++) {
      w = A[i][j];
      for (k = 0; k < j; k++)
        w -= A[i][k] * A[k][j];
      A[i][j] = w / A[j][j];
    }
    for (j = i; j < n; j++)
      for (k = 0; k < i; k++)
        A[i][j] -= A[i][k] * A[k][j];
  }
}
void branches(int n, double A[n][n]) {
  int i, j, k;
  for (i = 0; i < n; i++) {
    for (j = 0; j < i; j++) {
      for (k = 0; k < j; k++)
        if (k > 2) A[i][j] -= A[i][k] * A[k][j];
        else A[i][j] -= 0.5 * A[i][k] * A[k][j];
      A[i][j] /= A[j][j];
    }
    for (j = i; j < n; j++)
      for (k = 0; k < i; k++)
        A[i][j] -= A[i][k] * A[k][j];
  }
}
void stepwise(int n, int T, double A[n][n], double B[n][n]) {
  int t, i, j;
  for (t = 0; t < T; t++)
    for (i = 1; i < n; i++)
      for (j = 0; j < n; j++)
        A[i][j] = A[i - 1][j] + B[i][j];
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [scalar, branches, stepwise]
