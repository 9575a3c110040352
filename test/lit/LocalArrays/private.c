// A local array each iteration of the parallel loop writes before it reads it: every thread
// has its own copy. 'top' declares it at the top of the function (moved into loop 'i', which
// then is the function's one parallel nest); 'inner' declares it in the loop. The program
// prints what gcc's build of it prints, and verify finds no mismatch.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks > /dev/null 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=KERNEL %s < %t/out/kernel.cu
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,33 --max-points 2 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// REMARK: kernel.c:1:6: remark: local array 't' ({{.*}}kernel.c:2:10): each iteration of loop 'i' ({{.*}}kernel.c:3:3) writes it before reading it; each iteration has its own copy
// REMARK: remark: loop 'i' ({{.*}}kernel.c:3:3): parallel
// REMARK: remark: loop 'i' ({{.*}}kernel.c:13:3): parallel
//
// REMARK-NOT: local array
//
// Each thread's copy, as wide as the iterations BlockMerge gives it:
// KERNEL-LABEL: top(
// KERNEL:      double t[8 * TOP_MERGE_LEVEL];
// KERNEL:      t[k * TOP_MERGE_LEVEL + m_] = a[i * m + k % m] + i;
// KERNEL-LABEL: inner(
// KERNEL:      double w[4 * INNER_MERGE_LEVEL];
//
// VERIFY: verified 2 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 2 size(s): 0 mismatch(es)

//--- kernel.c
void top(int n, int m, double a[n][m], double out[n]) {
  double t[8];
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 8; k++)
      t[k] = a[i][k % m] + i;
    out[i] = 0.0;
    for (int k = 0; k < 8; k++)
      out[i] += t[k] * t[k];
  }
}

void inner(int n, double a[n], double b[n]) {
  for (int i = 0; i < n; i++) {
    double w[4];
    for (int k = 0; k < 4; k++)
      w[k] = a[i] * (k + 1);
    for (int k = 1; k < 4; k++)
      w[k] += w[k - 1];
    b[i] = w[3];
  }
}
//--- main.c
#include <stdio.h>
void top(int n, int m, double a[n][m], double out[n]);
void inner(int n, double a[n], double b[n]);
int main(void) {
  double a[37][5], out[37], b[37];
  for (int i = 0; i < 37; i++)
    for (int j = 0; j < 5; j++) a[i][j] = (i * 7 + j * 3) % 11 - 5;
  top(37, 5, a, out);
  inner(37, out, b);
  printf("%.3f %.3f %.3f %.3f\n", out[0], out[36], b[1], b[36]);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [top, inner]
