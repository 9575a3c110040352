# Sourced by the GPU-machine scripts that run rtcuda-tune (bench/tune_target_size.sh,
# bench/polybench/tune_acc.sh) from the repository's root: builds rtcuda-tune without the
# translator into build-gpu/ (with the packages of .carry/gpu-deps.sh when .carry/ is there),
# logs into "$1", and exports LD_LIBRARY_PATH for those packages. Returns non-zero on failure.
#
#   source bench/build_tuner_gpu.sh LOGDIR || exit 1
build_tuner_logs=${1:?usage: source bench/build_tuner_gpu.sh LOGDIR}
build_tuner_flags=""
if [ -f .carry/gpu-deps.sh ]; then
  bash .carry/gpu-deps.sh install > "$build_tuner_logs/deps.log" 2>&1
  build_tuner_flags=$(bash .carry/gpu-deps.sh flags)
fi
[ -d /tmp/deps/usr/lib/x86_64-linux-gnu ] && export LD_LIBRARY_PATH="/tmp/deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
# shellcheck disable=SC2086
if ! cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DRTCUDA_BUILD_TRANSLATOR=OFF \
     $build_tuner_flags > "$build_tuner_logs/cmake.log" 2>&1; then
  tail -30 "$build_tuner_logs/cmake.log"
  false
elif ! cmake --build build-gpu -j "$(nproc)" --target rtcuda-tune > "$build_tuner_logs/build.log" 2>&1; then
  tail -30 "$build_tuner_logs/build.log"
  false
fi
