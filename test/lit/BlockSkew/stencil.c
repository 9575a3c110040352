// BlockSkew: each thread computes SKEW_LEVEL columns, consecutive (SKEW_STRIPED=0, as the
// original did) or BLOCKSIZE apart (=1, so a warp's accesses stay coalesced). The column is
// declared again per copy, so the statement reads as written; every copy is guarded.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=BlockSkew | FileCheck %s
// RUN: FileCheck --check-prefix=PARAMS %s < %t/out/blur_params.h
// RUN: %rtcuda verify %t/out --seed 12 --sizes 1,31,40 --max-points 40 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// CHECK:      for (int i = 1; i < n - 1; i++) {  // parallel
// CHECK-NEXT:   for (long long j_skewed = 0; j_skewed < (BLUR_SKEW_STRIPED ? ((long long)m + BLUR_BLOCKSIZE * BLUR_SKEW_LEVEL - 3) / (BLUR_BLOCKSIZE * BLUR_SKEW_LEVEL) * BLUR_BLOCKSIZE : ((long long)m + BLUR_SKEW_LEVEL - 3) / BLUR_SKEW_LEVEL); j_skewed++) {  // parallel
// CHECK-NEXT:     for (int s = 0; s < BLUR_SKEW_LEVEL; s++) {  // skew
// CHECK-NEXT:       int j = (int)llmin(BLUR_SKEW_STRIPED ? j_skewed / BLUR_BLOCKSIZE * BLUR_BLOCKSIZE * BLUR_SKEW_LEVEL + j_skewed % BLUR_BLOCKSIZE + s * BLUR_BLOCKSIZE + 1LL : j_skewed * BLUR_SKEW_LEVEL + s + 1LL, (long long)(m - 1));
// CHECK-NEXT:       if (j < m - 1) {
// CHECK-NEXT:         out[i][j] = 0.25f * (in[i][j - 1] + in[i][j + 1] + in[i - 1][j] + in[i + 1][j]);
//
// PARAMS: #define BLUR_SKEW_LEVEL 2
// PARAMS: #define BLUR_SKEW_STRIPED 1
//
// VERIFY: verified 1 kernel(s) at 40 parameter point(s) and 3 size(s): 0 mismatch(es)

//--- kernel.c
void blur(int n, int m, float out[n][m], const float in[n][m]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      out[i][j] = 0.25f * (in[i][j - 1] + in[i][j + 1] + in[i - 1][j] + in[i + 1][j]);
}
//--- config.yaml
kernel_files: [kernel.c]
kernels:
  - name: blur
    skew: true
    tuning: {skew_level: [1, 4]}
