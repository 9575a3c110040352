#!/usr/bin/env bash
# Every example: translate, then `rtcuda-tune --model-only`; checks that each kernel got a pick,
# that the parameter header holds it and that the report says nothing was measured.
# --max-variants 32: every variant is compiled for its resources (NVRTC, about 1 s of CPU per
# compile of matmul's kernel.cu: mm and its two small-grid alternatives, each register-tiled),
# and the tuner's default sample (256 of the matmuls' 9216 points) made this test take 10 minutes
# on 2 busy cores, 85% of it in the two matmuls. Spaces of up to 32 points (axpy, cg, histogram)
# are still tuned whole; the larger ones through the same sampling, at 32 points.
# Usage: model_only_examples.sh RTCUDA RTCUDA_TUNE SRC WORK
set -uo pipefail
rtcuda=$1 tune=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
failures=0
configs=$(cd "$src/examples" && find . -name 'config.txt' -o -name 'config.yaml' | sort)
for cfg in $configs; do
  name=$(dirname "$cfg" | sed 's|^\./||; s|/|_|g')
  out="$work/$name"
  if ! "$rtcuda" translate "$src/examples/$cfg" -o "$out" > "$out.log" 2>&1; then
    echo "FAIL  $name: translate"; cat "$out.log"; failures=$((failures + 1)); continue
  fi
  if ! "$tune" "$out" --model-only --max-variants 32 --quiet >> "$out.log" 2>&1; then
    echo "FAIL  $name: rtcuda-tune --model-only"; cat "$out.log"; failures=$((failures + 1)); continue
  fi
  problems=$(python3 - "$out" <<'PY'
import json, re, sys
out = sys.argv[1]
r = json.load(open(out + "/tuning/report.json"))
m = json.load(open(out + "/manifest.json"))
bad = []
if r["measured"] or "nothing was measured" not in open(out + "/tuning/report.md").read().lower():
    bad.append("the report does not say that nothing was measured")
for k, mk in zip(r["kernels"], m["kernels"]):
    if not k["chosen"]:
        bad.append(k["kernel"] + ": no pick"); continue
    header = open(out + "/" + mk["params_header"]).read()
    for part in k["chosen"].split(","):
        name, value = part.split("=")
        macro = mk["tuning"][name]["macro"]
        if not re.search(r"#define %s %s\n" % (macro, value), header):
            bad.append("%s: %s not written into %s" % (k["kernel"], part, mk["params_header"]))
    if len(k["variants"]) != k["variants_total"] or k["variants_timed"] != 0:
        bad.append(k["kernel"] + ": variant counts")
print("; ".join(bad))
PY
)
  if [ -n "$problems" ]; then
    echo "FAIL  $name: $problems"; failures=$((failures + 1))
  else
    echo "ok    $name: $(grep -c '^## ' "$out/tuning/report.md") kernel(s): $(python3 -c "import json;print(', '.join(k['kernel']+' '+k['chosen'] for k in json.load(open('$out/tuning/report.json'))['kernels']))")"
  fi
done
echo "rtcuda-tune --model-only over examples: $failures failure(s)"
[ $failures -eq 0 ]
