#!/bin/bash
# mm helper, session 7: main's generated matmul (examples/matmul/std) at its default point and at
# candidate points (-D overrides of its tuning macros: the same kernel.cu), against cuBLAS in the
# same process; compute-sanitizer memcheck/racecheck at small odd sizes; a planted missing barrier.
cd "$(dirname "$0")/.." ; C=.carry-mm ; B=/tmp/b ; mkdir -p $B
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader; nvcc --version | tail -1; } > $OUT/device.txt
build() { name=$1; dir=$2; shift 2; nvcc -O3 -arch=sm_90 -I $C/$dir -I $C/$dir/runtime "$@" $C/sgemm_generated.cu -lcublas -o $B/$name --resource-usage > $B/$name.build 2>&1; echo "$name $* : $(grep -o 'Used [0-9]* registers.*smem' $B/$name.build | head -1)"; }
W="-DMM_BLOCKSIZE=384 -DMM_SKEW_LEVEL=4 -DMM_THREAD_COLS=32"
{ build d mm & build w8 mm $W & build w16 mm $W -DMM_TILE_K=16 & build q8 mm -DMM_BLOCKSIZE=512 -DMM_SKEW_LEVEL=4 -DMM_THREAD_COLS=32 &
  build h8 mm -DMM_SKEW_LEVEL=4 & build h16 mm -DMM_SKEW_LEVEL=4 -DMM_TILE_K=16 & build m4 mm -DMM_BLOCKSIZE=384 -DMM_MERGE_LEVEL=4 &
  build v8 mm -DMM_SKEW_LEVEL=4 -DMM_THREAD_COLS=32 & build planted planted & wait; } > $OUT/builds.txt 2>&1
( for v in d w8 w16 q8 h8 h16 m4 v8 d; do $B/$v $v; done ) > $OUT/bench.txt 2>&1
S=$OUT/sanitizer.txt; : > $S
for v in d w8 w16; do
  echo "== $v memcheck small" >> $S; timeout 60 compute-sanitizer --tool memcheck --print-limit 5 $B/$v $v small >> $S 2>&1; echo "rc=$?" >> $S
  echo "== $v racecheck small" >> $S; timeout 100 compute-sanitizer --tool racecheck --print-limit 5 $B/$v $v small >> $S 2>&1; echo "rc=$?" >> $S
done
echo "== d memcheck check (odd sizes, offset bases)" >> $S; timeout 120 compute-sanitizer --tool memcheck --print-limit 5 $B/d d check >> $S 2>&1; echo "rc=$?" >> $S
echo "== planted (no barrier) racecheck small" >> $S; timeout 100 compute-sanitizer --tool racecheck --print-limit 3 $B/planted planted small >> $S 2>&1; echo "rc=$?" >> $S
echo "== planted (no barrier) plain check" >> $S; $B/planted planted check >> $S 2>&1; echo "rc=$?" >> $S
cat $OUT/builds.txt; grep -E "^==|rc=|ERROR SUMMARY|RACECHECK SUMMARY|WRONG|CHECK" $S | head -60
grep TIME $OUT/bench.txt | awk '{print $2, $3, $4, $5, $6, $8, $11, $12}'
grep -c "CHECK.*ok" $OUT/bench.txt; grep -v "ok$" $OUT/bench.txt | head
