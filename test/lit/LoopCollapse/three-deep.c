// Three perfectly nested parallel loops with different extents collapse into one index.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --stop-after=LoopCollapse | FileCheck %s
//
// CHECK:      for (long long ijk = 0; ijk < (long long)a * (long long)b * (long long)c; ijk++) {  // collapsed
// CHECK:        long long ij = ijk / (long long)c;
// CHECK-NEXT:   int i = ij / (long long)b;
// CHECK-NEXT:   int j = ij - (long long)i * (long long)b;
// CHECK-NEXT:   int k = ijk - ij * (long long)c;
// CHECK-NEXT:   t[i][j][k] = 2.0f * s[i][j][k];

//--- kernel.c
void scale3(int a, int b, int c, float t[a][b][c], const float s[a][b][c]) {
  for (int i = 0; i < a; i++)
    for (int j = 0; j < b; j++)
      for (int k = 0; k < c; k++)
        t[i][j][k] = 2.0f * s[i][j][k];
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [scale3]
