#!/usr/bin/env bash
# The test command: installs dependencies, builds, and runs every test (unit, lit, end-to-end).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
bash scripts/build.sh
export PATH="/usr/local/cuda/bin:$PATH"
ctest --test-dir build --output-on-failure -j "$(nproc)" -LE gpu
echo "test.sh: finished in $(( $(date +%s) - start )) s"
