// Each array keeps its own leading dimensions: a VLA 3-D array, a non-square 2-D array, a
// linearized 1-D array (which Delinearize gives the rows [q][r] first, so it is flattened back
// as the 3-D ones are), and a legacy pointer indexed with two subscripts (ROW_DIM).
// RUN: rm -rf %t && split-file %s %t
// Only the steps up to ArrayFlatten run (--stop-after), and nothing is written.
// RUN: %rtcuda translate %t/config.yaml -o %t/out --stop-after=ArrayFlatten | FileCheck %s
// RUN: %rtcuda translate %t/legacy/config.txt -o %t/out2 --stop-after=ArrayFlatten | FileCheck --check-prefix=LEGACY %s
// RUN: test ! -e %t/out && test ! -e %t/out2
//
// CHECK: out[(i * q + j) * r + k] = w[i * q + j] + lin[(i * q + j) * r + k] * t[(i * q + j) * r + k];
// LEGACY: kernel scale(float C[][N], float A[restrict][N], float s, int N)
// LEGACY: C[i * N + j] = s * A[i * N + j];

//--- kernel.c
void f(int p, int q, int r, float out[p][q][r], const float w[p][q], const float *lin,
       const float t[p][q][r]) {
  for (int i = 0; i < p; i++)
    for (int j = 0; j < q; j++)
      for (int k = 0; k < r; k++)
        out[i][j][k] = w[i][j] + lin[i * q * r + j * r + k] * t[i][j][k];
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [f]
//--- legacy/kernel.c
void scale(float *C, float *restrict A, float s, int N) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      C[i][j] = s * A[i][j];
}
//--- legacy/config.txt
KERNEL_NAMES=scale
2DMATRIX=1
ROW_DIM=N
