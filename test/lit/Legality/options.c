// The legality options are checked like every other key; a '#pragma rtcuda parallel' that no
// loop follows, or an assume_parallel naming no loop of the nest, is a warning.
// RUN: rm -rf %t && split-file %s %t
// RUN: %exit1 %rtcuda translate %t/bad-yaml.yaml -o %t/out 2> %t/err1
// RUN: FileCheck --check-prefix=YAML %s < %t/err1
// RUN: %exit1 %rtcuda translate %t/bad-legacy/config.txt -o %t/out 2> %t/err2
// RUN: FileCheck --check-prefix=LEGACY %s < %t/err2
// RUN: %exit1 %rtcuda translate %t/bad-list.yaml -o %t/out 2> %t/err3
// RUN: FileCheck --check-prefix=LIST %s < %t/err3
// RUN: %rtcuda translate %t/warn.yaml -o %t/out 2> %t/warn > /dev/null
// RUN: FileCheck --check-prefix=WARN %s < %t/warn
//
// YAML: bad-yaml.yaml:4:20: error: invalid value 'later' for 'on_dependence': expected refuse, sequential or host
// LEGACY: config.txt:2: error: invalid value 'maybe' for ON_DEPENDENCE: expected refuse, sequential or host
// LIST: bad-list.yaml:4:22: error: invalid value '[i, 2j]' for 'assume_parallel': expected true, false or a list of loop variables
// WARN: kernel.c:6:1: warning: '#pragma rtcuda parallel' is not followed by a loop of a kernel; ignored
// WARN: kernel.c:2:3: warning: assume_parallel names loop 'k', which is not one of the perfectly nested outer loops of kernel 'copy'

//--- kernel.c
void copy(int n, float y[n], const float x[n]) {
  for (int i = 0; i < n; i++)
    y[i] = x[i];
}
int helper(int a) { return a; }
#pragma rtcuda parallel
//--- bad-yaml.yaml
kernel_files: [kernel.c]
kernels:
  - name: copy
    on_dependence: later
//--- bad-legacy/config.txt
KERNEL_NAMES=copy
ON_DEPENDENCE=maybe
//--- bad-legacy/kernel.c
void copy(int n, float *y, const float *x) {
  for (int i = 0; i < n; i++)
    y[i] = x[i];
}
//--- bad-list.yaml
kernel_files: [kernel.c]
kernels:
  - name: copy
    assume_parallel: [i, 2j]
//--- warn.yaml
kernel_files: [kernel.c]
kernels:
  - name: copy
    assume_parallel: [k]
