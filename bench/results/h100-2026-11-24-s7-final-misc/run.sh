#!/usr/bin/env bash
# Session 7's last device call: the kinds, matmul vs SGEMM, lu at ACC's SMALL dataset, and
# compute-sanitizer on doitgen's ArrayExpansion output (the lit test's program).
set -u
export PATH=/usr/local/cuda/bin:$PATH
R=$OUT; mkdir -p $R
echo "== sgemm"
nvcc -O3 -arch=sm_90 -I .carry-mm/mm -I .carry-mm/mm/runtime bench/sgemm_generated.cu -lcublas -o /tmp/sg && /tmp/sg default > $R/sgemm.txt 2>&1; tail -12 $R/sgemm.txt
echo "== doitgen (lit ArrayExpansion/doitgen.c output) under compute-sanitizer"
d=.carry-final/dg
gcc -std=gnu99 -O1 -w $d/src/main.c $d/src/kernel.c -lm -o /tmp/dgref && /tmp/dgref > /tmp/dg_gcc.txt
for pt in default race; do
  flags=""; [ $pt = race ] && flags="-DDG_1_SMALL_GRID=0 -DDG_1_BLOCKSIZE=32 -DDG_1_THREAD_COLS=8 -DDG_1_MERGE_LEVEL=1 -DDG_1_SKEW_LEVEL=1 -DDG_1_TILE_K=8"
  nvcc -O3 -arch=sm_90 -I $d -I $d/runtime $flags $d/main.cu -o /tmp/dg_$pt > /tmp/dgb_$pt.log 2>&1 || { echo "build $pt failed"; cat /tmp/dgb_$pt.log | tail; }
  /tmp/dg_$pt > /tmp/dg_$pt.txt; cmp -s /tmp/dg_gcc.txt /tmp/dg_$pt.txt && echo "dg $pt output = gcc" || { echo "dg $pt output differs"; cat /tmp/dg_gcc.txt /tmp/dg_$pt.txt; }
  for tool in memcheck racecheck; do
    compute-sanitizer --tool $tool --error-exitcode 99 /tmp/dg_$pt > $R/dg_${pt}_$tool.txt 2>&1
    echo "SAN dg $pt $tool status=$? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/dg_${pt}_$tool.txt)"
  done
done | tee $R/dg.txt
echo "== lu at ACC's SMALL dataset (N=1024)"
python3 bench/polybench/acc.py gpu .carry-final/lu-small --acc .carry-acc/acc/CUDA --log-dir $R/lu --runs 3 --run-timeout 90 --deadline 150 --check-grace 60 --check-timeout 150 -j 4 --only lu 2>&1 | tail -8
echo "== kinds"
OUT=/tmp/k bash bench/kinds_on_gpu.sh > /tmp/k.txt 2>&1; cp /tmp/k/logs/table.txt /tmp/k/logs/bench.txt /tmp/k/logs/sanitizer.txt /tmp/k/logs/device.txt $R/ 2>/dev/null
grep -c "status=0" $R/sanitizer.txt; grep -v "status=0" $R/sanitizer.txt | head
cat $R/table.txt
