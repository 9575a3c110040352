// Private arrays that stay private: one filled by a single loop (a thread's copy costs little),
// one larger than the array that would bound the temporary, and one whose expansion would leave
// a dependence on loop 'i' (every iteration adds into row 0 of b: atomic updates). Each says why; the programs
// still compute what gcc's build computes.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks=ArrayExpansion > /dev/null 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
//
// REMARK: remark: array 't' ({{.*}}kernel.c:3:12) stays private to each iteration of loop 'i': no loop nest writes it (a thread's copy costs little) [-Rpass=ArrayExpansion]
// REMARK: remark: array 't' ({{.*}}kernel.c:10:12) stays private to each iteration of loop 'i': the temporary would be larger than the arrays of the nest: its 32 elements per iteration exceed the 16 of 'a' [-Rpass=ArrayExpansion]
// REMARK: remark: array 't' ({{.*}}kernel.c:20:12) not expanded: expanded, loop 'i' would still carry a dependence: {{.*}}b[0][j]{{.*}} [-Rpass=ArrayExpansion]

//--- kernel.c
void single(int n, int m, double a[n][16], double b[n][16]) {
  for (int i = 0; i < n; i++) {
    double t[16];
    for (int j = 0; j < m; j++) t[j] = a[i][j] * 2.0;
    for (int j = 0; j < m; j++) b[i][j] = t[j] + t[j] * t[j];
  }
}
void larger(int n, int m, double a[n][16], double c[16][16], double b[n][16]) {
  for (int i = 0; i < n; i++) {
    double t[32];
    for (int j = 0; j < m; j++) {
      t[j] = 0.0;
      for (int k = 0; k < m; k++) t[j] += a[i][k] * c[k][j];
    }
    for (int j = 0; j < m; j++) b[i][j] = t[j];
  }
}
void carried(int n, int m, double a[n][16], double c[16][16], double b[n][16]) {
  for (int i = 0; i < n; i++) {
    double t[16];
    for (int j = 0; j < m; j++) {
      t[j] = 0.0;
      for (int k = 0; k < m; k++) t[j] += a[i][k] * c[k][j];
    }
    for (int j = 0; j < m; j++) b[0][j] += t[j] * 0.25;
  }
}
//--- main.c
#include <stdio.h>
void single(int n, int m, double a[n][16], double b[n][16]);
void larger(int n, int m, double a[n][16], double c[16][16], double b[n][16]);
void carried(int n, int m, double a[n][16], double c[16][16], double b[n][16]);
static double a[13][16], b[13][16], c[16][16];
int main(void) {
  for (int i = 0; i < 13; i++)
    for (int j = 0; j < 16; j++) a[i][j] = (i * 3 + j) % 7 - 3, b[i][j] = 0;
  for (int k = 0; k < 16; k++)
    for (int j = 0; j < 16; j++) c[k][j] = (k + 2 * j) % 5 - 2;
  single(13, 11, a, b);
  double s1 = 0;
  for (int i = 0; i < 13; i++)
    for (int j = 0; j < 16; j++) s1 += b[i][j] * (1 + (i + j) % 3);
  larger(13, 11, a, c, b);
  double s2 = 0;
  for (int i = 0; i < 13; i++)
    for (int j = 0; j < 16; j++) s2 += b[i][j] * (1 + (i + j) % 3);
  carried(13, 11, a, c, b);
  double s3 = 0;
  for (int i = 0; i < 13; i++)
    for (int j = 0; j < 16; j++) s3 += b[i][j] * (1 + (i + j) % 3);
  printf("%.3f %.3f %.3f\n", s1, s2, s3);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [single, larger, carried]
