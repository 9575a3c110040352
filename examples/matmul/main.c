/* Matrix multiply example: C = A * B, N x N matrices (N = argv[1], default 128). */

/* Deterministic pseudo-random numbers in [0, 1): a 32-bit linear congruential generator. */
static float next_random(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 16777216.0f;
}

int main(int argc, char *argv[])
{
    int N = argc > 1 ? atoi(argv[1]) : 128;
    if (N < 1) {
        fprintf(stderr, "usage: %s [N >= 1]\n", argv[0]);
        exit(1);
    }
    size_t count = (size_t)N * N;
    float *A = (float *)malloc(count * sizeof(float));
    float *B = (float *)malloc(count * sizeof(float));
    float *C = (float *)malloc(count * sizeof(float));
    if (A == NULL || B == NULL || C == NULL) {
        fprintf(stderr, "error: out of memory\n");
        exit(1);
    }
    unsigned int seed = 5;
    for (size_t k = 0; k < count; k++) {
        A[k] = 2.0f * next_random(&seed) - 1.0f;
        B[k] = 2.0f * next_random(&seed) - 1.0f;
    }

    mm(C, A, B, N);

    double checksum = 0.0;
    for (size_t k = 0; k < count; k++)
        checksum += C[k];
    printf("mm N=%d\n", N);
    printf("checksum: %.6e\n", checksum);
    printf("C[0][0]=%.5f C[N/2][N/3]=%.5f C[N-1][N-1]=%.5f\n",
           C[0], C[(size_t)(N / 2) * N + N / 3], C[count - 1]);

    free(A);
    free(B);
    free(C);
    exit(0);
}
