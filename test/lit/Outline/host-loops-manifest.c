// The host loops around each outlined kernel's launch go into manifest.json (host_loops: the
// loop's variable and bounds, outermost first), so that rtcuda-tune can time a kernel that
// reads a loop's variable at some of its values (docs/tuner.md, "Kernels in host loops"); a
// launch under an if inside the loops is marked host_conditional (its values are not known).
// A kernel launched outside any host loop has no host_loops. The program prints what gcc's
// build prints, and verify passes at odd and prime sizes.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out > /dev/null 2>&1
// RUN: FileCheck --check-prefix=HOST %s < %t/out/launch.cuh
// RUN: python3 -c "import json,sys; m=json.load(open(sys.argv[1])); [print(k['name'], json.dumps(k.get('host_loops')), k.get('host_conditional', False)) for f in m['functions'] for k in f['outlined_kernels']]" %t/out/manifest.json | FileCheck --check-prefix=MANIFEST %s
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 17,23 --max-points 2 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// HOST:      for (int t = 0; t < steps; t += 1) {
// HOST:        for (int i = 1; i < n - 1; i += 1) {
// HOST:          rtcuda_launch_sweep_2_on_device(
// HOST:        if (t % 2 == 0) {
// HOST-NEXT:     rtcuda_launch_sweep_3_on_device(
//
// MANIFEST: sweep_1 null False
// MANIFEST: sweep_2 [{"end": "steps", "min": "0", "step": 1, "type": "int", "var": "t"}, {"end": "n - 1", "min": "1", "step": 1, "type": "int", "var": "i"}] False
// MANIFEST: sweep_3 [{"end": "steps", "min": "0", "step": 1, "type": "int", "var": "t"}] True
//
// VERIFY: verified 1 kernel(s) at 2 parameter point(s) and 2 size(s): 0 mismatch(es)
//--- kernel.c
void sweep(int steps, int n, double a[n][n], double b[n]) {
  for (int j = 0; j < n; j++) b[j] = 0.5 * j;
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++) a[i][j] = 0.5 * (a[i - 1][j - 1] + a[i - 1][j + 1]) + b[j] * t;
    if (t % 2 == 0)
      for (int j = 0; j < n; j++) b[j] = b[j] + a[n - 2][j] * 0.25;
  }
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void sweep(int steps, int n, double a[n][n], double b[n]);
int main(void) {
  int n = 13;
  double (*a)[n] = malloc(sizeof(double) * n * n), *b = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) a[i][j] = (i * 5 + j * 3) % 7;
  sweep(4, n, a, b);
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += b[i];
    for (int j = 0; j < n; j++) s += a[i][j] * (i + 1);
  }
  printf("sweep %.6f %.6f %.6f\n", s, a[n - 2][3], b[n - 1]);
  free(a);
  free(b);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [sweep]
