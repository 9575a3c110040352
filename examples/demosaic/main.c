/* Demosaic example: N x N Bayer mosaic in, (N-16) x (N-16) green channel out
 * (N = argv[1], default 512, at least 17). */

/* Deterministic pseudo-random numbers in [0, 1): a 32-bit linear congruential generator. */
static float next_random(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 16777216.0f;
}

int main(int argc, char *argv[])
{
    int N = argc > 1 ? atoi(argv[1]) : 512;
    if (N < 17) {
        fprintf(stderr, "usage: %s [N >= 17]\n", argv[0]);
        exit(1);
    }
    int M = N - 16;
    float *G = (float *)malloc((size_t)N * N * sizeof(float));
    float *out = (float *)malloc((size_t)M * M * sizeof(float));
    if (G == NULL || out == NULL) {
        fprintf(stderr, "error: out of memory\n");
        exit(1);
    }
    unsigned int seed = 3;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            G[(size_t)i * N + j] = (i + j) % 2 == 0 ? next_random(&seed) : 0.0f;

    demosaic(out, G, N);

    double checksum = 0.0;
    for (size_t k = 0; k < (size_t)M * M; k++)
        checksum += out[k];
    printf("demosaic N=%d (output %d x %d)\n", N, M, M);
    printf("checksum: %.6e\n", checksum);
    printf("out[0][0]=%.5f out[M/2][M/3]=%.5f out[M-1][M-1]=%.5f\n",
           out[0], out[(size_t)(M / 2) * M + M / 3], out[(size_t)M * M - 1]);

    free(G);
    free(out);
    exit(0);
}
