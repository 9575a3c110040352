// Opt-in stand-in for the toolkit's cuda_runtime.h: with -I<Emulation>/include/compat, sources
// that include <cuda_runtime.h> directly compile against the emulation shim instead.
#pragma once
#include "../rtcuda_emu.h"
