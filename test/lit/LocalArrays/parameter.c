// A parameter array each iteration writes before reading it (a scratch row): each iteration
// (each thread) works on its own copy, and the last iteration stores its copy back, so the
// caller sees what the sequential C leaves in it. Loop 'i' runs in parallel; the program prints
// what gcc's build prints (tmp included); verify compares tmp too.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks > /dev/null 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=KERNEL %s < %t/out/kernel.cu
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,13 --max-points 2 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// REMARK: remark: array 'tmp': each iteration of loop 'i' ({{.*}}kernel.c:2:3) writes tmp[0 .. m - 1] before reading it; each iteration works on its own copy, and the last one (i = n - 1) stores it back, as the sequential C leaves it
// REMARK: remark: loop 'i' ({{.*}}kernel.c:2:3): parallel
//
// KERNEL:      double tmp_own[16
// KERNEL:      if (i == n - 1) {
// KERNEL:        tmp[tmp_at] = tmp_own[tmp_at
//
// VERIFY: verified 1 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 2 size(s): 0 mismatch(es)

//--- kernel.c
void rows(int n, int m, double a[n][m], double tmp[16]) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++)
      tmp[j] = a[i][j] * 2.0;
    for (int j = 0; j < m; j++)
      a[i][j] = tmp[j] + tmp[j] * tmp[j];
  }
}
//--- main.c
#include <stdio.h>
void rows(int n, int m, double a[n][m], double tmp[16]);
int main(void) {
  double a[37][11], tmp[16];
  for (int k = 0; k < 16; k++) tmp[k] = -1.0;
  for (int i = 0; i < 37; i++)
    for (int j = 0; j < 11; j++) a[i][j] = (i * 3 + j) % 7 - 3;
  rows(37, 11, a, tmp);
  printf("%.3f %.3f %.3f %.3f %.3f\n", a[0][0], a[36][10], tmp[0], tmp[10], tmp[11]);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [rows]
