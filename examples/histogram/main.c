/* Histogram example: 256-bin histogram of an N x N image (N = argv[1], default 512). */

/* Deterministic pseudo-random numbers in [0, 1): a 32-bit linear congruential generator. */
static float next_random(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 16777216.0f;
}

int main(int argc, char *argv[])
{
    int N = argc > 1 ? atoi(argv[1]) : 512;
    if (N < 1) {
        fprintf(stderr, "usage: %s [N >= 1]\n", argv[0]);
        exit(1);
    }
    size_t count = (size_t)N * N;
    int *A = (int *)malloc(count * sizeof(int));
    int *hist = (int *)malloc(256 * sizeof(int));
    if (A == NULL || hist == NULL) {
        fprintf(stderr, "error: out of memory\n");
        exit(1);
    }
    /* Pixel values 0..254 with a triangular distribution (sum of two uniform values). */
    unsigned int seed = 4;
    for (size_t k = 0; k < count; k++) {
        int half = (int)(128.0f * next_random(&seed));
        A[k] = half + (int)(128.0f * next_random(&seed));
    }
    for (int b = 0; b < 256; b++)
        hist[b] = 0;

    histogram(hist, A, N);

    long total = 0;
    double checksum = 0.0;
    for (int b = 0; b < 256; b++) {
        total += hist[b];
        checksum += (double)b * hist[b];
    }
    printf("histogram N=%d\n", N);
    printf("pixels counted: %ld of %ld\n", total, (long)count);
    printf("checksum: %.6e\n", checksum);
    printf("hist[0]=%d hist[64]=%d hist[127]=%d hist[254]=%d\n",
           hist[0], hist[64], hist[127], hist[254]);

    free(A);
    free(hist);
    exit(0);
}
