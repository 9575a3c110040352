#include "rtcuda/Support/Files.h"

#include <fstream>
#include <sstream>

namespace rtcuda {

bool readFile(const std::string &path, std::string &text) {
  std::ifstream in(path, std::ios::binary);
  text.clear();
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return true;
}

std::string readFile(const std::string &path) {
  std::string text;
  readFile(path, text);
  return text;
}

std::filesystem::path realPath(const std::filesystem::path &path) {
  std::error_code ec;
  std::filesystem::path real = std::filesystem::weakly_canonical(std::filesystem::absolute(path), ec);
  return ec ? std::filesystem::absolute(path).lexically_normal() : real;
}

}  // namespace rtcuda
