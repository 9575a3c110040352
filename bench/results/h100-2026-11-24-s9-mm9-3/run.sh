#!/bin/bash
# Session 9, helper mm9, device call 3: the matmul example translated by branch mm9 (interior
# slabs unguarded, 128-bit shared stores of B, no tail loop, three small-grid alternatives)
# against cuBLAS SGEMM (bench/sgemm_generated.cu: fresh random inputs, every result compared with
# cuBLAS, medians of 20): the header's rule (first and last), the kernel at its default point
# (g0) and each alternative forced (g2, g3, g4; g4k8 and g4w: the third at TILE_K 8, and at 80 x 128
# of 320 threads, for comparison only); compute-sanitizer memcheck and racecheck of every
# instantiation at 37x41x43 and 131x67x257; PolyBench-ACC side by side for gemm, 2mm, 3mm, syrk,
# syr2k (translated by mm9 at ACC's LARGE sizes, float) at their default points.
C=.carry-mm9; export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/device.txt
mkdir -p /tmp/b /tmp/acclog
build() { nvcc -O3 -arch=sm_90 -I $C/mm -I $C/mm/runtime "${@:2}" $C/sgemm_generated.cu -lcublas -o /tmp/b/$1 -Xptxas -v > /tmp/b/$1.log 2>&1 || echo "BUILD FAILED $1"; }
build rule & build g0 -DMM_SMALL_GRID=0 & build g2 -DMM_SMALL_GRID=2 & build g3 -DMM_SMALL_GRID=3 & build g4 -DMM_SMALL_GRID=4 &
build g4k8 -DMM_SMALL_GRID=4 -DMM_SG3_TILE_K=8 & build g4w -DMM_SMALL_GRID=4 -DMM_SG3_BLOCKSIZE=320 -DMM_SG3_THREAD_COLS=32 &
wait
grep -E "entry function|Used" /tmp/b/rule.log | sed -E "s/ptxas info *: //" > $OUT/builds.txt
cuobjdump -sass /tmp/b/rule > /tmp/b/rule.sass; python3 $C/sassloop.py /tmp/b/rule.sass >> $OUT/builds.txt
for b in rule g0 g2 g3 g4 g4k8 g4w rule; do /tmp/b/$b $b all; done > $OUT/bench.txt 2>&1
for b in g0 g2 g3 g4 rule; do for t in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool $t --error-exitcode 9 /tmp/b/$b $b small > /tmp/b/san.txt 2>&1
  echo "$b $t rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/b/san.txt) $(grep -c ' ok$' /tmp/b/san.txt) ok $(grep -c WRONG /tmp/b/san.txt) wrong"
done; done > $OUT/sanitizer.txt
PYTHONUNBUFFERED=1 timeout 260 python3 bench/polybench/acc.py gpu $C/tr --acc .carry-acc/acc/CUDA --log-dir /tmp/acclog \
  --runs 3 --run-timeout 20 --deadline 200 --check-grace 60 -j 12 --only gemm,2mm,3mm,syrk,syr2k > $OUT/acc.txt 2>&1
echo "acc rc=$?" >> $OUT/acc.txt
tar czf $OUT/acclog.tgz -C /tmp acclog
cat $OUT/builds.txt $OUT/sanitizer.txt; grep -c WRONG $OUT/bench.txt
grep TIME $OUT/bench.txt | sed -E 's/.*TIME +([^ ]+) +n=([0-9]+) m=([0-9]+) p=([0-9]+).*cublas_ms=([0-9.]+).*rtcuda_ms=([0-9.]+).*ratio=([0-9.]+).*/\1 \2x\3x\4 \5 \6 \7/'
tail -12 $OUT/acc.txt
