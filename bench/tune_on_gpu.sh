#!/usr/bin/env bash
# rtcuda-tune on a GPU machine: builds the tuner without LLVM, records the occupancy table, runs
# the tuner's acceptance checks and prints a table last. It measures; it is not a test with
# time limits.
#
#   bash bench/tune_on_gpu.sh OUTPUTS [RESULTS]
#
# OUTPUTS: a folder of outputs made by `rtcuda translate` on a machine with the translator, e.g.
#   for c in examples/*/config.txt; do n=$(basename $(dirname $c)); ./build/bin/rtcuda translate $c -o out-gpu/$n; done
# RESULTS: where reports, caches and the occupancy CSV go (default: $OUT if set, else
# build-gpu/tune-results).
# STEPS (environment): which steps to run, default "build probe unit planted interrupt tune".
#   build      cmake -DRTCUDA_BUILD_TRANSLATOR=OFF (with .carry's packages when present), ninja
#   probe      bench/occupancy_probe.cu -> RESULTS/h100_occupancy.csv (test/unit/Tuner/data/)
#   unit       TunerTest, its H100 occupancy test on the CSV just recorded
#   planted    planted bad variants (trap, hang, wrong result) must be excluded with that reason
#   interrupt  SIGINT during an exhaustive run, then a rerun: nothing finished is timed again
#   tune       = exhaustive pruned budget table
#   exhaustive each output, every variant timed: RESULTS/<name>-exhaustive.json
#   pruned     each output, pruned strategy with a fresh cache, and --model-only
#   budget     each output, --budget 8 (random start + local moves) with a fresh cache
#   table      pruned, budget and model-only picks against the exhaustive best (from RESULTS)
# Everything RESULTS holds is also packed into RESULTS/tune-results.tgz.
set -uo pipefail
cd "$(dirname "$0")/.."
outputs=${1:?usage: bash bench/tune_on_gpu.sh OUTPUTS [RESULTS]}
outputs=$(cd "$outputs" && pwd)
results=${2:-${OUT:-build-gpu/tune-results}}
mkdir -p "$results" && results=$(cd "$results" && pwd)
steps=" ${STEPS:-build probe unit planted interrupt tune} "
export PATH="/usr/local/cuda/bin:$PATH"
[ -d /tmp/deps/usr/lib/x86_64-linux-gnu ] && export LD_LIBRARY_PATH="/tmp/deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
tune=build-gpu/bin/rtcuda-tune
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
steps=${steps/ tune / exhaustive pruned budget table }
step() { [[ "$steps" == *" $1 "* ]]; }

nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv,noheader || true
arch=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d '. ')

# Problem sizes per example (large enough that launches are not all overhead, small enough
# that the sequential C reference takes seconds).
sizes_for() {
  case "$1" in
    matmul) echo "--size N=1024" ;;
    mv) echo "--size N=8192" ;;
    axpy) echo "--size N=16777216" ;;
    cg) echo "--size N=4194304" ;;
    jacobi) echo "--size N=4096" ;;
    madd|scale|vv|demosaic|histogram) echo "--size N=4096" ;;
    *) echo "" ;;
  esac
}

if step build; then
  echo "== build (no translator)"
  flags=""
  if [ -f .carry/gpu-deps.sh ]; then
    bash .carry/gpu-deps.sh install >/dev/null
    flags=$(bash .carry/gpu-deps.sh flags)
  fi
  generator=""
  command -v ninja >/dev/null && generator="-G Ninja"
  # shellcheck disable=SC2086
  cmake -S . -B build-gpu -DRTCUDA_BUILD_TRANSLATOR=OFF $generator $flags > "$results/cmake.log" 2>&1 \
    || { tail -30 "$results/cmake.log"; echo "cmake failed"; exit 1; }
  cmake --build build-gpu -j "$(nproc)" --target rtcuda-tune TunerTest > "$results/build.log" 2>&1 \
    || { tail -30 "$results/build.log"; echo "build failed"; exit 1; }
fi

if step probe; then
  echo "== occupancy probe"
  nvcc -O2 -std=c++17 -arch="$arch" bench/occupancy_probe.cu -o build-gpu/occupancy_probe \
    && build-gpu/occupancy_probe > "$results/h100_occupancy.csv" \
    && grep -c -v '^#' "$results/h100_occupancy.csv" | sed 's/^/rows (with header): /' \
    || fail "occupancy probe"
fi

if step unit; then
  echo "== TunerTest"
  csv="$results/h100_occupancy.csv"
  [ -f "$csv" ] || csv=test/unit/Tuner/data/h100_occupancy.csv
  RTCUDA_OCCUPANCY_CSV="$csv" build-gpu/bin/TunerTest > "$results/TunerTest.log" 2>&1 \
    && tail -1 "$results/TunerTest.log" || { grep -A8 Failure "$results/TunerTest.log" | head -40; fail "TunerTest"; }
fi

if step planted; then
  echo "== planted bad variants"
  work=$(mktemp -d)
  cp -r test/unit/Tuner/data/planted "$work/planted"
  $tune "$work/planted" --strategy exhaustive --timeout 10 --size n=4194304 --quiet \
    > "$results/planted.log" 2>&1
  cp "$work/planted/tuning/report.md" "$results/planted-report.md" 2>/dev/null
  python3 - "$work/planted/tuning/report.json" <<'PY' || fail "planted bad variants"
import json, sys
k = json.load(open(sys.argv[1]))["kernels"][0]
got = {v["variant"]: v.get("measured", {}).get("status", "not run") for v in k["variants"]}
want = {"BLOCKSIZE=64": "crash", "BLOCKSIZE=96": "timeout", "BLOCKSIZE=128": "wrong"}
for v, s in sorted(got.items()):
    print("  %-14s %s" % (v, s))
bad = [v for v, s in want.items() if got.get(v) != s]
bad += [v for v in got if v not in want and got[v] != "ok"]
if k["chosen"] not in ("BLOCKSIZE=32", "BLOCKSIZE=160", "BLOCKSIZE=256"):
    bad.append("picked " + str(k["chosen"]))
print("  picked", k["chosen"], "- planted:", "ok" if not bad else "WRONG " + ", ".join(bad))
sys.exit(1 if bad else 0)
PY
  rm -rf "$work"
fi

if step interrupt; then
  echo "== interrupt and resume"
  first=$(ls -d "$outputs"/*/ 2>/dev/null | head -1)
  work=$(mktemp -d)
  cp -r "${first:-test/unit/Tuner/data/planted/}" "$work/out"
  name=$(basename "$first")
  # shellcheck disable=SC2046
  $tune "$work/out" --strategy exhaustive --kernel "$(python3 -c "import json;print(json.load(open('$work/out/manifest.json'))['kernels'][0]['name'])")" \
    $(sizes_for "$name") --quiet > "$results/interrupt-1.log" 2>&1 &
  pid=$!
  count() { python3 -c "import json,sys
try: c=json.load(open('$work/out/tuning/cache.json'))
except Exception: print(0); sys.exit()
print(sum(len(e['variants']) for e in c['measurements'].values()))"; }
  for _ in $(seq 1 600); do [ "$(count)" -ge 3 ] && break; sleep 0.2; done
  kill -INT $pid; wait $pid; status=$?
  cp "$work/out/tuning/cache.json" "$work/before.json"
  echo "  first run: exit $status after $(count) variants"
  # shellcheck disable=SC2046
  $tune "$work/out" --strategy exhaustive --kernel "$(python3 -c "import json;print(json.load(open('$work/out/manifest.json'))['kernels'][0]['name'])")" \
    $(sizes_for "$name") --quiet > "$results/interrupt-2.log" 2>&1
  python3 - "$work/before.json" "$work/out/tuning/cache.json" "$status" <<'PY' || fail "interrupt and resume"
import json, sys
before, after = (json.load(open(p))["measurements"] for p in sys.argv[1:3])
same = changed = new = 0
for key, entry in after.items():
    for v, m in entry["variants"].items():
        old = before.get(key, {}).get("variants", {}).get(v)
        if old is None: new += 1
        elif old == m: same += 1
        else: changed += 1
print("  rerun: %d kept from the first run, %d re-timed, %d new" % (same, changed, new))
sys.exit(0 if sys.argv[3] == "130" and same >= 3 and changed == 0 and new > 0 else 1)
PY
  rm -rf "$work"
fi

tune_each() {  # tune_each KIND: runs the KIND pass over every output
  for dir in "$outputs"/*/; do
    name=$(basename "$dir")
    [ -f "$dir/manifest.json" ] || continue
    size=$(sizes_for "$name")
    echo "-- $1 $name $size"
    # shellcheck disable=SC2086
    if [ "$1" = exhaustive ]; then
      $tune "$dir" --strategy exhaustive --cache "$results/$name-exhaustive-cache.json" --no-write $size --quiet \
        > "$results/$name-exhaustive.log" 2>&1 \
        && cp "$dir/tuning/report.json" "$results/$name-exhaustive.json" \
        && cp "$dir/tuning/report.md" "$results/$name-exhaustive.md" || fail "$name exhaustive"
    elif [ "$1" = budget ]; then
      rm -f "$results/$name-budget-cache.json"
      $tune "$dir" --budget 8 --cache "$results/$name-budget-cache.json" --no-write $size --quiet \
        > "$results/$name-budget.log" 2>&1 \
        && cp "$dir/tuning/report.json" "$results/$name-budget.json" || fail "$name budget"
    else
      rm -f "$results/$name-pruned-cache.json"
      { $tune "$dir" --cache "$results/$name-pruned-cache.json" $size --quiet \
          && cp "$dir/tuning/report.json" "$results/$name-pruned.json" \
          && cp "$dir/tuning/report.md" "$results/$name-pruned.md"
        $tune "$dir" --model-only --arch "$arch" --no-write $size --quiet \
          && cp "$dir/tuning/report.json" "$results/$name-model.json"; } \
        > "$results/$name-pruned.log" 2>&1 || fail "$name pruned"
    fi
    grep -h -E 'excluded|error' "$results/$name-$1.log" | head -5
  done
}
step exhaustive && { echo "== exhaustive over $outputs"; tune_each exhaustive; }
step pruned && { echo "== pruned and model-only over $outputs"; tune_each pruned; }
step budget && { echo "== budget search over $outputs"; tune_each budget; }
if step table; then
  python3 - "$results" <<'PY' || fail "pruned picks"
import glob, json, os, sys
res = sys.argv[1]
rows, worst, over = [], 1.0, 0
for exh_path in sorted(glob.glob(os.path.join(res, "*-exhaustive.json"))):
    name = os.path.basename(exh_path)[:-len("-exhaustive.json")]
    exh = json.load(open(exh_path))
    pru_path = os.path.join(res, name + "-pruned.json")
    pru = json.load(open(pru_path)) if os.path.exists(pru_path) else None
    mod_path = os.path.join(res, name + "-model.json")
    mod = json.load(open(mod_path)) if os.path.exists(mod_path) else None
    bud_path = os.path.join(res, name + "-budget.json")
    bud = json.load(open(bud_path)) if os.path.exists(bud_path) else None
    for i, k in enumerate(exh["kernels"]):
        t = {v["variant"]: v["measured"]["median_us"] for v in k["variants"]
             if v.get("measured", {}).get("status") == "ok"}
        if not t:
            rows.append((name, k["kernel"], "-", "no verified variant", "", "", "", "", "", "")); continue
        best = min(t, key=t.get)
        pk = pru["kernels"][i] if pru else {"chosen": None, "variants_timed": 0, "variants_total": 0}
        pick = pk["chosen"]
        ratio = t.get(pick, float("nan")) / t[best]
        share = "%d/%d" % (pk["variants_timed"], pk["variants_total"])
        mpick = mod["kernels"][i]["chosen"] if mod else None
        mratio = t.get(mpick, float("nan")) / t[best] if mpick else float("nan")
        dratio = t.get(k["default"], float("nan")) / t[best]
        bpick = bud["kernels"][i]["chosen"] if bud else None
        bratio = t.get(bpick, float("nan")) / t[best] if bpick else float("nan")
        if pk["variants_timed"] > 0.3 * pk["variants_total"]: over += 1
        worst = max(worst, ratio) if ratio == ratio else worst
        sizes = ",".join("%s=%s" % kv for kv in k["sizes"].items())
        rows.append((name, k["kernel"], sizes, "%s %.2f" % (best[10:] if best.startswith("BLOCKSIZE=") else best, t[best]),
                     pick, share, "%.3f" % ratio, "%.3f" % bratio, "%s %.3f" % (mpick, mratio),
                     "%.3f" % dratio))
head = ("output", "kernel", "sizes", "best (us)", "pruned pick", "timed", "pick/best",
        "budget-8/best", "model-only pick/best", "default/best")
w = [max(len(str(r[c])) for r in rows + [head]) for c in range(len(head))]
print()
for r in [head] + rows:
    print("  ".join(str(x).ljust(w[c]) for c, x in enumerate(r)))
print("\npruned picks: worst %.3f of the exhaustive best (acceptance: <= 1.05); %d kernel(s) timed over 30%%"
      % (worst, over))
sys.exit(0 if worst <= 1.05 and over == 0 else 1)
PY
fi
(cd "$results" && tar czf tune-results.tgz --exclude tune-results.tgz . 2>/dev/null)
echo "tune_on_gpu: $failures failure(s); results in $results (all of it in tune-results.tgz)"
[ $failures -eq 0 ]
