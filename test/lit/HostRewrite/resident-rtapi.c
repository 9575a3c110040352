// A resident loop may call the RT-API: its calls are renamed to the wrappers of rtcuda_rtapi.h,
// which hand the library the arrays' device copies, so kernels and library calls share them
// without copies; what the library wrote comes back when the loop ends. A dot product whose r is
// not &variable keeps the loop out.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out > /dev/null
// RUN: FileCheck --check-prefix=HOST %s < %t/out/main.cu
// RUN: %rtcuda run %t/out | FileCheck --check-prefix=OUT %s
// RUN: env RTCUDA_RESIDENT=0 %rtcuda run %t/out | FileCheck --check-prefix=OUT %s
//
// HOST: #include "rtcuda_rtapi.h"
// HOST: { rtcuda_resident_begin(); {{.*}} for (int it = 0; it < 3; it++) {
// HOST-NEXT: rtcuda_launch_step(
// HOST-NEXT: rtcuda_resident_RTdSMV(x, M, y, n, n);
// HOST-NEXT: rtcuda_resident_RTdSDOT(x, x, n, &s);
// HOST: } rtcuda_resident_end(); }
// HOST: {{^}}    for (int it = 0; it < 2; it++) {
// HOST-NEXT: RTdSDOT(x, x, n, sp);
// HOST-NOT: rtcuda_resident_begin
//
// OUT: x 14 46 total 6500
// OUT-NEXT: again 5140 5140

//--- kernel.c
#pragma rtcuda kernel
void step(int n, float y[n], const float x[n]) {
  for (int i = 0; i < n; i++)
    y[i] = x[i] + 1.0f;
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n = 5;
    float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
    float *M = malloc(n * n * sizeof(float));
    for (int i = 0; i < n; i++) x[i] = i;
    for (int i = 0; i < n * n; i++) M[i] = i % (n + 1) == 0 ? 2.0f : 0.0f;
    RTAPIInit();
    float s = 0, total = 0;
    for (int it = 0; it < 3; it++) {
        step(n, y, x);
        RTdSMV(x, M, y, n, n);
        RTdSDOT(x, x, n, &s);
        total += s;
    }
    printf("x %g %g total %g\n", x[0], x[n - 1], total);
    float *sp = &s;
    for (int it = 0; it < 2; it++) {
        RTdSDOT(x, x, n, sp);
    }
    printf("again %g %g\n", s, *sp);
    RTAPIFinalize();
    free(x);
    free(y);
    free(M);
    return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels:
  - name: step
