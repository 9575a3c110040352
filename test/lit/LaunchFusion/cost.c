// The cost rule: pairs that are independent but whose fused launch would idle more threads
// than the two launches do are not fused: a row next to a square (the boxes differ by more than
// a constant), and two squares 60 rows apart (at extents of 64 the fused box has 4096 points,
// the two boxes 512); and mvt's row and column sums (independent, but each a reduction along
// 'j': each keeps its own kernel and mapping). The program prints what gcc's build prints.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks=LaunchFusion 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
//
// REMARK: kernel.c:2:3: remark: loops 'i' ({{.*}}kernel.c:2:3) and 'i' ({{.*}}kernel.c:5:3): not fused: a nest's box differs from the fused box by more than a constant [-Rpass=LaunchFusion]
// REMARK: kernel.c:10:3: remark: loops 'i' ({{.*}}kernel.c:10:3) and 'i' ({{.*}}kernel.c:13:3): not fused: the fused box would launch 4096 threads where the two launch 512 (extents of 64) [-Rpass=LaunchFusion]
// REMARK: kernel.c:18:3: remark: loops 'i' ({{.*}}kernel.c:18:3) and 'i' ({{.*}}kernel.c:21:3): not fused: a nest is not parallel in all its loops (its instances at different points share an element); it keeps its own kernel and mapping [-Rpass=LaunchFusion]

//--- kernel.c
void rowsq(int n, float a[n][n], float b[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      a[i][j] = 2.0f * a[i][j];
  for (int i = 0; i < 1; i++)
    for (int j = 0; j < n; j++)
      b[i][j] = 1.0f;
}
void apart(int n, float a[n + 60][n], float b[n + 60][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      a[i][j] = 2.0f * a[i][j];
  for (int i = 60; i < n + 60; i++)
    for (int j = 0; j < n; j++)
      b[i][j] = b[i][j] + 1.0f;
}
void sums(int n, float a[n][n], float x1[n], float x2[n], float y[n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      x1[i] = x1[i] + a[i][j] * y[j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      x2[i] = x2[i] + a[j][i] * y[j];
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void rowsq(int n, float a[n][n], float b[n][n]);
void apart(int n, float a[n + 60][n], float b[n + 60][n]);
void sums(int n, float a[n][n], float x1[n], float x2[n], float y[n]);
int main(void) {
  int n = 17;
  float (*a)[n] = malloc(sizeof(float) * (n + 60) * n), (*b)[n] = malloc(sizeof(float) * (n + 60) * n);
  for (int i = 0; i < n + 60; i++)
    for (int j = 0; j < n; j++) a[i][j] = (i + 3 * j) % 7, b[i][j] = i - j;
  rowsq(n, a, b);
  apart(n, a, b);
  float x1[17], x2[17], y[17];
  for (int i = 0; i < n; i++) x1[i] = i, x2[i] = -i, y[i] = (i % 3) * 0.5f;
  sums(n, a, x1, x2, y);
  double s = 0;
  for (int i = 0; i < n + 60; i++)
    for (int j = 0; j < n; j++) s += a[i][j] + 2 * b[i][j];
  for (int i = 0; i < n; i++) s += x1[i] + 3 * x2[i];
  printf("%.3f\n", s);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [rowsq, apart, sums]
