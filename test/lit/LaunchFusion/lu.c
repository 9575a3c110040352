// PolyBench's lu after Reschedule: per pivot c0, the trailing matrix's lower (c2 < c1) and upper
// (c2 >= c1) triangles get the same update in two adjacent nests that do not depend on each
// other; LaunchFusion makes them one statement over their union, the square, with no guard:
// two launches per c0 where there were three. The program prints what gcc's build prints;
// verify at odd and prime sizes.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks=LaunchFusion 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=HOST %s < %t/out/launch.cuh
// RUN: FileCheck --check-prefix=KERNEL %s < %t/out/kernel.cu
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,2,13,37 --max-points 3 --tolerance 1000 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// REMARK: kernel.c:3:3: remark: loops 'c1' ({{.*}}) and 'c1' ({{.*}}): fused into one launch, one statement over the union, which is the box [-Rpass=LaunchFusion]
//
// HOST:      for (int c0 = 0; c0 < n - 1; c0 += 1) {
// HOST-NEXT:   rtcuda_launch_lu_1_on_device(where, n, d_A, c0);
// HOST-NEXT:   rtcuda_launch_lu_2_on_device(where, n, d_A, c0);
// HOST-NEXT: }
//
// KERNEL-LABEL: {{^}}lu_2(
// KERNEL-NOT:  if (c2
// KERNEL:      A[{{.*}}] -= A[{{.*}}] * A[{{.*}}];
//
// VERIFY: verified 1 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 4 size(s): 0 mismatch(es)

//--- kernel.c
// In float, loop variables declared in the loops.
void lu(int n, float A[n][n]) {
  for (int r = 0; r < n; r++) {
    for (int c = 0; c < r; c++) {
      for (int p = 0; p < c; p++) A[r][c] -= A[r][p] * A[p][c];
      A[r][c] /= A[c][c];
    }
    for (int c = r; c < n; c++)
      for (int p = 0; p < r; p++) A[r][c] -= A[r][p] * A[p][c];
  }
}
//--- main.c
#include <stdio.h>
void lu(int n, float A[n][n]);
static float M[29][29];
int main(void) {
  for (int r = 0; r < 29; r++)
    for (int c = 0; c < 29; c++) M[r][c] = r == c ? 60.0f : (float)((r * 7 + c * 3) % 11) / 11.0f;
  lu(29, M);
  double sum = 0;
  for (int r = 0; r < 29; r++) sum += M[r][r] + 0.5 * M[r][(r * 5) % 29];
  printf("%.5f %.5f\n", sum, M[28][27]);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [lu]
