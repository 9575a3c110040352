// RegisterTiling: a contraction whose tuning space holds the point BLOCKSIZE 384, MERGE_LEVEL 8,
// SKEW_LEVEL 4, THREAD_COLS 32, TILE_K 16 gets a second instantiation, mm_small_grid: the same
// kernel with every tuning macro renamed MM_SG_*, fixed at that point in mm_params.h. The launch
// takes it when MM_SMALL_GRID (a macro in mm_params.h, not a tuning parameter, 0 by default so
// that verify and the tuner check the tuning points themselves) is 1 and the
// default tile's grid has fewer blocks than the GPU has SMs (the emulator reports 132, so the
// sizes 1, 7, 37 are small at every point; 131 x 263 is 2 x 3 blocks of 96 x 128); with
// MM_SMALL_GRID 0 the one kernel runs. Both are verified at odd sizes; a small-grid launch with
// half its threads (planted) is caught. A config whose space lacks the point (gemm_narrow:
// block_size up to 256) keeps one instantiation.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out
// RUN: FileCheck %s < %t/out/kernel.cu
// RUN: FileCheck --check-prefix=PARAMS %s < %t/out/mm_params.h
// RUN: FileCheck --check-prefix=LAUNCH %s < %t/out/launch.cuh
// RUN: %rtcuda verify %t/out --seed 5 --sizes 1,7,37 --max-points 4 --no-race-check | FileCheck --check-prefix=VERIFY %s
// RUN: %rtcuda verify %t/out --seed 5 --sizes 1 --size n=131 --size m=13 --size p=263 --max-points 3 --no-race-check | FileCheck --check-prefix=VERIFY1 %s
// RUN: cp -r %t/out %t/sg && sed -i 's/define MM_SMALL_GRID 0/define MM_SMALL_GRID 1/' %t/sg/mm_params.h
// RUN: %rtcuda verify %t/sg --seed 5 --sizes 1,7,37 --max-points 4 --no-race-check | FileCheck --check-prefix=VERIFY %s
// RUN: %rtcuda verify %t/sg --seed 5 --sizes 1 --size n=131 --size m=13 --size p=263 --max-points 3 --no-race-check | FileCheck --check-prefix=VERIFY1 %s
// RUN: sed -i 's/dim3 block(MM_SG_BLOCKSIZE)/dim3 block(MM_SG_BLOCKSIZE \/ 2)/' %t/sg/launch.cuh
// RUN: not %rtcuda verify %t/sg --seed 5 --sizes 7,37 --max-points 2 --no-race-check > %t/planted.txt 2>&1
// RUN: FileCheck --check-prefix=PLANTED %s < %t/planted.txt
//
// CHECK:      __global__ void __launch_bounds__(MM_BLOCKSIZE)
// CHECK-NEXT: mm(
// CHECK:      // Kernel 'mm_small_grid': 'mm' at the point MM_SG_* (mm_params.h),
// CHECK:      __global__ void __launch_bounds__(MM_SG_BLOCKSIZE)
// CHECK-NEXT: mm_small_grid(
// CHECK:      const int rows_of_threads = MM_SG_BLOCKSIZE / MM_SG_THREAD_COLS;
// CHECK:      const int depth = MM_SG_TILE_K < max_depth ? MM_SG_TILE_K : max_depth;
// CHECK-NOT:  {{MM_(BLOCKSIZE|MERGE_LEVEL|SKEW_LEVEL|THREAD_COLS|TILE_K|SKEW_STRIPED)}}
// CHECK:      // Kernel 'gemm_narrow'
// CHECK-NOT:  gemm_narrow_small_grid
//
// PARAMS-NOT:  search space 1, 0
// PARAMS:      #ifndef MM_SMALL_GRID
// PARAMS-NEXT: #define MM_SMALL_GRID 0
// PARAMS:      #define MM_SG_BLOCKSIZE 384
// PARAMS:      #define MM_SG_MERGE_LEVEL 8
// PARAMS:      #define MM_SG_SKEW_LEVEL 4
// PARAMS:      #define MM_SG_SKEW_STRIPED 0
// PARAMS:      #define MM_SG_THREAD_COLS 32
// PARAMS:      #define MM_SG_TILE_K 16
//
// LAUNCH:      if (MM_SMALL_GRID && rtcuda_ceil_div({{.*}}, MM_BLOCKSIZE) < rtcuda_sm_count()) {
// LAUNCH:          dim3 block(MM_SG_BLOCKSIZE);
// LAUNCH-NEXT:     RTCUDA_LAUNCH(mm_small_grid, grid, block, n, m, p, C, A, B);
// LAUNCH:        } else {
// LAUNCH:          dim3 block(MM_BLOCKSIZE);
// LAUNCH-NEXT:     RTCUDA_LAUNCH(mm, grid, block, n, m, p, C, A, B);
// LAUNCH:      static inline void rtcuda_launch_gemm_narrow_on_device(
// LAUNCH-NOT:  rtcuda_sm_count
// LAUNCH:      RTCUDA_LAUNCH(gemm_narrow, grid, block
//
// VERIFY: verified 2 kernel(s) at 8 parameter point(s) and 3 size(s): 0 mismatch(es)
// VERIFY1: verified 2 kernel(s) at 6 parameter point(s) and 1 size(s): 0 mismatch(es)
// PLANTED: MISMATCH mm (

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
