// on_dependence: sequential keeps a loop that carries a dependence serial. When the outer
// loop carries it and the inner one does not (each row adds the row above), one block runs the
// outer loop in every thread and spreads the inner loop over its threads, with a barrier after
// each row; the result is what the C computes.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=LoopPartition > %t/ir 2> %t/warn
// RUN: FileCheck %s < %t/ir
// RUN: FileCheck --check-prefix=WARN %s < %t/warn
// RUN: FileCheck --check-prefix=HOST %s < %t/out/launch.cuh
// RUN: %rtcuda verify %t/out --seed 6 --sizes 31,100 | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after LoopPartition (kernel accumulate_rows)
// CHECK:      int seq = (int)llmin((long long)blockIdx.x * ACCUMULATE_ROWS_BLOCKSIZE + threadIdx.x, (long long)ACCUMULATE_ROWS_BLOCKSIZE);
// CHECK-NEXT: if (seq < ACCUMULATE_ROWS_BLOCKSIZE) {
// CHECK-NEXT:   for (int i = 1; i < n; i++) {
// CHECK-NEXT:     for (int j_strided = seq; j_strided < m; j_strided += ACCUMULATE_ROWS_BLOCKSIZE) {
// CHECK-NEXT:       int j = j_strided;
// CHECK-NEXT:       A[i * m + j] = A[i * m + j] + A[(i - 1) * m + j];
// CHECK-NEXT:     }
// CHECK-NEXT:     __syncthreads();
// CHECK-NEXT:   }
// CHECK-NEXT: }
//
// WARN: kernel.c:4:7: warning: loop 'i' carries a dependence: 'A[i][j] = A[i][j] + A[i - 1][j];' reads A[i - 1][j], written by the previous iteration of loop 'i'; kept sequential (on_dependence: sequential): loop 'j' runs over the threads of one block, with a barrier after each iteration of the loops around it
//
// HOST: dim3 grid((unsigned)rtcuda_ceil_div(iterations_x, ACCUMULATE_ROWS_BLOCKSIZE));
//
// VERIFY: verified 1 kernel(s) at 12 parameter point(s) and 2 size(s): 0 mismatch(es)

//--- kernel.c
void accumulate_rows(int n, int m, float A[n][m]) {
  for (int i = 1; i < n; i++)
    for (int j = 0; j < m; j++)
      A[i][j] = A[i][j] + A[i - 1][j];
}
//--- config.yaml
kernel_files: [kernel.c]
kernels:
  - name: accumulate_rows
    on_dependence: sequential
