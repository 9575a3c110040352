#!/usr/bin/env bash
# rtcuda-tune at the size that matters, on a GPU machine: builds rtcuda-tune without LLVM, runs
# the planted-bad-variant check, then tunes each output of OUTPUTS at its target size with a
# fresh cache, timing the whole run, and prints the default-vs-tuned tables last. It measures;
# it is not a test with time limits.
#
#   bash bench/tune_target_size.sh OUTPUTS RESULTS
#
# OUTPUTS holds folders made by `rtcuda translate` elsewhere, each with a file `tune-args`
# (rtcuda-tune's options for it, one per line, e.g. `--size` and `N=4096` on two lines).
set -uo pipefail
cd "$(dirname "$0")/.."
outputs=$(cd "${1:?usage: bash bench/tune_target_size.sh OUTPUTS RESULTS}" && pwd)
results=${2:?usage: bash bench/tune_target_size.sh OUTPUTS RESULTS}
mkdir -p "$results" && results=$(cd "$results" && pwd)
export PATH="/usr/local/cuda/bin:$PATH"
tune=build-gpu/bin/rtcuda-tune
nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv,noheader || true
nproc

echo "== build (no translator)"
SECONDS=0
source bench/build_tuner_gpu.sh "$results" || exit 1
echo "built in $SECONDS s"

echo "== planted bad variants (trap, hang, wrong result)"
work=$(mktemp -d)
cp -r test/unit/Tuner/data/planted "$work/planted"
$tune "$work/planted" --strategy exhaustive --timeout 10 --size n=4194304 > "$results/planted.log" 2>&1
echo "exit $?"
python3 - "$work/planted/tuning/report.json" <<'PY'
import json, sys
k = json.load(open(sys.argv[1]))["kernels"][0]
for v in k["variants"]:
    m = v.get("measured", {})
    print("  %-14s %-8s %s" % (v["variant"], m.get("status", "not run"), (m.get("reason") or "")[:110]))
print("  picked", k["chosen"], "-", k.get("decision"))
PY
rm -rf "$work"

for dir in "$outputs"/*/; do
  name=$(basename "$dir")
  mapfile -t args < "$dir/tune-args"
  rm -rf "$dir/tuning"
  echo "== $name: rtcuda-tune ${args[*]}"
  SECONDS=0
  $tune "$dir" "${args[@]}" > "$results/$name.log" 2>&1
  status=$?
  echo "exit $status, $SECONDS s wall"
  grep -E "^rtcuda-tune: .*(: [A-Z_]+=|not tuned|excluded)" "$results/$name.log" | cut -c1-300 | head -20
  cp "$dir/tuning/report.md" "$results/$name-report.md" 2>/dev/null
  cp "$dir/tuning/report.json" "$results/$name-report.json" 2>/dev/null
  cp "$dir/tuning/default-vs-tuned.md" "$results/$name-default-vs-tuned.md" 2>/dev/null
done
echo "== default vs tuned at the target size"
for f in "$results"/*-default-vs-tuned.md; do echo "### $(basename "$f" -default-vs-tuned.md)"; cat "$f"; done
