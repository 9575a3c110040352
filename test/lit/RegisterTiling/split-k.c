// RegisterTiling's split k (RegisterTilingSplit.cpp): a small-grid instantiation whose k loop
// only adds to the thread's sums runs k in chunks, a block per tile and chunk (gridDim.y); each
// block writes its partial sums into a workspace, and the last block of a tile to count in adds
// them in chunk order and stores. MM_SPLIT_K: 0 never, 1 (the default) the launch's rule, N >= 2
// always N chunks. The kernel at its tuning point is never split and prints as before.
// Verified in the emulator (132 SMs): at n=37 m=97 p=41 a 96 x 128 tile is one block, so the rule
// takes 3 chunks of 48 (the last one k = 96 alone); MM_SPLIT_K 5 gives chunks of 32, the last
// empty; gemm (C *= beta first: later chunks start from 0) at ni=41 nj=43 nk=131, 3 chunks too.
// Planted: the last block adds only chunk 0 (mm_small_grid), or gemm's later chunks start from
// C * beta too (gemm_small_grid2): mismatches, named by the instantiation.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out
// RUN: FileCheck %s < %t/out/kernel.cu
// RUN: FileCheck --check-prefix=PARAMS %s < %t/out/mm_params.h
// RUN: FileCheck --check-prefix=LAUNCH %s < %t/out/launch.cuh
// RUN: %rtcuda verify %t/out --seed 7 --sizes 1 --size n=37 --size m=97 --size p=41 --size ni=41 --size nj=43 --size nk=131 --max-points 2 | FileCheck --check-prefix=VERIFY %s
// RUN: cp -r %t/out %t/five && sed -i 's/define MM_SPLIT_K 1/define MM_SPLIT_K 5/; s/define GEMM_SPLIT_K 1/define GEMM_SPLIT_K 0/' %t/five/mm_params.h %t/five/gemm_params.h
// RUN: %rtcuda verify %t/five --seed 8 --sizes 1 --size n=131 --size m=97 --size p=263 --size ni=41 --size nj=43 --size nk=131 --max-points 1 --no-race-check | FileCheck --check-prefix=VERIFY5 %s
// RUN: cp -r %t/out %t/p1 && awk '/Kernel .mm_small_grid.:/ {on = 1} on && /for \(int c = 1;/ && !done { sub(/int c = 1;/, "int c = 2;"); done = 1 } { print }' %t/out/kernel.cu > %t/p1/kernel.cu
// RUN: awk '/Kernel .gemm_small_grid2.:/ {on = 1} on && /if \(\(int\)blockIdx.y > 0\)/ && !done { sub(/\(int\)blockIdx.y > 0/, "(int)blockIdx.y < 0"); done = 1 } { print }' %t/p1/kernel.cu > %t/p1/k2.cu && mv %t/p1/k2.cu %t/p1/kernel.cu
// RUN: not %rtcuda verify %t/p1 --seed 7 --sizes 1 --size n=37 --size m=97 --size p=41 --size ni=41 --size nj=43 --size nk=131 --max-points 1 --no-race-check > %t/p1.txt 2>&1
// RUN: FileCheck --check-prefix=PLANTED %s < %t/p1.txt
// The chunks are one expression per instantiation (CodeGen's splitCount): launch.cuh's
// rtcuda_<alternative>_splits returns manifest.json's grid[1] of that alternative, the grid
// rtcuda-tune's harness launches; a launch.cuh whose count differs is refused by rtcuda-tune.
// RUN: python3 -c "import json,sys; m=json.load(open(sys.argv[1])); t=open(sys.argv[2]).read(); print(*[a['name'] + (' same' if 'return ' + a['grid'][1]['iterations'] + ';' in t else ' differ') for k in m['kernels'] for a in k['alternatives'] if 'split_macro' in a])" %t/out/manifest.json %t/out/launch.cuh | FileCheck --check-prefix=SAME %s
// RUN: cp -r %t/out %t/count && sed -i '/rtcuda_gemm_small_grid2_splits(int/,/^}/s/return rtcuda_max(1,/return rtcuda_max(2,/' %t/count/launch.cuh
// RUN: %exit1 %rtcuda-tune %t/count --model-only --quiet 2> %t/count.txt
// RUN: FileCheck --check-prefix=COUNT %s < %t/count.txt
//
// CHECK:      __device__ float mm_split_work[4194304];
// CHECK-NEXT: __device__ unsigned int mm_split_counts[4096];
// CHECK:      mm(int n, int m, int p,
// CHECK-NOT:  blockIdx.y
// CHECK:      for (int k_tile = 0; k_tile < m; k_tile += depth) {
// CHECK-NOT:  blockIdx.y
// CHECK:      // Kernel 'mm_small_grid':
// CHECK:      int k_chunk = (k_slabs + ((int)gridDim.y - 1)) / (int)gridDim.y * depth;
// CHECK-NEXT: int k_begin = (int)blockIdx.y * k_chunk;
// CHECK-NEXT: int k_stop = m < k_begin + k_chunk ? m : k_begin + k_chunk;
// CHECK:      if ((int)blockIdx.y > 0) {
// CHECK:        sum[e] = 0.0f;
// CHECK:      for (int k_tile = k_begin; k_tile < k_stop; k_tile += depth) {
// CHECK:      int split_last = 1;
// CHECK-NEXT: if ((int)gridDim.y > 1) {
// CHECK:        rtcuda_work_put(&mm_split_work[split_slot + e * MM_SG_BLOCKSIZE], sum[e]);
// CHECK:        split_last = rtcuda_tile_arrive(mm_split_counts + (int)blockIdx.x);
// CHECK:          sum[e] = total;
// CHECK:      if (split_last) {
// CHECK-NEXT:   #pragma unroll
// CHECK-NEXT:   for (int m_ = 0; m_ < MM_SG_MERGE_LEVEL; m_++) {
// CHECK:      // Kernel 'gemm_small_grid':
// CHECK:          acc[m * GEMM_SG_SKEW_LEVEL + s] *= beta;
// CHECK:      if ((int)blockIdx.y > 0) {
// CHECK-NEXT:   #pragma unroll
// CHECK-NEXT:   for (int e = 0; e < merge_level_x_skew_level; e++) {
// CHECK-NEXT:     acc[e] = 0.0f;
// CHECK:      // Kernel 'capped' from
// CHECK:      // Note: register tiling: k is not split: loop 'k' reads the sum 'sum'
// CHECK-NOT:  capped_split_work
//
// PARAMS:      #ifndef MM_SPLIT_K
// PARAMS-NEXT: #define MM_SPLIT_K 1
//
// LAUNCH:      static inline long long rtcuda_mm_small_grid_splits(int n, int m, int p, long long rtcuda_sms) {
// LAUNCH:        return rtcuda_max(1, rtcuda_min(65535LL, rtcuda_min((rtcuda_ceil_div({{.*}}) > 4096LL ? 1LL : (MM_SPLIT_K >= 2 ? (long long)MM_SPLIT_K : (MM_SPLIT_K == 1 && {{.*}} < rtcuda_sms) ? rtcuda_min(rtcuda_max(1, 65536LL / (128LL * (MM_SG_BLOCKSIZE))) * rtcuda_sms / {{.*}}, (long long)m / (2LL * MM_SG_TILE_K)) : 1LL)), 4194304LL / rtcuda_max(1, {{.*}} * (long long)(MM_SG_MERGE_LEVEL * MM_SG_SKEW_LEVEL * MM_SG_BLOCKSIZE)))));
// LAUNCH:      static inline long long rtcuda_mm_small_grid3_splits(
// LAUNCH:        rtcuda_max(2, 65536LL / (128LL * (MM_SG3_BLOCKSIZE)))
// LAUNCH:      } else if (rtcuda_choice == 0) {
// LAUNCH:        const long long rtcuda_splits = rtcuda_mm_small_grid_splits(n, m, p, rtcuda_sm_count());  // chunks of k (MM_SPLIT_K)
// LAUNCH:          dim3 grid((unsigned)rtcuda_ceil_div(iterations_x, MM_SG_BLOCKSIZE), (unsigned)rtcuda_splits);
// LAUNCH:      static inline void rtcuda_launch_gemm_on_device(
//
// SAME: mm_small_grid same mm_small_grid2 same mm_small_grid3 same gemm_small_grid same gemm_small_grid2 same gemm_small_grid3 same
// COUNT: launch.cuh: error: rtcuda_gemm_small_grid2_splits(...) does not return manifest.json's grid[1] of alternative 'gemm_small_grid2'
//
// VERIFY: harness: 3 kernel(s) 6 point(s) 1 size(s) 0 mismatch(es)
// VERIFY-NEXT: harness: 9 run(s) of alternative instantiations, each compared as above
// VERIFY: verified 3 kernel(s) at 6 parameter point(s) and 1 size(s): 0 mismatch(es)
// VERIFY5: verified 3 kernel(s) at 3 parameter point(s) and 1 size(s): 0 mismatch(es)
// PLANTED-NOT: MISMATCH {{[a-z]+}} ({{.*}}BLOCKSIZE=
// PLANTED:     MISMATCH mm ( n=37 m=97 p=41 mm_small_grid (MM_SMALL_GRID=2)): C[
// PLANTED-NOT: MISMATCH mm ({{.*}}mm_small_grid{{[23]}} (
// PLANTED:     MISMATCH gemm ( ni=41 nj=43 nk=131 gemm_small_grid2 (GEMM_SMALL_GRID=3)): C[
// PLANTED:     verified 3 kernel(s) at 3 parameter point(s) and 1 size(s): {{[1-9][0-9]*}} mismatch(es)

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
void gemm(int ni, int nj, int nk, float alpha, float beta, float C[ni][nj], const float A[ni][nk],
          const float B[nk][nj]) {
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) {
      C[i][j] *= beta;
      for (int k = 0; k < nk; k++)
        C[i][j] += alpha * A[i][k] * B[k][j];
    }
}
void capped(int n, int m, int p, float C[n][p], const float A[n][m], const float B[m][p]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < p; j++) {
      float sum = 0.0f;
      for (int k = 0; k < m; k++)
        if (sum < 1000.0f)
          sum += A[i][k] * B[k][j];
      C[i][j] = sum;
    }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels:
  - name: mm
    merge: true
    skew: true
    prefetch: [A, B]
    tuning: {block_size: [32, 1024], merge_level: [1, 8], skew_level: [1, 8]}
  - name: gemm
  - name: capped
    merge: true
    skew: true
    prefetch: [A, B]
    tuning: {block_size: [32, 1024], merge_level: [1, 8], skew_level: [1, 8]}
