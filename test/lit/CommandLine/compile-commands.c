// -p <dir> reads <dir>/compile_commands.json: the kernel file's own entry gives its -I and -D
// flags (relative paths against the entry's directory). A folder without the file is an error.
// RUN: rm -rf %t && split-file %s %t
// RUN: sed "s|DIR|%t|g" %t/db.json.in > %t/build/compile_commands.json
// RUN: %rtcuda translate %t/config.yaml -o %t/out -p %t/build > %t/log
// RUN: FileCheck %s < %t/out/kernel.cu
// RUN: %exit1 %rtcuda translate %t/config.yaml -o %t/out2 -p %t/inc 2> %t/err
// RUN: FileCheck --check-prefix=NODB %s < %t/err
// RUN: test ! -e %t/out2
// CHECK: a[i] = a[i] * 3
// NODB: inc/compile_commands.json: error: cannot read the compilation database

//--- inc/factor.h
#define FACTOR_OF(x) ((x) * FACTOR)
//--- kernel.c
#include "factor.h"
void f(int n, int a[n]) {
  for (int i = 0; i < n; i++)
    a[i] = FACTOR_OF(a[i]);
}
//--- build/.keep
//--- db.json.in
[{"directory": "DIR/build", "file": "DIR/kernel.c",
  "arguments": ["cc", "-I../inc", "-D", "FACTOR=3", "-O2", "-c", "-o", "kernel.o", "DIR/kernel.c"]}]
//--- config.yaml
kernel_files: [kernel.c]
kernels: [f]
