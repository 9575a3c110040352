// The layout of generated CUDA (lib/Format): Clang's libFormat with rtcuda's style.
#pragma once

#include <string>

namespace rtcuda {

// `code` laid out in the style of lib/Format/kernel-style.clang-format (lines of at most 100
// columns, `#pragma unroll` at its loop's indentation); unchanged if libFormat fails.
std::string formatCuda(const std::string &code);

}  // namespace rtcuda
