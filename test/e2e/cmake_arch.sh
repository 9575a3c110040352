#!/usr/bin/env bash
# The generated CMakeLists.txt builds for the architecture the user asks for: configure matmul's
# output with -DCMAKE_CUDA_ARCHITECTURES=80 and build it (compile only, no GPU needed); nvcc's
# command line must name sm_80 and not sm_90. Without the flag: the config's arch (sm_86 in a
# copy of the config, else 90); RTCUDA_CUDA_ARCH still works. -DRTCUDA_WARNINGS=OFF drops -Wall.
# Usage: cmake_arch.sh RTCUDA SRC WORK
set -euo pipefail
rtcuda=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "no nvcc: skipping"; exit 77
fi
export PATH="/usr/local/cuda/bin:$PATH"
cd "$work"
"$rtcuda" translate "$src/examples/matmul/config.txt" -o matmul > /dev/null
# The nvcc command lines CMake would run, from compile_commands.json.
commands() {  # commands BUILD_DIR CMAKE_ARGS...
  local dir=$1; shift
  cmake -S matmul -B "$dir" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "$@" > "$dir.log" 2>&1
  cat "$dir/compile_commands.json"
}
fail() { echo "FAIL: $*"; exit 1; }
a80=$(commands b80 -DCMAKE_CUDA_ARCHITECTURES=80)
grep -q 'sm_80' <<< "$a80" || fail "CMAKE_CUDA_ARCHITECTURES=80: no sm_80 in $a80"
! grep -q 'sm_90\|compute_90' <<< "$a80" || fail "CMAKE_CUDA_ARCHITECTURES=80 still builds sm_90"
# An actual compile for sm_80, and the command that ran says so.
cmake --build b80 --verbose > b80.build.log 2>&1 || { tail -20 b80.build.log; fail "build for sm_80"; }
grep 'nvcc' b80.build.log | grep -q 'sm_80' || fail "the nvcc that ran did not target sm_80"
default=$(commands bdefault)
grep -q 'sm_90' <<< "$default" || fail "default is not sm_90"
grep -q 'Xcompiler=-Wall' <<< "$default" || fail "default has no -Wall"
old=$(commands bold -DRTCUDA_CUDA_ARCH=86)
grep -q 'sm_86' <<< "$old" || fail "RTCUDA_CUDA_ARCH=86 ignored"
nowall=$(commands bnowall -DRTCUDA_WARNINGS=OFF)
! grep -q 'Wall' <<< "$nowall" || fail "RTCUDA_WARNINGS=OFF keeps -Wall"
# The config's arch is the default.
cp -r "$src/examples/matmul/std" cfg86 && echo "arch: sm_86" >> cfg86/config.yaml
"$rtcuda" translate cfg86/config.yaml -o m86 > /dev/null
grep -q 'set(RTCUDA_CUDA_ARCH 86 ' m86/CMakeLists.txt || fail "config arch sm_86 is not the default"
echo "ok: CMAKE_CUDA_ARCHITECTURES honoured (80 built), default 90, RTCUDA_CUDA_ARCH, RTCUDA_WARNINGS"
