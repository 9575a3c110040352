#!/bin/bash
# mm9 device call 1 (as run from the repository root; .carry-mm9/ held main's translation of
# examples/matmul/std in mm/, hand-edited copies of its kernel.cu in var/ made by mkvar.py here:
# kernel_base.cu = main's, kernel_nf.cu = "notail+fast", kernel_fast.cu = "fast", and
# bench/sgemm_generated.cu, bench/sgemm_ref.cu). The script's SASS summary failed to parse
# cuobjdump's branch targets; sass.txt was made afterwards from the SASS it brought back, with
# bench/sass_loop.py.
cd "$(dirname "$0")"; export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/device.txt
B=/tmp/b; mkdir -p $B
build() {  # name kernel flags...
  local name=$1 kern=$2; shift 2
  mkdir -p $B/$name; cp -r mm/. $B/$name/; cp var/kernel_$kern.cu $B/$name/kernel.cu
  nvcc -O3 -arch=sm_90 -I $B/$name -I $B/$name/runtime "$@" -Xptxas -v sgemm_generated.cu -lcublas -o $B/$name/sg > $B/$name/build.txt 2>&1 || echo "BUILD FAIL $name"
}
build base base & build base16 base -DMM_TILE_K=16 -DMM_SMALL_GRID=0 & build nf nf &
build nf16 nf -DMM_TILE_K=16 -DMM_SMALL_GRID=0 & build f fast &
build b96 base -DMM_BLOCKSIZE=144 -DMM_THREAD_COLS=12 -DMM_TILE_K=16 -DMM_SMALL_GRID=0 &
build nf96 nf -DMM_BLOCKSIZE=144 -DMM_THREAD_COLS=12 -DMM_TILE_K=16 -DMM_SMALL_GRID=0 &
build nf96k8 nf -DMM_BLOCKSIZE=144 -DMM_THREAD_COLS=12 -DMM_TILE_K=8 -DMM_SMALL_GRID=0 &
build nf64 nf -DMM_BLOCKSIZE=64 -DMM_THREAD_COLS=8 -DMM_TILE_K=16 -DMM_SMALL_GRID=0 &
build nf128x64 nf -DMM_BLOCKSIZE=128 -DMM_THREAD_COLS=8 -DMM_TILE_K=16 -DMM_SMALL_GRID=0 &
build nfg2 nf -DMM_SMALL_GRID=2 & build nfg3 nf -DMM_SMALL_GRID=3 &
nvcc -O3 -arch=sm_90 sgemm_ref.cu -lcublas -o $B/ref > $B/ref_build.txt 2>&1 &
wait
cuobjdump -sass -fun _Z2mmiiiPfPKfS1_ $B/base16/sg > $B/base16.sass; cuobjdump -sass $B/ref > $B/ref.sass
gzip -c $B/base16.sass > $OUT/base16.sass.gz; gzip -c $B/ref.sass > $OUT/ref.sass.gz
for n in base nf f base16 nf16 b96 nf96 nf96k8 nf64 nf128x64 nfg2 nfg3 base; do timeout 60 $B/$n/sg $n >> $OUT/bench.txt 2>&1 || echo "RUN FAIL $n" >> $OUT/bench.txt; done
timeout 90 $B/ref 12345 "8x8 reg-prefetch" > $OUT/ref.txt 2>&1
