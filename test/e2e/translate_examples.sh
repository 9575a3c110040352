#!/usr/bin/env bash
# End to end: translate every example config, then build every output with nvcc through its own
# CMakeLists.txt for sm_90 with warnings as errors. Usage: translate_examples.sh RTCUDA SRC WORK
set -uo pipefail
rtcuda=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "no nvcc: skipping the CUDA builds"
  exit 77
fi
export PATH="/usr/local/cuda/bin:$PATH"
failures=0
configs=$(cd "$src/examples" && find . -name 'config.txt' -o -name 'config.yaml' | sort)
for cfg in $configs; do
  name=$(dirname "$cfg" | sed 's|^\./||; s|/|_|g')
  if ! "$rtcuda" translate "$src/examples/$cfg" -o "$work/$name" > "$work/$name.translate.log" 2>&1; then
    echo "FAIL translate $cfg"; cat "$work/$name.translate.log"; failures=$((failures + 1))
  fi
done
build() {
  dir=$1
  if cmake -S "$dir" -B "$dir/build" -DRTCUDA_WERROR=ON > "$dir.build.log" 2>&1 &&
     cmake --build "$dir/build" >> "$dir.build.log" 2>&1; then
    echo "ok    $(basename "$dir")"
  else
    echo "FAIL  $(basename "$dir")"; tail -20 "$dir.build.log"; return 1
  fi
}
export -f build
ls -d "$work"/*/ | sed 's|/$||' | xargs -P "$(nproc)" -I{} bash -c 'build {}' || failures=$((failures + 1))
count=$(ls -d "$work"/*/ | wc -l)
echo "translated and built $count example outputs; failures: $failures"
[ "$failures" -eq 0 ]
