#!/bin/bash
# mm9 device call 2 (as run from the repository root; .carry-mm9/ held branch mm9's translation
# of examples/matmul/std at commit 3b9c86e's generator less the third alternative, i.e. with the
# interior fetch, the 128-bit stores of B and no tail loop, in mm/; bench/sgemm_generated.cu;
# bench/sass_loop.py as sassloop.py): several points forced with -D against cuBLAS, SASS loop mix,
# compute-sanitizer at the small sizes.
cd .carry-mm9; export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/device.txt
B=/tmp/b; mkdir -p $B
build() {  # name flags...
  local name=$1; shift
  nvcc -O3 -arch=sm_90 -I mm -I mm/runtime "$@" -Xptxas -v sgemm_generated.cu -lcublas -o $B/$name > $B/$name.build 2>&1 || echo "BUILD FAIL $name"
  echo "$name $*: $(grep -o 'Used [0-9]* registers' $B/$name.build | tr '\n' ' ')" >> $B/builds.txt
}
build rule & build g0 -DMM_SMALL_GRID=0 & build g2 -DMM_SMALL_GRID=2 & build g3 -DMM_SMALL_GRID=3 &
build k16 -DMM_TILE_K=16 -DMM_SMALL_GRID=0 &
build t128x64 -DMM_BLOCKSIZE=128 -DMM_THREAD_COLS=8 -DMM_TILE_K=16 -DMM_SMALL_GRID=0 &
build t64x64 -DMM_BLOCKSIZE=64 -DMM_THREAD_COLS=8 -DMM_TILE_K=16 -DMM_SMALL_GRID=0 &
build t64x128 -DMM_BLOCKSIZE=128 -DMM_THREAD_COLS=16 -DMM_TILE_K=16 -DMM_SMALL_GRID=0 &
build t96x96 -DMM_BLOCKSIZE=144 -DMM_THREAD_COLS=12 -DMM_TILE_K=16 -DMM_SMALL_GRID=0 &
build t128x64k8 -DMM_BLOCKSIZE=128 -DMM_THREAD_COLS=8 -DMM_TILE_K=8 -DMM_SMALL_GRID=0 &
build t64x64k8 -DMM_BLOCKSIZE=64 -DMM_THREAD_COLS=8 -DMM_TILE_K=8 -DMM_SMALL_GRID=0 &
wait
sort $B/builds.txt > $OUT/builds.txt
for n in g0 k16 t128x64 t64x64 t96x96; do cuobjdump -sass -fun _Z2mmiiiPfPKfS1_ $B/$n > $B/$n.sass 2>/dev/null; python3 sassloop.py $B/$n.sass | sed "s/^/$n /" >> $OUT/sass.txt; done
for n in g2 g3; do cuobjdump -sass $B/$n > $B/$n.sass 2>/dev/null; python3 sassloop.py $B/$n.sass | grep small_grid | sed "s/^/$n /" >> $OUT/sass.txt; done
for n in rule g0 g2 g3 k16 t128x64 t64x64 t64x128 t96x96 t128x64k8 t64x64k8 rule; do timeout 60 $B/$n $n >> $OUT/bench.txt 2>&1 || echo "RUN FAIL $n" >> $OUT/bench.txt; done
for n in g0 g2 g3; do for t in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool $t --error-exitcode 9 $B/$n $n small > $B/san_${n}_${t}.txt 2>&1; echo "SANITIZER $n $t rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $B/san_${n}_${t}.txt | tr '\n' ' ') $(grep -c ' ok' $B/san_${n}_${t}.txt) ok" >> $OUT/sanitizer.txt
done; done
