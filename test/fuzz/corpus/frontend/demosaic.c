/* Green channel of a Bayer-mosaic image (bilinear demosaicing).
 * G is the N x N mosaic: green samples on the sites where i + j is even, 0 on the others.
 * out is (N-16) x (N-16): out[i][j] reconstructs pixel (i+8, j+8) of the mosaic, so an 8-pixel
 * border stays untouched and every read is inside G. At a green site the four neighbours are
 * 0 and the sample is kept; elsewhere the centre is 0 and the four green neighbours are averaged.
 * Legacy RT-CUDA dialect: G uses two subscripts with row width ROW_DIM (= N); out has a
 * different row width (N-16) and is indexed linearly. */
void k(float *out, float *restrict G, int N)
{
    for (int i = 0; i < N - 16; i++)
        for (int j = 0; j < N - 16; j++)
            out[i * (N - 16) + j] = G[i + 8][j + 8]
                + 0.25f * (G[i + 7][j + 8] + G[i + 9][j + 8]
                           + G[i + 8][j + 7] + G[i + 8][j + 9]);
}
