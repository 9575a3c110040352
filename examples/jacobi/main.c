/* Jacobi example: 100 sweeps on a strictly diagonally dominant N x N system
 * (N = argv[1], default 256). B = A * x_true with x_true[i] = 1 + i % 3, so the iterates
 * converge to x_true; the program checks the residual and prints a few elements of X. */

/* Deterministic pseudo-random numbers in [0, 1): a 32-bit linear congruential generator. */
static double next_random(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (double)(*state >> 8) / 16777216.0;
}

int main(int argc, char *argv[])
{
    int N = argc > 1 ? atoi(argv[1]) : 256;
    if (N < 1) {
        fprintf(stderr, "usage: %s [N >= 1]\n", argv[0]);
        exit(1);
    }
    double *A = (double *)malloc((size_t)N * N * sizeof(double));
    double *B = (double *)malloc((size_t)N * sizeof(double));
    double *X = (double *)malloc((size_t)N * sizeof(double));
    double *NX = (double *)malloc((size_t)N * sizeof(double));
    if (A == NULL || B == NULL || X == NULL || NX == NULL) {
        fprintf(stderr, "error: out of memory\n");
        exit(1);
    }
    /* Off-diagonal entries in [-1, 1); each diagonal entry exceeds its row's absolute sum. */
    unsigned int seed = 9;
    for (int i = 0; i < N; i++) {
        double row = 0.0;
        for (int j = 0; j < N; j++) {
            A[(size_t)i * N + j] = i == j ? 0.0 : 2.0 * next_random(&seed) - 1.0;
            row += fabs(A[(size_t)i * N + j]);
        }
        A[(size_t)i * N + i] = row + 1.0;
    }
    for (int i = 0; i < N; i++) {
        B[i] = 0.0;
        for (int j = 0; j < N; j++)
            B[i] += A[(size_t)i * N + j] * (1 + j % 3);
        X[i] = 0.0;
    }

    for (int sweep = 0; sweep < 100; sweep++) {
        jacobi(NX, A, X, B, N);
        double *t = X;
        X = NX;
        NX = t;
    }

    /* Rounding noise differs between machines: print a verdict, not the residual itself. */
    double residual = 0.0, checksum = 0.0;
    for (int i = 0; i < N; i++) {
        double r = -B[i];
        for (int j = 0; j < N; j++)
            r += A[(size_t)i * N + j] * X[j];
        residual = fmax(residual, fabs(r));
        checksum += X[i];
    }
    printf("jacobi N=%d, 100 sweeps\n", N);
    printf("converged: %s (max |A*X - B| %s 1e-9)\n",
           residual < 1e-9 ? "yes" : "no", residual < 1e-9 ? "<" : ">=");
    printf("checksum: %.6e\n", checksum);
    printf("X[0]=%.5f X[1]=%.5f X[2]=%.5f X[N-1]=%.5f\n", X[0], X[1 % N], X[2 % N], X[N - 1]);

    free(A);
    free(B);
    free(X);
    free(NX);
    exit(0);
}
