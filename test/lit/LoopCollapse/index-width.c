// Index width (docs/passes/LoopCollapse.md#index-width): a kernel whose collapsed index is 64-bit
// is printed twice, its index arithmetic in int under its own name and in long long as
// <name>_wide_index; the launch takes the 32-bit one where every count fits. Constant extents
// decide at translation: `fixed` (300 x 500) gets only the 32-bit kernel, `huge` (50000 x
// 50000, past 2^31 - 1) only the 64-bit one. A source with its own `long long` (`own`) keeps its
// 64-bit arithmetic. rtcuda verify runs both instantiations of `shift3` (non-zero start, a loop
// counting down, a step of 2) at odd and prime sizes, and catches a bug planted in either.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out > /dev/null
// RUN: FileCheck --check-prefix=KERNEL %s < %t/out/kernel.cu
// RUN: FileCheck --check-prefix=LAUNCH %s < %t/out/launch.cuh
// RUN: %rtcuda translate %t/huge.yaml -o %t/huge > /dev/null
// RUN: FileCheck --check-prefix=HUGE %s < %t/huge/kernel.cu
// RUN: %rtcuda verify %t/out --no-race-check --sizes 7,13 > %t/verify.log
// RUN: FileCheck --check-prefix=VERIFY %s < %t/verify.log
//
// A bug planted in the 32-bit kernel only (only the odd rows of i: every index stays in
// bounds, the even rows are never written), then in the 64-bit one only:
// RUN: cp -r %t/out %t/bug32 && cp -r %t/out %t/bug64
// RUN: sed -i 's#int i = i_q + 1;#int i = i_q / 2 * 2 + 1;#' %t/bug32/kernel.cu
// RUN: grep -cF 'int i = i_q / 2 * 2 + 1;' %t/bug32/kernel.cu | FileCheck --check-prefix=ONCE %s
// RUN: %exit1 %rtcuda verify %t/bug32 --no-race-check --sizes 7 --max-points 1 > %t/bug32.log 2>&1
// RUN: FileCheck --check-prefix=BUG32 %s < %t/bug32.log
// RUN: sed -i 's#int i = i_q + 1LL;#int i = i_q / 2 * 2 + 1;#' %t/bug64/kernel.cu
// RUN: grep -cF 'int i = i_q / 2 * 2 + 1;' %t/bug64/kernel.cu | FileCheck --check-prefix=ONCE %s
// RUN: %exit1 %rtcuda verify %t/bug64 --no-race-check --sizes 7 --max-points 1 > %t/bug64.log 2>&1
// RUN: FileCheck --check-prefix=BUG64 %s < %t/bug64.log
//
// KERNEL:      shift3(int a, int b, int c, float *t, const float *s) {
// KERNEL-NEXT:   int ijk = (int)blockIdx.x * SHIFT3_BLOCKSIZE + (int)threadIdx.x;
// KERNEL-NEXT:   if (ijk < (a - 1) * (b * (c / 2))) {
// KERNEL-NEXT:     // recover the loop indices from the collapsed index
// KERNEL-NEXT:     int ij = ijk / (c / 2);
// KERNEL-NEXT:     int i_q = ij / b;
// KERNEL-NEXT:     int i = i_q + 1;
// KERNEL-NEXT:     int j = b - ij + i_q * b - 1;
// KERNEL-NEXT:     int k = 2 * ijk - 2 * (ij * (c / 2));
// KERNEL:      shift3_wide_index(int a, int b, int c, float *t, const float *s) {
// KERNEL-NEXT:   long long ijk = (long long)blockIdx.x * SHIFT3_BLOCKSIZE + threadIdx.x;
// KERNEL-NEXT:   if (ijk < ((long long)a - 1) * ((long long)b * ((long long)c / 2))) {
// KERNEL-NEXT:     // recover the loop indices from the collapsed index
// KERNEL-NEXT:     long long ij = ijk / ((long long)c / 2);
// KERNEL-NEXT:     long long i_q = ij / (long long)b;
// KERNEL-NEXT:     int i = i_q + 1LL;
// KERNEL-NEXT:     int j = b - ij + i_q * (long long)b - 1LL;
// KERNEL-NEXT:     int k = 2LL * ijk - 2LL * (ij * ((long long)c / 2));
// KERNEL:      fixed(float *t, const float *s) {
// KERNEL-NEXT:   int ij = (int)blockIdx.x * FIXED_BLOCKSIZE + (int)threadIdx.x;
// KERNEL-NEXT:   if (ij < 150000) {
// KERNEL-NEXT:     // recover the loop indices from the collapsed index
// KERNEL-NEXT:     int i = ij / 500;
// KERNEL-NEXT:     int j = ij - 500 * i;
// KERNEL-NOT:  fixed_wide_index
// KERNEL:      own(int n, int m, long long *t) {
// KERNEL-NEXT:   long long ij = (long long)blockIdx.x * OWN_BLOCKSIZE + threadIdx.x;
// KERNEL-NOT:  own_wide_index
//
// LAUNCH:      static inline long long rtcuda_shift3_launched_alternative(int a, int b, int c, long long rtcuda_sms) {
// LAUNCH:        return (SHIFT3_WIDE_INDEX == 2 || (SHIFT3_WIDE_INDEX == 1 && !({{.*}} <= 2147483647LL))) ? 0 : -1;
// LAUNCH:      rtcuda_launch_shift3_on_device(
// LAUNCH-NEXT:   const bool rtcuda_index32 = {{.*}} <= 2147483647LL &&
// LAUNCH:        if (rtcuda_shift3_launched_alternative(a, b, c, 0) == 0) {
// LAUNCH:          RTCUDA_LAUNCH(shift3_wide_index, grid, block, a, b, c, t, s);
// LAUNCH:        } else if (!rtcuda_index32) {
// LAUNCH-NEXT:     fprintf(stderr, "%s: error: kernel 'shift3' needs 64-bit index arithmetic here, and SHIFT3_WIDE_INDEX = 0 asks for 32-bit\n", where);
// LAUNCH:          RTCUDA_LAUNCH(shift3, grid, block, a, b, c, t, s);
// LAUNCH:      rtcuda_launch_fixed_on_device(
// LAUNCH:        if (!rtcuda_index32) {
// LAUNCH-NEXT:     fprintf(stderr, "%s: error: kernel 'fixed' needs 64-bit index arithmetic here, and its constant extents made it 32-bit\n", where);
// LAUNCH:          RTCUDA_LAUNCH(fixed, grid, block, t, s);
// LAUNCH:      rtcuda_launch_own_on_device(
// LAUNCH-NOT:  rtcuda_index32
// LAUNCH:        RTCUDA_LAUNCH(own, grid, block, n, m, t);
//
// HUGE:        huge(float *t, const float *s) {
// HUGE-NEXT:     long long ij = (long long)blockIdx.x * HUGE_BLOCKSIZE + threadIdx.x;
// HUGE-NOT:    huge_wide_index
//
// VERIFY: harness: 3 kernel(s) 72 point(s) 2 size(s) 0 mismatch(es)
// VERIFY: harness: 2 run(s) of alternative instantiations, each compared as above
// VERIFY: verified 3 kernel(s) at 36 parameter point(s) and 2 size(s): 0 mismatch(es)
//
// ONCE: 1
// BUG32:     MISMATCH shift3 ( a=7 b=9 c=11 BLOCKSIZE={{[0-9]+}}): t[
// BUG32-NOT: shift3_wide_index (SHIFT3_WIDE_INDEX=2)):
// BUG32:     verified 3 kernel(s) at 3 parameter point(s) and 1 size(s): {{[1-9][0-9]*}} mismatch(es)
// BUG64-NOT: BLOCKSIZE={{[0-9]+}}): t[
// BUG64:     MISMATCH shift3 ( a=7 b=9 c=11 shift3_wide_index (SHIFT3_WIDE_INDEX=2)): t[
// BUG64-NOT: BLOCKSIZE={{[0-9]+}}): t[
// BUG64:     verified 3 kernel(s) at 3 parameter point(s) and 1 size(s): {{[1-9][0-9]*}} mismatch(es)

//--- kernel.c
void shift3(int a, int b, int c, float t[a][b][c], const float s[a][b][c]) {
  for (int i = 1; i < a; i++)
    for (int j = b - 1; j >= 0; j--)
      for (int k = 0; k < c - 1; k += 2)
        t[i][j][k] = s[i - 1][j][k + 1] + 1.0f;
}
void fixed(float t[300][500], const float s[300][500]) {
  for (int i = 0; i < 300; i++)
    for (int j = 0; j < 500; j++)
      t[i][j] = 2.0f * s[i][j];
}
void own(int n, int m, long long *t) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      t[(long long)i * m + j] = (long long)i * j;
}
//--- huge.c
void huge(float t[50000][50000], const float s[50000][50000]) {
  for (int i = 0; i < 50000; i++)
    for (int j = 0; j < 50000; j++)
      t[i][j] = 2.0f * s[i][j];
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [shift3, fixed, own]
//--- huge.yaml
kernel_files: [huge.c]
kernels: [huge]
