/* Matrix-vector multiply: C = A * B, A an N x N matrix, B and C vectors of length N.
 * sum is declared and reset inside the i loop: each C[i] is its own dot product.
 * Legacy RT-CUDA dialect: A uses two subscripts with row width ROW_DIM (= N). */
void k(float *C, float *restrict A, float *restrict B, int N)
{
    for (int i = 0; i < N; i++) {
        float sum = 0.0f;
        for (int k = 0; k < N; k++)
            sum += A[i][k] * B[k];
        C[i] = sum;
    }
}
