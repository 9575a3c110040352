// An in-place Gauss-Seidel sweep reads neighbours that earlier iterations of both loops have
// just updated: no loop can run in parallel. Refused (legacy config, 2DMATRIX=1 asks for both
// loops) with the statement's line and no output folder; with ON_DEPENDENCE=sequential neither
// loop is parallel either (j carries a dependence too), so the sweep runs in one thread.
// RUN: rm -rf %t && split-file %s %t
// RUN: %exit1 %rtcuda translate %t/config.txt -o %t/out 2> %t/err
// RUN: FileCheck --check-prefix=REFUSE %s < %t/err
// RUN: test ! -e %t/out
// RUN: %rtcuda translate %t/sequential/config.txt -o %t/seq --remarks 2> %t/warn > /dev/null
// RUN: FileCheck --check-prefix=WARN %s < %t/warn
// RUN: %rtcuda verify %t/seq --seed 3 --sizes 31 | FileCheck --check-prefix=VERIFY %s
//
// REFUSE: kernel.c:5:13: error: loop 'i' carries a dependence: 'A[i][j] = 0.25f * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j +...' reads A[i - 1][j], written by the previous iteration of loop 'i'; it cannot run in parallel
//
// WARN: kernel.c:5:13: warning: loop 'i' carries a dependence: {{.*}}; kept sequential (on_dependence: sequential): the kernel runs in one GPU thread
// WARN: remark: loop 'i' ({{.*}}kernel.c:2:5): kept sequential, the kernel runs in one GPU thread: loop 'i' carries a dependence
//
// VERIFY: 0 mismatch(es)

//--- kernel.c
void gauss_seidel(float *A, int N) {
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
            /* in place: A[i-1][j] and A[i][j-1] are this sweep's new values */
            A[i][j] = 0.25f * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
}
//--- config.txt
KERNEL_NAMES=gauss_seidel
LOOP_COLLAPSING=1
2DMATRIX=1
ROW_DIM=N
//--- sequential/kernel.c
void gauss_seidel(float *A, int N) {
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
            /* in place: A[i-1][j] and A[i][j-1] are this sweep's new values */
            A[i][j] = 0.25f * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
}
//--- sequential/config.txt
KERNEL_NAMES=gauss_seidel
LOOP_COLLAPSING=1
2DMATRIX=1
ROW_DIM=N
ON_DEPENDENCE=sequential
