#!/usr/bin/env bash
# Prepares out/gpu for bench/run_gpu.sh on a GPU machine (which has no LLVM): translates every
# example, records what the emulated program prints at a prime size, and writes one benchmark
# source per kernel with its list of tuning points.   Usage: bench/prepare_gpu_run.sh [rtcuda]
set -euo pipefail
cd "$(dirname "$0")/.."
rtcuda=${1:-build/bin/rtcuda}
dest=out/gpu
rm -rf "$dest" && mkdir -p "$dest"
# example  argument  kernel  bench sizes  flops expression
specs=(
  "scale     37 scale    N=8192             0"
  "madd      37 madd     N=8192             (double)N*N"
  "demosaic  37 demosaic N=8192             0"
  "histogram 37 -        -                  0"
  "matmul    37 mm       N=4096             2.0*N*N*(double)N"
  "mv        37 mv       N=8192             2.0*N*N"
  "vv        37 vv       N=8192             (double)N*N"
  "axpy      37 axpy     N=33554432         2.0*N"
  "jacobi    37 jacobi   N=8192             2.0*N*N"
  "cg        examples/cg/matrix.mtx - - 0"
  "matmul/std 37 mm      n=4096,m=4096,p=4096 2.0*n*m*(double)p"
  "madd/std  37 madd     rows=8192,cols=8192 (double)rows*cols"
  "jacobi/std 37 jacobi  n=8192             2.0*n*n"
)
for spec in "${specs[@]}"; do
  read -r example arg kernel sizes flops <<< "$spec"
  name=$(echo "$example" | tr / _)
  cfg=$(ls examples/$example/config.*)
  "$rtcuda" translate "$cfg" -o "$dest/$name" > /dev/null || { echo "translate failed: $example"; continue; }
  echo "$arg" > "$dest/$name/run_argument.txt"
  if [ "$name" = cg ]; then
    (cd examples/cg && "../../$rtcuda" run "../../$dest/cg" matrix.mtx) > "$dest/$name/emulated.txt" 2>&1 || true
  else
    "$rtcuda" run "$dest/$name" "$arg" > "$dest/$name/emulated.txt" 2>&1 || true
  fi
  rm -rf "$dest/$name/.emu"
  [ "$kernel" = "-" ] && continue
  size_args=()
  IFS=, read -ra parts <<< "$sizes"
  for p in "${parts[@]}"; do size_args+=(--size "$p"); done
  python3 bench/make_bench.py "$dest/$name" "$kernel" "${size_args[@]}" --flops "$flops" > "$dest/$name/bench_$kernel.cu"
  # A small exhaustive grid: three block sizes times the per-thread factors the kernel has.
  python3 - "$dest/$name/manifest.json" "$kernel" > "$dest/$name/points_$kernel.txt" <<'PY'
import itertools, json, sys
k = next(k for k in json.load(open(sys.argv[1]))["kernels"] if k["name"] == sys.argv[2])
axes = []
tiled = "THREAD_COLS" in k["tuning"]  # a register tile: fewer block sizes, larger tiles
for name, t in k["tuning"].items():
    vals = t["values"]
    if name == "BLOCKSIZE":
        vals = [v for v in ((128, 256) if tiled else (128, 256, 512)) if v in vals] or vals[:3]
    elif name.endswith("_LEVEL"):
        vals = [v for v in vals if v in ((4, 8) if tiled else (1, 2, 4, 8))]
    elif name == "TILE_K" and tiled:
        vals = [v for v in vals if v in (16, 32)]
    axes.append([f"-D{t['macro']}={v}" for v in vals])
for combo in itertools.product(*axes):
    print(" ".join(combo))
PY
done
cp -r lib/Runtime/include "$dest/runtime-include"
echo "prepared $(ls -d $dest/*/ | wc -l) outputs in $dest"
