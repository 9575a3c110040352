// TiledTranspose over triangular bounds and in place: BoundingBox runs a triangular nest over
// its bounding box with the bounds as a guard around the store; the guard joins the tile's range
// check in both steps, and the grid runs over the tiles that meet the triangle only (the first
// rows of tiles folded two by two, then whole rows where the triangle is cut: lower_part with
// m < n). In place (A[i][j] = A[j][i] over one triangle) the loops are parallel, so the tile may
// read the array it writes. A full-square transpose in place is not parallel and a guard that
// reads an array is not moved: both keep their mapping. With the guard dropped from the range
// check, verify reports mismatches in every kernel but square_in_place and masked; with the
// fold's test `at <` as `at <=`, or the whole rows started one row late, too.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=TiledTranspose | FileCheck %s
// RUN: %rtcuda verify %t/out --seed 3 --sizes 1,2,31,37,70,100,130 | FileCheck --check-prefix=VERIFY %s
// RUN: %rtcuda verify %t/out --seed 4 --size n=130 --size m=40 --no-race-check | FileCheck --check-prefix=CUT %s
//
// CHECK-LABEL: IR after TiledTranspose (kernel symmetrize)
// CHECK:      // a 32 x 33 tile: read along 'i', written along 'j'
// CHECK:      // the tiles that meet the triangle, i_tile <= j_tile, rows of them along 'j_tile': the first folded_rows folded two by two
// CHECK-NEXT: int folded_rows = (n + 31) / 32 < (n + 30) / 32 ? (n + 31) / 32 : (n + 30) / 32;
// CHECK-NEXT: int folded_tiles = folded_rows * (2 * ((n + 30) / 32) - folded_rows + 1) / 2;
// CHECK-NEXT: for (int t = (int)blockIdx.x; t < folded_tiles; t += (int)gridDim.x) {
// CHECK-NEXT:   int fold = t / (2 * ((n + 30) / 32) - folded_rows + 1);
// CHECK-NEXT:   int at = t % (2 * ((n + 30) / 32) - folded_rows + 1);
// CHECK-NEXT:   int i_tile = at < (n + 30) / 32 - fold ? fold : folded_rows - 1 - fold;
// CHECK-NEXT:   int j_tile = i_tile + (at < (n + 30) / 32 - fold ? at : at - ((n + 30) / 32 - fold));
// CHECK:          int j = 32 * j_tile + 1 + r;
// CHECK-NEXT:     int i = 32 * i_tile + (int)threadIdx.x % 32;
// CHECK-NEXT:     if (r < 32 && (j < n && i < n && (j >= i + 1 && j < n))) {
// CHECK-NEXT:       tile[r * 33 + (int)threadIdx.x % 32] = A[j][i];
// CHECK:          if (r < 32 && (j < n && i < n && (j >= i + 1 && j < n))) {
// CHECK-NEXT:       A[i][j] = tile[(int)threadIdx.x % 32 * 33 + r];
// CHECK-LABEL: IR after TiledTranspose (kernel lower_from_upper)
// CHECK:      // the tiles that meet the triangle, j_tile <= i_tile, rows of them along 'j_tile': the first folded_rows folded two by two, then whole rows
// CHECK-NEXT: int folded_rows = (n + 31) / 32 < (n + 30) / 32 ? (n + 31) / 32 : (n + 30) / 32;
// CHECK-NEXT: int folded_tiles = folded_rows * (folded_rows + 1) / 2;
// CHECK-NEXT: int triangle_tiles = folded_tiles + ((n + 30) / 32 - folded_rows) * ((n + 31) / 32);
// CHECK-NEXT: for (int t = (int)blockIdx.x; t < triangle_tiles; t += (int)gridDim.x) {
// CHECK-NEXT:   int fold = t / (folded_rows + 1);
// CHECK-NEXT:   int at = t % (folded_rows + 1);
// CHECK-NEXT:   int i_tile = t < folded_tiles ? (at < 1 + fold ? fold : folded_rows - 1 - fold) : folded_rows + (t - folded_tiles) / ((n + 31) / 32);
// CHECK-NEXT:   int j_tile = t < folded_tiles ? (at < 1 + fold ? at : at - (1 + fold)) : (t - folded_tiles) % ((n + 31) / 32);
// CHECK-LABEL: IR after TiledTranspose (kernel trtranspose)
// CHECK:      // the tiles that meet the triangle, j_tile <= i_tile, rows of them along 'i_tile'
// CHECK-NEXT: int folded_rows = (n + 31) / 32;
// CHECK:        B[j][i] = tile[(int)threadIdx.x % 32 * 33 + r];
// CHECK-LABEL: IR after TiledTranspose (kernel halve_into_upper)
// CHECK:      // a 32 x 33 tile
// CHECK:        tile[r * 33 + (int)threadIdx.x % 32] = 0.5f * A[i][j];
// CHECK-LABEL: IR after TiledTranspose (kernel square_in_place_1)
// CHECK-NOT:  tile
// CHECK-LABEL: IR after TiledTranspose (kernel masked)
// CHECK-NOT:  tile
// CHECK:      if (M[i][j] > 0)
// CHECK-LABEL: IR after TiledTranspose (kernel lower_part)
// CHECK:      int folded_rows = (m + 31) / 32 < (n + 31) / 32 ? (m + 31) / 32 : (n + 31) / 32;
// CHECK-NEXT: int folded_tiles = folded_rows * (2 * ((n + 31) / 32) - folded_rows + 1) / 2;
// CHECK-LABEL: IR after TiledTranspose (kernel strict_lower)
// CHECK:      // the tiles that meet the triangle, j_tile <= i_tile
// CHECK-LABEL: IR after TiledTranspose (kernel band)
// CHECK-NOT:  the tiles that meet the triangle
// CHECK:      for (int j_tile = (int)blockIdx.y;
//
// VERIFY: verified 9 kernel(s) at {{[0-9]+}} parameter point(s) and 7 size(s): 0 mismatch(es)
// CUT: verified 9 kernel(s) at {{[0-9]+}} parameter point(s) and {{[0-9]+}} size(s): 0 mismatch(es)

//--- kernel.c
/* The upper triangle from the lower one, in place. */
void symmetrize(int n, float A[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      A[i][j] = A[j][i];
}
/* The lower triangle from the upper one, the column loop outer. */
void lower_from_upper(int n, double A[n][n]) {
  for (int j = 0; j < n; j++)
    for (int i = j + 1; i < n; i++)
      A[i][j] = A[j][i];
}
/* A lower triangle, diagonal included, transposed into another array. */
void trtranspose(int n, const float A[n][n], float B[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      B[j][i] = A[i][j];
}
/* In place with the diagonal: iteration (i, i) reads and writes the same element. */
void halve_into_upper(int n, float A[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      A[j][i] = 0.5f * A[i][j];
}
/* Every element from its mirror in place: iterations (i, j) and (j, i) depend on each other
   (the loop over i stays on the host). */
void square_in_place(int n, float A[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[j][i] = A[i][j];
}
/* The guard reads an array. */
void masked(int n, const int M[n][n], const float A[n][n], float B[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (M[i][j] > 0)
        B[j][i] = A[i][j];
}

/* A user's guard over a rectangle, n rows and m columns: a trapezoid of tiles where m < n. */
void lower_part(int n, int m, const float A[n][m], float B[m][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      if (j <= i)
        B[j][i] = A[i][j];
}
/* Strictly below the diagonal, the column loop outer. */
void strict_lower(int n, const float A[n][n], float B[n][n]) {
  for (int j = 0; j < n; j++)
    for (int i = j + 1; i < n; i++)
      B[j][i] = A[i][j];
}
/* A band 40 wide above the diagonal too: its tiles are not the triangle's, all of them run. */
void band(int n, const float A[n][n], float B[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (j <= i + 40)
        B[j][i] = A[i][j];
}

//--- config.yaml
kernel_files: [kernel.c]
kernels: [symmetrize, lower_from_upper, trtranspose, halve_into_upper, square_in_place, masked, lower_part,
          strict_lower, band]
