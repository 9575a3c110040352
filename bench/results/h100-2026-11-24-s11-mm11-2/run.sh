#!/bin/bash
# mm11 device call 2: examples/matmul/std translated by branch mm11 (the third small-grid
# instantiation at __launch_bounds__(320, 2), split counts from one expression): the header's
# rule 3 times, a sweep, compute-sanitizer on every instantiation, ncu of the LARGE launch,
# PolyBench-ACC side by side (gemm, 2mm, 3mm, syrk, syr2k).
export PATH=/usr/local/cuda/bin:$PATH
C=.carry-mm11
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader > $OUT/device.txt
( nvcc -O3 -arch=sm_90 -DSGEMM_SWEEP -I $C/mm -I $C/mm/runtime $C/sgemm_generated.cu -lcublas -o /tmp/sgs --resource-usage > /tmp/b1.txt 2>&1 ) &
B1=$!
( nvcc -O3 -arch=sm_90 -I $C/mm -I $C/mm/runtime $C/sgemm_generated.cu -lcublas -o /tmp/sg > /tmp/b2.txt 2>&1 ) &
B2=$!
( PYTHONUNBUFFERED=1 timeout 240 python3 bench/polybench/acc.py gpu $C/tr --acc .carry-acc/acc/CUDA --log-dir /tmp/acc --runs 3 --run-timeout 20 --deadline 220 --check-grace 60 -j 8 --only gemm,2mm,3mm,syrk,syr2k > /tmp/acc.txt 2>&1 ) &
ACC=$!
wait $B1 $B2
cat /tmp/b1.txt /tmp/b2.txt | grep -E "entry|registers|spill|error" | sed 's/ptxas info    : //' > $OUT/build.txt
for r in 1 2 3; do /tmp/sg default >> $OUT/default.txt 2>&1; done
SGEMM_CHOICES="1:1,1:0,4:0,4:2,3:2" SGEMM_SIZES="1000,1200,1100;997,1013,1009;1024,1024,1024;1031,1031,1031" /tmp/sgs x sweep > $OUT/sweep.txt 2>&1
SGEMM_CHOICES=1:1 SGEMM_SIZES=1000,1200,1100 timeout 60 ncu --section Occupancy --section LaunchStats --section SpeedOfLight --section WarpStateStats --metrics sm__ctas_launched.max,sm__ctas_launched.min,sm__warps_active.avg.per_cycle_active -k regex:mm_small_grid3 -c 1 /tmp/sgs x sweep > $OUT/ncu.txt 2>&1
{ for tool in memcheck racecheck; do echo "== $tool"; timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/sgs x sweep-small 2>&1 | grep -E "CHECK|ERROR|error|Summary" | sort | uniq -c | head -40; echo "rc ${PIPESTATUS[0]}"; done; } > $OUT/sanitizer.txt 2>&1
wait $ACC
cp /tmp/acc.txt $OUT/acc.txt; tar czf $OUT/acclogs.tgz -C /tmp acc 2>/dev/null
grep -E "registers|spill" $OUT/build.txt | head -10
grep TIME $OUT/default.txt | awk '{print $3, $5, $6, $8, $11, $12}'
grep TIME $OUT/sweep.txt | awk '{print $2, $3, $6, $8, $11}'
grep -c WRONG $OUT/default.txt $OUT/sweep.txt
grep -E "Registers Per|Block Limit|Achieved Occ|Waves|Duration|ctas_launched|warps_active" $OUT/ncu.txt
grep -E "==|rc|ERROR|CHECK" $OUT/sanitizer.txt | head -30
tail -12 $OUT/acc.txt
