// Scalar code between nests. A reduction into a scalar (sum) comes back to the host through a
// one-element device buffer; a statement that reads only scalars (scale = ...) runs on the
// host; statements that write arrays outside any parallel loop (stats[...] = ...) run in a
// one-thread kernel; the last nest gets the host's value of scale as a parameter. The program
// prints what gcc's build of it prints.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks > /dev/null 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=HOST %s < %t/out/launch.cuh
// RUN: FileCheck --check-prefix=KERNEL %s < %t/out/kernel.cu
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,33 --max-points 2 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// REMARK: remark: kernel 'normalize_1': the loop nest at {{.*}}kernel.c:5:3 runs in parallel
// REMARK: remark: kernel 'normalize_2': the loop nest at {{.*}}kernel.c:7:3 runs in parallel; its + reduction of 'sum' is copied back to the host
// REMARK: remark: kernel 'normalize_3': {{.*}}kernel.c:10:3 runs in one GPU thread: it reads or writes arrays
// REMARK: remark: kernel 'normalize_4': the loop nest at {{.*}}kernel.c:12:3 runs in parallel
//
// HOST-LABEL: static inline void rtcuda_launch_normalize(
// HOST:      double sum = 0.0;
// HOST-NEXT: double scale = 0.0;
// HOST-NEXT: rtcuda_launch_normalize_1_on_device(where, n, d_x, d_y);
// HOST-NEXT: rtcuda_launch_normalize_2_on_device(where, n, d_y, sum, rtcuda_cell_sum);
// HOST-NEXT: rtcuda_check(cudaMemcpy(&sum, rtcuda_cell_sum, sizeof(sum), cudaMemcpyDeviceToHost)
// HOST-NEXT: scale = sum / n + 1.0;
// HOST-NEXT: rtcuda_launch_normalize_3_on_device(where, n, d_stats, scale, sum);
// HOST-NEXT: rtcuda_launch_normalize_4_on_device(where, n, d_y, d_out, scale);
//
// KERNEL-LABEL: normalize_2_finish(
// KERNEL:      double sum = rtcuda_in_sum;
// KERNEL-NEXT: sum = sum + sum_total[0];
// KERNEL:      rtcuda_cell_sum[0] = sum;
//
// VERIFY: verified 1 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 2 size(s): 0 mismatch(es)

//--- kernel.c
void normalize(int n, double x[n], double y[n], double out[n], double stats[2]) {
  int i;
  double sum = 0.0;
  double scale;
  for (i = 0; i < n; i++)
    y[i] = x[i] * 2.0;
  for (i = 0; i < n; i++)
    sum += y[i];
  scale = sum / n + 1.0;
  stats[0] = sum;
  stats[1] = scale;
  for (i = 0; i < n; i++)
    out[i] = y[i] * scale;
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void normalize(int n, double x[n], double y[n], double out[n], double stats[2]);
int main(void) {
  double x[37], y[37], out[37], stats[2];
  for (int i = 0; i < 37; i++) x[i] = i % 5;
  normalize(37, x, y, out, stats);
  printf("normalize %.6f %.6f %.6f %.6f\n", stats[0], stats[1], out[3], out[36]);
  normalize(1, x + 3, y, out, stats);
  printf("normalize %.6f %.6f %.6f\n", stats[0], stats[1], out[0]);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [normalize]
