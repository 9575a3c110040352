#!/usr/bin/env bash
# bench/polybench/run.sh POLYBENCH_DIR [options of `run.py cpu`]: PolyBench/C 4.2.1 through
# rtcuda on the CPU emulator, compared with gcc (docs/polybench.md). Exit status 77 (skipped)
# when POLYBENCH_DIR holds no PolyBench, 1 if any output is wrong or anything crashed.
set -euo pipefail
exec python3 "$(dirname "$0")/run.py" cpu "$@"
