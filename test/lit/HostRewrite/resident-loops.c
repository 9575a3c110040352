// Host loops that only launch kernels keep their arrays on the GPU until they end (the launch
// functions then skip the per-call copies), braces or not; a loop that reads an element or calls
// a function of the program is left alone. The program prints the same with and without residency, including
// a loop the translator brackets whose arrays overlap at run time (y + 1 inside y).
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out > /dev/null
// RUN: FileCheck --check-prefix=HOST %s < %t/out/main.cu
// RUN: %rtcuda run %t/out | FileCheck --check-prefix=OUT %s
// RUN: env RTCUDA_RESIDENT=0 %rtcuda run %t/out | FileCheck --check-prefix=OUT %s
//
// HOST: {{^}}    for (int i = 0; i < n; i++) x[i] = i;
// HOST: { rtcuda_resident_begin(); /* arrays stay on the GPU in this loop */ for (int it = 0; it < 10; it++) {
// HOST: } rtcuda_resident_end(); }
// HOST: {{^}}    for (int it = 0; it < 3; it++) {
// HOST-NEXT: { rtcuda_resident_begin(); {{.*}} for (int k = 0; k < 2; k++) {{.*}} rtcuda_resident_end(); }
// HOST: { rtcuda_resident_begin(); {{.*}} for (int it = 0; it < 2; it++) {
// HOST: } rtcuda_resident_end(); }
// HOST: {{^}}    for (int it = 0; it < 2; it++) { rtcuda_launch_step
// HOST: { rtcuda_resident_begin(); {{.*}} for (int it = 0; it < 3; it++) rtcuda_launch_step({{.*}}); rtcuda_resident_end(); }
// HOST-NEXT: { rtcuda_resident_begin(); {{.*}} do rtcuda_launch_copy({{.*}}); while (++k < 2); rtcuda_resident_end(); }
//
// OUT: B 10 46
// OUT-NEXT: C 12
// OUT-NEXT: C 14
// OUT-NEXT: C 16
// OUT-NEXT: D 20 53
// OUT-NEXT: E 20
// OUT-NEXT: F 21 21

//--- kernel.c
#pragma rtcuda kernel
void step(int n, float y[n], const float x[n]) {
  for (int i = 0; i < n; i++)
    y[i] = x[i] + 1.0f;
}

#pragma rtcuda kernel
void copy(int n, float y[n], const float x[n]) {
  for (int i = 0; i < n; i++)
    y[i] = x[i];
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
static void touch(float *a) { a[0] -= 1.0f; }
int main(void) {
    int n = 37;
    float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) x[i] = i;
    for (int it = 0; it < 10; it++) {
        step(n, y, x);
        float *t = x; x = y; y = t;
    }
    printf("B %g %g\n", x[0], x[n - 1]);
    for (int it = 0; it < 3; it++) {
    for (int k = 0; k < 2; k++) { step(n, y, x); float *t = x; x = y; y = t; }
        printf("C %g\n", x[0]);
    }
    float *y1 = y + 1;
    for (int it = 0; it < 2; it++) {
        step(n, y, x);
        copy(n - 1, x, y1);
    }
    printf("D %g %g\n", x[0], x[n - 2]);
    for (int it = 0; it < 2; it++) { step(n, y, x); touch(y); }
    printf("E %g\n", y[0]);
    int k = 0;
    for (int it = 0; it < 3; it++) step(n, y, x);
    do copy(n, x, y); while (++k < 2);
    printf("F %g %g\n", y[0], x[0]);
    free(x);
    free(y);
    return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels:
  - name: step
  - name: copy
