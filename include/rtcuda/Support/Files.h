// Reading whole files: one helper for the translator, verify and the tuner.
#pragma once

#include <string>

namespace rtcuda {

// The whole file in `text`; false (and `text` empty) if it cannot be opened.
bool readFile(const std::string &path, std::string &text);
// The whole file, or "" if it cannot be opened (logs, inputs already known to exist).
std::string readFile(const std::string &path);

}  // namespace rtcuda
