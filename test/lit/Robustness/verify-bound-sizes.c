// verify's sizes for scalars that only bound loops. 'steps' bounds a sequential loop: it used
// to get a random value 1-9 whatever --sizes said, so a kernel wrong only after 9 steps passed.
// 'm' bounds the parallel loop over arrays sized by 'n': it used to get n + 2 and read past
// the arrays (false mismatches). Both now get the smallest array size (--sizes 40: 40).
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/kernel.c
// RUN: printf 'kernel_files: [kernel.c]\nkernels:\n  - name: k\n' > %t/config.yaml
// RUN: %rtcuda translate %t/config.yaml -o %t/out > /dev/null
// RUN: FileCheck --check-prefix=MANIFEST %s < %t/out/manifest.json
// RUN: %rtcuda verify %t/out --seed 1 --sizes 40 --max-points 2 --no-race-check | FileCheck --check-prefix=GOOD %s
// Planted: the sequential loop stops after 9 steps; verify must see it.
// RUN: sed -i 's/t < steps;/t < steps \&\& t < 9;/' %t/out/kernel.cu
// RUN: %exit1 %rtcuda verify %t/out --seed 1 --sizes 40 --max-points 2 --no-race-check > %t/bad.log
// RUN: FileCheck --check-prefix=BAD %s < %t/bad.log
// MANIFEST: "bounds_only": true,
// MANIFEST-NEXT: "kind": "scalar",
// MANIFEST-NEXT: "location": "{{.*}}",
// MANIFEST-NEXT: "name": "m",
// MANIFEST: "bounds_only": true,
// MANIFEST-NEXT: "kind": "scalar",
// MANIFEST-NEXT: "location": "{{.*}}",
// MANIFEST-NEXT: "name": "steps",
// GOOD: verified 1 kernel(s) at 2 parameter point(s) and 1 size(s): 0 mismatch(es)
// BAD: MISMATCH k ( n=40 m=40 steps=40{{.*}}): a[{{[0-9]+}}]
void k(int n, int m, int steps, float a[restrict n], const float b[restrict n]) {
  for (int i = 0; i < m; i++) {
    float s = 0;
    for (int t = 0; t < steps; t++)
      s += b[i] * t;
    a[i] = s;
  }
}
