#!/usr/bin/env bash
# rtcuda explain over every example: the report validates as HTML5 (tidy), a headless Chromium
# loads it from a file:// URL and the rendered DOM has, for every pass that changed a kernel
# (manifest.json of rtcuda translate), its step with a diff and a link to its page
# (check_explain_dom.py). Then three more checks:
#  - planted: matmul with MAX_MERGE_LEVEL=1, so that BlockMerge stops applying, checked against
#    the real matmul's manifest: the checker must fail;
#  - translate --explain writes explain.html into the output folder;
#  - after rtcuda-tune --model-only, explain on the output folder draws the tuning chart with the
#    picked point;
#  - a function of two nests, outlined into two kernels (test/lit/Outline/two-nests.c).
# Usage: explain_examples.sh RTCUDA RTCUDA_TUNE SRC WORK
set -uo pipefail
rtcuda=$1 tune=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
here=$(cd "$(dirname "$0")" && pwd)
failures=0
fail() { echo "FAIL  $*"; failures=$((failures + 1)); }

if ! command -v tidy >/dev/null; then
  echo "explain: tidy is not installed (scripts/install-deps.sh installs it)"; exit 1
fi
browser=""
for b in chromium chromium-browser; do command -v "$b" >/dev/null && browser=$b && break; done
[ -n "$browser" ] || echo "explain: SKIPPING the browser checks: chromium is not installed and could not be (scripts/install-deps.sh)"

# Loads a report in the browser; the rendered DOM goes to $2.
render() {
  HOME="$work/home" timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
    --user-data-dir="$work/chromium-profile" --dump-dom "file://$1" > "$2" 2> "$2.log"
}

# check NAME REPORT MANIFEST: tidy, browser, DOM checker. Returns non-zero on a problem.
check() {
  local name=$1 report=$2 manifest=$3
  if ! tidy -e -q "$report" > "$report.tidy" 2>&1; then
    echo "$name: tidy:"; cat "$report.tidy"; return 1
  fi
  [ -n "$browser" ] || return 0
  if ! render "$report" "$report.dom.html" || ! grep -q '</html>' "$report.dom.html"; then
    echo "$name: $browser could not load the report"; tail -5 "$report.dom.html.log"; return 1
  fi
  python3 "$here/check_explain_dom.py" "$report.dom.html" "$manifest" "$(dirname "$report")"
}

configs=$(cd "$src/examples" && find . -name 'config.txt' -o -name 'config.yaml' | sort)
for cfg in $configs; do
  name=$(dirname "$cfg" | sed 's|^\./||; s|/|_|g')
  out="$work/out/$name" report="$work/reports/$name.html"
  mkdir -p "$work/reports"
  if ! "$rtcuda" translate "$src/examples/$cfg" -o "$out" > "$work/$name.log" 2>&1; then
    fail "$name: translate"; cat "$work/$name.log"; continue
  fi
  if ! "$rtcuda" explain "$src/examples/$cfg" -o "$report" >> "$work/$name.log" 2>&1; then
    fail "$name: explain"; cat "$work/$name.log"; continue
  fi
  if check "$name" "$report" "$out/manifest.json"; then
    echo "ok    $name: $(python3 -c "import json,sys; print('; '.join(k['name'] + ': ' + (', '.join(k['passes']) or 'no pass') for k in json.load(open(sys.argv[1]))['kernels']))" "$out/manifest.json")"
  else
    fail "$name: report"
  fi
done

# A function of two parallel nests, outlined into two kernels and a host function
# (test/lit/Outline/two-nests.c): each kernel gets its report.
mkdir -p "$work/outlined"
awk -v dir="$work/outlined" '/^\/\/--- /{f = dir "/" $2; next} f {print > f}' "$src/test/lit/Outline/two-nests.c"
if ! "$rtcuda" translate "$work/outlined/config.yaml" -o "$work/out/outlined" > "$work/outlined.log" 2>&1 \
   || ! "$rtcuda" explain "$work/outlined/config.yaml" -o "$work/reports/outlined.html" >> "$work/outlined.log" 2>&1; then
  fail "outlined: translate or explain"; cat "$work/outlined.log"
elif [ "$(grep -c '<article class="kernel"' "$work/reports/outlined.html")" -lt 2 ]; then
  fail "outlined: fewer than two kernels in the report"
elif check outlined "$work/reports/outlined.html" "$work/out/outlined/manifest.json"; then
  echo "ok    outlined: $(python3 -c "import json,sys; print('; '.join(k['name'] + ': ' + ', '.join(k['passes']) for f in json.load(open(sys.argv[1]))['functions'] for k in f['outlined_kernels']))" "$work/out/outlined/manifest.json")"
else
  fail "outlined: report"
fi

# The host side of cg: the kernels of its solver loop run in a resident loop, sub does not.
if ! grep -q 'main.c:51: <strong>resident loop</strong>' "$work/reports/cg.html" \
   || grep -q 'main.c:39: <strong>resident' "$work/reports/cg.html"; then
  fail "cg: the host section does not show the resident solver loop"
fi

# Planted: a pass that stops applying must be caught.
mkdir -p "$work/planted"
cp "$src/examples/matmul/"{kernel.c,main.c} "$work/planted/"
sed 's/^MAX_MERGE_LEVEL=.*/MAX_MERGE_LEVEL=1/' "$src/examples/matmul/config.txt" > "$work/planted/config.txt"
if [ -n "$browser" ]; then
  if ! "$rtcuda" explain "$work/planted/config.txt" -o "$work/reports/planted.html" > "$work/planted.log" 2>&1; then
    fail "planted: explain"; cat "$work/planted.log"
  elif check planted "$work/reports/planted.html" "$work/out/matmul/manifest.json" > "$work/planted.check" 2>&1; then
    fail "planted: BlockMerge no longer applies, yet the checker found nothing"
  elif grep -q "pass BlockMerge changed the kernel but has no step" "$work/planted.check"; then
    echo "ok    planted: the checker caught it: $(grep -m1 BlockMerge "$work/planted.check")"
  else
    fail "planted: the checker failed for another reason"; cat "$work/planted.check"
  fi
fi

# translate --explain: the report lands in the output folder.
if ! "$rtcuda" translate "$src/examples/cg/config.txt" -o "$work/out/cg-explained" --explain > "$work/cg-explained.log" 2>&1 \
   || [ ! -f "$work/out/cg-explained/explain.html" ]; then
  fail "translate --explain"; cat "$work/cg-explained.log"
elif check cg-explained "$work/out/cg-explained/explain.html" "$work/out/cg-explained/manifest.json"; then
  echo "ok    translate --explain: $work/out/cg-explained/explain.html"
else
  fail "translate --explain: report"
fi

# After rtcuda-tune (model only: no GPU here), the chart of the tuning section.
if "$tune" "$work/out/axpy" --model-only --quiet > "$work/tune.log" 2>&1; then
  if ! "$rtcuda" explain "$work/out/axpy" -o "$work/reports/axpy-tuned.html" >> "$work/tune.log" 2>&1; then
    fail "explain of a tuned output"; cat "$work/tune.log"
  elif ! check axpy-tuned "$work/reports/axpy-tuned.html" "$work/out/axpy/manifest.json"; then
    fail "axpy-tuned: report"
  elif ! grep -q 'class="picked-point"' "$work/reports/axpy-tuned.html" \
       || [ "$(grep -o '<circle cx=' "$work/reports/axpy-tuned.html" | wc -l)" -lt 2 ]; then
    fail "axpy-tuned: no tuning chart with the picked point"
  else
    echo "ok    axpy-tuned: tuning chart with $(grep -o '<circle cx=' "$work/reports/axpy-tuned.html" | wc -l) variants and the picked point"
  fi
else
  fail "rtcuda-tune --model-only"; cat "$work/tune.log"
fi

# The measured chart, from a report shaped like a measured run's (no GPU here): the model-only
# report with a made-up median per variant (1.5 us per predicted unit); test input only.
python3 - "$work/out/axpy/tuning/report.json" "$work/measured.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["measured"] = True
for k in r["kernels"]:
    for v in k["variants"]:
        if v["feasible"]:
            v["measured"] = {"status": "ok", "median_us": 1.5 * v["model"]["units"], "verified": True}
json.dump(r, open(sys.argv[2], "w"))
PY
if ! "$rtcuda" explain "$src/examples/axpy/config.txt" -o "$work/reports/axpy-measured.html" \
     --tuning-report "$work/measured.json" > "$work/measured.log" 2>&1; then
  fail "explain --tuning-report"; cat "$work/measured.log"
elif ! grep -q 'measured median (us)' "$work/reports/axpy-measured.html" \
     || ! grep -q 'class="picked-point"' "$work/reports/axpy-measured.html"; then
  fail "axpy-measured: no measured chart with the picked point"
else
  echo "ok    axpy-measured: measured against predicted, picked point marked"
fi
# A tuning report that is not one is an error, and no report is written.
echo "not json" > "$work/bad.json"
if "$rtcuda" explain "$src/examples/axpy/config.txt" -o "$work/reports/bad.html" \
     --tuning-report "$work/bad.json" > "$work/bad.log" 2>&1 || [ -e "$work/reports/bad.html" ]; then
  fail "a broken tuning report was accepted"; cat "$work/bad.log"
fi

# A report file is never written over a file that is not one.
echo "user data" > "$work/reports/user.html"
if "$rtcuda" explain "$src/examples/axpy/config.txt" -o "$work/reports/user.html" > /dev/null 2>&1 \
   || [ "$(cat "$work/reports/user.html")" != "user data" ]; then
  fail "explain replaced a file that is not a report"
fi

echo "rtcuda explain over examples: $failures failure(s)"
[ $failures -eq 0 ]
