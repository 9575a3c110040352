#!/bin/bash
# mm10 device call 1: split-k sweep at LARGE and primes, and the header's default (3 runs).
export PATH=/usr/local/cuda/bin:$PATH
C=.carry-mm10
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader > $OUT/device.txt
( nvcc -O3 -arch=sm_90 -DSGEMM_SWEEP -I $C/mm -I $C/mm/runtime $C/sgemm_generated.cu -lcublas -o /tmp/sgs --resource-usage > $OUT/build.txt 2>&1 ) &
( nvcc -O3 -arch=sm_90 -I $C/mm -I $C/mm/runtime $C/sgemm_generated.cu -lcublas -o /tmp/sg > /tmp/b2.txt 2>&1 ) &
wait
cat /tmp/b2.txt >> $OUT/build.txt
/tmp/sgs x sweep > $OUT/sweep.txt 2>&1
for r in 1 2 3; do /tmp/sg default >> $OUT/default.txt 2>&1; done
grep -E "registers" $OUT/build.txt
grep TIME $OUT/sweep.txt | awk '{print $2, $3, $5, $6, $9, $11}'
grep -c WRONG $OUT/sweep.txt $OUT/default.txt
grep TIME $OUT/default.txt | awk '{print $3, $5, $7, $9}'
