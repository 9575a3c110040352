/* Jacobi example (standard C99): 100 sweeps on a strictly diagonally dominant n x n system
 * (n = argv[1], default 256). B = A * x_true with x_true[i] = 1 + i % 3. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void jacobi(int n, double NX[restrict n], const double A[restrict n][n],
            const double X[restrict n], const double B[restrict n]);

/* Deterministic pseudo-random numbers in [0, 1): a 32-bit linear congruential generator. */
static double next_random(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (double)(*state >> 8) / 16777216.0;
}

int main(int argc, char *argv[])
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    if (n < 1) {
        fprintf(stderr, "usage: %s [n >= 1]\n", argv[0]);
        exit(1);
    }
    double (*A)[n] = malloc(sizeof(double[n][n]));
    double *B = malloc(n * sizeof(double));
    double *X = malloc(n * sizeof(double));
    double *NX = malloc(n * sizeof(double));
    if (A == NULL || B == NULL || X == NULL || NX == NULL) {
        fprintf(stderr, "error: out of memory\n");
        exit(1);
    }
    /* Off-diagonal entries in [-1, 1); each diagonal entry exceeds its row's absolute sum. */
    unsigned int seed = 9;
    for (int i = 0; i < n; i++) {
        double row = 0.0;
        for (int j = 0; j < n; j++) {
            A[i][j] = i == j ? 0.0 : 2.0 * next_random(&seed) - 1.0;
            row += fabs(A[i][j]);
        }
        A[i][i] = row + 1.0;
    }
    for (int i = 0; i < n; i++) {
        B[i] = 0.0;
        for (int j = 0; j < n; j++)
            B[i] += A[i][j] * (1 + j % 3);
        X[i] = 0.0;
    }

    for (int sweep = 0; sweep < 100; sweep++) {
        /* Before C23, adding const to the rows of a 2-D array needs an explicit cast. */
        jacobi(n, NX, (const double (*)[n])A, X, B);
        double *t = X;
        X = NX;
        NX = t;
    }

    /* Rounding noise differs between machines: print a verdict, not the residual itself. */
    double residual = 0.0, checksum = 0.0;
    for (int i = 0; i < n; i++) {
        double r = -B[i];
        for (int j = 0; j < n; j++)
            r += A[i][j] * X[j];
        residual = fmax(residual, fabs(r));
        checksum += X[i];
    }
    printf("jacobi n=%d, 100 sweeps\n", n);
    printf("converged: %s (max |A*X - B| %s 1e-9)\n",
           residual < 1e-9 ? "yes" : "no", residual < 1e-9 ? "<" : ">=");
    printf("checksum: %.6e\n", checksum);
    printf("X[0]=%.5f X[1]=%.5f X[2]=%.5f X[n-1]=%.5f\n", X[0], X[1 % n], X[2 % n], X[n - 1]);

    free(A);
    free(B);
    free(X);
    free(NX);
    return 0;
}
