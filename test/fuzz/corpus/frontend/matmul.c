/* Matrix multiply: C = A * B on N x N matrices.
 * sum is declared and reset inside the (i, j) loops: each C[i][j] is its own dot product.
 * Legacy RT-CUDA dialect: two subscripts on 1-D pointers, row width ROW_DIM (= N). */
void k(float *C, float *restrict A, float *restrict B, int N)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            float sum = 0.0f;
            for (int k = 0; k < N; k++)
                sum += A[i][k] * B[k][j];
            C[i][j] = sum;
        }
}
