// Remarks point at the loop they are about, not at the function, name the pass that made them
// ([-Rpass=...]) and can be limited to some passes (--remarks=BlockMerge,ReadOnlyCache).
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %rtcuda translate config.yaml -o out --remarks > /dev/null 2> all
// RUN: FileCheck --check-prefix=ALL %s < all
// RUN: %rtcuda translate config.yaml -o out --remarks=BlockMerge,ReadOnlyCache > /dev/null 2> some
// RUN: FileCheck --check-prefix=SOME --implicit-check-not=ParallelLoops %s < some
// RUN: %exit2 %rtcuda translate config.yaml -o out --remarks=Blockmerge 2> bad
// RUN: FileCheck --check-prefix=BAD %s < bad
// ALL: kernel.c:3:3: remark: loop 'i' (kernel.c:3:3): parallel [-Rpass=ParallelLoops]
// ALL-NEXT: {{^}}    3 |   for (int i = 0; i < n; i++)
// ALL-NEXT: {{^}}      |   ^
// ALL: kernel.c:4:5: remark: loop 'j' (kernel.c:4:5): parallel [-Rpass=ParallelLoops]
// ALL: kernel.c:3:3: remark: merge: each thread computes S_MERGE_LEVEL iterations of loop 'i' [-Rpass=BlockMerge]
// SOME: kernel.c:3:3: remark: merge: {{.*}} [-Rpass=BlockMerge]
// BAD: rtcuda translate: error: unknown pass 'Blockmerge' for --remarks

//--- kernel.c
void s(int n, int m, float a[n][m], const float b[n][m])
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i][j] = 2 * b[i][j];
}
//--- config.yaml
kernel_files: [kernel.c]
kernels:
  - name: s
    merge: true
