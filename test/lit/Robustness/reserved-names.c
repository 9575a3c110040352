// A parameter or local named like something the generated code uses (CUDA built-ins, launch
// code locals, C++ keywords, tuning macros) is refused at its declaration: before, translate
// exited 0 with a kernel.cu or launch.cuh that nvcc rejects.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/kernel.c
// RUN: printf 'kernel_files: [kernel.c]\nkernels:\n  - name: sc\n' > %t/config.yaml
// RUN: %exit1 %rtcuda translate %t/config.yaml -o %t/out 2> %t/err
// RUN: FileCheck %s < %t/err
// RUN: test ! -e %t/out
// CHECK: kernel.c:[[@LINE+6]]:{{[0-9]+}}: error: parameter 'blockIdx' of kernel 'sc' is a CUDA built-in name the generated kernel uses; rename it
// CHECK: kernel.c:[[@LINE+5]]:{{[0-9]+}}: error: parameter 'grid' of kernel 'sc' is a name the generated launch or verify code gives its own variables; rename it
// CHECK: kernel.c:[[@LINE+4]]:{{[0-9]+}}: error: parameter 'd_a' of kernel 'sc' is a name the generated launch or verify code gives its own variables; rename it
// CHECK: kernel.c:[[@LINE+3]]:{{[0-9]+}}: error: parameter 'SC_BLOCKSIZE' of kernel 'sc' starts with SC_, the prefix of a kernel's tuning macros; rename it
// CHECK: kernel.c:[[@LINE+5]]:{{[0-9]+}}: error: variable 'threadIdx' of kernel 'sc' is a CUDA built-in name the generated kernel uses; rename it
// CHECK: kernel.c:[[@LINE+5]]:{{[0-9]+}}: error: variable 'new' of kernel 'sc' is a C++ keyword, and the generated files are CUDA C++; rename it
void sc(int n, float blockIdx, float grid, float d_a, float SC_BLOCKSIZE,
        float *restrict a) {
  for (int i = 0; i < n; i++) {
    for (int threadIdx = 0; threadIdx < 2; threadIdx++) {
      float new = a[i] * blockIdx + grid + d_a + SC_BLOCKSIZE;
      a[i] = new;
    }
  }
}
