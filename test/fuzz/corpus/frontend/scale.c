/* Matrix k: C = s * A on N x N matrices.
 * Legacy RT-CUDA dialect: the 1-D pointers are indexed with two subscripts; the row width is
 * ROW_DIM (= N) in config.txt. */
void k(float *C, float *restrict A, float s, int N)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            C[i][j] = s * A[i][j];
}
