// HaloTile in three dimensions (HaloTileSlide.cpp): a 2-D tile slides along the outermost loop,
// each plane copied once (asynchronous copies, DEPTH planes ahead) into one of DEPTH + 1 shared
// slots, the halo planes of each thread's window in registers. A 27-point box filter, a filter
// with 24 taps whose window starts at 0 in each dimension, two arrays sliding together, a
// window along the planes only (9 planes), one within the plane only; a 7-point stencil (fewer
// than 9 reads) keeps NeighbourReuse; arrays whose windows along the planes differ keep the 3-D
// tile of HaloTile.cpp. Linear bodies sum per plane (slide-sums.c has their forms); pair, with a
// product of two reads, keeps the halo planes' window in registers. Verified at odd and prime sizes and several tuning points, DEPTH 1 and
// 3, PLANES = 8 (several blocks along a column) with two planes per barrier (GROUP = 2, DEPTH = 2:
// 10 or 12 steps per column, so a column ends inside a group).
// Planted bug caught (session 10): one slot too few for the groups (`slots = DEPTH + group - 1`):
// verify at size 23, 4 points with GROUP = 2, reported mismatches in all four kernels of
// bench/kernels/kernels.c's box3d, conv3d, star3d and boxw3d (the emulator runs a block's threads
// in shuffled order between barriers, so a copy into a slot another thread still reads shows).
// Rows of WIDTH columns (session 11; session 18: by default one row of threads, 256 for box,
// 128 for conv3 at 128 threads); WIDTH = 128 verified at 29 and 37.
// Planted bug caught (session 11): a thread's column taken as threadIdx.x % 32 whatever the width:
// verify at 23 and 41 with WIDTH = 64 reported 608356 mismatches in bench/kernels/kernels.c's five
// sliding kernels.
// Rows copied by the bulk-copy engine (session 18, BULK = 1, the default): one copy per row of a
// plane (rtcuda_copy_row), from the 16 bytes holding its first element (its offset in the slot
// recorded in A_shift), completing on the slot's mbarrier; a row's columns split evenly among
// its tiles (cols_a_tile); defaults, where 4 rows fit, one row of threads (WIDTH = the block size)
// and 4 rows; where fewer fit, the element copies.
// BULK = 0 (the element copies) verified too, and rows of 300 columns at WIDTH = 128 (3 tiles a
// row, 104 columns each for box), and BULK = 1 for pair too (two arrays, one barrier arrival per
// row of each). Planted bugs caught (session 18): the reads of the slot
// without the row's shift: verify at 7 and 33 reported 327922 mismatches in box3d, conv3d and
// star3d; the outputs not limited to the tile's columns (`col < cols_a_tile` dropped): the run
// at 300 columns above reported 384 mismatches.
// Planted bug caught: the copies' guard along the planes one short (`plane < end + hi - 1`):
// verify at sizes 31 and 37, two points each, reported 25946 mismatches, in all five sliding
// kernels. (The CPU emulation copies synchronously: a wait that lets too many copies pend is
// not something it can see; compute-sanitizer's racecheck on the GPU is the check for that.)
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks=HaloTile --print-after=HaloTile 2> %t/remarks | FileCheck %s
// RUN: FileCheck --check-prefix=REMARKS %s < %t/remarks
// RUN: FileCheck --check-prefix=PARAMS %s < %t/out/box_params.h
// RUN: FileCheck --check-prefix=PARAMS3 %s < %t/out/conv3_params.h
// RUN: FileCheck --check-prefix=PARAMSP %s < %t/out/pair_params.h
// RUN: FileCheck --check-prefix=HELPERS %s < %t/out/kernel.cu
// RUN: %rtcuda verify %t/out --seed 5 --sizes 1,31,43 --max-points 3 | FileCheck --check-prefix=VERIFY %s
// RUN: %rtcuda verify %t/out --seed 3 --sizes 37 --max-points 2 --point PLANES=8 --point GROUP=2 --point DEPTH=2 | FileCheck --check-prefix=VERIFY1 %s
// RUN: %rtcuda verify %t/out --seed 9 --sizes 2,29 --max-points 2 --point DEPTH=1 | FileCheck --check-prefix=VERIFY2 %s
// RUN: %rtcuda verify %t/out --seed 4 --sizes 30 --max-points 2 --point DEPTH=3 | FileCheck --check-prefix=VERIFY1 %s
// RUN: %rtcuda verify %t/out --seed 6 --sizes 29,37 --max-points 12 --point WIDTH=128 | FileCheck --check-prefix=VERIFY2 %s
// RUN: %rtcuda verify %t/out --seed 7 --sizes 30,41 --max-points 4 --point BULK=0 | FileCheck --check-prefix=VERIFY2 %s
// RUN: %rtcuda verify %t/out --seed 10 --sizes 23,44 --max-points 4 --point BULK=1 | FileCheck --check-prefix=VERIFY2 %s
// RUN: %rtcuda verify %t/out --seed 8 --sizes 300 --size nz=4 --size ny=6 --max-points 3 --point WIDTH=128 | FileCheck --check-prefix=VERIFY1 %s
//
// CHECK-LABEL: IR after HaloTile (kernel box)
// CHECK:      const int group = 4 - BOX_DEPTH < (BOX_DEPTH < BOX_GROUP ? BOX_DEPTH : BOX_GROUP) ? 4 - BOX_DEPTH : BOX_DEPTH < BOX_GROUP ? BOX_DEPTH : BOX_GROUP;
// CHECK-NEXT: const int slots = BOX_DEPTH + group;
// CHECK-NEXT: const int bulk = BOX_BULK && rtcuda_bulk_engine();
// CHECK-NEXT: const int width = BOX_BLOCKSIZE % BOX_WIDTH == 0 && 4 * ((BOX_BLOCKSIZE * BOX_ITEMS / BOX_WIDTH + 2) * ((BOX_BULK ? (BOX_WIDTH + 2 + 6) / 4 * 4 : BOX_WIDTH + 2) * 4 + 4)) <= 49088 ? BOX_WIDTH : 32;
// CHECK-NEXT: const int cols_a_tile = bulk ? 8 * (((nx + ((nx + width - 3) / width < 1 ? 1 : (nx + width - 3) / width) - 3) / ((nx + width - 3) / width < 1 ? 1 : (nx + width - 3) / width) + 7) / 8) : width;
// CHECK:      const int A_pitch = BOX_BULK ? 4 * ((width + 8) / 4) : width + 2;
// CHECK-NEXT: __shared__ float A_tile[slots * ((BOX_BLOCKSIZE * BOX_ITEMS / width + 2) * A_pitch)];
// CHECK-NEXT: __shared__ int A_shift[slots * (BOX_BLOCKSIZE * BOX_ITEMS / width + 2)];
// CHECK-NEXT: const int A_loads = ((BOX_BLOCKSIZE * BOX_ITEMS / width + 2) * (width + 2) + BOX_BLOCKSIZE - 1) / BOX_BLOCKSIZE;
// CHECK-NEXT: __shared__ unsigned long long bars[4];
// CHECK-NEXT: if (bulk && (int)threadIdx.x == 0) {
// CHECK-NEXT:   rtcuda_bulk_init(&bars[0], BOX_BLOCKSIZE * BOX_ITEMS / width + 2);
// CHECK-NEXT: }
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: unsigned int phase = 0;
// CHECK-NEXT: __shared__ int pending[1];
// CHECK:        int i_first = tile % ((nx + width - 3) / width) * cols_a_tile + 1;
// CHECK:        int steps = (BOX_PLANES < nz - 1 - k_first ? BOX_PLANES : nz - 1 - k_first) + 2;
// CHECK:        float A_win[3 * BOX_ITEMS + 6];
// CHECK:        float acc[3 * BOX_ITEMS];
// CHECK:        for (int d = 0; d < BOX_DEPTH; d++) {  // unrolled
// CHECK-NEXT:     int k_at = k_first + d - 1;
// CHECK-NEXT:     if (d < steps) {
// CHECK-NEXT:       if (bulk) {
// CHECK-NEXT:         for (int r = (int)threadIdx.x; r < BOX_BLOCKSIZE * BOX_ITEMS / width + 2; r += BOX_BLOCKSIZE) {
// CHECK-NEXT:           int j_at = A_j0 + r < ny - 1 ? A_j0 + r : ny - 1;
// CHECK-NEXT:           rtcuda_copy_row(&bars[d], rtcuda_row(A_tile[d * ((BOX_BLOCKSIZE * BOX_ITEMS / width + 2) * A_pitch) + r * A_pitch], A_shift[d * (BOX_BLOCKSIZE * BOX_ITEMS / width + 2) + r], A[k_at < nz - 1 ? k_at : nz - 1][j_at][A_i0], cols_a_tile + 2, A[0][0][0], A[nz - 1][ny - 1][nx - 1]));
// CHECK:            } else {
// CHECK:              int j_at = A_j0 + e / (width + 2) < ny - 1 ? A_j0 + e / (width + 2) : ny - 1;
// CHECK-NEXT:         int i_at = A_i0 + e % (width + 2) < nx - 1 ? A_i0 + e % (width + 2) : nx - 1;
// CHECK-NEXT:         if (r < A_loads - 1 || e < (BOX_BLOCKSIZE * BOX_ITEMS / width + 2) * (width + 2)) {
// CHECK-NEXT:           rtcuda_copy_async(&A_tile[d * ((BOX_BLOCKSIZE * BOX_ITEMS / width + 2) * A_pitch) + e + e / (width + 2) * (A_pitch - width - 2)], A[k_at < nz - 1 ? k_at : nz - 1][j_at][i_at]);
// CHECK:          rtcuda_async_commit(&pending[0], 0);
// CHECK:        for (int z = 0; z < steps; z++) {
// CHECK-NEXT:     if (z % group == 0) {
// CHECK-NEXT:       rtcuda_async_wait(&pending[0], BOX_DEPTH - group);
// CHECK-NEXT:       __syncthreads();
// CHECK-NEXT:     }
// CHECK-NEXT:     int slot = z % slots;
// CHECK-NEXT:     if (bulk) {
// CHECK-NEXT:       rtcuda_bulk_wait(&bars[slot], phase >> slot & 1);
// CHECK-NEXT:       phase ^= 1 << slot;
// CHECK-NEXT:     }
// CHECK-NEXT:     for (int e = 0; e < 3 * BOX_ITEMS + 6; e++) {  // unrolled
// CHECK-NEXT:       A_win[e] = A_tile[slot * ((BOX_BLOCKSIZE * BOX_ITEMS / width + 2) * A_pitch) + ((grp * BOX_ITEMS + e / 3) * A_pitch + (bulk ? A_shift[slot * (BOX_BLOCKSIZE * BOX_ITEMS / width + 2) + (grp * BOX_ITEMS + e / 3)] : 0) + (col + e % 3))];
// CHECK:          int k_next = k_first + z + BOX_DEPTH - 1;
// CHECK-NEXT:     if (z + BOX_DEPTH < steps && !bulk) {
// CHECK:                rtcuda_copy_async(&A_tile[(z + BOX_DEPTH) % slots * ((BOX_BLOCKSIZE * BOX_ITEMS / width + 2) * A_pitch) + e + e / (width + 2) * (A_pitch - width - 2)], A[k_next < nz - 1 ? k_next : nz - 1][j_at][i_at]);
// CHECK:          rtcuda_async_commit(&pending[0], 0);
// CHECK:          float rows1[BOX_ITEMS + 2];
// CHECK:            rows1[r] = A_win[3 * r] + A_win[3 * r + 1] + A_win[3 * r + 2];
// CHECK:          float plane1[BOX_ITEMS];
// CHECK:            plane1[q] = rows1[q] + rows1[q + 1] + rows1[q + 2];
// CHECK:            acc[2 * BOX_ITEMS + q] += plane1[q];
// CHECK-NEXT:       acc[BOX_ITEMS + q] += plane1[q];
// CHECK-NEXT:       acc[q] += plane1[q];
// CHECK:          if (1 < z) {
// CHECK:              int k = k_first + (z - 2);
// CHECK-NEXT:         int j = j_first + (grp * BOX_ITEMS + q);
// CHECK-NEXT:         int i = i_first + col;
// CHECK-NEXT:         if (k < nz - 1 && j < ny - 1 && i < nx - 1 && col < cols_a_tile) {
// CHECK-NEXT:           B[k][j][i] = acc[q] * (1.0f / 27.0f);
// CHECK:            acc[q] = acc[BOX_ITEMS + q];
// CHECK-NEXT:       acc[BOX_ITEMS + q] = acc[2 * BOX_ITEMS + q];
// CHECK-NEXT:       acc[2 * BOX_ITEMS + q] = 0.0f;
// CHECK:          if (z + BOX_DEPTH < steps && bulk) {
// CHECK-NEXT:       for (int r = (int)threadIdx.x; r < BOX_BLOCKSIZE * BOX_ITEMS / width + 2; r += BOX_BLOCKSIZE) {
// CHECK:              rtcuda_copy_row(&bars[(z + BOX_DEPTH) % slots], rtcuda_row(A_tile[(z + BOX_DEPTH) % slots * ((BOX_BLOCKSIZE * BOX_ITEMS / width + 2) * A_pitch) + r * A_pitch], A_shift[(z + BOX_DEPTH) % slots * (BOX_BLOCKSIZE * BOX_ITEMS / width + 2) + r], A[k_next < nz - 1 ? k_next : nz - 1][j_at][A_i0], cols_a_tile + 2, A[0][0][0], A[nz - 1][ny - 1][nx - 1]));
// CHECK:        rtcuda_async_wait(&pending[0], 0);
// CHECK-NEXT:   __syncthreads();
// CHECK-LABEL: IR after HaloTile (kernel seven)
// CHECK-NOT:  _tile
// CHECK-LABEL: IR after HaloTile (kernel conv3)
// CHECK:      float K_reg[24];
// CHECK:        int k_at = k_first + d;
// CHECK:            acc[q] += K_reg[16] * A_win[2 * q] + K_reg[17] * A_win[2 * q + 1] + K_reg[18] * A_win[2 * q + 2]
// CHECK-LABEL: IR after HaloTile (kernel pair)
// CHECK:      __shared__ float C_tile[slots * ((PAIR_BLOCKSIZE * PAIR_ITEMS / width + 1) * C_pitch)];
// CHECK:      rtcuda_bulk_init(&bars[0], 2 * (PAIR_BLOCKSIZE * PAIR_ITEMS / width) + 3);
// CHECK:        int k_at = k_first + d - 2;
// CHECK:        int k_next = k_first + z + PAIR_DEPTH - 2;
// CHECK:            B[k][j][i] = A_win[2 * q + 1] - A_win[4 * PAIR_ITEMS + 2 * q + 12] + A_win[2 * PAIR_ITEMS + 2 * q + 7] + A_win[4 * PAIR_ITEMS + 2 * q + 9] + A_win[2 * q + 4] + C_win[2 * PAIR_ITEMS + q + 2] * C_win[q + 1] + C_win[PAIR_ITEMS + q + 1] - C_win[2 * PAIR_ITEMS + q + 3];
// CHECK-LABEL: IR after HaloTile (kernel zonly)
// CHECK:        float A_win[ZONLY_ITEMS];
// CHECK:        float acc[9 * ZONLY_ITEMS];
// CHECK:            acc[8 * ZONLY_ITEMS + q] += plane1[q];
// CHECK:          if (7 < z) {
// CHECK:                B[k][j][i] = acc[q];
// CHECK-LABEL: IR after HaloTile (kernel flat)
// CHECK-NOT:      for (int p
// CHECK:          if (-1 < z) {
// CHECK-LABEL: IR after HaloTile (kernel mixed)
// CHECK-NOT:    for (int z
// CHECK:        A_win[r * 9 + e] = A_tile[
//
// REMARKS: remark: halo tile: 'A' is read at 27 places around each iteration (offsets [-1, 1] x [-1, 1] x [-1, 1]); a block slides its tile and halo through shared memory along 'k', BOX_PLANES planes, BOX_ITEMS rows per thread, the halo planes in registers
// REMARKS: remark: halo tile: 'A' is read at 7 places around each iteration, fewer than 9 in 3 dimensions; not applied
// REMARKS: remark: halo tile: 'A' is read at 24 places around each iteration (offsets [0, 2] x [0, 3] x [0, 1]); a block slides
// REMARKS: remark: halo tile: 'A' is read at 5 places around each iteration (offsets [-2, 0] x [0, 2] x [-1, 0]); a block slides
// REMARKS: remark: halo tile: 'C' is read at 4 places around each iteration (offsets [-2, 0] x [0, 1] x [0, 0]); a block slides
// REMARKS: remark: halo tile: 'A' is read at 9 places around each iteration (offsets [-4, 4] x [0, 0] x [0, 0]); a block slides
// REMARKS: remark: halo tile: 'A' is read at 9 places around each iteration (offsets [0, 0] x [-1, 1] x [-1, 1]); a block slides
// REMARKS: remark: halo tile: 'A' is read at 6 places around each iteration (offsets [-1, 1] x [-1, 1] x [-1, 1]); a block stages its tile
//
// PARAMS: #define BOX_BLOCKSIZE 256
// PARAMS: // ITEMS: search space 1, 2, 4
// PARAMS: #define BOX_ITEMS 4
// PARAMS: // PLANES: search space 8, 16, 32, 64
// PARAMS: #define BOX_PLANES 32
// PARAMS: // DEPTH: search space 1, 2, 3
// PARAMS: #define BOX_DEPTH 2
// PARAMS: // BULK: search space 0, 1
// PARAMS: #define BOX_BULK 1
// PARAMS: // GROUP: search space 1, 2
// PARAMS: #define BOX_GROUP 1
// PARAMS: // WIDTH: search space 32, 64, 128, 256
// PARAMS: #define BOX_WIDTH 256
// PARAMS3: #define CONV3_BLOCKSIZE 128
// PARAMS3: #define CONV3_ITEMS 4
// PARAMS3: #define CONV3_WIDTH 128
// Only 2 rows per thread fit pair's windows: the element copies by default, at the width of the
// fewest sectors per plane (a tile of one row of threads would carry as many halo rows as rows).
// PARAMSP: // ITEMS: search space 1, 2
// PARAMSP: #define PAIR_ITEMS 2
// PARAMSP: #define PAIR_BULK 0
// PARAMSP: #define PAIR_WIDTH 64
// HELPERS: template <class T> static __device__ __forceinline__ void rtcuda_copy_async(T *to, const T &from) {
// HELPERS: #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// HELPERS: cp.async.ca.shared.global [%0], [%1], 4;
// HELPERS: static __device__ __forceinline__ void rtcuda_async_wait(int *, int pending) {
// HELPERS: template <class T> static __device__ __forceinline__ void rtcuda_copy_row(unsigned long long *bar, rtcuda_row_copy<T> r) {
// HELPERS: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// HELPERS: static __device__ __forceinline__ void rtcuda_bulk_wait(unsigned long long *bar, unsigned parity) {
//
// VERIFY: verified 7 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 3 size(s): 0 mismatch(es)
// VERIFY1: verified 7 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 1 size(s): 0 mismatch(es)
// VERIFY2: verified 7 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 2 size(s): 0 mismatch(es)

//--- config.yaml
kernel_files: [kernel.c]
kernels: [box, seven, conv3, pair, zonly, flat, mixed]
//--- kernel.c
void box(int nz, int ny, int nx, const float A[nz][ny][nx], float B[nz][ny][nx]) {
  for (int k = 1; k < nz - 1; k++)
    for (int j = 1; j < ny - 1; j++)
      for (int i = 1; i < nx - 1; i++) {
        float s = 0.0f;
        for (int c = -1; c <= 1; c++)
          for (int b = -1; b <= 1; b++)
            for (int a = -1; a <= 1; a++)
              s += A[k + c][j + b][i + a];
        B[k][j][i] = s * (1.0f / 27.0f);
      }
}
void seven(int nz, int ny, int nx, const double A[nz][ny][nx], double B[nz][ny][nx]) {
  for (int k = 1; k < nz - 1; k++)
    for (int j = 1; j < ny - 1; j++)
      for (int i = 1; i < nx - 1; i++)
        B[k][j][i] = 0.4 * A[k][j][i] + 0.1 * (A[k - 1][j][i] + A[k + 1][j][i] + A[k][j - 1][i] +
                                               A[k][j + 1][i] + A[k][j][i - 1] + A[k][j][i + 1]);
}
void conv3(int nz, int ny, int nx, const float A[nz + 2][ny + 3][nx + 1], const float K[3][4][2],
           float B[nz][ny][nx]) {
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++) {
        float s = 0.0f;
        for (int c = 0; c < 3; c++)
          for (int b = 0; b < 4; b++)
            for (int a = 0; a < 2; a++)
              s += K[c][b][a] * A[k + c][j + b][i + a];
        B[k][j][i] = s;
      }
}
void pair(int nz, int ny, int nx, const float A[nz][ny][nx], const float C[nz][ny][nx],
          float B[nz][ny][nx]) {
  for (int k = 2; k < nz; k++)
    for (int j = 0; j < ny - 2; j++)
      for (int i = 1; i < nx; i++)
        B[k][j][i] = A[k - 2][j][i] - A[k][j + 2][i - 1] + A[k - 1][j + 1][i] + A[k][j][i] +
                     A[k - 2][j + 2][i - 1] + C[k][j][i] * C[k - 2][j + 1][i] + C[k - 1][j][i] -
                     C[k][j + 1][i];
}
void zonly(int nz, int ny, int nx, const float A[nz][ny][nx], float B[nz][ny][nx]) {
  for (int k = 4; k < nz - 4; k++)
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++) {
        float s = 0.0f;
        for (int c = -4; c <= 4; c++)
          s += A[k + c][j][i];
        B[k][j][i] = s;
      }
}
void flat(int nz, int ny, int nx, const float A[nz][ny][nx], float B[nz][ny][nx]) {
  for (int k = 0; k < nz; k++)
    for (int j = 1; j < ny - 1; j++)
      for (int i = 1; i < nx - 1; i++) {
        float s = 0.0f;
        for (int b = -1; b <= 1; b++)
          for (int a = -1; a <= 1; a++)
            s += A[k][j + b][i + a];
        B[k][j][i] = s;
      }
}
void mixed(int nz, int ny, int nx, const float A[nz][ny][nx], const float C[nz][ny][nx],
           float B[nz][ny][nx]) {
  for (int k = 1; k < nz - 1; k++)
    for (int j = 1; j < ny - 1; j++)
      for (int i = 1; i < nx - 1; i++)
        B[k][j][i] = A[k - 1][j][i] + A[k + 1][j][i] + A[k][j - 1][i] + A[k][j + 1][i] +
                     A[k][j][i - 1] + A[k][j][i + 1] + C[k][j][i - 1] + C[k][j][i + 1] + C[k][j][i];
}
