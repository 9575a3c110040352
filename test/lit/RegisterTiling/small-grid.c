// RegisterTiling: a contraction whose tuning space holds the points BLOCKSIZE 384, MERGE_LEVEL 8,
// SKEW_LEVEL 4, THREAD_COLS 32, TILE_K 16 (96 x 128 per block), BLOCKSIZE 256, MERGE_LEVEL 8,
// SKEW_LEVEL 4, THREAD_COLS 16, TILE_K 16 (128 x 64) and BLOCKSIZE 320, MERGE_LEVEL 8, SKEW_LEVEL
// 4, THREAD_COLS 32, TILE_K 16 (80 x 128) gets three alternative instantiations, mm_small_grid,
// mm_small_grid2 and mm_small_grid3: the same kernel with every tuning macro renamed MM_SG_*,
// MM_SG2_*, MM_SG3_*, fixed at those points in mm_params.h. MM_SMALL_GRID chooses at launch: 0
// never, 1 (the default) where the point's grid has fewer blocks than the GPU has SMs, the
// alternative whose grid fills most SMs without passing their count; 2, 3 and 4 always the
// first, the second, the third.
// rtcuda verify checks every tuning point with MM_SMALL_GRID 0 (the kernel at the point it
// names) and each alternative with its value, whatever the header says: a missing barrier
// planted in either alternative is caught, named by the alternative (the emulator reports 132
// SMs, so at 1, 7, 37 and 131 x 263 the rule would take an alternative at every point).
// A config whose space lacks the points (gemm_narrow: block_size up to 256 keeps the second
// only; gemm_tiny: up to 128 keeps none) has fewer instantiations.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out
// RUN: FileCheck %s < %t/out/kernel.cu
// RUN: FileCheck --check-prefix=PARAMS %s < %t/out/mm_params.h
// RUN: FileCheck --check-prefix=LAUNCH %s < %t/out/launch.cuh
// RUN: FileCheck --check-prefix=MANIFEST %s < %t/out/manifest.json
// RUN: %rtcuda verify %t/out --seed 5 --sizes 1,7,37 --max-points 4 --no-race-check | FileCheck --check-prefix=VERIFY %s
// RUN: %rtcuda verify %t/out --seed 5 --sizes 1 --size n=131 --size m=13 --size p=263 --max-points 3 --no-race-check | FileCheck --check-prefix=VERIFY1 %s
// Planted: the first barrier of mm_small_grid, then of mm_small_grid2, then of mm_small_grid3,
// removed.
// RUN: cp -r %t/out %t/p1 && awk '/Kernel .mm_small_grid.:/ {on = 1} on && /__syncthreads/ && !done { done = 1; next } { print }' %t/out/kernel.cu > %t/p1/kernel.cu
// RUN: not %rtcuda verify %t/p1 --seed 5 --sizes 37 --max-points 2 --no-race-check > %t/p1.txt 2>&1
// RUN: FileCheck --check-prefix=PLANTED1 %s < %t/p1.txt
// RUN: cp -r %t/out %t/p2 && awk '/Kernel .mm_small_grid2.:/ {on = 1} on && /__syncthreads/ && !done { done = 1; next } { print }' %t/out/kernel.cu > %t/p2/kernel.cu
// RUN: not %rtcuda verify %t/p2 --seed 5 --sizes 37 --max-points 2 --no-race-check > %t/p2.txt 2>&1
// RUN: FileCheck --check-prefix=PLANTED2 %s < %t/p2.txt
// RUN: cp -r %t/out %t/p3 && awk '/Kernel .mm_small_grid3.:/ {on = 1} on && /__syncthreads/ && !done { done = 1; next } { print }' %t/out/kernel.cu > %t/p3/kernel.cu
// RUN: not %rtcuda verify %t/p3 --seed 5 --sizes 37 --max-points 2 --no-race-check > %t/p3.txt 2>&1
// RUN: FileCheck --check-prefix=PLANTED3 %s < %t/p3.txt
// An out-of-range MM_SMALL_GRID is refused at launch, not run as something else.
// RUN: cp -r %t/out %t/bad && sed -i 's/define MM_SMALL_GRID 1/define MM_SMALL_GRID 7/' %t/bad/mm_params.h
// RUN: FileCheck --check-prefix=BADVALUE %s < %t/bad/launch.cuh
// The rule is written once (CodeGen's launchChoice): launch.cuh's rtcuda_mm_launched_alternative
// returns manifest.json's launch_choice, which rtcuda-tune evaluates; a launch.cuh whose rule
// differs (planted: rtcuda_sms doubled in its return) is refused before anything is compiled.
// RUN: python3 -c "import json,re,sys; m=json.load(open(sys.argv[1])); t=open(sys.argv[2]).read(); print('same' if 'return ' + m['kernels'][0]['launch_choice'] + ';' in t else 'differ')" %t/out/manifest.json %t/out/launch.cuh | FileCheck --check-prefix=SAME %s
// RUN: cp -r %t/out %t/rule && sed -i '/^  return (MM_SMALL_GRID/s/< rtcuda_sms)/< 2 * rtcuda_sms)/' %t/rule/launch.cuh
// RUN: %exit1 %rtcuda-tune %t/rule --model-only --quiet 2> %t/rule.txt
// RUN: FileCheck --check-prefix=RULE %s < %t/rule.txt
// SAME: same
// RULE: launch.cuh: error: rtcuda_mm_launched_alternative(...) does not return manifest.json's launch_choice of kernel 'mm'

//
// CHECK:      __global__ void __launch_bounds__(MM_BLOCKSIZE)
// CHECK-NEXT: mm(
// CHECK:      // Kernel 'mm_small_grid': 'mm' at the point MM_SG_* (mm_params.h),
// CHECK:      __global__ void __launch_bounds__(MM_SG_BLOCKSIZE)
// CHECK-NEXT: mm_small_grid(
// CHECK:      const int rows_of_threads = MM_SG_BLOCKSIZE / MM_SG_THREAD_COLS;
// CHECK:      const int depth = MM_SG_TILE_K < max_depth ? MM_SG_TILE_K : max_depth;
// CHECK-NOT:  {{MM_(BLOCKSIZE|MERGE_LEVEL|SKEW_LEVEL|THREAD_COLS|TILE_K|SKEW_STRIPED)}}
// CHECK:      // Kernel 'mm_small_grid2': 'mm' at the point MM_SG2_* (mm_params.h),
// CHECK:      __global__ void __launch_bounds__(MM_SG2_BLOCKSIZE)
// CHECK-NEXT: mm_small_grid2(
// CHECK-NOT:  {{MM_(SG_)?(BLOCKSIZE|MERGE_LEVEL|SKEW_LEVEL|THREAD_COLS|TILE_K|SKEW_STRIPED)}}
// CHECK:      // Kernel 'mm_small_grid3': 'mm' at the point MM_SG3_* (mm_params.h),
// CHECK:      __global__ void __launch_bounds__(MM_SG3_BLOCKSIZE, 2)
// CHECK-NEXT: mm_small_grid3(
// CHECK-NOT:  {{MM_(SG2?_)?(BLOCKSIZE|MERGE_LEVEL|SKEW_LEVEL|THREAD_COLS|TILE_K|SKEW_STRIPED)}}
// CHECK:      // Kernel 'gemm_narrow'
// CHECK-NOT:  gemm_narrow_small_grid2
// CHECK:      // Kernel 'gemm_narrow_small_grid': 'gemm_narrow' at the point GEMM_NARROW_SG_*
// CHECK-NEXT: // launched instead of it by the rule of GEMM_NARROW_SMALL_GRID there.
// CHECK-NOT:  gemm_tiny_small_grid
//
// PARAMS-NOT:  search space 1, 0
// PARAMS:      #ifndef MM_SMALL_GRID
// PARAMS-NEXT: #define MM_SMALL_GRID 1
// PARAMS:      #define MM_SG_BLOCKSIZE 384
// PARAMS:      #define MM_SG_MERGE_LEVEL 8
// PARAMS:      #define MM_SG_SKEW_LEVEL 4
// PARAMS:      #define MM_SG_SKEW_STRIPED 0
// PARAMS:      #define MM_SG_THREAD_COLS 32
// PARAMS:      #define MM_SG_TILE_K 16
// PARAMS:      #define MM_SG2_BLOCKSIZE 256
// PARAMS:      #define MM_SG2_MERGE_LEVEL 8
// PARAMS:      #define MM_SG2_SKEW_LEVEL 4
// PARAMS:      #define MM_SG2_SKEW_STRIPED 0
// PARAMS:      #define MM_SG2_THREAD_COLS 16
// PARAMS:      #define MM_SG2_TILE_K 16
// PARAMS:      #define MM_SG3_BLOCKSIZE 320
// PARAMS:      #define MM_SG3_MERGE_LEVEL 8
// PARAMS:      #define MM_SG3_SKEW_LEVEL 4
// PARAMS:      #define MM_SG3_SKEW_STRIPED 0
// PARAMS:      #define MM_SG3_THREAD_COLS 32
// PARAMS:      #define MM_SG3_TILE_K 16
//
// LAUNCH:      static inline long long rtcuda_mm_launched_alternative(int n, int m, int p, long long rtcuda_sms) {
// LAUNCH:        return (MM_SMALL_GRID >= 2 ? MM_SMALL_GRID - 2 : (MM_SMALL_GRID == 1 && rtcuda_ceil_div({{.*}}, MM_BLOCKSIZE) < rtcuda_sms) ? ((rtcuda_ceil_div({{.*}}MM_SG_BLOCKSIZE) <= rtcuda_sms && {{.*}} ? 0 : {{.*}} ? 1 : {{.*}} ? 2 : -1) : -1);
// LAUNCH:      const long long rtcuda_choice = rtcuda_mm_launched_alternative(n, m, p, rtcuda_sm_count());
// LAUNCH:      if (rtcuda_choice == -1) {
// LAUNCH:          dim3 block(MM_BLOCKSIZE);
// LAUNCH-NEXT:     RTCUDA_LAUNCH(mm, grid, block, n, m, p, C, A, B);
// LAUNCH:      } else if (rtcuda_choice == 0) {
// LAUNCH:          dim3 block(MM_SG_BLOCKSIZE);
// LAUNCH-NEXT:     RTCUDA_LAUNCH(mm_small_grid, grid, block, n, m, p, C, A, B);
// LAUNCH:      } else if (rtcuda_choice == 1) {
// LAUNCH:          dim3 block(MM_SG2_BLOCKSIZE);
// LAUNCH-NEXT:     RTCUDA_LAUNCH(mm_small_grid2, grid, block, n, m, p, C, A, B);
// LAUNCH:      } else if (rtcuda_choice == 2) {
// LAUNCH:          dim3 block(MM_SG3_BLOCKSIZE);
// LAUNCH-NEXT:     RTCUDA_LAUNCH(mm_small_grid3, grid, block, n, m, p, C, A, B);
// LAUNCH:      static inline void rtcuda_launch_gemm_tiny_on_device(
// LAUNCH-NOT:  rtcuda_sm_count
// LAUNCH:      RTCUDA_LAUNCH(gemm_tiny, grid, block
//
// MANIFEST:      "alternatives": [
// MANIFEST:          "name": "mm_small_grid",
// MANIFEST:          "select_macro": "MM_SMALL_GRID",
// MANIFEST-NEXT:     "select_value": 2
// MANIFEST:          "name": "mm_small_grid2",
// MANIFEST:          "select_macro": "MM_SMALL_GRID",
// MANIFEST-NEXT:     "select_value": 3
// MANIFEST:          "name": "mm_small_grid3",
// MANIFEST:          "select_macro": "MM_SMALL_GRID",
// MANIFEST-NEXT:     "select_value": 4
//
// VERIFY: kernel mm: 4 point(s)
// VERIFY: harness: 3 kernel(s) 36 point(s) 3 size(s) 0 mismatch(es)
// VERIFY-NEXT: harness: 12 run(s) of alternative instantiations, each compared as above
// VERIFY: verified 3 kernel(s) at 12 parameter point(s) and 3 size(s): 0 mismatch(es)
// VERIFY1: harness: 3 kernel(s) 9 point(s) 1 size(s) 0 mismatch(es)
// VERIFY1-NEXT: harness: 4 run(s) of alternative instantiations, each compared as above
// VERIFY1: verified 3 kernel(s) at 9 parameter point(s) and 1 size(s): 0 mismatch(es)
// PLANTED1-NOT: MISMATCH mm ({{.*}}BLOCKSIZE=
// PLANTED1-NOT: mm_small_grid{{[23]}} (
// PLANTED1:     MISMATCH mm ( n=37 m=39 p=41 mm_small_grid (MM_SMALL_GRID=2)): C[
// PLANTED1-NOT: mm_small_grid{{[23]}} (
// PLANTED1:     verified 3 kernel(s) at 6 parameter point(s) and 1 size(s): {{[1-9][0-9]*}} mismatch(es)
// PLANTED2-NOT: MISMATCH mm ({{.*}}BLOCKSIZE=
// PLANTED2-NOT: mm_small_grid (
// PLANTED2:     MISMATCH mm ( n=37 m=39 p=41 mm_small_grid2 (MM_SMALL_GRID=3)): C[
// PLANTED2-NOT: mm_small_grid3 (
// PLANTED2:     verified 3 kernel(s) at 6 parameter point(s) and 1 size(s): {{[1-9][0-9]*}} mismatch(es)
// PLANTED3-NOT: MISMATCH mm ({{.*}}BLOCKSIZE=
// PLANTED3-NOT: mm_small_grid{{2?}} (
// PLANTED3:     MISMATCH mm ( n=37 m=39 p=41 mm_small_grid3 (MM_SMALL_GRID=4)): C[
// PLANTED3:     verified 3 kernel(s) at 6 parameter point(s) and 1 size(s): {{[1-9][0-9]*}} mismatch(es)
// BADVALUE: fprintf(stderr, "%s: error: MM_SMALL_GRID = %lld names no instantiation of 'mm' (0 to 4)\n", where, rtcuda_choice + 2);

//--- kernel.c
void mm(int n, int m, int p, float C[n][p], const float A[n][m], const float B[m][p]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < p; j++) {
      float sum = 0.0f;
      for (int k = 0; k < m; k++)
        sum += A[i][k] * B[k][j];
      C[i][j] = sum;
    }
}
void gemm_narrow(int n, int m, int p, float C[n][p], const float A[n][m], const float B[m][p]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < p; j++) {
      float sum = 0.0f;
      for (int k = 0; k < m; k++)
        sum += A[i][k] * B[k][j];
      C[i][j] = sum;
    }
}
void gemm_tiny(int n, int m, int p, float C[n][p], const float A[n][m], const float B[m][p]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < p; j++) {
      float sum = 0.0f;
      for (int k = 0; k < m; k++)
        sum += A[i][k] * B[k][j];
      C[i][j] = sum;
    }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels:
  - name: mm
    collapse: true
    merge: true
    skew: true
    prefetch: [A, B]
    tuning: {block_size: [32, 1024], merge_level: [1, 8], skew_level: [1, 8]}
  - name: gemm_narrow
    merge: true
    skew: true
    prefetch: [A, B]
    tuning: {block_size: [32, 256], merge_level: [1, 8], skew_level: [1, 8]}
  - name: gemm_tiny
    merge: true
    skew: true
    prefetch: [A, B]
    tuning: {block_size: [32, 128], merge_level: [1, 8], skew_level: [1, 8]}
