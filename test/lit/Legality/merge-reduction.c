// Reductions and atomics with BlockMerge: each thread computes MERGE_LEVEL iterations, and
// every one of them must still update the reduction and the atomic counter once. The scalar
// stays one partial value per thread (not a per-iteration array), and the atomic updates (of an
// element the data picks) are repeated for each merged iteration, not shared by them.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=BlockMerge | FileCheck %s
// RUN: %rtcuda verify %t/out --seed 13 --sizes 31,100 --max-points 24 | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after BlockMerge (kernel count)
// CHECK:      float s = 0.0f;
// CHECK:      for (int m = 0; m < COUNT_MERGE_LEVEL; m++) {  // merge
// CHECK:        if (i < n) {
// CHECK-NEXT:     atomicAdd(&c[x[i] > 0.5f], 1);
// CHECK-NEXT:     s += 1.0f;
//
// VERIFY: verified 1 kernel(s) at 24 parameter point(s) and 2 size(s): 0 mismatch(es)

//--- kernel.c
void count(int n, const float x[n], int c[2], float r[1]) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) {
    c[x[i] > 0.5f] += 1;
    s += 1.0f;
  }
  r[0] = s;
}
//--- config.yaml
kernel_files: [kernel.c]
kernels:
  - name: count
    merge: true
