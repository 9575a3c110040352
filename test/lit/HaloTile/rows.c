// HaloTile's row sums in two dimensions (HaloTileRows.cpp): a body that is a linear form of the
// tiled reads, whose whole window would not stay in registers, reads each row of a thread's
// window once and adds it to the sums of the output rows that read it; COLS outputs per thread
// along the row (4 for the filters of more than 32 terms: conv7, the even 6 x 6 conv66; else
// 2) and ITEMS rows per thread (8 for those, else 4: conv53, blur), read with 128-bit loads
// where COLS is a multiple of 4. conv53 (5 x 3), a filter of two inputs (two), a centred box
// with a scale and a constant whose rows share one partial sum (blur); a sum of squares is not
// linear and keeps its window read row by row (energy); scalar weights per row of unequal
// columns (wrow). The tiles of the filters of more than 32 terms are copied by rows with
// cp.async (ASYNC_FILL 1, HaloTileFill.cpp), the others' by elements through registers.
// Verified at odd and prime sizes, every COLS, ITEMS 4 and 8, both fills.
// Planted bugs caught by the second verify below (run with CONV53_COLS=2 then): a tile pitch
// short of lane 31's row (4 * ((31 * COLS + halo + 3) / 4) instead of 4 * ((31 * COLS + row +
// 3) / 4): 74 mismatches, conv66 at COLS 1), row offsets sharing a partial sum when their
// weights differ (120 mismatches in conv7, conv53, conv66, two).
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks=HaloTile --print-after=HaloTile 2> %t/remarks | FileCheck %s
// RUN: FileCheck --check-prefix=REMARKS %s < %t/remarks
// RUN: cat %t/out/conv7_params.h %t/out/conv53_params.h %t/out/conv66_params.h %t/out/blur_params.h %t/out/wrow_params.h | FileCheck --check-prefix=PARAMS %s
// RUN: %rtcuda verify %t/out --seed 13 --sizes 1,29,37,61 --max-points 3 | FileCheck --check-prefix=VERIFY %s
// RUN: %rtcuda verify %t/out --seed 15 --sizes 29,37 --max-points 2 --point CONV7_ASYNC_FILL=0 --point CONV53_ASYNC_FILL=1 --point CONV66_ASYNC_FILL=0 --point TWO_ASYNC_FILL=1 --point BLUR_ASYNC_FILL=1 --point WROW_ASYNC_FILL=1 --point ENERGY_ASYNC_FILL=1 | FileCheck --check-prefix=VERIFY %s
// RUN: %rtcuda verify %t/out --seed 14 --sizes 31,43 --max-points 2 --point CONV7_COLS=2 --point CONV53_COLS=1 --point CONV66_COLS=1 --point TWO_COLS=4 --point BLUR_COLS=4 --point BLUR_ITEMS=8 | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after HaloTile (kernel conv7)
// CHECK:      float K_reg[49];
// CHECK:      __shared__ float A_tile[(CONV7_BLOCKSIZE * CONV7_ITEMS / 32 + 6) * (4 * ((31 * CONV7_COLS + 4 * ((CONV7_COLS + 9) / 4) + 3) / 4))];
// CHECK:        if (CONV7_ASYNC_FILL) {
// CHECK-NEXT:     for (int rr = 0; rr < A_rows_a_warp; rr++) {  // unrolled
// CHECK-NEXT:       for (int c = 0; c < A_copies_a_row; c++) {  // unrolled
// CHECK-NEXT:         int r = (int)threadIdx.x / 32 + rr * (CONV7_BLOCKSIZE / 32);
// CHECK-NEXT:         int jj = (int)threadIdx.x % 32 + c * 32;
// CHECK-NEXT:         int i_at = A_i0 + r;
// CHECK-NEXT:         int j_at = A_j0 + jj;
// CHECK-NEXT:         if (r < CONV7_BLOCKSIZE * CONV7_ITEMS / 32 + 6 && jj < 4 * ((31 * CONV7_COLS + 4 * ((CONV7_COLS + 9) / 4) + 3) / 4)) {
// CHECK-NEXT:           rtcuda_copy_async(&A_tile[r * (4 * ((31 * CONV7_COLS + 4 * ((CONV7_COLS + 9) / 4) + 3) / 4)) + jj], i_at < rows + 6 && j_at < cols + 6 ? A[i_at][j_at] : A[A_i0][A_j0]);
// CHECK:          } else {
// CHECK-NEXT:     for (int r0 = 0; r0 < A_loads; r0 += A_chunk) {
// CHECK:        rtcuda_async_commit(&pending[0], 0);
// CHECK-NEXT:   rtcuda_async_wait(&pending[0], 0);
// CHECK-NEXT:   __syncthreads();
// CHECK:        float A_row[4 * ((CONV7_COLS + 9) / 4)];
// CHECK-NEXT:   float acc[CONV7_ITEMS * CONV7_COLS];
// CHECK-NEXT:   for (int r = 0; r < CONV7_ITEMS + 6; r++) {  // unrolled
// CHECK-NEXT:     if (CONV7_COLS % 4 == 0) {
// CHECK-NEXT:       for (int e = 0; e < CONV7_COLS + 6; e += 4) {  // unrolled
// CHECK-NEXT:         rtcuda_load4(&A_row[e], A_tile[(grp * CONV7_ITEMS + r) * (4 * ((31 * CONV7_COLS + 4 * ((CONV7_COLS + 9) / 4) + 3) / 4)) + col * CONV7_COLS + e]);
// CHECK:            acc[r * CONV7_COLS + x] = K_reg[0] * A_row[x] + K_reg[1] * A_row[x + 1] + K_reg[2] * A_row[x + 2] + K_reg[3] * A_row[x + 3] + K_reg[4] * A_row[x + 4] + K_reg[5] * A_row[x + 5] + K_reg[6] * A_row[x + 6];
// CHECK:          if (r >= 6 && r - 6 < CONV7_ITEMS) {
// CHECK-NEXT:       for (int x = 0; x < CONV7_COLS; x++) {  // unrolled
// CHECK-NEXT:         acc[(r - 6) * CONV7_COLS + x] = acc[(r - 6) * CONV7_COLS + x] + K_reg[42] * A_row[x] +
// CHECK-NEXT:         if (CONV7_STAGE_STORES) {
// CHECK-NEXT:           B_stage[(r - 6) % 2 * (CONV7_BLOCKSIZE * CONV7_COLS) + grp * (32 * CONV7_COLS) + (col * CONV7_COLS + x)] = acc[(r - 6) * CONV7_COLS + x];
// CHECK-NEXT:         } else {
// CHECK-NEXT:           int i = i_first + (grp * CONV7_ITEMS + (r - 6));
// CHECK-NEXT:           int j = j_first + (col * CONV7_COLS + x);
// CHECK-NEXT:           if (i < rows && j < cols) {
// CHECK-NEXT:             B[i][j] = acc[(r - 6) * CONV7_COLS + x];
// CHECK:            if (CONV7_STAGE_STORES) {
// CHECK-NEXT:         __syncthreads();
// CHECK-NEXT:         for (int x = 0; x < CONV7_COLS; x++) {  // unrolled
// CHECK-NEXT:           int i = i_first + (grp * CONV7_ITEMS + (r - 6));
// CHECK-NEXT:           int j = j_first + (x * 32 + col);
// CHECK-NEXT:           if (i < rows && j < cols) {
// CHECK-NEXT:             B[i][j] = B_stage[(r - 6) % 2 * (CONV7_BLOCKSIZE * CONV7_COLS) + grp * (32 * CONV7_COLS) + (x * 32 + col)];
// CHECK-LABEL: IR after HaloTile (kernel two)
// CHECK:        float A_row[4 * ((TWO_COLS + 7) / 4)];
// CHECK-NEXT:   float C_row[4 * ((TWO_COLS + 7) / 4)];
// CHECK:            acc[r * TWO_COLS + x] = K_reg[0] * A_row[x] + L_reg[0] * C_row[x] + K_reg[1] * A_row[x + 1] + L_reg[1] * C_row[x + 1]
// CHECK-LABEL: IR after HaloTile (kernel blur)
// CHECK:        float part0[BLUR_COLS];
// CHECK:          for (int x = 0; x < BLUR_COLS; x++) {  // unrolled
// CHECK-NEXT:       part0[x] = A_row[x] + A_row[x + 1] + A_row[x + 2] + A_row[x + 3] + A_row[x + 4];
// CHECK:            acc[r * BLUR_COLS + x] = part0[x];
// CHECK:            acc[(r - 4) * BLUR_COLS + x] = acc[(r - 4) * BLUR_COLS + x] + part0[x];
// CHECK-NEXT:       if (BLUR_STAGE_STORES) {
// CHECK-NEXT:         B_stage[{{.*}}] = 0.04f * acc[(r - 4) * BLUR_COLS + x] + c;
// CHECK-NEXT:       } else {
// CHECK-NEXT:         int i = i_first + (grp * BLUR_ITEMS + (r - 4));
// CHECK-NEXT:         int j = j_first + (col * BLUR_COLS + x);
// CHECK-NEXT:         if (i < n - 2 && j < m - 2) {
// CHECK-NEXT:           B[i][j] = 0.04f * acc[(r - 4) * BLUR_COLS + x] + c;
// CHECK-LABEL: IR after HaloTile (kernel energy)
// CHECK-NOT:  acc
// CHECK:        float A_win[5 * ENERGY_ITEMS + 20];
// CHECK-NEXT:   for (int q = 0; q < ENERGY_ITEMS; q++) {  // unrolled
// CHECK-NEXT:     for (int r = q < 1 ? 0 : q + 4; r < q + 5; r++) {  // unrolled
//
// REMARKS: remark: halo tile: 'A' is read at 49 places around each iteration (offsets [0, 6] x [0, 6]); a block stages its tile and halo in shared memory; a thread reads each row of its window once and adds it to the sums of CONV7_ITEMS x CONV7_COLS outputs
// REMARKS: remark: halo tile: 'C' is read at 15 places around each iteration (offsets [0, 2] x [0, 4]); a block stages
// REMARKS: remark: halo tile: 'A' is read at 50 places around each iteration (offsets [0, 4] x [0, 4]); a block stages its tile and halo in shared memory, ENERGY_ITEMS outputs per thread
// REMARKS: remark: halo tile: 'A' is read at 13 places around each iteration (offsets [0, 2] x [0, 4]); {{.*}} adds it to the sums of WROW_ITEMS x WROW_COLS outputs
//
// PARAMS: #define CONV7_BLOCKSIZE 128
// PARAMS: // ASYNC_FILL: search space 0, 1
// PARAMS: #define CONV7_ASYNC_FILL 1
// PARAMS: // ITEMS: search space 1, 2, 4, 8
// PARAMS: #define CONV7_ITEMS 8
// PARAMS: // COLS: search space 1, 2, 4
// PARAMS: #define CONV7_COLS 4
// PARAMS: #define CONV53_BLOCKSIZE 256
// PARAMS: #define CONV53_ASYNC_FILL 0
// PARAMS: #define CONV53_ITEMS 4
// PARAMS: #define CONV53_COLS 2
// PARAMS: #define CONV66_BLOCKSIZE 128
// PARAMS: #define CONV66_ITEMS 8
// PARAMS: #define CONV66_COLS 4
// PARAMS: #define BLUR_BLOCKSIZE 256
// PARAMS: #define BLUR_ITEMS 4
// PARAMS: #define BLUR_COLS 2
// PARAMS: #define WROW_ITEMS 4
//
// VERIFY: verified 7 kernel(s) at {{[0-9]+}} parameter point(s) and {{[0-9]+}} size(s): 0 mismatch(es)

//--- kernel.c
void conv7(int rows, int cols, const float A[rows + 6][cols + 6], const float K[7][7],
           float B[rows][cols]) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      float s = 0.0f;
      for (int a = 0; a < 7; a++)
        for (int b = 0; b < 7; b++)
          s += K[a][b] * A[i + a][j + b];
      B[i][j] = s;
    }
}
void conv53(int rows, int cols, const float A[rows + 4][cols + 2], const float K[5][3],
            float B[rows][cols]) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      float s = 0.0f;
      for (int a = 0; a < 5; a++)
        for (int b = 0; b < 3; b++)
          s += K[a][b] * A[i + a][j + b];
      B[i][j] = s;
    }
}
void conv66(int rows, int cols, const float A[rows + 5][cols + 5], const float K[6][6],
            float B[rows][cols]) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      float s = 0.0f;
      for (int a = 0; a < 6; a++)
        for (int b = 0; b < 6; b++)
          s += K[a][b] * A[i + a][j + b];
      B[i][j] = s;
    }
}
void two(int rows, int cols, const float A[rows + 2][cols + 4], const float C[rows + 2][cols + 4],
         const float K[3][5], const float L[3][5], float B[rows][cols]) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      float s = 0.0f;
      for (int a = 0; a < 3; a++)
        for (int b = 0; b < 5; b++)
          s += K[a][b] * A[i + a][j + b] + L[a][b] * C[i + a][j + b];
      B[i][j] = s;
    }
}
void blur(int n, int m, float c, const float A[n][m], float B[n][m]) {
  for (int i = 2; i < n - 2; i++)
    for (int j = 2; j < m - 2; j++) {
      float s = 0.0f;
      for (int a = -2; a <= 2; a++)
        for (int b = -2; b <= 2; b++)
          s += A[i + a][j + b];
      B[i][j] = 0.04f * s + c;
    }
}
void energy(int rows, int cols, const float A[rows + 4][cols + 4], float B[rows][cols]) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      float s = 0.0f;
      for (int a = 0; a < 5; a++)
        for (int b = 0; b < 5; b++)
          s += A[i + a][j + b] * A[i + a][j + b];
      B[i][j] = s;
    }
}
void wrow(int rows, int cols, float c0, float c1, float c2, const float A[rows + 2][cols + 4],
          float B[rows][cols]) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      B[i][j] = c0 * (A[i][j] + A[i][j + 1] + A[i][j + 2] + A[i][j + 3] + A[i][j + 4]) +
                c1 * (A[i + 1][j] + A[i + 1][j + 1] + A[i + 1][j + 2] + A[i + 1][j + 3]) +
                c2 * (A[i + 2][j + 1] + A[i + 2][j + 2] + A[i + 2][j + 3] + A[i + 2][j + 4]);
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [conv7, conv53, conv66, two, blur, energy, wrow]
