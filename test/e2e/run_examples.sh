#!/usr/bin/env bash
# `rtcuda run` executes the translated program on the CPU emulator: madd, axpy and jacobi
# must print exactly what the original C programs print when compiled with gcc; cg (RT-API
# calls on the CPU implementation) must converge on examples/cg/matrix.mtx, and stop with the
# file name and line on a malformed one.
# Usage: run_examples.sh RTCUDA SRC WORK
set -uo pipefail
rtcuda=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
failures=0
for e in madd axpy jacobi; do
  for n in 37 64; do
    "$rtcuda" translate "$src/examples/$e/config.txt" -o "$work/$e" > /dev/null || { failures=$((failures+1)); continue; }
    "$rtcuda" run "$work/$e" $n > "$work/$e.$n.emulated" 2>&1 || { echo "FAIL  $e: run"; failures=$((failures+1)); }
    # The original program: main.c (no includes, like RT-CUDA's) with the sequential kernel.
    gcc -std=gnu99 -O1 -w -include stdio.h -include stdlib.h -include string.h -include math.h \
        "$work/$e/src/main.c" "$work/$e/reference/kernel.c" -lm -o "$work/$e.gcc"
    "$work/$e.gcc" $n > "$work/$e.$n.gcc"
    if cmp -s "$work/$e.$n.emulated" "$work/$e.$n.gcc"; then
      echo "ok    $e N=$n: same output as gcc ($(grep -m1 checksum "$work/$e.$n.gcc"))"
    else
      echo "FAIL  $e N=$n: output differs"; diff "$work/$e.$n.emulated" "$work/$e.$n.gcc"; failures=$((failures+1))
    fi
  done
done
"$rtcuda" translate "$src/examples/cg/config.txt" -o "$work/cg" > /dev/null || failures=$((failures+1))
if (cd "$src/examples/cg" && "$rtcuda" run "$work/cg" matrix.mtx) > "$work/cg.out" 2>&1 &&
   grep -q "converged after" "$work/cg.out"; then
  echo "ok    cg: $(head -1 "$work/cg.out")"
else
  echo "FAIL  cg"; cat "$work/cg.out"; failures=$((failures+1))
fi
# A malformed Matrix Market file (a value that is not a number on line 5): the program stops
# with a non-zero status and a message naming the file and the line, before any iteration.
printf '%s\n' '%%MatrixMarket matrix coordinate real symmetric' '3 3 3' '1 1 4.0' '2 2 4.0' \
  '3 3 four' > "$work/malformed.mtx"
(cd "$src/examples/cg" && "$rtcuda" run "$work/cg" "$work/malformed.mtx") > "$work/cg.bad" 2>&1
status=$?
if [ $status -ne 0 ] && grep -q "malformed.mtx:5: error: " "$work/cg.bad" &&
   ! grep -q "iterations" "$work/cg.bad"; then
  echo "ok    cg on a malformed file: status $status, $(grep -m1 'error: ' "$work/cg.bad")"
else
  echo "FAIL  cg on a malformed file (status $status)"; cat "$work/cg.bad"; failures=$((failures+1))
fi
echo "run over examples: $failures failure(s)"
[ $failures -eq 0 ]
