/* Matrix multiply in standard C99: C (n x p) = A (n x m) * B (m x p).
 * Variable-length array parameters carry every row width, so no ROW_DIM is needed. */
void k(int n, int m, int p, float C[restrict n][p], const float A[restrict n][m],
        const float B[restrict m][p])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < p; j++) {
            float sum = 0.0f;
            for (int k = 0; k < m; k++)
                sum += A[i][k] * B[k][j];
            C[i][j] = sum;
        }
}
