/* Conjugate gradient example: solves A x = b for the sparse symmetric positive definite matrix
 * of a Matrix Market file (argv[1], default matrix.mtx), b pseudo-random, x0 = 0.
 * Sparse matrix-vector and dot products call the RT-API (cuSPARSE/cuBLAS); the vector updates
 * are the five kernels of kernel.c. Stops when |r|^2 < 1e-10 |b|^2 (|r| / |b| < 1e-5, about
 * what single precision allows) or after 1000 iterations. */

/* Deterministic pseudo-random numbers in [0, 1): a 32-bit linear congruential generator. */
static float next_random(unsigned int *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 16777216.0f;
}

int main(int argc, char *argv[])
{
    const char *path = argc > 1 ? argv[1] : "matrix.mtx";
    RTAPIInit();
    RTspSArray A;
    RTspSArrayLoadFromFile(path, &A);
    int n = A.rows;

    float *b = (float *)malloc((size_t)n * sizeof(float));
    float *x = (float *)malloc((size_t)n * sizeof(float));
    float *r = (float *)malloc((size_t)n * sizeof(float));
    float *p = (float *)malloc((size_t)n * sizeof(float));
    float *ap = (float *)malloc((size_t)n * sizeof(float));
    if (b == NULL || x == NULL || r == NULL || p == NULL || ap == NULL) {
        fprintf(stderr, "error: out of memory\n");
        exit(1);
    }
    unsigned int seed = 10;
    for (int i = 0; i < n; i++) {
        b[i] = next_random(&seed);
        x[i] = 0.0f;
    }

    /* r = b - A x, p = r */
    RTspSMV(ap, &A, x, n, n);
    sub(r, b, ap, n);
    copy(p, r, n);
    float bb, rr;
    RTdSDOT(b, b, n, &bb);
    RTdSDOT(r, r, n, &rr);

    int iterations = 0;
    while (iterations < 1000 && rr >= 1e-10f * bb) {
        float pap, rr_next;
        RTspSMV(ap, &A, p, n, n);
        RTdSDOT(p, ap, n, &pap);
        float alpha = rr / pap;
        scaleadd(x, p, n, alpha);    /* x = x + alpha p */
        scalesub(r, ap, n, alpha);   /* r = r - alpha A p */
        RTdSDOT(r, r, n, &rr_next);
        scaleaddstore(p, p, r, n, rr_next / rr);   /* p = r + beta p */
        rr = rr_next;
        iterations++;
    }

    /* The residual the recurrence tracked, and the one of the solution itself. */
    float tt;
    RTspSMV(ap, &A, x, n, n);
    sub(r, b, ap, n);
    RTdSDOT(r, r, n, &tt);
    printf("cg n=%d: %s after %d iterations\n", n,
           rr < 1e-10f * bb ? "converged" : "stopped", iterations);
    printf("relative residual: %.2e (recurrence), %.2e (|b - A x| / |b|)\n",
           sqrt(rr / bb), sqrt(tt / bb));
    printf("x[0]=%.4f x[n/2]=%.4f x[n-1]=%.4f\n", x[0], x[n / 2], x[n - 1]);

    free(b);
    free(x);
    free(r);
    free(p);
    free(ap);
    RTspSArrayDestroy(&A);
    RTAPIFinalize();
    exit(0);
}
