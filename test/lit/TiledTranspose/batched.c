// TiledTranspose, batched: a third parallel loop around the transpose whose variable is the
// first subscript of the store and of the reads (B[k][j][i] = A[k][i][j]) gives each batch its
// own tiles; the grid's y dimension walks the batches' tile rows one after another (t, then
// k = t / tiles and j_tile = t % tiles). Before, the three loops were collapsed onto one index
// and each warp's writes landed a row apart. Since session 17 the batch may also be the middle
// subscript (B[j][k][i] = A[k][i][j]) and its loop any of the three (batch_innermost); a batch
// that is the last subscript leaves nothing to transpose (batch_last keeps its mapping). Odd
// and prime sizes, with the race check. Planted: k taken as t % tiles gives mismatches.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=TiledTranspose | FileCheck %s
// RUN: FileCheck --check-prefix=LAUNCH %s < %t/out/launch.cuh
// RUN: %rtcuda verify %t/out --seed 7 --sizes 1,7,37 --max-points 2 | FileCheck --check-prefix=VERIFY %s
// RUN: sed -i 's|int k = t / ((n + 31) / 32);|int k = t % ((n + 31) / 32);|' %t/out/kernel.cu
// RUN: grep -c 'int k = t % ((n + 31) / 32);' %t/out/kernel.cu | FileCheck --check-prefix=PLANTED %s
// RUN: %exit1 %rtcuda verify %t/out --seed 7 --sizes 7,37 --max-points 2 --no-race-check | FileCheck --check-prefix=BAD %s
//
// CHECK-LABEL: IR after TiledTranspose (kernel batched)
// CHECK:      // a 32 x 33 tile: read along 'j', written along 'i'
// CHECK-NEXT: __shared__ float tile[1056];
// CHECK-NEXT: for (int t = (int)blockIdx.y; t < b * ((n + 31) / 32); t += (int)gridDim.y) {  // block
// CHECK-NEXT:   int k = t / ((n + 31) / 32);
// CHECK-NEXT:   int j_tile = t % ((n + 31) / 32);
// CHECK-NEXT:   for (int r0 = 0; r0 < 32; r0 += BATCHED_BLOCKSIZE / 32) {
// CHECK:            tile[r * 33 + (int)threadIdx.x % 32] = 2.0f * A[k][i][j];
// CHECK:        __syncthreads();
// CHECK:            B[k][j][i] = tile[(int)threadIdx.x % 32 * 33 + r];
// CHECK-LABEL: IR after TiledTranspose (kernel batch_in_middle)
// CHECK:      for (int t = (int)blockIdx.y; t < b * ((n + 31) / 32); t += (int)gridDim.y) {  // block
// CHECK-NEXT:   int k = t / ((n + 31) / 32);
// CHECK:            tile[r * 33 + (int)threadIdx.x % 32] = A[k][i][j];
// CHECK:            B[j][k][i] = tile[(int)threadIdx.x % 32 * 33 + r];
// CHECK-LABEL: IR after TiledTranspose (kernel batch_innermost)
// CHECK:      // a 32 x 33 tile: read along 'j', written along 'i'
// CHECK:        int k = t / ((n + 31) / 32);
// CHECK:            B[j][k][i] = tile[(int)threadIdx.x % 32 * 33 + r];
// CHECK-LABEL: IR after TiledTranspose (kernel batch_last)
// CHECK-NOT:  tile
// CHECK:      B[j][i][k] = A[i][j][k];
//
// LAUNCH: const long long iterations_y = 32 * ((long long)b * (((long long)n + 31) / 32));
// VERIFY: verified 4 kernel(s) at 8 parameter point(s) and 3 size(s): 0 mismatch(es)
// PLANTED: 3
// BAD: MISMATCH batched
// BAD: verified 4 kernel(s) at 8 parameter point(s) and 2 size(s): {{[1-9][0-9]*}} mismatch(es)

//--- kernel.c
void batched(int b, int m, int n, const float A[b][m][n], float B[b][n][m]) {
  for (int k = 0; k < b; k++)
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++) B[k][j][i] = 2.0f * A[k][i][j];
}
void batch_in_middle(int b, int m, int n, const float A[b][m][n], float B[n][b][m]) {
  for (int k = 0; k < b; k++)
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++) B[j][k][i] = A[k][i][j];
}
void batch_innermost(int b, int m, int n, const float A[b][m][n], float B[n][b][m]) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < b; k++) B[j][k][i] = A[k][i][j];
}
void batch_last(int b, int m, int n, const float A[m][n][b], float B[n][m][b]) {
  for (int k = 0; k < b; k++)
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++) B[j][i][k] = A[i][j][k];
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [batched, batch_in_middle, batch_innermost, batch_last]
