// TiledTranspose: a nest that reads A[x][y] and writes B[y][x] goes through a padded 32 x 33
// shared tile, read along y and written along x, whichever loop is outer (transpose,
// transpose_out) and with a computed value (scaled, two arrays read at [x][y]). A copy (reads
// and writes alike) and a nest whose value reads a neighbour (A[x][y+1]) are not transposes and
// keep the collapsed mapping. Rectangular, odd sizes. With the barrier between reading and
// writing the tile removed from the pass, verify at sizes 37 and 70 reported 93481 mismatches.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=TiledTranspose | FileCheck %s
// RUN: FileCheck --check-prefix=LAUNCH %s < %t/out/launch.cuh
// RUN: %rtcuda verify %t/out --seed 5 --sizes 1,31,37,70 | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after TiledTranspose (kernel transpose)
// CHECK:      // a 32 x 33 tile: read along 'j', written along 'i'
// CHECK-NEXT: __shared__ float tile[1056];
// CHECK-NEXT: for (int j_tile = (int)blockIdx.y; j_tile < (cols + 31) / 32; j_tile += (int)gridDim.y) {  // block
// CHECK-NEXT:   for (int r0 = 0; r0 < 32; r0 += TRANSPOSE_BLOCKSIZE / 32) {
// CHECK-NEXT:     int r = r0 + (int)threadIdx.x / 32;
// CHECK-NEXT:     int i = 32 * (int)blockIdx.x + r;
// CHECK-NEXT:     int j = 32 * j_tile + (int)threadIdx.x % 32;
// CHECK-NEXT:     if (r < 32 && (i < rows && j < cols)) {
// CHECK-NEXT:       tile[r * 33 + (int)threadIdx.x % 32] = A[i][j];
// CHECK:        __syncthreads();
// CHECK-NEXT:   for (int r0 = 0; r0 < 32; r0 += TRANSPOSE_BLOCKSIZE / 32) {
// CHECK-NEXT:     int r = r0 + (int)threadIdx.x / 32;
// CHECK-NEXT:     int j = 32 * j_tile + r;
// CHECK-NEXT:     int i = 32 * (int)blockIdx.x + (int)threadIdx.x % 32;
// CHECK-NEXT:     if (r < 32 && (i < rows && j < cols)) {
// CHECK-NEXT:       B[j][i] = tile[(int)threadIdx.x % 32 * 33 + r];
// CHECK:        __syncthreads();
// CHECK-LABEL: IR after TiledTranspose (kernel transpose_out)
// CHECK:      // a 32 x 33 tile: read along 'j', written along 'i'
// CHECK-LABEL: IR after TiledTranspose (kernel scaled)
// CHECK:      tile[r * 33 + (int)threadIdx.x % 32] = alpha * A[i][j] + C[i][j];
// CHECK-LABEL: IR after TiledTranspose (kernel copy)
// CHECK-NOT:  tile
// CHECK-LABEL: IR after TiledTranspose (kernel shifted)
// CHECK-NOT:  tile
// CHECK:      B[j][i] = A[i][j + 1];
//
// LAUNCH: dim3 grid((unsigned)rtcuda_ceil_div(iterations_x, 32), (unsigned)rtcuda_min(rtcuda_ceil_div(iterations_y, 32), 65535LL));
//
// VERIFY: verified 5 kernel(s) at {{[0-9]+}} parameter point(s) and 4 size(s): 0 mismatch(es)

//--- kernel.c
void transpose(int rows, int cols, const float A[rows][cols], float B[cols][rows]) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      B[j][i] = A[i][j];
}
void transpose_out(int rows, int cols, const float A[rows][cols], float B[cols][rows]) {
  for (int j = 0; j < cols; j++)
    for (int i = 0; i < rows; i++)
      B[j][i] = A[i][j];
}
void scaled(int rows, int cols, double alpha, const double A[rows][cols],
            const double C[rows][cols], double B[cols][rows]) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      B[j][i] = alpha * A[i][j] + C[i][j];
}
void copy(int rows, int cols, const float A[rows][cols], float B[rows][cols]) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      B[i][j] = A[i][j];
}
void shifted(int rows, int cols, const float A[rows][cols + 1], float B[cols][rows]) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      B[j][i] = A[i][j + 1];
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [transpose, transpose_out, scaled, copy, shifted]
