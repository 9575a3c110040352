#!/usr/bin/env bash
# Builds explore2d.cu and runs it at the sizes of the kinds (conv2d7, conv2d9 at both shapes,
# conv2d5 at one). Usage: explore2d.sh   (from anywhere; needs nvcc and one sm_90 GPU)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=$(mktemp -d)
nvcc -O3 -arch=sm_90 -o "$bin/explore2d" "$here/explore2d.cu"
for args in "7 8191 8193" "7 4099 16411" "9 8191 8193" "9 4099 16411" "5 8191 8193"; do
  "$bin/explore2d" $args
done
rm -rf "$bin"
