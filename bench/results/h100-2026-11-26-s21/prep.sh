#!/usr/bin/env bash
# Session 21: session 19's prep.sh (same arguments and variables: KERNELS, SHAPES, ALL, OLD,
# OLD_RTCUDA), its out-k19/ renamed out-k21/ for call.sh here.
set -euo pipefail
cd "$(dirname "$0")/../../.."
bash bench/results/h100-2026-11-25-s19/prep.sh "$@"
rm -rf out-k21 && mv out-k19 out-k21
