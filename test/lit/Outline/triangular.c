// A forward substitution: the copy x[i] = b[i] is distributed out of the row loop (Fission) and
// runs as one parallel kernel; the row loop carries a dependence (x[i] reads the x[j] of earlier
// rows), so it stays on the host; the column loop is an update of x[i], an element fixed for
// the launch, whose operand reads other elements of x (x[j], j < i, which the analysis proves
// are never x[i]): a parallel kernel with atomic updates. The matrix holds halves and the
// diagonal ones, so every value is exact and any order of the updates prints what gcc's build
// prints.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks > /dev/null 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=HOST %s < %t/out/launch.cuh
// RUN: FileCheck --check-prefix=KERNEL %s < %t/out/kernel.cu
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,17 --max-points 2 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// REMARK: remark: loop 'i' ({{.*}}kernel.c:3:3) (serial) distributed into 2 loop(s): loop 'i' parallel, loop 'i' serial; no statement depends on a later one in an earlier iteration of loop 'i' [-Rpass=Fission]
// REMARK: remark: kernel 'forward_1': the loop nest at {{.*}}kernel.c:3:3 runs in parallel
// REMARK: remark: kernel 'forward_2': the loop nest at {{.*}}kernel.c:5:5 runs in parallel
// REMARK: remark: kernel 'forward_3': {{.*}}kernel.c:7:5 runs in one GPU thread: it reads or writes arrays
// REMARK: remark: loop 'i' ({{.*}}kernel.c:3:3) stays on the host, one launch per iteration: loop 'i' carries a dependence: 'x[i] -= L[i][j] * x[j];' reads x[j], written by an earlier iteration of loop 'i'{{.*}}; 2 launches per iteration, since the parallel loops inside have i ('j') iterations
//
// HOST:      rtcuda_launch_forward_1_on_device(where, n, d_b, d_x);
// HOST:      for (int i = 0; i < n; i += 1) {
// HOST-NEXT:   rtcuda_launch_forward_2_on_device(where, n, d_L, d_x, i);
// HOST-NEXT:   rtcuda_launch_forward_3_on_device(where, n, d_L, d_x, i);
// HOST-NEXT: }
//
// KERNEL-LABEL: forward_2(
// KERNEL:     atomicAdd(&x[i], -(L[i * n + j] * x[j]));
// KERNEL-NOT: __shared__
// KERNEL-LABEL: forward_3(
//
// VERIFY: verified 1 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 2 size(s): 0 mismatch(es)

//--- kernel.c
void forward(int n, double L[n][n], double b[n], double x[n]) {
  int i, j;
  for (i = 0; i < n; i++) {
    x[i] = b[i];
    for (j = 0; j < i; j++)
      x[i] -= L[i][j] * x[j];
    x[i] = x[i] / L[i][i];
  }
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void forward(int n, double L[n][n], double b[n], double x[n]);
int main(void) {
  int n = 23;
  double (*L)[n] = malloc(sizeof(double) * n * n);
  double *b = malloc(sizeof(double) * n), *x = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) L[i][j] = j < i ? 0.5 * ((i * 5 + j * 3) % 3 - 1) : j == i;
    b[i] = (i * 7) % 5 - 2;
  }
  forward(n, L, b, x);
  for (int i = 0; i < n; i++) printf("%.4f%c", x[i], i % 6 == 5 ? '\n' : ' ');
  printf("\n");
  free(L);
  free(b);
  free(x);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [forward]
