#!/usr/bin/env bash
# On the GPU machine from the repository root, out-kinds/ carried: the check at the default
# point, at 96 threads (a block that is no power of two) and with a warp a row (ROW_BLOCK=0).
bin=$(mktemp -d)
d=bench/results/h100-2026-11-25-s13-rows-1
for flags in "" "-DROWSUM_BLOCKSIZE=96 -DMVRECT_BLOCKSIZE=96 -DGESUMMV_BLOCKSIZE=96 -DBMV_BLOCKSIZE=96" \
             "-DROWSUM_BLOCKSIZE=1024 -DMVRECT_BLOCKSIZE=1024 -DGESUMMV_BLOCKSIZE=512 -DBMV_BLOCKSIZE=1024" \
             "-DROWSUM_ROW_BLOCK=0 -DMVRECT_ROW_BLOCK=0 -DGESUMMV_ROW_BLOCK=0 -DBMV_ROW_BLOCK=0"; do
  echo "== point: ${flags:-default}"
  # shellcheck disable=SC2086
  nvcc -O3 -arch=sm_90 -Iout-kinds/k -Iout-kinds/k/runtime $flags -o $bin/gpucheck $d/gpucheck.cu && $bin/gpucheck
done
echo "== planted: the block's last warp left out of its sum (must report WRONG)"
rm -rf $bin/planted && cp -r out-kinds/k $bin/planted
sed -i 's|for (int w = 1; w < lanes / 32; w++)|for (int w = 1; w < lanes / 32 - 1; w++)|' $bin/planted/kernel.cu
grep -c "lanes / 32 - 1" $bin/planted/kernel.cu
nvcc -O3 -arch=sm_90 -I$bin/planted -I$bin/planted/runtime -o $bin/gpucheck_planted $d/gpucheck.cu && $bin/gpucheck_planted | tail -3
