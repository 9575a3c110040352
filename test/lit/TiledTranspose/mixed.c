// TiledTranspose with reads along the store as well as across it (session 20): C[i][j] = A[i][j] +
// B[j][i] reads A along the write and B transposed. Each distinct transposed read gets a padded
// tile of its own, filled in the first step (B read along its rows), and the value is computed
// in the second step, where the reads along the store are coalesced as the write is. Before,
// such a nest was collapsed onto one index and B's reads landed a row apart. More than four
// transposed reads keep the collapsed mapping (shared memory), as does a read at a shifted
// element. Planted: the second step reading its tile without the transpose (r * 33 + column
// instead of column * 33 + r) gives mismatches at odd sizes.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=TiledTranspose | FileCheck %s
// RUN: %rtcuda verify %t/out --seed 11 --sizes 1,7,37 --max-points 2 | FileCheck --check-prefix=VERIFY %s
// RUN: sed -i 's|C\[i \* cols + j\] = A\[i \* cols + j\] + tile\[(int)threadIdx.x % 32 \* 33 + r\];|C[i * cols + j] = A[i * cols + j] + tile[r * 33 + (int)threadIdx.x % 32];|' %t/out/kernel.cu
// RUN: grep -c 'tile\[r \* 33 + (int)threadIdx.x % 32\];' %t/out/kernel.cu | FileCheck --check-prefix=PLANTED %s
// RUN: %exit1 %rtcuda verify %t/out --seed 11 --sizes 7,37 --max-points 2 --no-race-check | FileCheck --check-prefix=BAD %s
//
// CHECK-LABEL: IR after TiledTranspose (kernel add_transposed)
// CHECK:      // 32 x 33 tiles of the transposed reads: filled along 'i', read along 'j'
// CHECK-NEXT: __shared__ float tile[1056];
// CHECK:            tile[r * 33 + (int)threadIdx.x % 32] = B[j][i];
// CHECK:        __syncthreads();
// CHECK:            C[i][j] = A[i][j] + tile[(int)threadIdx.x % 32 * 33 + r];
// CHECK-LABEL: IR after TiledTranspose (kernel two_tiles)
// CHECK:      __shared__ float tile[1056];
// CHECK-NEXT: __shared__ double tile2[1056];
// CHECK:            tile[r * 33 + (int)threadIdx.x % 32] = A[j][i];
// CHECK-NEXT:       tile2[r * 33 + (int)threadIdx.x % 32] = D[j][i];
// CHECK:            C[i][j] = A[i][j] * tile[(int)threadIdx.x % 32 * 33 + r] + tile2[(int)threadIdx.x % 32 * 33 + r] * 0.5;
// CHECK-LABEL: IR after TiledTranspose (kernel five_reads)
// CHECK-NOT:  __shared__
// CHECK-LABEL: IR after TiledTranspose (kernel shifted)
// CHECK-NOT:  __shared__
// CHECK:      rtcuda: translated 4 kernel(s)
//
// VERIFY: 0 mismatch(es)
// PLANTED: 1
// BAD: mismatch

//--- kernel.c
/* A plus the transpose of B. */
void add_transposed(int rows, int cols, const float A[rows][cols], const float B[cols][rows],
                    float C[rows][cols]) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      C[i][j] = A[i][j] + B[j][i];
}
/* Two transposed reads, one of them read along the store too, and a double. */
void two_tiles(int n, const float A[n][n], const double D[n][n], float C[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      C[i][j] = A[i][j] * A[j][i] + D[j][i] * 0.5;
}
/* Five transposed reads beside one along the store: more tiles than it takes. */
void five_reads(int n, const float A[n][n], const float B[n][n], const float D[n][n],
                const float E[n][n], const float F[n][n], float C[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      C[i][j] = A[i][j] + A[j][i] + B[j][i] + D[j][i] + E[j][i] + F[j][i];
}
/* A transposed read beside a shifted one: not one of the two elements. */
void shifted(int n, const float A[n][n + 1], const float B[n][n], float C[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      C[i][j] = A[i][j + 1] + B[j][i];
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [add_transposed, two_tiles, five_reads, shifted]
