// LaneReduction's sums that are set before the loop other than by their declaration, and sums
// that subtract (issue 13's audit): ludcmp's `w = A[i][j]; for (k < i) w -= A[i][k] * A[k][j];`
// (w declared before the thread's index: lane 0 starts from A[i][j], the other lanes from zero;
// the columns' mapping, the warps split k); rowsub's `s -= ...` from b[i] (rows); pre's
// `s += y[i]` before the loop (only lane 0 adds it; before session 11 every lane did, and verify
// reported 440 mismatches at sizes 7, 37); preread reads the sum before the loop (`t = s * 2`),
// which lanes other than 0 would see as zero: one thread per row stays. symmrow (PolyBench's
// symm) stores C[k][j] beside its sum: every iteration its own element, so the warps split that
// loop too (columns); symmsame stores C[0][j] in every iteration and keeps one thread per column.
// Verified at odd and prime
// sizes with i = 5 and i = 29. Planted: lanes other than 0 starting from `w = A[i][j]` as written
// (no select) gives 3010 mismatches at sizes 7, 37, 101 and i = 5.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=LaneReduction > %t/dump
// RUN: FileCheck %s < %t/dump
// RUN: %rtcuda verify %t/out --sizes 7,37,101 --size i=5 --no-race-check | FileCheck --check-prefix=VERIFY %s
// RUN: %rtcuda verify %t/out --sizes 37,101 --size i=29 --no-race-check | FileCheck --check-prefix=VERIFY2 %s
//
// CHECK-LABEL: IR after LaneReduction (kernel ludcmp_row)
// CHECK:        double w;
// CHECK-NEXT:   int j = (int)llmin(i + ((long long)blockIdx.x * 32 + threadIdx.x % 32), (long long)n);
// CHECK-NEXT:   int lane = (int)(threadIdx.x / 32);
// CHECK:        if (j < n) {
// CHECK-NEXT:     w = lane == 0 ? A[i * n + j] : 0.0;
// CHECK-NEXT:     for (int k = lane; k < i; k += LUDCMP_ROW_BLOCKSIZE / 32) {
// CHECK-NEXT:       w -= A[i * n + k] * A[k * n + j];
// CHECK-LABEL: IR after LaneReduction (kernel rowsub)
// CHECK:          s = lane == 0 ? b[i] : 0.0f;
// CHECK-NEXT:     for (int j = lane; j < m; j += lanes) {
// CHECK-NEXT:       s -= A[i * m + j] * 0.5f;
// CHECK-LABEL: IR after LaneReduction (kernel pre)
// CHECK:          s = 0.0f;
// CHECK-NEXT:     s = lane == 0 ? s + y[i] : 0.0f;
// CHECK-LABEL: IR after LaneReduction (kernel preread)
// CHECK-NOT:    lane
// CHECK:        float t = s * 2.0f;
// CHECK-LABEL: IR after LaneReduction (kernel symmrow)
// CHECK:          temp2 = 0.0;
// CHECK-NEXT:     for (int k = lane; k < i; k += SYMMROW_BLOCKSIZE / 32) {
// CHECK-NEXT:       C[k * n + j] += alpha * B[i * n + j] * A[i * m + k];
// CHECK-NEXT:       temp2 += B[k * n + j] * A[i * m + k];
// CHECK-LABEL: IR after LaneReduction (kernel symmsame)
// CHECK-NOT:    lane
// CHECK:        for (int k = 0; k < i; k++) {
//
// VERIFY: verified 6 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 3 size(s): 0 mismatch(es)
// VERIFY2: verified 6 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 2 size(s): 0 mismatch(es)

//--- kernel.c
void ludcmp_row(int n, int i, double A[n][n]) {
  double w;
  for (int j = i; j < n; j++) {
    w = A[i][j];
    for (int k = 0; k < i; k++)
      w -= A[i][k] * A[k][j];
    A[i][j] = w;
  }
}
void rowsub(int n, int m, const float A[n][m], const float b[n], float out[n]) {
  for (int i = 0; i < n; i++) {
    float s = b[i];
    for (int j = 0; j < m; j++)
      s -= A[i][j] * 0.5f;
    out[i] = s;
  }
}
void pre(int n, int m, const float A[n][m], const float y[n], float out[n]) {
  for (int i = 0; i < n; i++) {
    float s = 0.0f;
    s += y[i];
    for (int j = 0; j < m; j++)
      s += A[i][j];
    out[i] = s;
  }
}
void preread(int n, int m, const float A[n][m], const float y[n], float out[n]) {
  for (int i = 0; i < n; i++) {
    float s = y[i];
    float t = s * 2.0f;
    for (int j = 0; j < m; j++)
      s += A[i][j] * t;
    out[i] = s;
  }
}
void symmrow(int m, int n, int i, double alpha, double C[m][n], const double A[m][m],
             const double B[m][n]) {
  for (int j = 0; j < n; j++) {
    double temp2 = 0.0;
    for (int k = 0; k < i; k++) {
      C[k][j] += alpha * B[i][j] * A[i][k];
      temp2 += B[k][j] * A[i][k];
    }
    C[i][j] = C[i][j] + alpha * temp2;
  }
}
void symmsame(int m, int n, int i, double C[m][n], const double A[m][m], const double B[m][n]) {
  for (int j = 0; j < n; j++) {
    double temp2 = 0.0;
    for (int k = 0; k < i; k++) {
      C[0][j] += B[i][j] * A[i][k];
      temp2 += B[k][j] * A[i][k];
    }
    C[i][j] = C[i][j] + temp2;
  }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [ludcmp_row, rowsub, pre, preread, symmrow, symmsame]
