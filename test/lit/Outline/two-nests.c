// Two parallel nests in sequence (PolyBench's 2mm): the function becomes a host function that
// copies its arrays to the GPU once and launches one kernel per nest; `int i, j, k;` at the
// top serve only as loop variables. The program prints what gcc's build of it prints.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks > %t/stdout 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=HOST %s < %t/out/launch.cuh
// RUN: FileCheck --check-prefix=MAIN %s < %t/out/main.cu
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,17 --max-points 2 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// REMARK: {{.*}}kernel.c:1:6: remark: kernel 'mm2_1': the loop nest at {{.*}}kernel.c:5:3 runs in parallel
// REMARK: {{.*}}kernel.c:1:6: remark: kernel 'mm2_2': the loop nest at {{.*}}kernel.c:11:3 runs in parallel
//
// HOST-LABEL: static inline void rtcuda_launch_mm2(const char *where, int ni, int nj, int nk, int nl, double alpha, double beta, double *tmp, double *A, double *B, double *C, double *D) {
// HOST:        double *d_tmp = (double *)rtcuda_array_in(tmp, tmp_bytes, where);
// HOST:        double *d_D = (double *)rtcuda_array_in(D, D_bytes, where);
// HOST-NEXT:   rtcuda_launch_mm2_1_on_device(where, ni, nj, nk, nl, alpha, beta, d_tmp, d_A, d_B);
// HOST-NEXT:   rtcuda_launch_mm2_2_on_device(where, ni, nj, nk, nl, alpha, beta, d_tmp, d_C, d_D);
// HOST-NEXT:   rtcuda_check_launch("mm2", where);
// HOST-NEXT:   rtcuda_array_out(tmp, tmp_bytes, where);
// HOST-NEXT:   rtcuda_array_out(D, D_bytes, where);
// HOST:      static inline void mm2(int ni, int nj, int nk, int nl, double alpha, double beta, double *tmp, double *A, double *B, double *C, double *D) {
//
// MAIN: rtcuda_launch_mm2("main.c:16", ni, nj, nk, nl, 2.0, 3.0, (double *)(tmp),
//
// VERIFY: verified 1 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 2 size(s): 0 mismatch(es)

//--- kernel.c
void mm2(int ni, int nj, int nk, int nl, double alpha, double beta,
         double tmp[ni][nj], double A[ni][nk], double B[nk][nj], double C[nj][nl], double D[ni][nl])
{
  int i, j, k;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      tmp[i][j] = 0.0;
      for (k = 0; k < nk; ++k)
        tmp[i][j] += alpha * A[i][k] * B[k][j];
    }
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
      D[i][j] *= beta;
      for (k = 0; k < nj; ++k)
        D[i][j] += tmp[i][k] * C[k][j];
    }
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void mm2(int ni, int nj, int nk, int nl, double alpha, double beta,
         double tmp[ni][nj], double A[ni][nk], double B[nk][nj], double C[nj][nl], double D[ni][nl]);
int main(void) {
  int ni = 13, nj = 7, nk = 11, nl = 5;
  double (*tmp)[nj] = malloc(sizeof(double) * ni * nj);
  double (*A)[nk] = malloc(sizeof(double) * ni * nk);
  double (*B)[nj] = malloc(sizeof(double) * nk * nj);
  double (*C)[nl] = malloc(sizeof(double) * nj * nl);
  double (*D)[nl] = malloc(sizeof(double) * ni * nl);
  for (int i = 0; i < ni; i++) for (int j = 0; j < nk; j++) A[i][j] = (i * j + 1) % 7;
  for (int i = 0; i < nk; i++) for (int j = 0; j < nj; j++) B[i][j] = (i + j) % 5;
  for (int i = 0; i < nj; i++) for (int j = 0; j < nl; j++) C[i][j] = (i * 3 + j) % 4;
  for (int i = 0; i < ni; i++) for (int j = 0; j < nl; j++) D[i][j] = (i + 2 * j) % 3;
  mm2(ni, nj, nk, nl, 2.0, 3.0, tmp, A, B, C, D);
  double s = 0;
  for (int i = 0; i < ni; i++) for (int j = 0; j < nl; j++) s += D[i][j] * (i + j + 1);
  printf("D %.1f %.1f %.1f\n", s, D[0][0], D[ni - 1][nl - 1]);
  free(tmp); free(A); free(B); free(C); free(D);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels:
  - name: mm2
