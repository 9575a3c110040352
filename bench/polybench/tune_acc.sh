#!/usr/bin/env bash
# rtcuda-tune over PolyBench-ACC's 21 programs as acc.py translates them, on a GPU machine, in
# one bounded run (docs/polybench.md, "After rtcuda-tune"): builds rtcuda-tune without LLVM
# (bench/build_tuner_gpu.sh), then tune_acc.py tunes each output at its ACC sizes, each variant
# checked at a small size first, and prints the table of the default point against the tuned
# one last. It measures; it is not a test.
#
#   [BUDGET=480] bash bench/polybench/tune_acc.sh DIR RESULTS [tune_acc.py run's options: --only ...]
#
# DIR: `acc.py translate`'s --out folder, made elsewhere (no LLVM here); its outputs' params
# headers are rewritten in place. RESULTS gets table.md, summary.json, tuned-params.tgz (the
# headers per benchmark: unpack it and give the folder to `acc.py gpu --tuned`) and logs.tgz.
set -uo pipefail
cd "$(dirname "$0")/../.."
usage="usage: bash bench/polybench/tune_acc.sh DIR RESULTS [options]"
dir=$(cd "${1:?$usage}" && pwd)
results=${2:?$usage}
shift 2
mkdir -p "$results" && results=$(cd "$results" && pwd)
export PATH="/usr/local/cuda/bin:$PATH"
nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv,noheader || true
echo "cores: $(nproc)"

SECONDS=0
source bench/build_tuner_gpu.sh "$results" || exit 1
echo "rtcuda-tune built in $SECONDS s"

# No program starts after BUDGET seconds from the script's start (less the packing); a --deadline
# given here counts from tune_acc.py's start instead.
budget=${BUDGET:-480}
python3 bench/polybench/tune_acc.py run "$dir" "$results/work" --tune build-gpu/bin/rtcuda-tune \
  --deadline $((budget - SECONDS - 25)) "$@"
status=$?
cp "$results/work/table.md" "$results/work/summary.json" "$results" 2>/dev/null
tar czf "$results/tuned-params.tgz" -C "$results/work" tuned 2>/dev/null
(cd "$results" && tar czf logs.tgz work/logs cmake.log build.log $(ls deps.log 2>/dev/null) &&
  rm -rf work cmake.log build.log deps.log)
echo "tune_acc.sh: $SECONDS s in all"
exit $status
