/* Matrix addition in standard C99: C = A + B, all rows x cols. */
void k(int rows, int cols, float C[restrict rows][cols], const float A[restrict rows][cols],
          const float B[restrict rows][cols])
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            C[i][j] = A[i][j] + B[i][j];
}
