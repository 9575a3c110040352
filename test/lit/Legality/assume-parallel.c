// The user's assertion overrides the analysis, with a warning: '#pragma rtcuda parallel' on a
// loop, or assume_parallel in the config (true: every loop of the nest; a list: those loops).
// A scatter through a permutation the analysis cannot see into is parallel when asserted,
// without atomics, and verifies (7 is coprime with the sizes used).
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks --print-after=LoopPartition > %t/ir 2> %t/diags
// RUN: FileCheck %s < %t/ir
// RUN: FileCheck --check-prefix=DIAG %s < %t/diags
// RUN: %exit1 %rtcuda translate %t/bad.yaml -o %t/bad 2> %t/err
// RUN: FileCheck --check-prefix=REFUSE %s < %t/err
// RUN: %rtcuda verify %t/out --seed 8 --sizes 31,100 | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after LoopPartition (kernel permute)
// CHECK:      // asserted parallel: loop i
// CHECK:      y[i * 7 % n] = x[i];
// CHECK-LABEL: IR after LoopPartition (kernel permute_rows)
// CHECK:      // asserted parallel: loop i
// CHECK:      int j = ij - (long long)i * (long long)m;
// CHECK:      B[7 * i % n * m + j] = A[i * m + j];
//
// DIAG: kernel.c:3:3: warning: loop 'i' is asserted parallel, overriding the dependence analysis, which found: 'y[i * 7 % n] = x[i];' writes y[i * 7 % n], which other iterations of loop 'i' also write; the subscripts of 'y' are not affine functions
// DIAG: remark: loop 'i' ({{.*}}kernel.c:3:3): parallel; asserted parallel by the user
// DIAG: kernel.c:7:3: warning: loop 'i' is asserted parallel
// DIAG: remark: loop 'j' ({{.*}}kernel.c:8:5): parallel
// DIAG-NOT: warning
//
// REFUSE: bad.c:3:5: error: loop 'i' carries a dependence: 'y[i * 7 % n] = x[i];' writes
//
// VERIFY: verified 2 kernel(s) at 24 parameter point(s) and 2 size(s): 0 mismatch(es)

//--- kernel.c
void permute(int n, float y[n], const float x[n]) {
#pragma rtcuda parallel
  for (int i = 0; i < n; i++)
    y[(i * 7) % n] = x[i];
}
void permute_rows(int n, int m, float B[n][m], const float A[n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      B[(i * 7) % n][j] = A[i][j];
}
//--- config.yaml
kernel_files: [kernel.c]
kernels:
  - permute
  - name: permute_rows
    assume_parallel: [i]
//--- bad.c
void permute(int n, float y[n], const float x[n]) {
  for (int i = 0; i < n; i++)
    y[(i * 7) % n] = x[i];
}
//--- bad.yaml
kernel_files: [bad.c]
kernels: [permute]
