/* AXPY in double precision: C = C + alpha * A on vectors of length N. */
void k(double *C, double *restrict A, double alpha, int N)
{
    for (int i = 0; i < N; i++)
        C[i] = C[i] + alpha * A[i];
}
