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

}  // namespace rtcuda
