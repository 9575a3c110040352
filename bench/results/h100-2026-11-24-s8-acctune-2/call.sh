#!/usr/bin/env bash
# acctune8's second device call: gesummv's init swap (bench/polybench/acc_init_swap.py).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
C=.carry-acctune8
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 $C/bench/acc_init_swap.py $C/tr .carry-acc/acc/CUDA /tmp/swap --runs 5 2>&1 | tee $OUT/swap.log | tail -14
