// fdtd-2d's two updates from hz in one time step: ey from row 1, ex from column 1; neither
// reads what the other writes, so LaunchFusion makes them one kernel over [0, nx) x [0, ny),
// each store under the part of its domain the box does not imply. Then a pair that must NOT be
// fused (the second reads b[i + 1][j], which the first writes at another point: planted), and
// identical bodies over overlapping domains, which are fused but stay two statements (each
// under its guard: the overlap runs both, as the source does). The program prints what gcc's
// build prints; verify at odd and prime sizes.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks=LaunchFusion 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=KERNEL %s < %t/out/kernel.cu
// RUN: FileCheck --check-prefix=HOST %s < %t/out/launch.cuh
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,2,13,31 --max-points 3 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// REMARK-DAG: kernel.c:4:5: remark: loops 'i' ({{.*}}kernel.c:4:5) and 'i' ({{.*}}kernel.c:7:5): fused into one launch, each statement under its domain's guard [-Rpass=LaunchFusion]
// REMARK-DAG: kernel.c:17:5: remark: loops 'i' ({{.*}}kernel.c:17:5) and 'i' ({{.*}}kernel.c:20:5): not fused: an instance of one reads or writes an element that an instance of the other writes at another point [-Rpass=LaunchFusion]
// REMARK-DAG: kernel.c:26:3: remark: loops 'i' ({{.*}}kernel.c:26:3) and 'i' ({{.*}}kernel.c:29:3): fused into one launch, each statement under its domain's guard (the domains overlap) [-Rpass=LaunchFusion]
//
// KERNEL-LABEL: {{^}}fdtd_2(
// KERNEL:      if (i >= 1) {
// KERNEL:        ey[
// KERNEL:      if (j >= 1) {
// KERNEL:        ex[
// KERNEL-LABEL: {{^}}notfused_1(
// KERNEL-LABEL: {{^}}notfused_2(
// KERNEL-LABEL: {{^}}overlap(
// KERNEL:      if (i < n - 1) {
// KERNEL-NEXT:   c[
// KERNEL:      if (i >= 1) {
// KERNEL-NEXT:   c[
//
// HOST:      for (int t = 0; t < tmax; t += 1) {
// HOST-NEXT:   rtcuda_launch_fdtd_1_on_device(
// HOST-NEXT:   rtcuda_launch_fdtd_2_on_device(
// HOST-NEXT:   rtcuda_launch_fdtd_3_on_device(
// HOST-NEXT: }
//
// VERIFY: verified 3 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 4 size(s): 0 mismatch(es)

//--- kernel.c
void fdtd(int tmax, int nx, int ny, float ex[nx][ny], float ey[nx][ny], float hz[nx][ny], float fict[tmax]) {
  for (int t = 0; t < tmax; t++) {
    for (int j = 0; j < ny; j++) ey[0][j] = fict[t];
    for (int i = 1; i < nx; i++)
      for (int j = 0; j < ny; j++)
        ey[i][j] = ey[i][j] - 0.5f * (hz[i][j] - hz[i - 1][j]);
    for (int i = 0; i < nx; i++)
      for (int j = 1; j < ny; j++)
        ex[i][j] = ex[i][j] - 0.5f * (hz[i][j] - hz[i][j - 1]);
    for (int i = 0; i < nx - 1; i++)
      for (int j = 0; j < ny - 1; j++)
        hz[i][j] = hz[i][j] - 0.7f * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
  }
}
void notfused(int n, float a[n][n], float b[n][n]) {
  for (int t = 0; t < 3; t++) {
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        b[i][j] = a[i][j] + 1.0f;
    for (int i = 0; i < n - 1; i++)
      for (int j = 0; j < n; j++)
        a[i][j] = b[i + 1][j] * 0.5f;
  }
}
void overlap(int n, float a[n][n], float c[n][n]) {
  for (int i = 0; i < n - 1; i++)
    for (int j = 0; j < n; j++)
      c[i][j] += a[i][j];
  for (int i = 1; i < n; i++)
    for (int j = 0; j < n; j++)
      c[i][j] += a[i][j];
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void fdtd(int tmax, int nx, int ny, float ex[nx][ny], float ey[nx][ny], float hz[nx][ny], float fict[tmax]);
void notfused(int n, float a[n][n], float b[n][n]);
void overlap(int n, float a[n][n], float c[n][n]);
int main(void) {
  int tmax = 5, nx = 23, ny = 29, n = 31;
  float (*ex)[ny] = malloc(sizeof(float) * nx * ny), (*ey)[ny] = malloc(sizeof(float) * nx * ny);
  float (*hz)[ny] = malloc(sizeof(float) * nx * ny), *fict = malloc(sizeof(float) * tmax);
  for (int t = 0; t < tmax; t++) fict[t] = t;
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++) {
      ex[i][j] = (i * (j + 1) % 7) / 7.0f;
      ey[i][j] = (i * (j + 2) % 5) / 5.0f;
      hz[i][j] = (i * (j + 3) % 3) / 3.0f;
    }
  fdtd(tmax, nx, ny, ex, ey, hz, fict);
  double s = 0;
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++) s += ex[i][j] + 2 * ey[i][j] + 3 * hz[i][j];
  float (*a)[n] = malloc(sizeof(float) * n * n), (*b)[n] = malloc(sizeof(float) * n * n);
  float (*c)[n] = malloc(sizeof(float) * n * n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) a[i][j] = (i + 2 * j) % 9, b[i][j] = 0, c[i][j] = i - j;
  notfused(n, a, b);
  overlap(n, a, c);
  double u = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) u += a[i][j] + 2 * b[i][j] + 3 * c[i][j];
  printf("%.6f %.6f\n", s, u);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [fdtd, notfused, overlap]
