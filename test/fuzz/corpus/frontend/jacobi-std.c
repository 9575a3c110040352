/* One Jacobi sweep for A x = B in standard C99 (double precision, A n x n):
 *   NX[i] = X[i] + (B[i] - sum over j of A[i][j] * X[j]) / A[i][i],
 * the same as (B[i] - sum over j != i of A[i][j] * X[j]) / A[i][i]. NX and X are distinct. */
void k(int n, double NX[restrict n], const double A[restrict n][n],
            const double X[restrict n], const double B[restrict n])
{
    for (int i = 0; i < n; i++) {
        double sum = 0.0;
        for (int j = 0; j < n; j++)
            sum += A[i][j] * X[j];
        NX[i] = X[i] + (B[i] - sum) / A[i][i];
    }
}
