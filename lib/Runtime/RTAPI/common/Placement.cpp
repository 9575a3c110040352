#include "Placement.h"

#include "rtapi.h"

#include <atomic>

namespace rtapi {
namespace {

std::atomic<int> &placement() {
  static std::atomic<int> value(RT_ARRAYS_ANYWHERE);
  return value;
}

} // namespace

int arrayPlacement() { return placement().load(std::memory_order_relaxed); }

} // namespace rtapi

extern "C" {

int RTAPISetArrayPlacement(int newPlacement) {
  if (newPlacement != RT_ARRAYS_ANYWHERE && newPlacement != RT_ARRAYS_ON_DEVICE) return -1;
  return rtapi::placement().exchange(newPlacement);
}

int RTAPIGetArrayPlacement(void) { return rtapi::arrayPlacement(); }

} // extern "C"
