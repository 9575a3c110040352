// Where rtcuda finds what it copies into outputs and links verify/run programs with: next to the
// binary when installed (<prefix>/bin/rtcuda → <prefix>/include/rtcuda, <prefix>/share/rtcuda,
// <prefix>/lib), else in the source and build trees it was built from.
#pragma once

#include <string>
#include <vector>

namespace rtcuda {

struct ToolPaths {
  bool installed = false;
  std::string runtimeInclude;   // rtcuda_runtime.h, rtcuda_rtapi.h
  std::string rtapiInclude;     // rtapi.h; its parent holds the RT-API sources (common/, cuda/)
  std::string emuInclude, verifyInclude;
  std::string emuAsanLib, emuTsanLib;
  std::vector<std::string> rtapiCpuLibs;
  std::string docs;             // the docs pages explain reports link to
};

const ToolPaths &toolPaths();

}  // namespace rtcuda
