// Interchange over triangular bounds: where the loops as written would need atomics (every
// column adds into every element of y, `for j; for i <= j; y[i] += U[i][j] * x[j]`), the pair
// is interchanged with the triangle's bounds worked out for the new order, so that loop 'i' is
// parallel without atomics and loop 'j' its serial sum (AccumulatorPromotion, LaneReduction).
// The new bounds must need no min or max: columns from 1 (`from_one`) would give loop 'j'
// max(1, i) and keep the atomic updates. With the sum's loop started one element late (a
// planted edit of upper_by_columns' kernel.cu), verify at the sizes below reports 1846
// mismatches.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks --print-after=Interchange > %t/ir 2> %t/remarks
// RUN: FileCheck %s < %t/ir
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: %rtcuda verify %t/out --seed 7 --sizes 1,2,7,33,100 | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after Interchange (kernel upper_by_columns)
// CHECK:      for (int i = 0; i < n; i++) {
// CHECK-NEXT:   for (int j = i; j < n; j++) {
// CHECK-NEXT:     y[i] += U[i][j] * x[j];
// CHECK-LABEL: IR after Interchange (kernel lower_by_columns)
// CHECK:      for (int i = 0; i < n; i++) {
// CHECK-NEXT:   for (int j = 0; j < i + 1; j++) {
// CHECK-LABEL: IR after Interchange (kernel strict_upper)
// CHECK:      for (int i = 0; i < n - 1; i++) {
// CHECK-NEXT:   for (int j = i + 1; j < n; j++) {
// CHECK-LABEL: IR after Interchange (kernel from_one)
// CHECK:      for (int j = 1; j < n; j++) {
// CHECK-NEXT:   for (int i = 0; i < j + 1; i++) {
//
// REMARK: remark: loop 'j' ({{.*}}kernel.c:3:3) and loop 'i' ({{.*}}kernel.c:4:5) interchanged: loop 'i' now runs outside loop 'j' (no dependence with direction (<, >) on them); over the same triangle, 'i' from 0 to n, 'j' from i to n
// REMARK: remark: lanes: UPPER_BY_COLUMNS_LANES threads share each iteration of 'i'
// REMARK: remark: loop 'j' ({{.*}}kernel.c:21:3): parallel; atomic updates of 'y'
//
// VERIFY: verified 4 kernel(s) at {{[0-9]+}} parameter point(s) and 5 size(s): 0 mismatch(es)

//--- kernel.c
/* y = U x, the column loop outer: i <= j. */
void upper_by_columns(int n, const float U[n][n], const float x[n], float y[n]) {
  for (int j = 0; j < n; j++)
    for (int i = 0; i <= j; i++)
      y[i] += U[i][j] * x[j];
}
/* y = L x in double, the column loop outer: i >= j. */
void lower_by_columns(int n, const double L[n][n], const double x[n], double y[n]) {
  for (int j = 0; j < n; j++)
    for (int i = j; i < n; i++)
      y[i] += L[i][j] * x[j];
}
/* Strictly above the diagonal: i < j. */
void strict_upper(int n, const float A[n][n], const float x[n], float y[n]) {
  for (int j = 0; j < n; j++)
    for (int i = 0; i < j; i++)
      y[i] += A[i][j] * x[j];
}
/* Columns from 1: i would run from max(0, ...), a bound with a max: not interchanged (atomics). */
void from_one(int n, const float U[n][n], const float x[n], float y[n]) {
  for (int j = 1; j < n; j++)
    for (int i = 0; i <= j; i++)
      y[i] += U[i][j] * x[j];
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [upper_by_columns, lower_by_columns, strict_upper, from_one]
