#!/usr/bin/env bash
# On the GPU machine, from the repository root with out-kinds/ carried (bash bench/prepare_kinds.sh).
set -eu
bin=$(mktemp -d)
d=bench/results/h100-2026-11-25-s13-elementwise-1
nvcc -O3 -arch=sm_90 -Iout-kinds/k -Iout-kinds/k/runtime -o $bin/explore $d/explore.cu
for s in "8191 8193" "65537 1031" "1031 65537"; do $bin/explore $s; done
nvcc -O3 -arch=sm_90 -Iout-kinds/k -Iout-kinds/k/runtime -o $bin/rows $d/rows.cu
for s in "1031 65537" "4099 16411" "8191 8193" "65537 1031"; do $bin/rows $s; done
