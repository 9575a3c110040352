#!/bin/bash
# mm10 device call 2: the header's rule (3 runs), the sweep, compute-sanitizer on every
# instantiation at small odd sizes (forced splits too), PolyBench-ACC side by side.
export PATH=/usr/local/cuda/bin:$PATH
C=.carry-mm10
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader > $OUT/device.txt
( nvcc -O3 -arch=sm_90 -DSGEMM_SWEEP -I $C/mm -I $C/mm/runtime $C/sgemm_generated.cu -lcublas -o /tmp/sgs --resource-usage > $OUT/build.txt 2>&1 ) &
( nvcc -O3 -arch=sm_90 -I $C/mm -I $C/mm/runtime $C/sgemm_generated.cu -lcublas -o /tmp/sg > /tmp/b2.txt 2>&1 ) &
wait
cat /tmp/b2.txt >> $OUT/build.txt
for r in 1 2 3; do /tmp/sg default >> $OUT/default.txt 2>&1; done
/tmp/sgs x sweep > $OUT/sweep.txt 2>&1
{ for tool in memcheck racecheck; do echo "== $tool"; timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/sgs x sweep-small 2>&1 | grep -E "CHECK|ERROR|error|Summary" | sort | uniq -c | head -40; echo "rc ${PIPESTATUS[0]}"; done; } > $OUT/sanitizer.txt 2>&1
if false && [ -d $C/tr ]; then PYTHONUNBUFFERED=1 timeout 300 python3 bench/polybench/acc.py gpu $C/tr --acc .carry-acc/acc/CUDA --log-dir /tmp/acc --runs 3 --run-timeout 20 --deadline 280 --check-grace 60 -j 12 --only gemm,2mm,3mm,syrk,syr2k > $OUT/acc.txt 2>&1; fi
grep -E "_Z|registers" $OUT/build.txt | grep -B1 registers | grep -E "registers" | head -8
grep TIME $OUT/default.txt | awk '{print $3, $5, $8, $11, $12}'
grep TIME $OUT/sweep.txt | awk '{print $2, $3, $5, $8, $11, $12}'
grep -c WRONG $OUT/default.txt $OUT/sweep.txt
cat $OUT/sanitizer.txt | grep -E "==|rc|ERROR" | head
tail -15 $OUT/acc.txt
