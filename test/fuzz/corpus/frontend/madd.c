/* Matrix addition: C = A + B on N x N matrices.
 * Legacy RT-CUDA dialect: two subscripts on 1-D pointers, row width ROW_DIM (= N). */
void k(float *C, float *restrict A, float *restrict B, int N)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            C[i][j] = A[i][j] + B[i][j];
}
