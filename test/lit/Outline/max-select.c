// A best-split table on integers: T[i][j] is the best of T[i][k] + T[k + 1][j] - 3 over the
// splits k, each max written with ?: as C programs do (PolyBench's max_score), in two orders.
// The rows (i) and columns (j) carry dependences and stay on the host; the split loop k is a
// max update of T[i][j], an element fixed for the launch, whose operand reads other elements
// of T: a parallel kernel with atomicMax. Integers: any order prints what gcc's build prints.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks > /dev/null 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=KERNEL %s < %t/out/kernel.cu
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
//
// REMARK: remark: kernel 'split_2': the loop nest at {{.*}}kernel.c:6:7 runs in parallel
// REMARK: remark: loop 'j' ({{.*}}kernel.c:4:5) stays on the host, one launch per iteration: loop 'j' carries a dependence
// REMARK: remark: loop 'i' ({{.*}}kernel.c:3:3) stays on the host, one launch per iteration: loop 'i' carries a dependence
//
// KERNEL-LABEL: split_2(
// KERNEL: atomicMax(&T[{{.*}}], T[{{.*}}] + T[{{.*}}] - 3);
// KERNEL: atomicMax(&T[{{.*}}], T[{{.*}}] + T[{{.*}}] - 3 - (k & 1));

//--- kernel.c
#define BEST(a, b) ((a) >= (b) ? (a) : (b))
void split(int n, int T[n][n], int w[n]) {
  for (int i = n - 2; i >= 0; i--)
    for (int j = i + 1; j < n; j++) {
      T[i][j] = BEST(T[i][j - 1], w[i] + w[j]);
      for (int k = i; k < j; k++) {
        T[i][j] = BEST(T[i][j], T[i][k] + T[k + 1][j] - 3);
        T[i][j] = T[i][k] + T[k + 1][j] - 3 - (k & 1) < T[i][j] ? T[i][j] : T[i][k] + T[k + 1][j] - 3 - (k & 1);
      }
    }
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void split(int n, int T[n][n], int w[n]);
int main(void) {
  int n = 19;
  int (*T)[n] = malloc(sizeof(int) * n * n), *w = malloc(sizeof(int) * n);
  for (int i = 0; i < n; i++) {
    w[i] = (i * 7) % 5;
    for (int j = 0; j < n; j++) T[i][j] = i == j ? (i * 3) % 4 : 0;
  }
  split(n, T, w);
  long s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) s += (long)T[i][j] * (i + 2 * j + 1);
  printf("split %ld %d %d\n", s, T[0][n - 1], T[3][n - 2]);
  free(T);
  free(w);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [split]
