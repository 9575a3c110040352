#!/usr/bin/env bash
# On a GPU machine, over out-kinds/ from bench/prepare_kinds.sh (carry it along): builds the
# translated kernels of bench/kernels/ (default tuning points) and the baselines with nvcc, times
# each kernel against its baseline in the same job (bench/kinds.txt), runs compute-sanitizer
# memcheck and racecheck at small odd sizes, and prints a table last. Logs under $OUT: bench.txt,
# sanitizer.txt, table.txt, device.txt, and everything in logs.tgz.
# It measures; it is not a test with time limits.
set -u
cd "$(dirname "$0")/.."
src=out-kinds/k   # the default config; kernel@NAME lines are in out-kinds/NAME
top=${OUT:-/tmp/rtcuda-kinds}
logs=$top/logs
mkdir -p "$logs"
arch=${ARCH:-90}
export PATH=/usr/local/cuda/bin:$PATH
{ nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader; nvcc --version | tail -1; } | tee "$logs/device.txt"

echo "== build"
nvcc -O3 -arch=sm_$arch -Ibench bench/kinds_baselines.cu -lcublas -lcusparse -o "$src/kinds_baselines" > "$logs/build_baselines.log" 2>&1 \
  || { cat "$logs/build_baselines.log"; exit 1; }
build() {  # the point's -D flags from bench_NN_kernel.flags (none: the default point)
  local flags="" dir; dir=$(dirname "$1"); [ -f "${1%.cu}.flags" ] && flags=$(cat "${1%.cu}.flags")
  # shellcheck disable=SC2086
  nvcc -O3 -arch=sm_$arch -I"$dir" -I"$dir/runtime" -DRTCUDA_BENCH_POINT="\"${flags:-default}\"" $flags \
    -o "${1%.cu}" "$1" > "${1%.cu}.log" 2>&1 || echo "BUILD FAILED $1"
}
export -f build; export src arch
ls out-kinds/*/bench_*.cu "$src"/small_*.cu | xargs -P "$(nproc)" -I{} bash -c 'build {}'
nvcc -O3 -arch=sm_$arch -Xptxas -v -I"$src" -I"$src/runtime" -DRTCUDA_BENCH_POINT="\"default\"" -c "$src/bench_00_rowsum.cu" -o /dev/null > "$logs/resource_usage.txt" 2>&1

echo "== time: kernel then baseline, one line of kinds.txt after another"
: > "$logs/bench.txt"
i=0
copy_done=""
while IFS='|' read -r kernel sizes base _; do
  [[ -z "$kernel" || "$kernel" == \#* ]] && continue
  kernel=$(echo $kernel); sizes=$(echo $sizes); base=$(echo $base)
  bin=$(ls out-kinds/*/bench_$(printf %02d $i)_${kernel%@*}.cu 2>/dev/null | head -1); bin=${bin%.cu}
  if [ -n "$bin" ] && [ -x "$bin" ]; then
    "$bin" | sed "s|^RESULT |RESULT line=$i sizes=$sizes |" | tee -a "$logs/bench.txt"
  else echo "RESULT line=$i kernel=$kernel BUILD_FAILED" | tee -a "$logs/bench.txt"; fi
  if [ "$base" = copy ]; then
    [ -z "$copy_done" ] && { "$src/kinds_baselines" copy 536870912 | sed "s|^BASELINE |BASELINE line=copy |" | tee -a "$logs/bench.txt"; copy_done=1; }
  else
    # shellcheck disable=SC2086
    "$src/kinds_baselines" $base | sed "s|^BASELINE |BASELINE line=$i |" | tee -a "$logs/bench.txt"
  fi
  i=$((i + 1))
done < out-kinds/kinds.txt
# The copy once more at the end: the bandwidth the memory-bound kinds are compared with.
"$src/kinds_baselines" copy 536870912 | sed "s|^BASELINE |BASELINE line=copy2 |" | tee -a "$logs/bench.txt"

echo "== compute-sanitizer at sizes 37, 41, 43 (default points)"
for b in "$src"/small_*.cu; do
  b=${b%.cu}; name=$(basename "$b")
  for tool in memcheck racecheck; do
    compute-sanitizer --tool $tool --error-exitcode 99 "$b" > "$logs/san_${name}_$tool.txt" 2>&1
    echo "SAN $name $tool status=$? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$logs/san_${name}_$tool.txt")"
  done
done | tee "$logs/sanitizer.txt"

echo "== table"
python3 - "$logs/bench.txt" out-kinds/kinds.txt <<'PY' | tee "$logs/table.txt"
import re, sys
res, base = {}, {}
for line in open(sys.argv[1]):
    f = dict(re.findall(r"(\w+)=(\S+)", line))
    if line.startswith("RESULT") and "ms" in f: res[f["line"]] = f
    if line.startswith("BASELINE"): base[f["line"]] = f
copy = max(float(base[k]["gbs"]) for k in ("copy", "copy2") if k in base)
specs = []
for l in open(sys.argv[2]):
    if not l.strip() or l.startswith("#"): continue
    kernel, sizes, b, target, point = (w.strip() for w in (l.rstrip("\n") + "|").split("|")[:5])
    specs.append((kernel + (" " + point if point else ""), sizes, b.split() + [target]))
print(f"copy bandwidth (best of two, read + write): {copy:.0f} GB/s")
print(f"{'kernel (point if not default)':44s} {'sizes':30s} {'ms':>9s} {'GB/s':>7s} {'baseline':24s} {'base ms':>9s} {'ratio':>6s} {'target':>6s}")
for i, (kernel, sizes, b) in enumerate(specs):
    target = float(b[-1]); r = res.get(str(i))
    if not r: print(f"{kernel:44s} {sizes:30s} BUILD OR RUN FAILED"); continue
    ms, gbs = float(r["ms"]), float(r["gbs"])
    if b[0] == "copy":
        name, bms, ratio = "copy", float("nan"), gbs / copy
    else:
        bb = base.get(str(i)); name = bb["name"] if bb else "?"
        bms = float(bb["ms"]) if bb else float("nan"); ratio = bms / ms
    met = "met" if ratio >= target else "MISSED"
    print(f"{kernel:44s} {sizes:30s} {ms:9.4f} {gbs:7.0f} {name:24s} {bms:9.4f} {ratio:6.2f} {target:6.2f} {met}")
PY
cp "$logs"/{bench,sanitizer,table,device}.txt "$top/"
tar czf "$top/logs.tgz" -C "$top" logs && rm -rf "$logs"
