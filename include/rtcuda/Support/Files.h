// Reading whole files and naming them: one helper for the translator, verify and the tuner.
#pragma once

#include <filesystem>
#include <string>

namespace rtcuda {

// The whole file in `text`; false (and `text` empty) if it cannot be opened.
bool readFile(const std::string &path, std::string &text);
// The whole file, or "" if it cannot be opened (logs, inputs already known to exist).
std::string readFile(const std::string &path);
// `path` absolute, with symbolic links, '.' and '..' resolved as far as it exists (one file
// reached through two links gets one name); absolute and normalized when that cannot be read.
std::filesystem::path realPath(const std::filesystem::path &path);

}  // namespace rtcuda
