/* Matrix-vector example: C = A * B, A N x N, B and C of length N (N = argv[1], default 1024). */

/* Deterministic pseudo-random numbers in [0, 1): a 32-bit linear congruential generator. */
static float next_random(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 16777216.0f;
}

int main(int argc, char *argv[])
{
    int N = argc > 1 ? atoi(argv[1]) : 1024;
    if (N < 1) {
        fprintf(stderr, "usage: %s [N >= 1]\n", argv[0]);
        exit(1);
    }
    float *A = (float *)malloc((size_t)N * N * sizeof(float));
    float *B = (float *)malloc((size_t)N * sizeof(float));
    float *C = (float *)malloc((size_t)N * sizeof(float));
    if (A == NULL || B == NULL || C == NULL) {
        fprintf(stderr, "error: out of memory\n");
        exit(1);
    }
    unsigned int seed = 6;
    for (size_t k = 0; k < (size_t)N * N; k++)
        A[k] = 2.0f * next_random(&seed) - 1.0f;
    for (int k = 0; k < N; k++)
        B[k] = next_random(&seed);

    mv(C, A, B, N);

    double checksum = 0.0;
    for (int k = 0; k < N; k++)
        checksum += C[k];
    printf("mv N=%d\n", N);
    printf("checksum: %.6e\n", checksum);
    printf("C[0]=%.5f C[N/2]=%.5f C[N-1]=%.5f\n", C[0], C[N / 2], C[N - 1]);

    free(A);
    free(B);
    free(C);
    exit(0);
}
