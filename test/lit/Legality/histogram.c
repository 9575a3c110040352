// Updates of data-dependent locations: different iterations may hit the same bin, so the
// update becomes an atomic one (hist[data[i] & 63] += 1 -> atomicAdd). verify's shuffled thread
// orders and its ThreadSanitizer pass accept it at every tuning point.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks --print-after=ParallelLoops --print-after=AtomicUpdates > %t/ir 2> %t/remarks
// RUN: FileCheck %s < %t/ir
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: %rtcuda verify %t/out --seed 9 --sizes 31,97 --max-points 100 | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after ParallelLoops (kernel hist64)
// CHECK:      // atomic: hist (different iterations may update the same element)
// CHECK-NEXT: for (int i = 0; i < n; i++) {  // parallel
// CHECK-NEXT:   hist[data[i] & 63] += 1;
// CHECK-LABEL: IR after AtomicUpdates (kernel hist64)
// CHECK:        atomicAdd(&hist[data[i] & 63], 1);
// CHECK-LABEL: IR after AtomicUpdates (kernel low_bins)
// CHECK:        atomicSub(&bins[data[i] & 7], 2);
// CHECK:        rtcuda_atomic_min(&lo[data[i] & 7], w[i]);
//
// REMARK: remark: loop 'i' ({{.*}}kernel.c:3:3): parallel; atomic updates of 'hist'
// REMARK: remark: loop 'i' ({{.*}}kernel.c:7:3): parallel; atomic updates of 'bins'; atomic updates of 'lo'
//
// hist64 also gets SharedHistogram's ITEMS (32 block sizes x 4 = 128 points, 100 covered).
// VERIFY: verified 2 kernel(s) at 132 parameter point(s) and 2 size(s): 0 mismatch(es)

//--- kernel.c
#include <math.h>
void hist64(int n, const int data[n], int hist[64]) {
  for (int i = 0; i < n; i++)
    hist[data[i] & 63] += 1;
}
void low_bins(int n, const int data[n], const float w[n], int bins[8], float lo[8]) {
  for (int i = 0; i < n; i++) {
    bins[data[i] & 7] -= 2;
    lo[data[i] & 7] = fminf(lo[data[i] & 7], w[i]);
  }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [hist64, low_bins]
