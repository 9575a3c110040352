#!/usr/bin/env bash
# On a GPU machine, over out/gpu prepared by bench/prepare_gpu_run.sh:
#  1. builds every example program with nvcc and runs it, comparing with the emulated output;
#  2. compute-sanitizer memcheck and racecheck at a prime size and two tuning points;
#  3. the baselines (copy bandwidth, cuBLAS) and every kernel at a small grid of tuning points.
# Full logs under $OUT (or /tmp/rtcuda-gpu); short tables last.
set -u
cd "$(dirname "$0")/.."
src=out/gpu
logs=${OUT:-/tmp/rtcuda-gpu}
mkdir -p "$logs"
arch=${ARCH:-90}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$logs/device.txt"
nvcc --version | tail -1
jobs=$(nproc)

echo "== 1. build and run every example"
build() {  # dir tag extra-flags
  local d=$1 tag=$2; shift 2
  nvcc -O3 -arch=sm_$arch -I"$d" -I"$d/runtime" "$@" -o "$d/prog_$tag" "$d/main.cu" \
    $( [ -d "$d/runtime/rtapi" ] && echo "-I$d/runtime/rtapi/include -I$d/runtime/rtapi/common $d/runtime/rtapi/common/*.cpp $d/runtime/rtapi/cuda/*.cpp -lcublas -lcusparse" ) \
    > "$d/build_$tag.log" 2>&1
}
export -f build; export arch
for d in $src/*/; do d=${d%/}; [ -f "$d/manifest.json" ] && echo "$d"; done | xargs -P "$jobs" -I{} bash -c 'build {} default'
for d in $src/*/; do [ -f "$d/manifest.json" ] || continue
  d=${d%/}; name=$(basename "$d"); arg=$(cat "$d/run_argument.txt")
  if [ ! -x "$d/prog_default" ]; then echo "RUN $name: BUILD FAILED"; tail -5 "$d/build_default.log"; continue; fi
  "$d/prog_default" "$arg" > "$d/gpu.txt" 2>&1; status=$?
  if cmp -s "$d/gpu.txt" "$d/emulated.txt"; then same=identical; else same=differs; fi
  echo "RUN $name status=$status output_vs_emulator=$same"
  cp "$d/gpu.txt" "$logs/run_$name.txt"; diff "$d/gpu.txt" "$d/emulated.txt" > "$logs/diff_$name.txt"
done

echo "== 2. compute-sanitizer"
for d in $src/*/; do [ -f "$d/manifest.json" ] || continue
  d=${d%/}; name=$(basename "$d"); arg=$(cat "$d/run_argument.txt")
  # A second point: the smallest value of every tuning parameter.
  flags=$(python3 -c "import json;k=json.load(open('$d/manifest.json'))['kernels'];print(' '.join('-D%s=%d'%(t['macro'],t['values'][0]) for x in k for t in x['tuning'].values()))")
  build "$d" small $flags
  for tag in default small; do
    for tool in memcheck racecheck; do
      compute-sanitizer --tool $tool --error-exitcode 99 "$d/prog_$tag" "$arg" > "$logs/san_${name}_${tag}_$tool.txt" 2>&1
      s=$?; echo "SAN $name point=$tag tool=$tool status=$s $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$logs/san_${name}_${tag}_$tool.txt")"
    done
  done
done

echo "== 3. benchmarks"
nvcc -O3 -arch=sm_$arch bench/baselines.cu -lcublas -o "$logs/baselines" && "$logs/baselines" | tee "$logs/baselines.txt"
benchone() {  # dir kernel index flags...
  local d=$1 k=$2 i=$3; shift 3
  nvcc -O3 -arch=sm_$arch -I"$d" -I"$d/runtime" -DRTCUDA_BENCH_POINT="\"$*\"" "$@" -o "$d/bench_${k}_$i" "$d/bench_$k.cu" > "$d/bench_${k}_$i.log" 2>&1
}
export -f benchone
for f in $src/*/bench_*.cu; do
  d=$(dirname "$f"); k=$(basename "$f" .cu); k=${k#bench_}
  i=0; while read -r flags; do echo "$d $k $i $flags"; i=$((i+1)); done < "$d/points_$k.txt"
done | xargs -P "$jobs" -L 1 bash -c 'benchone "$@"' _
for f in $src/*/bench_*.cu; do
  d=$(dirname "$f"); k=$(basename "$f" .cu); k=${k#bench_}
  n=$(wc -l < "$d/points_$k.txt")
  for ((i = 0; i < n; i++)); do
    if [ -x "$d/bench_${k}_$i" ]; then "$d/bench_${k}_$i" | sed "s|^RESULT |RESULT example=$(basename "$d") |"
    else echo "RESULT example=$(basename "$d") kernel=$k point=$i BUILD_FAILED"; tail -3 "$d/bench_${k}_$i.log"; fi
  done
done | tee "$logs/bench.txt"

echo "== summary: best point per kernel"
python3 - "$logs/bench.txt" <<'PY'
import re, sys, collections
best = {}
checks = collections.defaultdict(set)
for line in open(sys.argv[1]):
    if not line.startswith("RESULT") or "BUILD_FAILED" in line: continue
    f = dict(re.findall(r"(\w+)=(\S+)", line.replace("point=", "point=").split(" point=")[0]))
    point = line.split(" point=")[1].split(" ms=")[0]
    ms = float(re.search(r" ms=(\S+)", line).group(1))
    spread = float(re.search(r" max=(\S+)", line).group(1)) - float(re.search(r" min=(\S+)", line).group(1))
    gbs = float(re.search(r" gbs=(\S+)", line).group(1)); gf = float(re.search(r" gflops=(\S+)", line).group(1))
    check = float(re.search(r" check=(\S+)", line).group(1))
    key = (f["example"], f["kernel"]); checks[key].add("%.4e" % check)
    if key not in best or ms < best[key][0]: best[key] = (ms, spread, gbs, gf, point)
for (e, k), (ms, spread, gbs, gf, p) in sorted(best.items()):
    print(f"BEST {e:12s} {k:8s} {ms:9.4f} ms (spread {spread:.4f}) {gbs:8.1f} GB/s {gf:9.1f} GFLOP/s  checksums={len(checks[(e,k)])}  {p}")
PY
