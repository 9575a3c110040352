#!/usr/bin/env bash
# Install: `cmake --install` into a temporary prefix, move the prefix elsewhere, and use the
# installed tools from a folder outside the source and build trees: translate mv and cg (cg
# calls the RT-API, whose sources are copied from the prefix), verify and run mv on the CPU
# emulator, build mv with its CMakeLists.txt and nvcc (compile only), and build a program of
# our own against find_package(rtcuda). A marker added to the installed rtcuda_runtime.h must
# appear in the outputs: the installed tool reads its own files, not the source tree's.
# Usage: install.sh BUILD SRC WORK
set -euo pipefail
build=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
export PATH="/usr/local/cuda/bin:$PATH"
fail() { echo "FAIL: $*"; exit 1; }
cmake --install "$build" --prefix "$work/staged" > "$work/install.log"
echo "// rtcuda-install-test marker" >> "$work/staged/include/rtcuda/rtcuda_runtime.h"
mv "$work/staged" "$work/prefix"
prefix=$work/prefix
mkdir -p "$work/elsewhere" && cd "$work/elsewhere"
"$prefix/bin/rtcuda" --version | grep -q '^rtcuda [0-9]' || fail "rtcuda --version"
"$prefix/bin/rtcuda-tune" --version | grep -q '^rtcuda-tune [0-9]' || fail "rtcuda-tune --version"
cp -r "$src/examples/mv" "$src/examples/cg" .
"$prefix/bin/rtcuda" translate mv/config.txt -o out/mv > translate.log
"$prefix/bin/rtcuda" translate cg -o out/cg >> translate.log
grep -q 'rtcuda-install-test marker' out/mv/runtime/rtcuda_runtime.h ||
  fail "the output's runtime header is not the installed one"
test -f out/cg/runtime/rtapi/include/rtapi.h || fail "cg's output has no RT-API sources"
"$prefix/bin/rtcuda" verify out/mv --sizes 5,33 --max-points 2 > verify.log ||
  { cat verify.log; fail "verify"; }
"$prefix/bin/rtcuda" run out/mv 40 > run.log 2>&1 || { cat run.log; fail "run"; }
if command -v nvcc > /dev/null; then
  cmake -S out/mv -B build-mv -DRTCUDA_WERROR=ON > build-mv.log 2>&1 &&
    cmake --build build-mv >> build-mv.log 2>&1 || { tail -20 build-mv.log; fail "nvcc build of mv"; }
  mkdir -p consumer
  cat > consumer/CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(consumer LANGUAGES CXX CUDA)
find_package(rtcuda REQUIRED CONFIG)
add_executable(consumer main.cu)
target_link_libraries(consumer PRIVATE rtcuda::runtime rtcuda::rtapi)
CMAKE
  cat > consumer/main.cu <<'CU'
#include "rtcuda_runtime.h"
#include "rtapi.h"
int main() { return RTAPIGetErrorMode() < 0; }
CU
  cmake -S consumer -B build-consumer -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CUDA_ARCHITECTURES=90 \
    > consumer.log 2>&1 && cmake --build build-consumer >> consumer.log 2>&1 ||
    { tail -20 consumer.log; fail "find_package(rtcuda) consumer"; }
fi
echo "ok: installed rtcuda translated, verified, ran and built from $work/elsewhere"
