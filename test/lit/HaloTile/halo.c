// HaloTile: nests whose neighbouring iterations read the same elements stage a tile of the array
// plus its halo in shared memory: a 1-D filter (16 taps, the taps in registers), a 1-D 3-point
// stencil and a 2-D 3 x 3 convolution in double (row sums: rows.c), a 3-D 27-point filter (its
// sliding tile: slide.c), all at odd sizes and several tuning points. A 2-D 5-point stencil
// (fewer than 9 reads per output) keeps NeighbourReuse; a nest with a branch, and a filter whose
// tile cannot fit in 48 KB, are left as they are. With the halo guard made one element short
// (`end + hi - 1`; again after the register windows: 13842 mismatches at 31 and 37, two points
// each), verify at sizes 31 and 37, two points each, reported 13843 mismatches, in all four
// tiled kernels.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks=HaloTile --print-after=HaloTile 2> %t/remarks | FileCheck %s
// RUN: FileCheck --check-prefix=REMARKS %s < %t/remarks
// RUN: FileCheck --check-prefix=PARAMS %s < %t/out/conv1d_params.h
// RUN: FileCheck --check-prefix=PARAMS2D %s < %t/out/conv2d_params.h
// RUN: FileCheck --check-prefix=LAUNCH %s < %t/out/launch.cuh
// RUN: %rtcuda verify %t/out --seed 7 --sizes 1,31,37,70 --max-points 4 | FileCheck --check-prefix=VERIFY %s
// One dimension, several tiles per block (TILES 8 of 32 outputs: the next tile's copies go to the
// other slot while the block computes) at prime sizes, and one slot (1024 x 8 elements: two do
// not fit in 48 KB, the copies wait for the slot). With the copies of the next tile sent to the
// slot being read (`copies(next, slot)` instead of `1 - slot`), the first reported 3023
// mismatches and a race.
// RUN: %rtcuda translate %t/stream.yaml -o %t/s > /dev/null
// RUN: %rtcuda verify %t/s --seed 13 --sizes 1009,211 --max-points 600 --point BLOCKSIZE=32 --point ITEMS=1 --point TILES=8 | FileCheck --check-prefix=VERIFY1 %s
// RUN: %rtcuda verify %t/s --seed 17 --sizes 9001 --max-points 600 --no-race-check --point BLOCKSIZE=1024 --point ITEMS=8 --point TILES=2 | FileCheck --check-prefix=VERIFY1 %s
//
// CHECK-LABEL: IR after HaloTile (kernel conv1d)
// CHECK:      float w_reg[16];
// CHECK:        w_reg[e] = w[e];
// CHECK:      const int x_slot = CONV1D_BLOCKSIZE * CONV1D_ITEMS + (CONV1D_BLOCKSIZE * CONV1D_ITEMS + 15) / 32 + 16;
// CHECK-NEXT: const int x_loads = (CONV1D_BLOCKSIZE * CONV1D_ITEMS + CONV1D_BLOCKSIZE + 14) / CONV1D_BLOCKSIZE;
// CHECK-NEXT: const int slots = 2 * (4 * x_slot) < 49137 ? 2 : 1;
// CHECK-NEXT: __shared__ float x_tile[slots * x_slot];
// CHECK-NEXT: __shared__ int pending[1];
// CHECK-NEXT: if ((int)blockIdx.x < (n + CONV1D_BLOCKSIZE * CONV1D_ITEMS - 1) / (CONV1D_BLOCKSIZE * CONV1D_ITEMS)) {
// CHECK:            rtcuda_copy_async(&x_tile[e + e / 32], i_at < n + 15 ? x[i_at] : x[0]);
// CHECK:      rtcuda_async_commit(&pending[0], 0);
// CHECK-NEXT: int slot = 0;
// CHECK-NEXT: for (int tile = (int)blockIdx.x; tile < (n + CONV1D_BLOCKSIZE * CONV1D_ITEMS - 1) / (CONV1D_BLOCKSIZE * CONV1D_ITEMS); tile += (int)gridDim.x) {  // block
// CHECK-NEXT:   int i_first = tile * CONV1D_BLOCKSIZE * CONV1D_ITEMS;
// CHECK-NEXT:   int next = tile + (int)gridDim.x;
// CHECK-NEXT:   rtcuda_async_wait(&pending[0], 0);
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   if (1 < slots && next < (n + CONV1D_BLOCKSIZE * CONV1D_ITEMS - 1) / (CONV1D_BLOCKSIZE * CONV1D_ITEMS)) {
// CHECK-NEXT:     for (int r = 0; r < x_loads; r++) {  // unrolled
// CHECK-NEXT:       int e = (int)threadIdx.x + r * CONV1D_BLOCKSIZE;
// CHECK-NEXT:       int i_at = next * CONV1D_BLOCKSIZE * CONV1D_ITEMS + e;
// CHECK-NEXT:       if (e < CONV1D_BLOCKSIZE * CONV1D_ITEMS + 15) {
// CHECK-NEXT:         rtcuda_copy_async(&x_tile[(1 - slot) * x_slot + (e + e / 32)], i_at < n + 15 ? x[i_at] : x[0]);
// CHECK:        rtcuda_async_commit(&pending[0], 0);
// CHECK-NEXT:   float x_win[CONV1D_ITEMS + 15];
// CHECK-NEXT:   for (int e = 0; e < CONV1D_ITEMS + 15; e++) {  // unrolled
// CHECK-NEXT:     x_win[e] = x_tile[slot * x_slot + ((int)threadIdx.x * CONV1D_ITEMS + e + ((int)threadIdx.x * CONV1D_ITEMS + e) / 32)];
// CHECK:        __syncthreads();
// CHECK-NEXT:   for (int q = 0; q < CONV1D_ITEMS; q++) {  // unrolled
// CHECK-NEXT:     int i = i_first + ((int)threadIdx.x * CONV1D_ITEMS + q);
// CHECK-NEXT:     if (i < n) {
// CHECK:            for (int t = 0; t < 16; t++) {  // unrolled
// CHECK-NEXT:         s += w_reg[t] * x_win[q + t];
// CHECK:            x_tile[slot * x_slot + ((int)threadIdx.x * CONV1D_ITEMS + q + ((int)threadIdx.x * CONV1D_ITEMS + q) / 32)] = s;
// CHECK:        __syncthreads();
// CHECK-NEXT:   for (int r = 0; r < CONV1D_ITEMS; r++) {  // unrolled
// CHECK-NEXT:     int e = (int)threadIdx.x + r * CONV1D_BLOCKSIZE;
// CHECK-NEXT:     int i_out = i_first + e;
// CHECK-NEXT:     if (i_out < n) {
// CHECK-NEXT:       y[i_out] = x_tile[slot * x_slot + (e + e / 32)];
// CHECK:        if (slots < 2) {
// CHECK-NEXT:     __syncthreads();
// CHECK:              rtcuda_copy_async(&x_tile[e + e / 32], i_at < n + 15 ? x[i_at] : x[0]);
// CHECK:        rtcuda_async_commit(&pending[0], 0);
// CHECK-NEXT:   slot = slots - 1 - slot;
// CHECK-NEXT: }
// CHECK-NEXT: rtcuda_async_wait(&pending[0], 0);
// CHECK-LABEL: IR after HaloTile (kernel stencil1d)
// CHECK:      __shared__ double x_tile[slots * x_slot];
// CHECK:          rtcuda_copy_async(&x_tile[e + e / 32], i_at < n ? x[i_at] : x[0]);
// CHECK:            x_tile[slot * x_slot + ((int)threadIdx.x * STENCIL1D_ITEMS + q + ((int)threadIdx.x * STENCIL1D_ITEMS + q) / 32)] = 0.25 * x_win[q] + 0.5 * x_win[q + 1] + 0.25 * x_win[q + 2];
// CHECK:              y[i_out] = x_tile[slot * x_slot + (e + e / 32)];
// CHECK-LABEL: IR after HaloTile (kernel conv2d)
// CHECK:      __shared__ double A_tile[(CONV2D_BLOCKSIZE * CONV2D_ITEMS / 32 + 2) * (4 * ((31 * CONV2D_COLS + 4 * ((CONV2D_COLS + 5) / 4) + 3) / 4))];
// CHECK:          int i_at = A_i0 + e / (4 * ((31 * CONV2D_COLS + 4 * ((CONV2D_COLS + 5) / 4) + 3) / 4));
// CHECK-NEXT:     int j_at = A_j0 + e % (4 * ((31 * CONV2D_COLS + 4 * ((CONV2D_COLS + 5) / 4) + 3) / 4));
// CHECK:        int col = (int)threadIdx.x % 32;
// CHECK-NEXT:   int grp = (int)threadIdx.x / 32;
// CHECK-NEXT:   __shared__ double B_stage[2 * (CONV2D_BLOCKSIZE * CONV2D_COLS)];
// CHECK-NEXT:   double A_row[4 * ((CONV2D_COLS + 5) / 4)];
// CHECK-NEXT:   double acc[CONV2D_ITEMS * CONV2D_COLS];
// CHECK-NEXT:   for (int r = 0; r < CONV2D_ITEMS + 2; r++) {  // unrolled
// CHECK-NEXT:     for (int e = 0; e < CONV2D_COLS + 2; e++) {  // unrolled
// CHECK-NEXT:       A_row[e] = A_tile[(grp * CONV2D_ITEMS + r) * (4 * ((31 * CONV2D_COLS + 4 * ((CONV2D_COLS + 5) / 4) + 3) / 4)) + col * CONV2D_COLS + e];
// CHECK:            acc[(r - 2) * CONV2D_COLS + x] = acc[(r - 2) * CONV2D_COLS + x] + K_reg[6] * A_row[x] + K_reg[7] * A_row[x + 1] + K_reg[8] * A_row[x + 2];
// CHECK-NEXT:       if (CONV2D_STAGE_STORES) {
// CHECK-NEXT:         B_stage[(r - 2) % 2 * (CONV2D_BLOCKSIZE * CONV2D_COLS) + grp * (32 * CONV2D_COLS) + (col * CONV2D_COLS + x)] = acc[(r - 2) * CONV2D_COLS + x];
// CHECK-NEXT:       } else {
// CHECK-NEXT:         int i = i_first + (grp * CONV2D_ITEMS + (r - 2));
// CHECK-NEXT:         int j = j_first + (col * CONV2D_COLS + x);
// CHECK-LABEL: IR after HaloTile (kernel box3d)
// CHECK:      __shared__ float A_tile[slots * ((BOX3D_BLOCKSIZE * BOX3D_ITEMS / width + 2) * A_pitch)];
// CHECK:        for (int z = 0; z < steps; z++) {
// CHECK:                B[k][j][i] = acc[q] * (1.0f / 27.0f);
// CHECK-LABEL: IR after HaloTile (kernel stencil2d)
// CHECK-NOT:  _tile
// CHECK-LABEL: IR after HaloTile (kernel branchy)
// CHECK-NOT:  _tile
// CHECK-LABEL: IR after HaloTile (kernel wide)
// CHECK-NOT:  _tile
//
// REMARKS: remark: halo tile: 'x' is read at 16 places around each iteration (offsets [0, 15]); a block copies its tile and halo into shared memory asynchronously, CONV1D_TILES tiles per block, the next in flight, CONV1D_ITEMS outputs per thread
// REMARKS: remark: halo tile: 'x' is read at 3 places around each iteration (offsets [-1, 1])
// REMARKS: remark: halo tile: 'A' is read at 9 places around each iteration (offsets [0, 2] x [0, 2])
// REMARKS: remark: halo tile: 'A' is read at 27 places around each iteration (offsets [-1, 1] x [-1, 1] x [-1, 1])
// REMARKS: remark: halo tile: 'A' is read at 5 places around each iteration, fewer than 9 in 2 dimensions; not applied
// REMARKS: remark: halo tile: 'x' is read around each iteration, but the nest has a branch or jump; not applied
// REMARKS: remark: halo tile: the tiles of the arrays read around each iteration need more than 48 KB of shared memory at block size 1024; not applied
//
// PARAMS: // ITEMS: search space 1, 2, 4, 8
// PARAMS: #define CONV1D_ITEMS 8
// PARAMS: // TILES: search space 1, 2, 4, 8
// PARAMS: #define CONV1D_TILES 4
// PARAMS2D: #define CONV2D_BLOCKSIZE 256
// PARAMS2D: // ITEMS: search space 1, 2, 4, 8
// PARAMS2D: #define CONV2D_ITEMS 4
// PARAMS2D: // COLS: search space 1, 2
// PARAMS2D: #define CONV2D_COLS 2
//
// LAUNCH: dim3 grid((unsigned)rtcuda_ceil_div(iterations_x, CONV1D_TILES));
//
// VERIFY: verified 7 kernel(s) at {{[0-9]+}} parameter point(s) and 4 size(s): 0 mismatch(es)
// VERIFY1: verified 2 kernel(s) at {{[0-9]+}} parameter point(s) and {{[12]}} size(s): 0 mismatch(es)

//--- stream.yaml
kernel_files: [kernel.c]
kernels: [conv1d, stencil1d]
//--- kernel.c
void conv1d(int n, const float x[n + 15], const float w[16], float y[n]) {
  for (int i = 0; i < n; i++) {
    float s = 0.0f;
    for (int t = 0; t < 16; t++)
      s += w[t] * x[i + t];
    y[i] = s;
  }
}
void stencil1d(int n, const double x[n], double y[n]) {
  for (int i = 1; i < n - 1; i++)
    y[i] = 0.25 * x[i - 1] + 0.5 * x[i] + 0.25 * x[i + 1];
}
void conv2d(int rows, int cols, const double A[rows + 2][cols + 2], const double K[3][3],
            double B[rows][cols]) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      double s = 0.0;
      for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
          s += K[a][b] * A[i + a][j + b];
      B[i][j] = s;
    }
}
void box3d(int nz, int ny, int nx, const float A[nz][ny][nx], float B[nz][ny][nx]) {
  for (int k = 1; k < nz - 1; k++)
    for (int j = 1; j < ny - 1; j++)
      for (int i = 1; i < nx - 1; i++) {
        float s = 0.0f;
        for (int c = -1; c <= 1; c++)
          for (int b = -1; b <= 1; b++)
            for (int a = -1; a <= 1; a++)
              s += A[k + c][j + b][i + a];
        B[k][j][i] = s / 27.0f;
      }
}
void stencil2d(int n, int m, const float A[n][m], float B[n][m]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      B[i][j] = 0.2f * (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
}
void branchy(int n, const float x[n + 2], float y[n]) {
  for (int i = 0; i < n; i++) {
    if (x[i] > 0.0f)
      y[i] = x[i] + x[i + 2];
    else
      y[i] = 0.0f;
  }
}
void wide(int n, int m, const double A[n + 80][m + 80], double B[n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      B[i][j] = A[i][j] + A[i + 40][j + 40] + A[i + 80][j + 80] + A[i][j + 80] + A[i + 80][j] +
                A[i + 1][j] + A[i][j + 1] + A[i + 2][j] + A[i][j + 2];
}

//--- config.yaml
kernel_files: [kernel.c]
kernels: [conv1d, stencil1d, conv2d, box3d, stencil2d, branchy, wide]
