// HaloTile's register windows and staged outputs: a 5 x 5 float convolution, a 7 x 7 and a 3 x 5
// filter (25 taps in registers; their whole windows would not stay in registers, and their
// bodies are linear: row sums, test/lit/HaloTile/rows.c), a 2-D stencil reading two arrays
// (whole windows: 60 registers), 1-D filters whose outputs go through the tile (one output array
// written at [i]) and three that keep one output per store (two output arrays; an output also
// read; a store at [i + 1]), one with a double output of a float input (not staged). Verified at
// odd and prime sizes and several tuning points.
// Planted bugs caught: the staged outputs copied out from slot e instead of e + e / 32
// (verify at sizes 31 and 37: mismatches in conv1d5, rev; see the commit), the halo guard
// one element short (end + hi - 1: mismatches in every tiled kernel), and a window row read one
// output late (row q + span instead of q + span - 1: 4278 mismatches in bench/kernels' conv2d5,
// sizes 31 and 37, two points).
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks=HaloTile --print-after=HaloTile 2> %t/remarks | FileCheck %s
// RUN: FileCheck --check-prefix=REMARKS %s < %t/remarks
// RUN: FileCheck --check-prefix=PARAMS5 %s < %t/out/conv5_params.h
// RUN: FileCheck --check-prefix=PARAMS2 %s < %t/out/two_params.h
// RUN: FileCheck --check-prefix=PARAMS7 %s < %t/out/conv7_params.h
// RUN: FileCheck --check-prefix=PARAMS35 %s < %t/out/conv35_params.h
// RUN: %rtcuda verify %t/out --seed 11 --sizes 1,29,37,61 --max-points 3 | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after HaloTile (kernel conv5)
// CHECK:      float K_reg[25];
// CHECK:        float A_row[4 * ((CONV5_COLS + 7) / 4)];
// CHECK:            acc[r * CONV5_COLS + x] = K_reg[0] * A_row[x] + K_reg[1] * A_row[x + 1] + K_reg[2] * A_row[x + 2] + K_reg[3] * A_row[x + 3] + K_reg[4] * A_row[x + 4];
// CHECK-LABEL: IR after HaloTile (kernel two)
// CHECK:        float A_win[3 * TWO_ITEMS + 6];
// CHECK:        float C_win[TWO_ITEMS + 2];
// CHECK-NEXT:   for (int e = 0; e < TWO_ITEMS + 2; e++) {  // unrolled
// CHECK:          C_win[e] = C_tile[(grp * TWO_ITEMS + e) * 32 + col];
// CHECK:          B[i][j] = A_win[q * 3] + A_win[q * 3 + 2] + A_win[(q + 1) * 3 + 1] + A_win[(q + 2) * 3] + A_win[(q + 2) * 3 + 2] + C_win[q] + C_win[q + 1] + C_win[q + 2] + A_win[(q + 1) * 3];
// CHECK-LABEL: IR after HaloTile (kernel conv1d5)
// CHECK:            x_tile[slot * x_slot + ((int)threadIdx.x * CONV1D5_ITEMS + q + ((int)threadIdx.x * CONV1D5_ITEMS + q) / 32)] = s;
// CHECK:            y[i_out] = x_tile[slot * x_slot + (e + e / 32)];
// CHECK-LABEL: IR after HaloTile (kernel pair)
// CHECK-NOT:  _win
// CHECK:          y[i] = x_tile[i - x_i0] + x_tile[i + 1 - x_i0] + x_tile[i + 2 - x_i0];
// CHECK-NEXT:     z[i] = x_tile[i + 2 - x_i0] - x_tile[i - x_i0];
// CHECK-LABEL: IR after HaloTile (kernel accum)
// CHECK-NOT:  _win
// CHECK:          y[i] = y[i] + x_tile[i - x_i0] + x_tile[i + 1 - x_i0] + x_tile[i + 2 - x_i0];
// CHECK-LABEL: IR after HaloTile (kernel shifted)
// CHECK-NOT:  _win
// CHECK:          y[i + 1] = x_tile[i - x_i0] + x_tile[i + 1 - x_i0] + x_tile[i + 2 - x_i0];
// CHECK-LABEL: IR after HaloTile (kernel widen)
// CHECK-NOT:  _win
// CHECK:          y[i] = (double)(x_tile[i - x_i0] + x_tile[i + 3 - x_i0]);
// CHECK-LABEL: IR after HaloTile (kernel rev)
// CHECK:            y[i_out] = x_tile[slot * x_slot + (e + e / 32)];
// CHECK-LABEL: IR after HaloTile (kernel conv7)
// CHECK:        float A_row[4 * ((CONV7_COLS + 9) / 4)];
// CHECK:          if (r >= 6 && r - 6 < CONV7_ITEMS) {
// CHECK-LABEL: IR after HaloTile (kernel conv35)
// CHECK:        float A_row[4 * ((CONV35_COLS + 7) / 4)];
// CHECK:          if (r >= 2 && r - 2 < CONV35_ITEMS) {
// CHECK-NEXT:       for (int x = 0; x < CONV35_COLS; x++) {  // unrolled
// CHECK-NEXT:         acc[(r - 2) * CONV35_COLS + x] = acc[(r - 2) * CONV35_COLS + x] + K_reg[10] * A_row[x] +
//
// REMARKS: remark: halo tile: 'A' is read at 25 places around each iteration (offsets [0, 4] x [0, 4])
// REMARKS: remark: halo tile: 'A' is read at 6 places around each iteration (offsets [-1, 1] x [-1, 1])
// REMARKS: remark: halo tile: 'C' is read at 3 places around each iteration (offsets [-1, 1] x [0, 0])
//
// PARAMS5: #define CONV5_BLOCKSIZE 256
// PARAMS5: // ITEMS: search space 1, 2, 4, 8
// PARAMS5: #define CONV5_ITEMS 4
// PARAMS2: #define TWO_BLOCKSIZE 256
// PARAMS7: #define CONV7_BLOCKSIZE 128
// PARAMS7: #define CONV7_ITEMS 8
// PARAMS35: #define CONV35_BLOCKSIZE 256
// PARAMS35: #define CONV35_ITEMS 4
//
// VERIFY: verified 10 kernel(s) at {{[0-9]+}} parameter point(s) and 4 size(s): 0 mismatch(es)

//--- kernel.c
void conv5(int rows, int cols, const float A[rows + 4][cols + 4], const float K[5][5],
           float B[rows][cols]) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      float s = 0.0f;
      for (int a = 0; a < 5; a++)
        for (int b = 0; b < 5; b++)
          s += K[a][b] * A[i + a][j + b];
      B[i][j] = s;
    }
}
void two(int n, int m, const float A[n][m], const float C[n][m], float B[n][m]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      B[i][j] = A[i - 1][j - 1] + A[i - 1][j + 1] + A[i][j] + A[i + 1][j - 1] + A[i + 1][j + 1] +
                C[i - 1][j] + C[i][j] + C[i + 1][j] + A[i][j - 1];
}
void conv1d5(int n, const float x[n + 4], const float w[5], float y[n]) {
  for (int i = 0; i < n; i++) {
    float s = 0.0f;
    for (int t = 0; t < 5; t++)
      s += w[t] * x[i + t];
    y[i] = s;
  }
}
void pair(int n, const float x[n + 2], float y[n], float z[n]) {
  for (int i = 0; i < n; i++) {
    y[i] = x[i] + x[i + 1] + x[i + 2];
    z[i] = x[i + 2] - x[i];
  }
}
void accum(int n, const float x[n + 2], float y[n]) {
  for (int i = 0; i < n; i++)
    y[i] = y[i] + x[i] + x[i + 1] + x[i + 2];
}
void shifted(int n, const float x[n + 2], float y[n + 1]) {
  for (int i = 0; i < n; i++)
    y[i + 1] = x[i] + x[i + 1] + x[i + 2];
}
void widen(int n, const float x[n + 3], double y[n]) {
  for (int i = 0; i < n; i++)
    y[i] = (double)(x[i] + x[i + 3]);
}
void rev(int n, const double x[n], double y[n]) {
  for (int i = 2; i < n; i++)
    y[i] = x[i] - 2.0 * x[i - 1] + x[i - 2];
}

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
void conv35(int rows, int cols, const float A[rows + 2][cols + 4], const float K[3][5],
            float B[rows][cols]) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      float s = 0.0f;
      for (int a = 0; a < 3; a++)
        for (int b = 0; b < 5; b++)
          s += K[a][b] * A[i + a][j + b];
      B[i][j] = s;
    }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [conv5, two, conv1d5, pair, accum, shifted, widen, rev, conv7, conv35]
