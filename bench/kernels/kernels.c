/* Kernels of issue 13's kinds, written as a user would (plain C99, default configs), for
 * bench/kinds_on_gpu.sh. Each is timed against the library call or the copy bandwidth. */
#include <math.h>

/* Row sums: out[i] = sum_j A[i][j]. */
void rowsum(int rows, int cols, const float A[restrict rows][cols], float out[restrict rows])
{
    for (int i = 0; i < rows; i++) {
        float s = 0.0f;
        for (int j = 0; j < cols; j++)
            s += A[i][j];
        out[i] = s;
    }
}

/* Column sums: out[j] = sum_i A[i][j]. */
void colsum(int rows, int cols, const float A[restrict rows][cols], float out[restrict cols])
{
    for (int j = 0; j < cols; j++) {
        float s = 0.0f;
        for (int i = 0; i < rows; i++)
            s += A[i][j];
        out[j] = s;
    }
}

/* Column sums written into the output element, as PolyBench writes its sums (AccumulatorPromotion
 * sums them in a scalar; the same mapping as colsum). */
void colsum_acc(int rows, int cols, const float A[restrict rows][cols], float out[restrict cols])
{
    for (int j = 0; j < cols; j++) {
        out[j] = 0.0f;
        for (int i = 0; i < rows; i++)
            out[j] += A[i][j];
    }
}

/* Transposed matrix-vector product y += A^T x, written row by row as PolyBench's atax and bicg
 * write it (every row updates every y[j]). Fission interchanges it: a column per thread, no
 * atomics. */
void tmv(int rows, int cols, const float A[restrict rows][cols], const float x[restrict rows],
         float y[restrict cols])
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            y[j] += A[i][j] * x[i];
}

/* Column sums of each matrix of a batch (3-D): the batch and column loops collapse into one
 * index; ReductionSplit splits the rows as for colsum. */
void bcolsum(int batch, int rows, int cols, const float A[restrict batch][rows][cols],
             float out[restrict batch][cols])
{
    for (int b = 0; b < batch; b++)
        for (int j = 0; j < cols; j++) {
            float s = 0.0f;
            for (int i = 0; i < rows; i++)
                s += A[b][i][j];
            out[b][j] = s;
        }
}

/* Column sums in double precision. */
void dcolsum(int rows, int cols, const double A[restrict rows][cols], double out[restrict cols])
{
    for (int j = 0; j < cols; j++) {
        double s = 0.0;
        for (int i = 0; i < rows; i++)
            s += A[i][j];
        out[j] = s;
    }
}

/* Matrix-vector product y = A x, rectangular. */
void mvrect(int rows, int cols, const float A[restrict rows][cols], const float x[restrict cols],
            float y[restrict rows])
{
    for (int i = 0; i < rows; i++) {
        float s = 0.0f;
        for (int j = 0; j < cols; j++)
            s += A[i][j] * x[j];
        y[i] = s;
    }
}

/* Batched matrix-vector products: y[b] = A[b] x[b], a 3-D nest (double). */
void bmv(int batch, int rows, int cols, const double A[restrict batch][rows][cols],
         const double x[restrict batch][cols], double y[restrict batch][rows])
{
    for (int b = 0; b < batch; b++)
        for (int i = 0; i < rows; i++) {
            double s = 0.0;
            for (int j = 0; j < cols; j++)
                s += A[b][i][j] * x[b][j];
            y[b][i] = s;
        }
}

/* Transpose: B = A^T, A rows x cols. */
void transpose(int rows, int cols, const float A[restrict rows][cols], float B[restrict cols][rows])
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            B[j][i] = A[i][j];
}

/* The same transpose written from the output's side. */
void transpose_out(int rows, int cols, const float A[restrict rows][cols],
                   float B[restrict cols][rows])
{
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++)
            B[j][i] = A[i][j];
}

/* Histograms of n values into 64 and 256 bins. */
void hist64(int n, const int data[restrict n], int hist[restrict 64])
{
    for (int i = 0; i < n; i++)
        hist[data[i] & 63] += 1;
}

void hist256(int n, const int data[restrict n], int hist[restrict 256])
{
    for (int i = 0; i < n; i++)
        hist[data[i] & 255] += 1;
}

/* 1-D convolution with 16 taps. */
void conv1d(int n, const float x[restrict n + 15], const float w[restrict 16], float y[restrict n])
{
    for (int i = 0; i < n; i++) {
        float s = 0.0f;
        for (int t = 0; t < 16; t++)
            s += w[t] * x[i + t];
        y[i] = s;
    }
}

/* 2-D five-point stencil on the interior of a rows x cols grid. */
void stencil2d(int rows, int cols, const float A[restrict rows][cols], float B[restrict rows][cols])
{
    for (int i = 1; i < rows - 1; i++)
        for (int j = 1; j < cols - 1; j++)
            B[i][j] = 0.2f * (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
}

/* 2-D 3x3 convolution. */
void conv2d(int rows, int cols, const float A[restrict rows + 2][cols + 2], const float K[restrict 3][3],
            float B[restrict rows][cols])
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            float s = 0.0f;
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++)
                    s += K[a][b] * A[i + a][j + b];
            B[i][j] = s;
        }
}

/* 1-D three-point stencil (double). */
void stencil1d(int n, const double x[restrict n], double y[restrict n])
{
    for (int i = 1; i < n - 1; i++)
        y[i] = 0.25 * x[i - 1] + 0.5 * x[i] + 0.25 * x[i + 1];
}

/* 2-D 5x5 convolution. */
void conv2d5(int rows, int cols, const float A[restrict rows + 4][cols + 4], const float K[restrict 5][5],
             float B[restrict rows][cols])
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            float s = 0.0f;
            for (int a = 0; a < 5; a++)
                for (int b = 0; b < 5; b++)
                    s += K[a][b] * A[i + a][j + b];
            B[i][j] = s;
        }
}

/* 3-D seven-point stencil on the interior of a grid. */
void stencil3d(int nz, int ny, int nx, const float A[restrict nz][ny][nx], float B[restrict nz][ny][nx])
{
    for (int k = 1; k < nz - 1; k++)
        for (int j = 1; j < ny - 1; j++)
            for (int i = 1; i < nx - 1; i++)
                B[k][j][i] = 0.4f * A[k][j][i] + 0.1f * (A[k - 1][j][i] + A[k + 1][j][i] + A[k][j - 1][i] +
                                                         A[k][j + 1][i] + A[k][j][i - 1] + A[k][j][i + 1]);
}

/* 1-D convolution with 7 taps (an odd window). */
void conv1d7(int n, const float x[restrict n + 6], const float w[restrict 7], float y[restrict n])
{
    for (int i = 0; i < n; i++) {
        float s = 0.0f;
        for (int t = 0; t < 7; t++)
            s += w[t] * x[i + t];
        y[i] = s;
    }
}

/* 3-D 27-point box filter on the interior of a grid. */
void box3d(int nz, int ny, int nx, const float A[restrict nz][ny][nx], float B[restrict nz][ny][nx])
{
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

/* 3-D diffusion with a coefficient field (session 18): fluxes through the six faces, each the
   mean of the two cells' coefficients times the difference of their values; two arrays read
   around each point, products of reads (no linear form). */
void kdiff3d(int nz, int ny, int nx, const float K[restrict nz][ny][nx], const float A[restrict nz][ny][nx],
             float B[restrict nz][ny][nx])
{
    for (int k = 1; k < nz - 1; k++)
        for (int j = 1; j < ny - 1; j++)
            for (int i = 1; i < nx - 1; i++)
                B[k][j][i] = A[k][j][i] +
                             0.05f * ((K[k][j][i] + K[k][j][i + 1]) * (A[k][j][i + 1] - A[k][j][i]) -
                                      (K[k][j][i] + K[k][j][i - 1]) * (A[k][j][i] - A[k][j][i - 1]) +
                                      (K[k][j][i] + K[k][j + 1][i]) * (A[k][j + 1][i] - A[k][j][i]) -
                                      (K[k][j][i] + K[k][j - 1][i]) * (A[k][j][i] - A[k][j - 1][i]) +
                                      (K[k][j][i] + K[k + 1][j][i]) * (A[k + 1][j][i] - A[k][j][i]) -
                                      (K[k][j][i] + K[k - 1][j][i]) * (A[k][j][i] - A[k - 1][j][i]));
}

/* 3-D 3x3x3 convolution with a weight array (27 taps). */
void conv3d(int nz, int ny, int nx, const float A[restrict nz + 2][ny + 2][nx + 2], const float K[restrict 3][3][3],
            float B[restrict nz][ny][nx])
{
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                float s = 0.0f;
                for (int c = 0; c < 3; c++)
                    for (int b = 0; b < 3; b++)
                        for (int a = 0; a < 3; a++)
                            s += K[c][b][a] * A[k + c][j + b][i + a];
                B[k][j][i] = s;
            }
}

/* 2-D 7x7 convolution (49 taps). */
void conv2d7(int rows, int cols, const float A[restrict rows + 6][cols + 6], const float K[restrict 7][7],
             float B[restrict rows][cols])
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            float s = 0.0f;
            for (int a = 0; a < 7; a++)
                for (int b = 0; b < 7; b++)
                    s += K[a][b] * A[i + a][j + b];
            B[i][j] = s;
        }
}

/* 2-D 3x5 convolution: a filter of 3 rows and 5 columns. */
void conv2d35(int rows, int cols, const float A[restrict rows + 2][cols + 4], const float K[restrict 3][5],
              float B[restrict rows][cols])
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            float s = 0.0f;
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 5; b++)
                    s += K[a][b] * A[i + a][j + b];
            B[i][j] = s;
        }
}

/* A plain collapsed 3-D nest (index9, session 9): no reuse between neighbours, so its speed is
 * its index arithmetic's: two divisions per thread to recover k, j and i from the collapsed
 * index; with an offset start and an odd inner extent. */
void add3d(int nz, int ny, int nx, const float A[restrict nz][ny][nx], const float C[restrict nz][ny][nx],
           float B[restrict nz][ny][nx])
{
    for (int k = 0; k < nz; k++)
        for (int j = 1; j < ny; j++)
            for (int i = 0; i < nx - 1; i++)
                B[k][j][i] = A[k][j][i] + 2.0f * C[k][j][i];
}

/* 3-D 13-point star (radius 2 along each axis; a fourth-order Laplacian smoother). */
void star3d(int nz, int ny, int nx, const float A[restrict nz][ny][nx], float B[restrict nz][ny][nx])
{
    for (int k = 2; k < nz - 2; k++)
        for (int j = 2; j < ny - 2; j++)
            for (int i = 2; i < nx - 2; i++)
                B[k][j][i] = 0.5f * A[k][j][i] +
                             0.1f * (A[k - 1][j][i] + A[k + 1][j][i] + A[k][j - 1][i] + A[k][j + 1][i] +
                                     A[k][j][i - 1] + A[k][j][i + 1]) -
                             0.025f * (A[k - 2][j][i] + A[k + 2][j][i] + A[k][j - 2][i] + A[k][j + 2][i] +
                                       A[k][j][i - 2] + A[k][j][i + 2]);
}

/* 3-D non-cubic box: a 5 x 3 in-plane box (rows j-2..j+2, columns i-1..i+1) in 3 planes, each
   plane weighted by wz[c]. */
void boxw3d(int nz, int ny, int nx, const float A[restrict nz][ny][nx], const float wz[restrict 3],
            float B[restrict nz][ny][nx])
{
    for (int k = 1; k < nz - 1; k++)
        for (int j = 2; j < ny - 2; j++)
            for (int i = 1; i < nx - 1; i++) {
                float s = 0.0f;
                for (int c = 0; c < 3; c++) {
                    float p = 0.0f;
                    for (int b = -2; b <= 2; b++)
                        for (int a = -1; a <= 1; a++)
                            p += A[k + c - 1][j + b][i + a];
                    s += wz[c] * p;
                }
                B[k][j][i] = s;
            }
}

/* 3-D deep box: a 3 x 3 in-plane box in 5 planes (k-2 .. k+2), 45 points, each plane weighted by
   wz[c + 2]; a window of 5 planes like star3d's, but a box in the plane (session 10). */
void boxz5(int nz, int ny, int nx, const float A[restrict nz][ny][nx], const float wz[restrict 5],
           float B[restrict nz][ny][nx])
{
    for (int k = 2; k < nz - 2; k++)
        for (int j = 1; j < ny - 1; j++)
            for (int i = 1; i < nx - 1; i++) {
                float s = 0.0f;
                for (int c = -2; c <= 2; c++) {
                    float p = 0.0f;
                    for (int b = -1; b <= 1; b++)
                        for (int a = -1; a <= 1; a++)
                            p += A[k + c][j + b][i + a];
                    s += wz[c + 2] * p;
                }
                B[k][j][i] = s;
            }
}

/* 2-D 5-point stencil plus a source term read from a second array (one value per output). */
void stencil2ds(int rows, int cols, const float A[restrict rows][cols], const float S[restrict rows][cols],
                float B[restrict rows][cols])
{
    for (int i = 1; i < rows - 1; i++)
        for (int j = 1; j < cols - 1; j++)
            B[i][j] = 0.2f * (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]) + S[i][j];
}

/* 3-D 7-point stencil reading two arrays: the Laplacian of A weighted by a coefficient field K. */
void stencil3dk(int nz, int ny, int nx, const float A[restrict nz][ny][nx], const float K[restrict nz][ny][nx],
                float B[restrict nz][ny][nx])
{
    for (int k = 1; k < nz - 1; k++)
        for (int j = 1; j < ny - 1; j++)
            for (int i = 1; i < nx - 1; i++)
                B[k][j][i] = A[k][j][i] + K[k][j][i] * (A[k - 1][j][i] + A[k + 1][j][i] + A[k][j - 1][i] +
                                                         A[k][j + 1][i] + A[k][j][i - 1] + A[k][j][i + 1] -
                                                         6.0f * A[k][j][i]);
}

/* 2-D 5-point star of radius 2 along rows only (A[i-2..i+2][j]): a vertical smoother. */
void vsmooth(int rows, int cols, const float A[restrict rows][cols], float B[restrict rows][cols])
{
    for (int i = 2; i < rows - 2; i++)
        for (int j = 0; j < cols; j++)
            B[i][j] = 0.1f * (A[i - 2][j] + A[i + 2][j]) + 0.2f * (A[i - 1][j] + A[i + 1][j]) + 0.4f * A[i][j];
}

/* 3-D element-wise with a scalar: y = a * x + y over a box (in place; no reuse). */
void axpy3d(int nz, int ny, int nx, float a, const float X[restrict nz][ny][nx], float Y[restrict nz][ny][nx])
{
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                Y[k][j][i] = a * X[k][j][i] + Y[k][j][i];
}

/* 2-D 5x3 convolution: a filter of 5 rows and 3 columns (halo10, session 10). */
void conv2d53(int rows, int cols, const float A[restrict rows + 4][cols + 2], const float K[restrict 5][3],
              float B[restrict rows][cols])
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            float s = 0.0f;
            for (int a = 0; a < 5; a++)
                for (int b = 0; b < 3; b++)
                    s += K[a][b] * A[i + a][j + b];
            B[i][j] = s;
        }
}

/* 2-D 6x6 convolution: even extents, 36 taps. */
void conv2d66(int rows, int cols, const float A[restrict rows + 5][cols + 5], const float K[restrict 6][6],
              float B[restrict rows][cols])
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            float s = 0.0f;
            for (int a = 0; a < 6; a++)
                for (int b = 0; b < 6; b++)
                    s += K[a][b] * A[i + a][j + b];
            B[i][j] = s;
        }
}

/* 2-D filter of two inputs: a 3x5 filter of A plus another of C. */
void conv2d2in(int rows, int cols, const float A[restrict rows + 2][cols + 4], const float C[restrict rows + 2][cols + 4],
               const float K[restrict 3][5], const float L[restrict 3][5], float B[restrict rows][cols])
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            float s = 0.0f;
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 5; b++)
                    s += K[a][b] * A[i + a][j + b] + L[a][b] * C[i + a][j + b];
            B[i][j] = s;
        }
}

/* 2-D 5x5 box blur on the interior of a grid: one weight, centred offsets. */
void blur5(int n, int m, const float A[restrict n][m], float B[restrict n][m])
{
    for (int i = 2; i < n - 2; i++)
        for (int j = 2; j < m - 2; j++) {
            float s = 0.0f;
            for (int a = -2; a <= 2; a++)
                for (int b = -2; b <= 2; b++)
                    s += A[i + a][j + b];
            B[i][j] = 0.04f * s;
        }
}

/* PolyBench's gesummv on a rectangle, as PolyBench writes it: two sums per row into array
 * elements, zeroed first, and an epilogue (AccumulatorPromotion: two scalars; LaneReduction: a
 * warp per row, both sums in one loop). */
void gesummv(int rows, int cols, float alpha, float beta, const float A[restrict rows][cols],
             const float B[restrict rows][cols], const float x[restrict cols],
             float tmp[restrict rows], float y[restrict rows])
{
    for (int i = 0; i < rows; i++) {
        tmp[i] = 0.0f;
        y[i] = 0.0f;
        for (int j = 0; j < cols; j++) {
            tmp[i] = A[i][j] * x[j] + tmp[i];
            y[i] = B[i][j] * x[j] + y[i];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
}

/* gramschmidt's column step: r[j] = q . A[:][j], then A[:][j] -= q r[j] (a column sum, then an
 * update of the same column, which the block's warps split after sharing the sum). */
void gsupdate(int rows, int cols, const float q[restrict rows], float A[restrict rows][cols],
              float r[restrict cols])
{
    for (int j = 0; j < cols; j++) {
        r[j] = 0.0f;
        for (int i = 0; i < rows; i++)
            r[j] += q[i] * A[i][j];
        for (int i = 0; i < rows; i++)
            A[i][j] = A[i][j] - q[i] * r[j];
    }
}

/* Symmetric rank-k product, lower triangle (syrk's shape): C[i][j] = row i . row j, j <= i. */
void syrkl(int n, int k, const float A[restrict n][k], float C[restrict n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            float s = 0.0f;
            for (int p = 0; p < k; p++)
                s += A[i][p] * A[j][p];
            C[i][j] = s;
        }
}

/* Covariance's product D^T D: the upper triangle accumulated in C, mirrored below. */
void atasym(int n, int m, const float D[restrict n][m], float C[restrict m][m])
{
    for (int i = 0; i < m; i++)
        for (int j = i; j < m; j++) {
            C[i][j] = 0.0f;
            for (int k = 0; k < n; k++)
                C[i][j] += D[k][i] * D[k][j];
            C[j][i] = C[i][j];
        }
}

/* 2-D 3x5 filter whose weights are scalar parameters, one per row of the window (session 11). */
void wfilt35(int rows, int cols, float c0, float c1, float c2,
             const float A[restrict rows + 2][cols + 4], float B[restrict rows][cols])
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            B[i][j] = c0 * (A[i][j] + A[i][j + 1] + A[i][j + 2] + A[i][j + 3] + A[i][j + 4]) +
                      c1 * (A[i + 1][j] + A[i + 1][j + 1] + A[i + 1][j + 2] + A[i + 1][j + 3] + A[i + 1][j + 4]) +
                      c2 * (A[i + 2][j] + A[i + 2][j + 1] + A[i + 2][j + 2] + A[i + 2][j + 3] + A[i + 2][j + 4]);
}

/* 2-D 9x9 convolution: 81 taps, more than a thread keeps in registers (session 11). */
void conv2d9(int rows, int cols, const float A[restrict rows + 8][cols + 8], const float K[restrict 9][9],
             float B[restrict rows][cols])
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            float s = 0.0f;
            for (int a = 0; a < 9; a++)
                for (int b = 0; b < 9; b++)
                    s += K[a][b] * A[i + a][j + b];
            B[i][j] = s;
        }
}

/* Batched transpose: each batch's matrix transposed (session 12). */
void btranspose(int batch, int rows, int cols, const float A[restrict batch][rows][cols],
                float B[restrict batch][cols][rows])
{
    for (int b = 0; b < batch; b++)
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++)
                B[b][j][i] = A[b][i][j];
}

/* A rank-1 update written column by column (gramschmidt's update; session 13: LoopOrder walks
 * it row by row). */
void colupdate(int rows, int cols, const float q[restrict rows], float A[restrict rows][cols],
               const float r[restrict cols])
{
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++)
            A[i][j] = A[i][j] - q[i] * r[j];
}

/* add3d with its loops written the other way round: the last subscript's loop outermost. */
void add3dt(int nz, int ny, int nx, const float A[restrict nz][ny][nx], const float C[restrict nz][ny][nx],
            float B[restrict nz][ny][nx])
{
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++)
            for (int k = 0; k < nz; k++)
                B[k][j][i] = A[k][j][i] + 2.0f * C[k][j][i];
}

/* gemver's first step: a rank-2 update in place (session 14). */
void rank2(int rows, int cols, float A[restrict rows][cols], const float u1[restrict rows],
           const float v1[restrict cols], const float u2[restrict rows], const float v2[restrict cols])
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
}

/* A 3-D update in place: each plane scaled, a row added (session 14). */
void scale3d(int nz, int ny, int nx, float A[restrict nz][ny][nx], const float s[restrict nz],
             const float t[restrict nx])
{
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                A[k][j][i] = A[k][j][i] * s[k] + t[i];
}

/* Triangular bounds (session 16). y = L x, L lower triangular: row i reads columns 0..i. */
void trmv(int n, const float L[restrict n][n], const float x[restrict n], float y[restrict n])
{
    for (int i = 0; i < n; i++) {
        float s = 0.0f;
        for (int j = 0; j <= i; j++)
            s += L[i][j] * x[j];
        y[i] = s;
    }
}

/* y = U x, U upper triangular: row i reads columns i..n-1. */
void trmvu(int n, const float U[restrict n][n], const float x[restrict n], float y[restrict n])
{
    for (int i = 0; i < n; i++) {
        float s = 0.0f;
        for (int j = i; j < n; j++)
            s += U[i][j] * x[j];
        y[i] = s;
    }
}

/* y = L^T x: the column sums of a lower triangle weighted by x (column j reads rows j..n-1). */
void trmvt(int n, const float L[restrict n][n], const float x[restrict n], float y[restrict n])
{
    for (int j = 0; j < n; j++) {
        float s = 0.0f;
        for (int i = j; i < n; i++)
            s += L[i][j] * x[i];
        y[j] = s;
    }
}

/* The upper triangle from the lower one, in place: a triangular transpose. */
void symmetrize(int n, float A[restrict n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            A[i][j] = A[j][i];
}

/* A lower triangle, diagonal included, transposed into another array. */
void trtranspose(int n, const float L[restrict n][n], float U[restrict n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            U[j][i] = L[i][j];
}

/* Row maxima (session 17): LaneReduction's lanes combine with max. */
void rowmax(int rows, int cols, const float A[restrict rows][cols], float out[restrict rows])
{
    for (int i = 0; i < rows; i++) {
        float m = A[i][0];
        for (int j = 1; j < cols; j++)
            m = fmaxf(m, A[i][j]);
        out[i] = m;
    }
}

/* Column minima: the block's warps split the rows of 32 neighbouring columns. */
void colmin(int rows, int cols, const float A[restrict rows][cols], float out[restrict cols])
{
    for (int j = 0; j < cols; j++) {
        float m = A[0][j];
        for (int i = 1; i < rows; i++)
            m = fminf(m, A[i][j]);
        out[j] = m;
    }
}

/* y += U x written column by column (axpy form, i <= j): the triangular interchange makes it
   trmvu's row sums, where the bounding box would add every element atomically (session 17). */
void trmvc(int n, const float U[restrict n][n], const float x[restrict n], float y[restrict n])
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= j; i++)
            y[i] += U[i][j] * x[j];
}

/* A 3-D permutation, [b][m][n] into [n][b][m]: the batch the middle subscript of the output
   (session 17: TiledTranspose takes the batch in any position but the last). */
void permute021(int batch, int rows, int cols, const float A[restrict batch][rows][cols],
                float B[restrict cols][batch][rows])
{
    for (int b = 0; b < batch; b++)
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++)
                B[j][b][i] = A[b][i][j];
}

/* Session 19: the same kinds written over flat pointers, rows indexed by hand (A[i * cols + j]),
   as C programs with malloc'd matrices write them (Delinearize). */
void mmflat(int n, int m, int p, const float *restrict A, const float *restrict B, float *restrict C)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            float s = 0.0f;
            for (int k = 0; k < p; k++)
                s += A[i * p + k] * B[k * m + j];
            C[i * m + j] = s;
        }
}

/* The same product with arrays of rows, for the comparison in one job. */
void mm2d(int n, int m, int p, const float A[restrict n][p], const float B[restrict p][m], float C[restrict n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            float s = 0.0f;
            for (int k = 0; k < p; k++)
                s += A[i][k] * B[k][j];
            C[i][j] = s;
        }
}

void transflat(int rows, int cols, const float *restrict A, float *restrict B)
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            B[j * rows + i] = A[i * cols + j];
}

void conv2dflat(int rows, int cols, const float *restrict A, const float *restrict K, float *restrict B)
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            float s = 0.0f;
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++)
                    s += K[a * 3 + b] * A[(i + a) * (cols + 2) + j + b];
            B[i * cols + j] = s;
        }
}

void box3dflat(int nz, int ny, int nx, const float *restrict A, float *restrict B)
{
    for (int k = 1; k < nz - 1; k++)
        for (int j = 1; j < ny - 1; j++)
            for (int i = 1; i < nx - 1; i++) {
                float s = 0.0f;
                for (int c = -1; c <= 1; c++)
                    for (int b = -1; b <= 1; b++)
                        for (int a = -1; a <= 1; a++)
                            s += A[((k + c) * ny + j + b) * nx + i + a];
                B[(k * ny + j) * nx + i] = s * (1.0f / 27.0f);
            }
}

/* Each row reversed into another array (B's column written from the row's other end). */
void revrowflat(int rows, int cols, const float *restrict A, float *restrict B)
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            B[i * cols + cols - 1 - j] = A[i * cols + j];
}

/* Session 19: a sum of squares added to what *out holds, one element updated by every iteration
   (ElementReduction). With `*out = 0.0f;` first the function is outlined into three launches
   (the benchmark times single launches). */
void sumsq(int n, const float *restrict x, float *restrict out)
{
    for (int i = 0; i < n; i++)
        *out += x[i] * x[i];
}

/* The sum of every element of a matrix added into t[0]. */
void msum(int rows, int cols, const float A[restrict rows][cols], float t[restrict 1])
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            t[0] += A[i][j];
}

/* A dot product into a scalar, stored once (ParallelReduction). */
void dotp(int n, const float x[restrict n], const float y[restrict n], float out[restrict 1])
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    out[0] = s;
}

/* Session 20: rows of several phases (LaneReduction's later phases) and a CSR product. */
/* Softmax of each row: its maximum, the sum of exponentials, the row written. */
void softmax(int rows, int cols, const float X[restrict rows][cols], float Y[restrict rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float m = X[i][0];
        for (int j = 1; j < cols; j++)
            m = fmaxf(m, X[i][j]);
        float s = 0.0f;
        for (int j = 0; j < cols; j++)
            s += expf(X[i][j] - m);
        for (int j = 0; j < cols; j++)
            Y[i][j] = expf(X[i][j] - m) / s;
    }
}

/* Layer norm of each row: mean, variance, the row normalised. */
void layernorm(int rows, int cols, const float X[restrict rows][cols], float Y[restrict rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float mean = 0.0f;
        for (int j = 0; j < cols; j++)
            mean += X[i][j];
        mean /= cols;
        float var = 0.0f;
        for (int j = 0; j < cols; j++)
            var += (X[i][j] - mean) * (X[i][j] - mean);
        var /= cols;
        float inv = 1.0f / sqrtf(var + 1e-5f);
        for (int j = 0; j < cols; j++)
            Y[i][j] = (X[i][j] - mean) * inv;
    }
}

/* Sparse matrix times vector, CSR. */
void spmv(int rows, int nnz, const int rowptr[restrict rows + 1], const int col[restrict nnz],
          const float val[restrict nnz], const float x[restrict rows], float y[restrict rows])
{
    for (int i = 0; i < rows; i++) {
        float s = 0.0f;
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            s += val[k] * x[col[k]];
        y[i] = s;
    }
}

/* A matrix plus the transpose of another: read along the write and across it. */
void addt(int rows, int cols, const float A[restrict rows][cols], const float B[restrict cols][rows],
          float C[restrict rows][cols])
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            C[i][j] = A[i][j] + B[j][i];
}

/* The symmetric part of a square matrix, (A + A^T) / 2. */
void sympart(int n, const float A[restrict n][n], float S[restrict n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            S[i][j] = 0.5f * (A[i][j] + A[j][i]);
}

/* Matrix products with a transposed operand, as stored: C = A^T B (A p x n), A B^T (B m x p),
 * A^T B^T; and a batch of products, one per b. */
void mmtn(int n, int m, int p, const float A[restrict p][n], const float B[restrict p][m], float C[restrict n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            float s = 0.0f;
            for (int k = 0; k < p; k++)
                s += A[k][i] * B[k][j];
            C[i][j] = s;
        }
}

void mmnt(int n, int m, int p, const float A[restrict n][p], const float B[restrict m][p], float C[restrict n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            float s = 0.0f;
            for (int k = 0; k < p; k++)
                s += A[i][k] * B[j][k];
            C[i][j] = s;
        }
}

void mmtt(int n, int m, int p, const float A[restrict p][n], const float B[restrict m][p], float C[restrict n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            float s = 0.0f;
            for (int k = 0; k < p; k++)
                s += A[k][i] * B[j][k];
            C[i][j] = s;
        }
}

void bmm(int batch, int n, int m, int p, const float A[restrict batch][n][p], const float B[restrict batch][p][m],
         float C[restrict batch][n][m])
{
    for (int b = 0; b < batch; b++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++) {
                float s = 0.0f;
                for (int k = 0; k < p; k++)
                    s += A[b][i][k] * B[b][k][j];
                C[b][i][j] = s;
            }
}

/* Session 21: batches with a transposed operand: attention's scores Q K^T per (head, batch),
   and A^T B per slice. */
void bmmnt(int batch, int n, int m, int p, const float A[restrict batch][n][p], const float B[restrict batch][m][p],
           float C[restrict batch][n][m])
{
    for (int b = 0; b < batch; b++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++) {
                float s = 0.0f;
                for (int k = 0; k < p; k++)
                    s += A[b][i][k] * B[b][j][k];
                C[b][i][j] = s;
            }
}

void bmmtn(int batch, int n, int m, int p, const float A[restrict batch][p][n], const float B[restrict batch][p][m],
           float C[restrict batch][n][m])
{
    for (int b = 0; b < batch; b++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++) {
                float s = 0.0f;
                for (int k = 0; k < p; k++)
                    s += A[b][k][i] * B[b][k][j];
                C[b][i][j] = s;
            }
}

/* Session 21: a row's maximum by comparison, and the first column of a row's maximum (argmax),
   as C programmers write them. */
void rowmaxif(int rows, int cols, const float A[restrict rows][cols], float out[restrict rows])
{
    for (int i = 0; i < rows; i++) {
        float m = A[i][0];
        for (int j = 1; j < cols; j++)
            if (A[i][j] > m)
                m = A[i][j];
        out[i] = m;
    }
}

void rowargmax(int rows, int cols, const float A[restrict rows][cols], int idx[restrict rows])
{
    for (int i = 0; i < rows; i++) {
        int best = 0;
        float bv = A[i][0];
        for (int j = 1; j < cols; j++)
            if (A[i][j] > bv) {
                bv = A[i][j];
                best = j;
            }
        idx[i] = best;
    }
}

/* Session 21: running sums along rows (cumsum) and a prefix sum in place. */
void cumsum(int rows, int cols, const float X[restrict rows][cols], float Y[restrict rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float s = 0.0f;
        for (int j = 0; j < cols; j++) {
            s += X[i][j];
            Y[i][j] = s;
        }
    }
}

void rowscan(int rows, int cols, float A[restrict rows][cols])
{
    for (int i = 0; i < rows; i++)
        for (int j = 1; j < cols; j++)
            A[i][j] += A[i][j - 1];
}

/* A column's norm, then the column divided by it (in place). */
void colnorm(int rows, int cols, float A[restrict rows][cols])
{
    for (int j = 0; j < cols; j++) {
        float s = 0.0f;
        for (int i = 0; i < rows; i++)
            s += A[i][j] * A[i][j];
        s = sqrtf(s);
        for (int i = 0; i < rows; i++)
            A[i][j] /= s;
    }
}

/* RMS norm of each row with a weight per column. */
void rmsnorm(int rows, int cols, const float X[restrict rows][cols], const float w[restrict cols],
             float Y[restrict rows][cols])
{
    for (int i = 0; i < rows; i++) {
        float ss = 0.0f;
        for (int j = 0; j < cols; j++)
            ss += X[i][j] * X[i][j];
        float r = 1.0f / sqrtf(ss / cols + 1e-6f);
        for (int j = 0; j < cols; j++)
            Y[i][j] = X[i][j] * r * w[j];
    }
}
