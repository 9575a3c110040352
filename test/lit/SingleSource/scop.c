// A single-source program in PolyBench's layout: main and the kernel in one file, the kernel
// found by its #pragma scop region (static, macro-typed parameters), headers found through
// include_dirs and beside the file, a define, and an extra C source compiled with the program.
// The output carries its headers (include/) and extra source (src/extra/), and `rtcuda run`
// prints what the same program built by the C compiler prints.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out | FileCheck --check-prefix=SUMMARY %s
// RUN: FileCheck --check-prefix=HOST %s < %t/out/main.cu
// RUN: FileCheck --check-prefix=CMAKE %s < %t/out/CMakeLists.txt
// RUN: FileCheck --check-prefix=REF %s < %t/out/reference/prog.c
// RUN: test -f %t/out/include/util.h && test -f %t/out/include/prog.h && test -f %t/out/src/extra/util.c
// RUN: %rtcuda run %t/out > %t/got
// RUN: cc -std=gnu11 -I%t/lib -DSCALE=3 %t/src/prog.c %t/lib/util.c -o %t/want && %t/want > %t/want.txt
// RUN: diff %t/want.txt %t/got
// RUN: %rtcuda verify %t/out --sizes 1,7,16 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// SUMMARY: translated 1 kernel(s)
// SUMMARY: scale_all:
// HOST: extern "C" {
// HOST-NEXT: #include <util.h>
// HOST-NEXT: }
// HOST-NEXT: #line 3 "prog.c"
// HOST: /* kernel 'scale_all' is in kernel.cu */
// HOST: {{^}}  rtcuda_launch_scale_all ("prog.c:[[#]]", n, (float *)(ARRAY(a)));
// CMAKE: target_include_directories({{.*}}/include)
// CMAKE: target_compile_definitions({{.*}} "SCALE=3")
// CMAKE: target_sources({{.*}} src/extra/util.c)
// REF: {{^}}      {{$}}
// REF-NEXT: {{^}}void scale_all(
// REF: int rtcuda_program_main(void)
// VERIFY: 0 mismatch(es)

//--- config.yaml
source: src/prog.c
include_dirs: [lib]
defines: [SCALE=3]
extra_sources: [lib/util.c]
//--- lib/util.h
#define ARRAY(x) (x)
float *make_array(int n);
void print_array(int n, const float *a);
//--- lib/util.c
#include <stdio.h>
#include <stdlib.h>
#include "util.h"
float *make_array(int n) {
  float *a = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) a[i] = i * 0.5f;
  return a;
}
void print_array(int n, const float *a) {
  for (int i = 0; i < n; i++) printf("%g\n", a[i]);
}
//--- src/prog.h
#define N 19
//--- src/prog.c
#include <stdlib.h>
#include <util.h>
#include "prog.h"

static
void scale_all(int n, float a[N])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = a[i] * SCALE + 1.0f;
#pragma endscop
}

int main(void)
{
  int n = N;
  float *a = make_array(n);
  scale_all (n, ARRAY(a));
  print_array(n, a);
  free(a);
  return 0;
}
