#!/usr/bin/env bash
# An outlined function from the translator (test/lit/Outline/time-loop.c: jacobi's two kernels
# in a host time loop, and triangular.c: kernels that read the host row loop's variable i),
# tuned end to end with data/fake_gpu.py answering for the GPU: the time loop's kernels are
# tuned against their default point's output and written, the row loop's at i's first, middle
# and last values with work (the manifest's host_loops), and the default-vs-tuned table has a
# row for each.
# Usage: outlined_fake.sh RTCUDA RTCUDA_TUNE SRC WORK
set -uo pipefail
rtcuda=$1 tune=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
failures=0
for name in time-loop triangular; do
  dir="$work/$name"
  mkdir -p "$dir"
  # The lit test's files, as split-file would write them.
  awk -v d="$dir" '/^\/\/--- /{f=d "/" $2; next} f{print > f}' "$src/test/lit/Outline/$name.c"
  if ! "$rtcuda" translate "$dir/config.yaml" -o "$dir/out" > "$dir/log" 2>&1; then
    echo "FAIL  $name: translate"; cat "$dir/log"; failures=$((failures + 1)); continue
  fi
  # The default point takes twice as long as every other variant: it must be replaced.
  echo '{"BLOCKSIZE=256,MERGE_LEVEL=4,SKEW_LEVEL=2,SKEW_STRIPED=1": {"median": 200}}' > "$dir/out/fake_times.json"
  if ! "$tune" "$dir/out" --harness "$src/test/unit/Tuner/data/fake_gpu.py" --size n=4096 \
       --size tsteps=10 --max-variants 64 --quiet >> "$dir/log" 2>&1; then
    echo "FAIL  $name: rtcuda-tune"; cat "$dir/log"; failures=$((failures + 1)); continue
  fi
  problems=$(python3 - "$dir/out" "$name" <<'PY'
import json, sys
out, name = sys.argv[1], sys.argv[2]
r = json.load(open(out + "/tuning/report.json"))
rows = {row["kernel"]: row for row in r["default_vs_tuned"]}
bad = []
outlined = [k for f in json.load(open(out + "/manifest.json"))["functions"] for k in f["outlined_kernels"]]
kernels = [k["name"] for k in outlined]
# The kernels that take the host row loop's i (triangular's copy x[i] = b[i], distributed out
# of the row loop by Fission, does not).
reads_i = {k["name"] for k in outlined if any(p["name"] == "i" for p in k["params"])}
if name == "triangular" and not reads_i:
    bad.append("no kernel reads the host loop's i")
if sorted(rows) != sorted(kernels):
    bad.append("table rows %s, outlined kernels %s" % (sorted(rows), kernels))
for k in kernels:
    row = rows.get(k, {})
    tuned = not row.get("decision", "").startswith("not tuned")
    if name == "time-loop" and not tuned:
        bad.append(k + " not tuned: " + row.get("decision", ""))
    # A kernel that reads the row loop's i is measured at i's values (first, middle and last
    # of 0..n-1 with work for it), each checked against the default point's output.
    if name == "triangular" and k in reads_i and not tuned:
        bad.append(k + " not tuned: " + row.get("decision", ""))
    if name == "triangular" and k in reads_i and " at i=" not in row.get("sizes", ""):
        bad.append(k + ": the target size does not name i's values: " + row.get("sizes", ""))
if name == "triangular":
    log = open(out + "/fake_log.txt").read()
    if "check:i=510 target:i=2048 target:i=4095" not in log:
        bad.append("the harness was not asked for i's values (n=511 checked, 4096 timed)")
if name == "time-loop":
    for k in kernels:
        row = rows[k]
        if row["tuned"] == row["default"] or not row["tuned_us"] or row["tuned_us"] >= row["default_us"]:
            bad.append("%s: the slower default point was kept (%s)" % (k, row["decision"]))
        block = row["tuned"].split(",")[0].split("=")[1]
        if "#define %s_BLOCKSIZE %s\n" % (k.upper(), block) not in open(out + "/" + k + "_params.h").read():
            bad.append(k + ": the header does not hold the pick")
    log = open(out + "/fake_log.txt").read()
    if "reference baseline" not in log:
        bad.append("not checked against the default point's output")
print("; ".join(bad))
PY
)
  if [ -n "$problems" ]; then echo "FAIL  $name: $problems"; failures=$((failures + 1)); else echo "ok    $name"; fi
done
echo "outlined functions with a fake GPU: $failures failure(s)"
[ "$failures" -eq 0 ]
