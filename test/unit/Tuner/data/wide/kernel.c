/* Row sums (LaneReduction's rows): 32-bit index arithmetic where the grid's counts fit, else
 * rowsum_wide_index (tuner.wide_index_fake). */
void rowsum(int rows, int cols, const float A[restrict rows][cols], float out[restrict rows])
{
    for (int i = 0; i < rows; i++) {
        float s = 0.0f;
        for (int j = 0; j < cols; j++)
            s += A[i][j];
        out[i] = s;
    }
}
