#!/usr/bin/env bash
# Index arrays through the tuner (test/lit/Verify/index-arrays.c: a CSR product and a gather):
# rtcuda-tune, with data/fake_gpu.py answering for the GPU, writes each index array's values
# into the harness job ("offsets LIMIT LIMIT", "below LIMIT LIMIT" at the checked and the timed
# size), and the harness' job reader and Session draw them (compiled here against the toolkit's
# cuda.h when there is one): offsets non-decreasing from 0 up to nnz, indices below n or m.
# Usage: index_arrays_fake.sh RTCUDA RTCUDA_TUNE SRC WORK
set -uo pipefail
rtcuda=$1 tune=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
awk -v d="$work" '/^\/\/--- /{f=d "/" $2; next} f{print > f}' "$src/test/lit/Verify/index-arrays.c"
fail() { echo "FAIL  $*"; cat "$work/log" 2>/dev/null; exit 1; }
"$rtcuda" translate "$work/config.yaml" -o "$work/out" > "$work/log" 2>&1 || fail "translate"
"$tune" "$work/out" --harness "$src/test/unit/Tuner/data/fake_gpu.py" --size n=4099 \
  --size nnz=20011 --size m=1009 --max-variants 4 --quiet >> "$work/log" 2>&1 || fail "rtcuda-tune"
job=$work/out/tuning/work
for want in "csr_spmv.job:array int rowptr [0-9]+ 4100 r offsets [0-9]+ 20011$" \
            "csr_spmv.job:array int col [0-9]+ 20011 r below [0-9]+ 4099$" \
            "gather.job:array int perm [0-9]+ 4099 r below [0-9]+ 1009$" \
            "gather.job:array double x [0-9]+ 1009 r$"; do
  grep -Eq "${want#*:}" "$job/${want%%:*}" || fail "no line /${want#*:}/ in ${want%%:*}: $(grep '^array' "$job/${want%%:*}")"
done
echo "ok    job lines"
cuda=${CUDA_HOME:-/usr/local/cuda}
if [ ! -f "$cuda/include/cuda.h" ] || ! command -v c++ > /dev/null; then
  echo "skipped the job reader: no cuda.h under $cuda"
  exit 0
fi
cat > "$work/reader.cpp" <<'CPP'
#include "rtcuda_tune_job.h"
#include "rtcuda_verify.h"
#include <cstdio>
int main(int argc, char **argv) {
  rtcuda_tune::Job job;
  std::string error;
  if (!rtcuda_tune::readJob(argv[1], job, error)) return std::printf("%s\n", error.c_str()), 1;
  rtcuda_verify::Session s;
  int bad = 0, checked = 0;
  for (const rtcuda_tune::Param &p : job.params)
    for (int side : {rtcuda_tune::Check, rtcuda_tune::Target}) {
      if (p.values.empty()) continue;
      long long n = p.count[side], limit = p.limit[side];
      int *a = s.randomArray<int>(n);
      if (p.values == "below") s.indexValues(a, n, limit);
      else s.offsetValues(a, n, limit);
      for (long long i = 0; i < n; ++i) {
        bool ok = p.values == "below" ? a[i] >= 0 && a[i] < limit
                                      : a[i] >= (i ? a[i - 1] : 0) && a[i] <= limit && a[0] == 0;
        if (!ok && bad++ < 3) std::printf("%s[%lld] = %d (%s %lld)\n", p.name.c_str(), i, a[i], p.values.c_str(), limit);
      }
      ++checked;
      free(a);
    }
  std::printf("%d index array(s) checked, %d bad value(s)\n", checked, bad);
  return bad || !checked;
}
CPP
c++ -std=c++17 -I "$src/lib/Tuner/harness" -I "$src/lib/Verify/include" -I "$cuda/include" \
  "$work/reader.cpp" -o "$work/reader" >> "$work/log" 2>&1 || fail "compile the job reader"
for k in csr_spmv gather; do
  "$work/reader" "$job/$k.job" || fail "$k: values outside the job's limits"
done
echo "index arrays with a fake GPU: ok"
