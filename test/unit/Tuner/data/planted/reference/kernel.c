/* The sequential C of kernel 'planted'. */
void planted(float *C, const float *A, const float *B, int n)
{
    for (int i = 0; i < n; i++)
        C[i] = A[i] + B[i];
}
