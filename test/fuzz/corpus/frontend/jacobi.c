/* One Jacobi sweep for A x = B in double precision, A N x N:
 *   NX[i] = (B[i] - sum over j != i of A[i][j] * X[j]) / A[i][i],
 * written as a correction of X[i] by the residual of row i, so the j loop needs no test:
 *   NX[i] = X[i] + (B[i] - sum over all j of A[i][j] * X[j]) / A[i][i].
 * X and NX are always distinct arrays (main swaps the two pointers between sweeps).
 * Legacy RT-CUDA dialect: A uses two subscripts with row width ROW_DIM (= N). */
void k(double *NX, double *restrict A, double *restrict X, double *restrict B, int N)
{
    for (int i = 0; i < N; i++) {
        double sum = 0.0;
        for (int j = 0; j < N; j++)
            sum += A[i][j] * X[j];
        NX[i] = X[i] + (B[i] - sum) / A[i][i];
    }
}
