/* The vector updates of the conjugate gradient solver in main.c, one kernel each.
 * C is written; the other arrays are only read. restrict marks the inputs that main.c never
 * passes together with the output: scaleaddstore's A is called with A == C (p = r + beta * p),
 * so it carries no restrict. */

/* C = A - B */
void k(float *C, float *restrict A, float *restrict B, int N)
{
    for (int i = 0; i < N; i++)
        C[i] = A[i] - B[i];
}

/* C = A */
void copy(float *C, float *restrict A, int N)
{
    for (int i = 0; i < N; i++)
        C[i] = A[i];
}

/* C = C + alpha * A */
void scaleadd(float *C, float *restrict A, int N, float alpha)
{
    for (int i = 0; i < N; i++)
        C[i] = C[i] + alpha * A[i];
}

/* C = C - alpha * A */
void scalesub(float *C, float *restrict A, int N, float alpha)
{
    for (int i = 0; i < N; i++)
        C[i] = C[i] - alpha * A[i];
}

/* C = alpha * A + B (A may be C itself) */
void scaleaddstore(float *C, float *A, float *restrict B, int N, float alpha)
{
    for (int i = 0; i < N; i++)
        C[i] = alpha * A[i] + B[i];
}
