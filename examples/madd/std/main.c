/* Matrix addition example (standard C99): C = A + B, rows x cols matrices.
 * Usage: main [rows [cols]], default rows = 512, cols = rows + rows/2. */
#include <stdio.h>
#include <stdlib.h>

void madd(int rows, int cols, float C[restrict rows][cols], const float A[restrict rows][cols],
          const float B[restrict rows][cols]);

/* Deterministic pseudo-random numbers in [0, 1): a 32-bit linear congruential generator. */
static float next_random(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 16777216.0f;
}

int main(int argc, char *argv[])
{
    int rows = argc > 1 ? atoi(argv[1]) : 512;
    int cols = argc > 2 ? atoi(argv[2]) : rows + rows / 2;
    if (rows < 1 || cols < 1) {
        fprintf(stderr, "usage: %s [rows [cols]] (both >= 1)\n", argv[0]);
        exit(1);
    }
    float (*A)[cols] = malloc(sizeof(float[rows][cols]));
    float (*B)[cols] = malloc(sizeof(float[rows][cols]));
    float (*C)[cols] = malloc(sizeof(float[rows][cols]));
    if (A == NULL || B == NULL || C == NULL) {
        fprintf(stderr, "error: out of memory\n");
        exit(1);
    }
    unsigned int seed = 2;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            A[i][j] = 2.0f * next_random(&seed) - 1.0f;
            B[i][j] = next_random(&seed);
        }

    /* Before C23, adding const to the rows of a 2-D array needs an explicit cast. */
    madd(rows, cols, C, (const float (*)[cols])A, (const float (*)[cols])B);

    double checksum = 0.0;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            checksum += C[i][j];
    printf("madd rows=%d cols=%d\n", rows, cols);
    printf("checksum: %.6e\n", checksum);
    printf("C[0][0]=%.5f C[rows/2][cols/3]=%.5f C[rows-1][cols-1]=%.5f\n",
           C[0][0], C[rows / 2][cols / 3], C[rows - 1][cols - 1]);

    free(A);
    free(B);
    free(C);
    return 0;
}
