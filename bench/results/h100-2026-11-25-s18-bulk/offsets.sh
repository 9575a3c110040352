#!/usr/bin/env bash
# On the GPU machine, over out-off/ (prep_offsets.sh): builds each benchmark, runs it once, and
# compares the checksum of the outputs at array offsets 1 and 2 floats with offset 0 (the same
# inputs by logical index, the same kernel: the checksums must be equal); then compute-sanitizer
# memcheck at offset 1, default point, the small size. Prints a line per kernel, size and point.
set -u
cd "$(dirname "$0")/../../.."
export PATH=/usr/local/cuda/bin:$PATH
dir=out-off/k
build() { nvcc -O3 -arch=sm_90 -I"$(dirname "$1")" -I"$(dirname "$1")/runtime" -DRTCUDA_BENCH_POINT="\"x\"" \
  $(cat "${1%.cu}.flags" | sed 's/\([A-Z0-9_]*=[0-9]*\)/-D\1/g') -o "${1%.cu}" "$1" > "${1%.cu}.log" 2>&1 || echo "BUILD FAILED $1"; }
export -f build
ls $dir/*-off?.cu out-off/bug/box3d-*.cu | xargs -P "$(nproc)" -I{} bash -c 'build {}'
# The planted bug (prep_offsets.sh): the checksums at offsets 0 and 1 must differ.
b0=$(out-off/bug/box3d-37x41x43-default-off0 | sed -n 's/.*check=\([^ ]*\).*/\1/p')
b1=$(out-off/bug/box3d-37x41x43-default-off1 | sed -n 's/.*check=\([^ ]*\).*/\1/p')
echo "planted bug (shift from the index): offset 0 $b0, offset 1 $b1: $([ "$b0" != "$b1" ] && echo caught || echo 'NOT CAUGHT')"
bad=0
for f in $dir/*-off0.cu; do
  base=${f%-off0.cu}; line="$(basename "$base")"
  c0=$("${base}-off0" | sed -n 's/.*check=\([^ ]*\).*/\1/p')
  for off in 1 2; do
    c=$("${base}-off$off" | sed -n 's/.*check=\([^ ]*\).*/\1/p')
    line="$line off$off=$([ -n "$c0" ] && [ "$c" = "$c0" ] && echo same || { bad=1; echo "DIFFERENT($c vs $c0)"; })"
  done
  echo "$line"
done
for k in box3d conv3d star3d boxw3d boxz5; do
  b=$dir/$k-37x41x43-default-off1
  compute-sanitizer --tool memcheck --error-exitcode 99 "$b" > "$b.memcheck" 2>&1
  echo "memcheck $k offset 1: status $? $(grep -m1 'ERROR SUMMARY' "$b.memcheck")"
done
echo "offsets: $([ $bad = 0 ] && echo 'all checksums equal' || echo 'SOME DIFFER')"
