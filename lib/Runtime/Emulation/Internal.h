// Internal.h: what the launcher (Emulator.cpp) and the runtime API (Runtime.cpp) share.
#pragma once

#include "rtcuda_emu.h"

namespace rtcuda {
namespace emu {
namespace detail {

// Remembers `error` for cudaGetLastError (this host thread) and returns it.
cudaError_t record_error(cudaError_t error);
// A sticky error: every later call returns it until cudaDeviceReset.
void set_sticky_error(cudaError_t error);
cudaError_t sticky_error();
// Bytes of memory the emulated device offers (the host's physical memory).
size_t device_memory_bytes();

} // namespace detail
} // namespace emu
} // namespace rtcuda
