// A local array that two nests share is one device array for the whole call: the host
// function allocates it, passes it to both kernels and frees it at the end. The program prints
// what gcc's build of it prints; verify (sizes up to 64, the array's size) finds no mismatch.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks > /dev/null 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=HOST %s < %t/out/launch.cuh
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,31 --max-points 2 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// REMARK: remark: local array 'tmp' ({{.*}}kernel.c:2:10) is one array for the whole call (a device array when the function is outlined): it is used by several statements
// REMARK: remark: kernel 'twopass_1': the loop nest at {{.*}}kernel.c:3:3 runs in parallel
// REMARK: remark: kernel 'twopass_2': the loop nest at {{.*}}kernel.c:5:3 runs in parallel
//
// HOST-LABEL: static inline void rtcuda_launch_twopass(
// HOST:      const long long tmp_elements = rtcuda_nonnegative(64);
// HOST:      double *d_tmp = NULL;
// HOST-NEXT: rtcuda_check(cudaMalloc((void **)&d_tmp,
// HOST-NEXT: rtcuda_launch_twopass_1_on_device(where, n, d_a, d_tmp);
// HOST-NEXT: rtcuda_launch_twopass_2_on_device(where, n, d_b, d_tmp);
// HOST:      rtcuda_check(cudaFree(d_tmp), "cudaFree", where);
//
// VERIFY: verified 1 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 2 size(s): 0 mismatch(es)

//--- kernel.c
void twopass(int n, double a[n], double b[n]) {
  double tmp[64];
  for (int i = 0; i < n; i++)
    tmp[i] = a[i] * a[i];
  for (int i = 1; i < n - 1; i++)
    b[i] = tmp[i - 1] + tmp[i] + tmp[i + 1];
}
//--- main.c
#include <stdio.h>
void twopass(int n, double a[n], double b[n]);
int main(void) {
  double a[50], b[50] = {0};
  for (int i = 0; i < 50; i++) a[i] = (i * 5) % 7 - 3;
  twopass(50, a, b);
  printf("%.3f %.3f %.3f\n", b[1], b[25], b[48]);
  twopass(2, a, b);
  printf("%.3f %.3f\n", b[0], b[1]);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [twopass]
