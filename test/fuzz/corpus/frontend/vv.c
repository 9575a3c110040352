/* Vector outer product: C = A * B^T, C[i][j] = A[i] * B[j], A and B of length N, C N x N.
 * Legacy RT-CUDA dialect: C uses two subscripts with row width ROW_DIM (= N). */
void k(float *C, float *restrict A, float *restrict B, int N)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            C[i][j] = A[i] * B[j];
}
