// -I, -D, -U, -std and the arguments after `--` reach Clang when it parses the kernel file;
// without them the file does not parse.
// RUN: rm -rf %t && split-file %s %t
// RUN: %exit1 %rtcuda translate %t/config.yaml -o %t/none 2> %t/none.err
// RUN: FileCheck --check-prefix=NONE %s < %t/none.err
// RUN: %rtcuda translate %t/config.yaml -o %t/out -I %t/inc -DWIDTH=4 -UUNSET -std=c99 \
// RUN:   -- -DSCALE=2.0f > %t/log
// RUN: FileCheck --check-prefix=KERNEL %s < %t/out/kernel.cu
// Another standard is Clang's, not ours: C89 has no declarations in a for statement.
// RUN: %exit1 %rtcuda translate %t/config.yaml -o %t/c89 -I%t/inc -DWIDTH=4 -std=c89 \
// RUN:   -- -DSCALE=2.0f -pedantic-errors 2> %t/c89.err
// RUN: FileCheck --check-prefix=C89 %s < %t/c89.err
// NONE: kernel.c:1:10: fatal error: 'sizes.h' file not found
// KERNEL: a_item[item] = a[4 * i + j];
// KERNEL: = a_item[item] * 2.0f;
// C89: error:

//--- inc/sizes.h
#define ROWS(n) (n)
//--- kernel.c
#include "sizes.h"
void f(int n, float a[ROWS(n)][WIDTH]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < WIDTH; j++)
      a[i][j] = a[i][j] * SCALE;
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [f]
