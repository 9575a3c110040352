#!/usr/bin/env bash
# Installs what rtcuda needs to build and test on Debian 12 (the CUDA toolkit is expected at
# /usr/local/cuda). Does nothing when everything is already installed.
set -euo pipefail
packages=(cmake ninja-build g++ python3 llvm-19-dev libclang-19-dev libclang-cpp19-dev clang-19
          libclang-rt-19-dev llvm-19-tools libyaml-cpp-dev nlohmann-json3-dev libgtest-dev googletest libisl-dev
          tidy chromium)  # tidy and chromium: the explain report's HTML5 and browser tests
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
