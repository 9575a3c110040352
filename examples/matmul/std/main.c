/* Matrix multiply example (standard C99): C = A * B with A n x m and B m x p.
 * Usage: main [n [m [p]]], default n = 128, m = n + n/2, p = n - n/4. */
#include <stdio.h>
#include <stdlib.h>

void mm(int n, int m, int p, float C[restrict n][p], const float A[restrict n][m],
        const float B[restrict m][p]);

/* Deterministic pseudo-random numbers in [0, 1): a 32-bit linear congruential generator. */
static float next_random(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 16777216.0f;
}

int main(int argc, char *argv[])
{
    int n = argc > 1 ? atoi(argv[1]) : 128;
    int m = argc > 2 ? atoi(argv[2]) : n + n / 2;
    int p = argc > 3 ? atoi(argv[3]) : n - n / 4;
    if (n < 1 || m < 1 || p < 1) {
        fprintf(stderr, "usage: %s [n [m [p]]] (all >= 1)\n", argv[0]);
        exit(1);
    }
    float (*A)[m] = malloc(sizeof(float[n][m]));
    float (*B)[p] = malloc(sizeof(float[m][p]));
    float (*C)[p] = malloc(sizeof(float[n][p]));
    if (A == NULL || B == NULL || C == NULL) {
        fprintf(stderr, "error: out of memory\n");
        exit(1);
    }
    unsigned int seed = 5;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < m; k++)
            A[i][k] = 2.0f * next_random(&seed) - 1.0f;
    for (int k = 0; k < m; k++)
        for (int j = 0; j < p; j++)
            B[k][j] = 2.0f * next_random(&seed) - 1.0f;

    /* Before C23, adding const to the rows of a 2-D array needs an explicit cast. */
    mm(n, m, p, C, (const float (*)[m])A, (const float (*)[p])B);

    double checksum = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < p; j++)
            checksum += C[i][j];
    printf("mm n=%d m=%d p=%d\n", n, m, p);
    printf("checksum: %.6e\n", checksum);
    printf("C[0][0]=%.5f C[n/2][p/3]=%.5f C[n-1][p-1]=%.5f\n",
           C[0][0], C[n / 2][p / 3], C[n - 1][p - 1]);

    free(A);
    free(B);
    free(C);
    return 0;
}
