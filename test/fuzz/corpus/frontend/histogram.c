/* Histogram of an N x N image of 8-bit values into 256 bins.
 * Every pixel adds one to a bin chosen by its value, so different (i, j) may update the same
 * bin: a parallel version needs atomic updates. The value is masked to 0..255 so the bin index
 * is in range for any input (a checker may feed random ints).
 * Legacy RT-CUDA dialect: A uses two subscripts with row width ROW_DIM (= N). */
void k(int *hist, int *restrict A, int N)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int b = A[i][j] & 255;
            hist[b] += 1;
        }
}
