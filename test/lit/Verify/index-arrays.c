// Integer arrays whose values index other arrays or bound loops get values the C can run on
// (manifest "index_values", lib/CodeGen/IndexArrays.cpp): a CSR matrix's row offsets are
// non-decreasing from 0 up to nnz, its column indices lie below n and a gather's below m.
// Before, verify drew them like any integers (-1000..1000) and the sequential C itself read
// past its arrays ("AddressSanitizer: heap-buffer-overflow ... in rtcuda_ref_csr_spmv" at seed
// 4), so such kernels could not be checked.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out > /dev/null
// RUN: FileCheck --check-prefix=MANIFEST %s < %t/out/manifest.json
// RUN: %rtcuda verify %t/out --seed 4 --max-points 2 | FileCheck --check-prefix=GOOD %s
// A planted wrong column (x[col[k] / 2]) is caught:
// RUN: sed -i '0,/x\[col\[k\]\]/s//x[col[k] \/ 2]/' %t/out/kernel.cu
// RUN: grep -c 'col\[k\] / 2' %t/out/kernel.cu | FileCheck --check-prefix=PLANTED %s
// RUN: %exit1 %rtcuda verify %t/out --seed 4 --max-points 2 --no-race-check | FileCheck --check-prefix=BAD %s
// An index computed on before use (x[idx[i] + 1]) keeps random integers: the sequential C itself
// reads past x, and verify says the report is in the reference, not in generated code.
// RUN: %rtcuda translate %t/shifted.yaml -o %t/shifted > /dev/null
// RUN: FileCheck --check-prefix=NOLIMIT %s < %t/shifted/manifest.json
// RUN: %exit1 %rtcuda verify %t/shifted --seed 1 --max-points 1 --no-race-check > %t/shifted.log 2>&1
// RUN: FileCheck --check-prefix=REFERENCE %s < %t/shifted.log
//
// MANIFEST:      "name": "csr_spmv",
// MANIFEST:      "elements": "n + 1",
// MANIFEST-NEXT: "index_values": {
// MANIFEST-NEXT:   "offsets_up_to": [
// MANIFEST-NEXT:     "nnz"
// MANIFEST-NEXT:   ]
// MANIFEST-NEXT: },
// MANIFEST-NEXT: "kind": "array",
// MANIFEST:      "elements": "nnz",
// MANIFEST-NEXT: "index_values": {
// MANIFEST-NEXT:   "below": [
// MANIFEST-NEXT:     "n"
// MANIFEST-NEXT:   ]
// MANIFEST:      "name": "gather",
// MANIFEST:      "index_values": {
// MANIFEST-NEXT:   "below": [
// MANIFEST-NEXT:     "m"
// MANIFEST-NEXT:   ]
// GOOD: verified 2 kernel(s) at 4 parameter point(s) and 4 size(s): 0 mismatch(es)
// PLANTED: 1
// BAD: MISMATCH csr_spmv
// BAD: verified 2 kernel(s) at 4 parameter point(s) and 4 size(s): {{[1-9][0-9]*}} mismatch(es)
// NOLIMIT-NOT: index_values
// REFERENCE: SUMMARY: AddressSanitizer: {{.*}} in rtcuda_ref_shifted_gather
// REFERENCE: rtcuda verify: error: the report is in the sequential C of 'shifted_gather' (the reference), not in generated code

//--- kernel.c
void csr_spmv(int n, int nnz, const int rowptr[n + 1], const int col[nnz], const float val[nnz],
              const float x[n], float y[n]) {
  for (int i = 0; i < n; i++) {
    float s = 0.0f;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * x[col[k]];
    y[i] = s;
  }
}
void gather(int n, int m, const int perm[n], const double x[m], double y[n]) {
  for (int i = 0; i < n; i++) y[i] = 2.0 * x[perm[i]];
}
void shifted_gather(int n, const int idx[n], const float x[n + 1], float y[n]) {
  for (int i = 0; i < n; i++) y[i] = x[idx[i] + 1];
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [csr_spmv, gather]
//--- shifted.yaml
kernel_files: [kernel.c]
kernels: [shifted_gather]
