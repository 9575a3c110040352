// rtcuda's own errors, like Clang's, show the source line and a caret under the column.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %exit1 %rtcuda translate config.yaml -o out 2> err
// RUN: FileCheck --strict-whitespace %s < err
// CHECK:      kernel.c:4:5: error: do-while loops are not supported in a kernel
// CHECK-NEXT: {{^}}    4 |     do { a[i] += 1.0f; j++; } while (j < 3);
// CHECK-NEXT: {{^}}      |     ^
// CHECK:      kernel.c:9:2: error: switch is not supported in a kernel; use if/else
// CHECK-NEXT: {{^}}    9 | 	switch (n) {
// CHECK-NEXT: {{^}}      | 	^

//--- kernel.c
void f(int n, float a[n]) {
  for (int i = 0; i < n; i++) {
    int j = 0;
    do { a[i] += 1.0f; j++; } while (j < 3);
  }
}

void g(int n, float a[n]) {
	switch (n) {
	default:
		for (int i = 0; i < n; i++) a[i] = 0;
	}
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [f, g]
