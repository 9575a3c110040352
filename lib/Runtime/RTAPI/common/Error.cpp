#include "Error.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace rtapi {
namespace {

// The mode starts from RTAPI_ERROR_MODE (abort|return) in the environment, default abort.
int initialMode() {
  const char *env = std::getenv("RTAPI_ERROR_MODE");
  if (env && std::strcmp(env, "return") == 0) return RT_ERRORS_RETURN;
  return RT_ERRORS_ABORT;
}

std::atomic<int> &mode() {
  static std::atomic<int> value(initialMode());
  return value;
}

struct LastError {
  int status = RT_SUCCESS;
  std::string message;
};

LastError &lastError() {
  thread_local LastError value;
  return value;
}

} // namespace

void fail(int status, const std::string &message) { throw Error(status, message); }
void invalid(const std::string &message) { throw Error(RT_ERROR_INVALID_ARGUMENT, message); }

std::string formatMessage(const char *api, const std::string &message,
                          const std::string &location) {
  std::string text = api;
  text += ": ";
  if (!location.empty()) text += location + ": ";
  text += "error: ";
  text += message;
  return text;
}

void recordSuccess() {
  LastError &last = lastError();
  last.status = RT_SUCCESS;
  last.message.clear();
}

int recordFailure(const char *api, int status, const std::string &message,
                  const std::string &location) {
  LastError &last = lastError();
  last.status = status;
  last.message = formatMessage(api, message, location);
  if (mode().load() == RT_ERRORS_ABORT) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s\n", last.message.c_str());
    std::exit(EXIT_FAILURE);
  }
  return status;
}

} // namespace rtapi

extern "C" {

int RTAPISetErrorMode(int newMode) {
  if (newMode != RT_ERRORS_ABORT && newMode != RT_ERRORS_RETURN) return -1;
  return rtapi::mode().exchange(newMode);
}

int RTAPIGetErrorMode(void) { return rtapi::mode().load(); }

int RTAPIGetLastError(void) { return rtapi::lastError().status; }

const char *RTAPIGetLastErrorMessage(void) { return rtapi::lastError().message.c_str(); }

const char *RTAPIGetStatusName(int status) {
  switch (status) {
  case RT_SUCCESS: return "RT_SUCCESS";
  case RT_ERROR_INVALID_ARGUMENT: return "RT_ERROR_INVALID_ARGUMENT";
  case RT_ERROR_NOT_INITIALIZED: return "RT_ERROR_NOT_INITIALIZED";
  case RT_ERROR_FILE: return "RT_ERROR_FILE";
  case RT_ERROR_PARSE: return "RT_ERROR_PARSE";
  case RT_ERROR_OUT_OF_MEMORY: return "RT_ERROR_OUT_OF_MEMORY";
  case RT_ERROR_UNSUPPORTED: return "RT_ERROR_UNSUPPORTED";
  case RT_ERROR_CUDA: return "RT_ERROR_CUDA";
  case RT_ERROR_CUBLAS: return "RT_ERROR_CUBLAS";
  case RT_ERROR_CUSPARSE: return "RT_ERROR_CUSPARSE";
  case RT_ERROR_INTERNAL: return "RT_ERROR_INTERNAL";
  default: return "RT_ERROR_UNKNOWN";
  }
}

} // extern "C"
