// Error reporting shared by both RT-API implementations.
//
// Inside the library a failure is an rtapi::Error exception; each public function runs its body
// through rtapi::guarded(), which turns the exception into the status the caller sees, records
// the message for RTAPIGetLastErrorMessage(), and, in RT_ERRORS_ABORT mode, prints it and exits.
// Messages read "<function>: error: <what>", or "<function>: <file>:<line>: error: <what>".
#pragma once

#include "rtapi.h"

#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace rtapi {

class Error : public std::runtime_error {
public:
  Error(int status, std::string message, std::string location = {})
      : std::runtime_error(message), status_(status), location_(std::move(location)) {}
  int status() const { return status_; }
  const std::string &location() const { return location_; }

private:
  int status_;
  std::string location_;
};

// Throws Error(status, message).
[[noreturn]] void fail(int status, const std::string &message);
[[noreturn]] void invalid(const std::string &message); // RT_ERROR_INVALID_ARGUMENT

// Records success for the calling thread.
void recordSuccess();
// Records the failure of `api`; prints and exits in abort mode; returns the status otherwise.
int recordFailure(const char *api, int status, const std::string &message,
                  const std::string &location = {});

// Runs body() as the public function `api`: returns RT_SUCCESS or the status of the failure.
template <class Body> int guarded(const char *api, Body &&body) {
  try {
    body();
  } catch (const Error &e) {
    return recordFailure(api, e.status(), e.what(), e.location());
  } catch (const std::bad_alloc &) {
    return recordFailure(api, RT_ERROR_OUT_OF_MEMORY, "out of host memory");
  } catch (const std::exception &e) {
    return recordFailure(api, RT_ERROR_INTERNAL, e.what());
  }
  recordSuccess();
  return RT_SUCCESS;
}

// The message a failure of `api` prints, in the format described above.
std::string formatMessage(const char *api, const std::string &message, const std::string &location);

} // namespace rtapi
