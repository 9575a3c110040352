// The array placement setting (RTAPISetArrayPlacement), shared by both implementations. The GPU
// implementation's dense calls read it to skip the driver's pointer queries; the CPU
// implementation keeps it and has nothing to skip.
#pragma once

namespace rtapi {

// RT_ARRAYS_ANYWHERE or RT_ARRAYS_ON_DEVICE, for the whole program.
int arrayPlacement();

} // namespace rtapi
