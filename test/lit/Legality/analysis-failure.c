// When isl fails (here: its bound on operations, lowered with RTCUDA_ISL_MAX_OPERATIONS), the
// refusal says "could not analyze" with isl's message, never a dependence it did not find;
// with on_dependence: sequential the kernel runs in one thread and still computes right.
// RUN: rm -rf %t && split-file %s %t
// RUN: env RTCUDA_ISL_MAX_OPERATIONS=1 %exit1 %rtcuda translate %t/config.yaml -o %t/bad 2> %t/err
// RUN: FileCheck --check-prefix=REFUSE %s < %t/err
// RUN: test ! -e %t/bad
// RUN: env RTCUDA_ISL_MAX_OPERATIONS=1 %rtcuda translate %t/sequential.yaml -o %t/out 2> %t/warn
// RUN: FileCheck --check-prefix=WARN %s < %t/warn
// RUN: FileCheck --check-prefix=CUDA %s < %t/out/kernel.cu
// RUN: %rtcuda translate %t/config.yaml -o %t/ok --remarks 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
//
// REFUSE: {{.*}}kernel.c:5:7: error: could not analyze whether different iterations of loop 'i' touch one element of 'C' (C[i][j] at {{.*}}kernel.c:5:7): isl: maximal number of operations exceeded; it is not run in parallel without the analysis
// REFUSE-NOT: carries a dependence
// WARN: warning: could not analyze whether different iterations of loop 'i' touch one element of 'C' {{.*}}isl: maximal number of operations exceeded; kept sequential
// CUDA: could not be analyzed
// REMARK: remark: loop 'i' ({{.*}}kernel.c:2:3): parallel

//--- kernel.c
void fill(int ni, int nj, double beta, double C[ni][nj]) {
  for (int i = 0; i < ni; i++) {
    double t = beta;
    for (int j = 0; j < nj; j++)
      C[i][j] = t;
  }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [fill]
//--- sequential.yaml
kernel_files: [kernel.c]
kernels:
  - name: fill
    on_dependence: sequential
