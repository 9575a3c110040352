// The original's matrix multiply declared sum outside the loops and never reset it: each
// C[i][j] then includes every earlier dot product. That is a dependence between iterations,
// so it is refused rather than silently changed (REFERENCE defect 13).
// RUN: rm -rf %t && split-file %s %t
// RUN: %exit1 %rtcuda translate %t/config.txt -o %t/out 2> %t/err
// RUN: FileCheck %s < %t/err
// RUN: test ! -e %t/out
// CHECK: kernel.c:3:11: error: scalar 'sum' carries a value from one iteration of the parallel loop to the next

//--- kernel.c
void matrix_mul(float *C, float *restrict A, float *restrict B, int N)
{
    float sum = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            for (int k = 0; k < N; k++)
                sum += A[i][k] * B[k][j];
            C[i][j] = sum;
        }
}
//--- config.txt
LOOP_COLLAPSING=1
KERNEL_NAMES=matrix_mul
2DMATRIX=1
ROW_DIM=N
