// A prefix sum carries a dependence from each iteration to the next: it is refused, with the
// statement's line, the array and the dependence in the message, and no output folder. With
// on_dependence: sequential it runs in one GPU thread, with a warning naming the same line,
// and still computes what the C does.
// RUN: rm -rf %t && split-file %s %t
// RUN: %exit1 %rtcuda translate %t/refuse.yaml -o %t/out 2> %t/err
// RUN: FileCheck --check-prefix=REFUSE %s < %t/err
// RUN: test ! -e %t/out
// RUN: %rtcuda translate %t/sequential.yaml -o %t/seq --print-after=LoopPartition 2> %t/warn | FileCheck --check-prefix=SEQ %s
// RUN: FileCheck --check-prefix=WARN %s < %t/warn
// RUN: %rtcuda verify %t/seq --seed 2 --sizes 31,100 | FileCheck --check-prefix=VERIFY %s
//
// REFUSE: kernel.c:3:5: error: loop 'i' carries a dependence: 'a[i] = a[i - 1] + b[i];' reads a[i - 1], written by the previous iteration of loop 'i'; it cannot run in parallel (set on_dependence: sequential to run it in one thread)
// REFUSE-NOT: error
//
// WARN: kernel.c:3:5: warning: loop 'i' carries a dependence: 'a[i] = a[i - 1] + b[i];' reads a[i - 1], written by the previous iteration of loop 'i'; kept sequential (on_dependence: sequential): the kernel runs in one GPU thread
//
// SEQ-LABEL: IR after LoopPartition (kernel prefix_sum)
// SEQ:      // sequential: {{.*}}kernel.c:3:5 carries a dependence; the kernel runs in one GPU thread
// SEQ-NEXT: int seq = (int)llmin((long long)blockIdx.x * PREFIX_SUM_BLOCKSIZE + threadIdx.x, (long long)1);
// SEQ-NEXT: if (seq < 1) {
// SEQ-NEXT:   for (int i = 1; i < n; i++) {
// SEQ-NEXT:     a[i] = a[i - 1] + b[i];
//
// VERIFY: verified 1 kernel(s) at 12 parameter point(s) and 2 size(s): 0 mismatch(es)

//--- kernel.c
void prefix_sum(int n, float a[n], const float b[n]) {
  for (int i = 1; i < n; i++)
    a[i] = a[i - 1] + b[i];
}
//--- refuse.yaml
kernel_files: [kernel.c]
kernels: [prefix_sum]
//--- sequential.yaml
kernel_files: [kernel.c]
kernels:
  - name: prefix_sum
    on_dependence: sequential
