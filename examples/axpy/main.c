/* AXPY example: C = C + 3 * A on double vectors of length N (N = argv[1], default 1000000). */

/* Deterministic pseudo-random numbers in [0, 1): a 32-bit linear congruential generator. */
static double next_random(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (double)(*state >> 8) / 16777216.0;
}

int main(int argc, char *argv[])
{
    int N = argc > 1 ? atoi(argv[1]) : 1000000;
    if (N < 1) {
        fprintf(stderr, "usage: %s [N >= 1]\n", argv[0]);
        exit(1);
    }
    double *A = (double *)malloc((size_t)N * sizeof(double));
    double *C = (double *)malloc((size_t)N * sizeof(double));
    if (A == NULL || C == NULL) {
        fprintf(stderr, "error: out of memory\n");
        exit(1);
    }
    unsigned int seed = 8;
    for (int k = 0; k < N; k++) {
        A[k] = 2.0 * next_random(&seed) - 1.0;
        C[k] = next_random(&seed);
    }

    axpy(C, A, 3.0, N);

    double checksum = 0.0;
    for (int k = 0; k < N; k++)
        checksum += C[k];
    printf("axpy N=%d\n", N);
    printf("checksum: %.6e\n", checksum);
    printf("C[0]=%.5f C[N/2]=%.5f C[N-1]=%.5f\n", C[0], C[N / 2], C[N - 1]);

    free(A);
    free(C);
    exit(0);
}
