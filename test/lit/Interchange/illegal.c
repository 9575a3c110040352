// Interchange declined: `C[i][j] += C[i][j - 1] * A[i][k]` reads, at iteration (k, j), the
// element that iteration (k', j - 1) with k' > k overwrites: a dependence with direction
// (<, >) on (k, j), whose order the interchange would reverse. The remark names it; `i` stays
// the only parallel loop, and the program still prints what gcc's build prints.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks > %t/ir 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,13 --max-points 2 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// REMARK: kernel.c:4:5: remark: loop 'k' ({{.*}}kernel.c:4:5) and loop 'j' ({{.*}}kernel.c:5:7) not interchanged: the dependence analysis found a dependence with direction (<, >) on ('k', 'j'): 'C[i][j] += C[i][j - 1] * A[i][k];' writes C[i][j], which 'C[i][j] += C[i][j - 1] * A[i][k];' ({{.*}}kernel.c:6:9) reads in an earlier iteration of loop 'k' and a later one of loop 'j' [-Rpass=Interchange]
// REMARK: remark: loop 'i' ({{.*}}kernel.c:3:3): parallel [-Rpass=ParallelLoops]
// REMARK-NOT: Rpass=Fusion
//
// VERIFY: verified 1 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 2 size(s): 0 mismatch(es)

//--- kernel.c
void scan(int n, int m, double C[n][n], double A[n][m]) {
  int i, j, k;
  for (i = 0; i < n; i++) {
    for (k = 0; k < m; k++) {
      for (j = 1; j < n; j++)
        C[i][j] += C[i][j - 1] * A[i][k];
    }
  }
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void scan(int n, int m, double C[n][n], double A[n][m]);
int main(void) {
  int n = 9, m = 4;
  double (*C)[n] = malloc(sizeof(double) * n * n);
  double (*A)[m] = malloc(sizeof(double) * n * m);
  for (int i = 0; i < n; i++) for (int k = 0; k < m; k++) A[i][k] = ((i + k) % 3 - 1) * 0.25;
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) C[i][j] = (i * 2 + j) % 5 + 0.5;
  scan(n, m, C, A);
  double s = 0;
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) s += C[i][j] * (i + j + 1);
  printf("C %.6f %.6f\n", s, C[n - 1][n - 1]);
  free(C); free(A);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels:
  - name: scan
