#include "Paths.h"

#include <llvm/Support/FileSystem.h>

#include <filesystem>

namespace rtcuda {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> split(const std::string &list) {
  std::vector<std::string> parts;
  for (size_t start = 0; start < list.size();) {
    size_t end = list.find('|', start);
    if (end == std::string::npos) end = list.size();
    if (end > start) parts.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

ToolPaths findPaths() {
  static int anchor;
  fs::path prefix = fs::path(llvm::sys::fs::getMainExecutable("rtcuda", &anchor))
                                 .parent_path()
                                 .parent_path();
  ToolPaths p;
  std::error_code ec;
  if (fs::exists(prefix / "include/rtcuda/rtcuda_runtime.h", ec) &&
      fs::exists(prefix / "share/rtcuda/emulation/include", ec)) {
    // The layout of `cmake --install` (CMakeLists.txt of lib/Runtime, lib/Verify, docs).
    p.installed = true;
    p.runtimeInclude = (prefix / "include/rtcuda").string();
    p.rtapiInclude = (prefix / "share/rtcuda/rtapi/include").string();
    p.emuInclude = (prefix / "share/rtcuda/emulation/include").string();
    p.verifyInclude = (prefix / "share/rtcuda/verify/include").string();
    fs::path lib = prefix / RTCUDA_INSTALL_LIBDIR;
    p.emuAsanLib = (lib / "rtcuda/librtcuda_emu_asan.a").string();
    p.emuTsanLib = (lib / "rtcuda/librtcuda_emu_tsan.a").string();
    if (fs::exists(lib / "rtcuda/librtapi_cpu.a", ec))
      p.rtapiCpuLibs = {(lib / "rtcuda/librtapi_cpu.a").string(), (lib / "librtapi_common.a").string()};
    p.docs = (prefix / RTCUDA_INSTALL_DOCDIR).string();
    return p;
  }
  // The trees this binary was built from (tools/rtcuda/CMakeLists.txt).
  return ToolPaths{false,
                   RTCUDA_RUNTIME_INCLUDE_DIR,
                   RTCUDA_RTAPI_INCLUDE_DIR,
                   RTCUDA_EMU_INCLUDE_DIR,
                   RTCUDA_VERIFY_INCLUDE_DIR,
                   RTCUDA_EMU_ASAN_LIB,
                   RTCUDA_EMU_TSAN_LIB,
                   split(RTCUDA_RTAPI_CPU_LIBS),
                   RTCUDA_DOCS_DIR};
}

}  // namespace

const ToolPaths &toolPaths() {
  static const ToolPaths paths = findPaths();
  return paths;
}

}  // namespace rtcuda
