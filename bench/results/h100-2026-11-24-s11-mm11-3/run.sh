#!/bin/bash
# mm11 device call 3, one thing at a time (call 2 overlapped the ACC runs with the sgemm timings
# and compute-sanitizer): the header's rule 3 times, racecheck of every instantiation and split
# at the small odd sizes, then PolyBench-ACC side by side (gemm, 2mm, 3mm, syrk, syr2k).
export PATH=/usr/local/cuda/bin:$PATH
C=.carry-mm11
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader > $OUT/device.txt
( nvcc -O3 -arch=sm_90 -DSGEMM_SWEEP -I $C/mm -I $C/mm/runtime $C/sgemm_generated.cu -lcublas -o /tmp/sgs > /tmp/b1.txt 2>&1 ) &
B1=$!
nvcc -O3 -arch=sm_90 -I $C/mm -I $C/mm/runtime $C/sgemm_generated.cu -lcublas -o /tmp/sg > /tmp/b2.txt 2>&1
for r in 1 2 3; do /tmp/sg default >> $OUT/default.txt 2>&1; done
wait $B1
{ echo "== racecheck sweep-tiny"; timeout 60 compute-sanitizer --tool racecheck --error-exitcode 9 /tmp/sgs x sweep-tiny 2>&1 | grep -E "CHECK|ERROR|error|Summary" | sort | uniq -c; echo "rc ${PIPESTATUS[0]}"; } > $OUT/sanitizer.txt 2>&1
PYTHONUNBUFFERED=1 timeout 150 python3 bench/polybench/acc.py gpu $C/tr --acc .carry-acc/acc/CUDA --log-dir /tmp/acc --runs 3 --run-timeout 20 --deadline 140 --check-grace 30 -j 8 --only gemm,2mm,3mm,syrk,syr2k > $OUT/acc.txt 2>&1
grep TIME $OUT/default.txt | awk '{print $3, $5, $6, $8, $11, $12}'
grep -c WRONG $OUT/default.txt
grep -E "rc|ERROR|Summary" $OUT/sanitizer.txt; grep -c "ok$" $OUT/sanitizer.txt
grep "^| [g23s]" $OUT/acc.txt | cut -d'|' -f2,5-10; grep -E "geomean" $OUT/acc.txt
