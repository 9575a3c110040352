// A size parameter whose loops index a dimension of constant extent (m indexes the 8 columns of
// A, W and out) may not exceed it: the C caller keeps m <= 8. translate records the limit
// ("at_most" in the manifest) and verify keeps the sizes it chooses within it; before, m got
// the size base (31), so the sequential C read W past its end (UBSan, size 31) and, in the
// ThreadSanitizer pass (which ran at 31 whatever --sizes said), rows i and i + 1 overlapped:
// two threads wrote one element of out, a race the kernel does not have at any valid size
// (PolyBench's doitgen after ArrayExpansion: np against the 16 columns of A and C4).
// The race pass now runs at one of --sizes (the largest up to 31), and --max-points 1 checks
// the default point (before: every point of the product).
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out > /dev/null
// RUN: FileCheck --check-prefix=MANIFEST %s < %t/out/manifest.json
// RUN: %rtcuda verify %t/out --seed 3 --sizes 31 --max-points 2 --no-race-check | FileCheck --check-prefix=ASAN %s
// RUN: %rtcuda verify %t/out --seed 3 --sizes 1,5 --max-points 2 | FileCheck --check-prefix=TSAN %s
// RUN: %rtcuda verify %t/out --seed 3 --sizes 9 --max-points 1 | FileCheck --check-prefix=ONE %s
// An explicit --size is taken as given: m = 9 reads past W's 8 columns, and UBSan says so.
// RUN: %exit1 %rtcuda verify %t/out --seed 3 --sizes 9 --size m=9 --max-points 1 --no-race-check > %t/over.log 2>&1
// RUN: FileCheck --check-prefix=OVER %s < %t/over.log
//
// MANIFEST: "at_most": 8,
// MANIFEST-NEXT: "bounds_only": true,
// MANIFEST-NEXT: "kind": "scalar",
// MANIFEST-NEXT: "location": "{{.*}}kernel.c:1:24",
// MANIFEST-NEXT: "name": "m",
//
// ASAN: kernel rowmix: 2 point(s); m at most 8 (the constant extents its loops index)
// ASAN: verified 1 kernel(s) at 2 parameter point(s) and 1 size(s): 0 mismatch(es)
// TSAN: sizes 1 5, race check at 5
// TSAN: verified 1 kernel(s) at 2 parameter point(s) and 2 size(s): 0 mismatch(es)
// ONE: race check at 9
// ONE: kernel rowmix: 1 point(s)
// ONE: verified 1 kernel(s) at 1 parameter point(s) and 1 size(s): 0 mismatch(es)
// OVER: runtime error: index 8 out of bounds for type 'double [8]'

//--- kernel.c
void rowmix(int n, int m, double A[n][8], double W[8][8], double out[n][8]) {
  for (int i = 0; i < n; i++)
    for (int p = 0; p < m; p++) {
      double s = 0.0;
      for (int k = 0; k < m; k++) s += A[i][k] * W[k][p];
      out[i][p] = s;
    }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [rowmix]
