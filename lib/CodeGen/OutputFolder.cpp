// Writing the output folder without ever losing a user's file (see writeOutputFolder in
// CodeGen.h): a fresh temporary folder beside the target, renamed into place when complete;
// an existing target replaced only when rtcuda's marker says it is an earlier output.
#include "rtcuda/CodeGen/CodeGen.h"
#include "rtcuda/Support/Files.h"

#include <filesystem>
#include <fstream>
#include <random>

#ifndef RTCUDA_VERSION
#define RTCUDA_VERSION "unknown"
#endif

namespace rtcuda {

namespace fs = std::filesystem;

const char *const kOutputMarkerFile = ".rtcuda-output";
const char *const kOutputMarkerText = "rtcuda output folder";

namespace {

// True when `inner` is `outer` or lies below it (both absolute and normalized).
bool within(const fs::path &inner, const fs::path &outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (o->empty() && std::next(o) == outer.end()) break;  // trailing separator
    if (i == inner.end() || *i != *o) return false;
  }
  return true;
}

bool isOurOutput(const fs::path &dir) {
  std::ifstream in(dir / kOutputMarkerFile);
  std::string first, tool;
  return in && std::getline(in, first) && first == kOutputMarkerText && std::getline(in, tool) &&
         tool == "tool: rtcuda";
}

// A new, empty folder `parent/<prefix><name>-<random>` that nobody else owns.
bool freshFolder(const fs::path &parent, const std::string &prefix, const std::string &name,
                 fs::path &made) {
  std::random_device rd;
  for (int attempt = 0; attempt < 100; ++attempt) {
    made = parent / (prefix + name + "-" + std::to_string(rd() % 100000000));
    std::error_code ec;
    if (fs::create_directory(made, ec) && !ec) return true;
  }
  made.clear();
  return false;
}

}  // namespace

bool writeOutputFolder(const std::string &outDir, const FileSet &files,
                       const std::vector<std::string> &inputs, std::string &error) {
  std::error_code ec;
  std::string trimmed = outDir;
  while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
  fs::path target = fs::absolute(trimmed, ec).lexically_normal();
  if (!ec && target.filename().empty()) target = target.parent_path();  // "x/." or "."
  if (ec || trimmed.empty() || target == target.root_path()) {
    error = "'" + outDir + "' cannot be an output folder; name a folder to create";
    return false;
  }
  const std::string shown = "'" + outDir + "'";
  fs::file_status status = fs::symlink_status(target, ec);
  bool exists = fs::exists(status);
  if (exists) {
    if (fs::is_symlink(status)) {
      error = shown + " is a symbolic link; not replacing it (name the folder itself or another one)";
      return false;
    }
    if (!fs::is_directory(status)) {
      error = shown + " exists and is not a folder; not replacing it (pick another output folder)";
      return false;
    }
    fs::path real = realPath(target);
    fs::path cwd = realPath(fs::current_path(ec));
    if (!ec && within(cwd, real)) {
      error = shown + " is the current folder or holds it; not replacing it (pick another "
                      "output folder)";
      return false;
    }
    for (const std::string &input : inputs)
      if (!input.empty() && within(realPath(input), real)) {
        error = shown + " holds the input '" + input + "'; not replacing it (pick another "
                        "output folder)";
        return false;
      }
    if (!isOurOutput(target)) {
      error = shown + " exists and is not an rtcuda output folder (it has no " +
              std::string(kOutputMarkerFile) + " written by rtcuda); not replacing it (remove "
              "it yourself or pick another output folder)";
      return false;
    }
  }
  fs::path parent = target.parent_path();
  fs::create_directories(parent, ec);
  if (ec) {
    error = "cannot create folder '" + parent.string() + "': " + ec.message();
    return false;
  }
  std::string name = target.filename().string();
  fs::path temp;
  if (!freshFolder(parent, ".rtcuda-tmp-", name, temp)) {
    error = "cannot create a temporary folder in '" + parent.string() + "'";
    return false;
  }
  FileSet all = files;
  all[kOutputMarkerFile] = std::string(kOutputMarkerText) + "\ntool: rtcuda\nversion: " +
                           RTCUDA_VERSION + "\n";
  for (const auto &[file, contents] : all) {
    fs::path p = temp / file;
    fs::create_directories(p.parent_path(), ec);
    std::ofstream out(p, std::ios::binary);
    out << contents;
    out.close();
    if (!out) {
      error = "cannot write '" + p.string() + "'";
      fs::remove_all(temp, ec);  // ours: made empty above
      return false;
    }
  }
  // The complete new output takes the place of the earlier one, which is removed last.
  fs::path old;
  if (exists) {
    // rename() replaces the fresh empty folder.
    if (freshFolder(parent, ".rtcuda-old-", name, old)) fs::rename(target, old, ec);
    if (old.empty() || ec) {
      error = "cannot move the earlier output " + shown + " aside: " + ec.message();
      fs::remove_all(temp, ec);
      return false;
    }
  }
  fs::rename(temp, target, ec);
  if (ec) {
    error = "cannot move the output into " + shown + ": " + ec.message();
    std::error_code ignored;
    if (exists) fs::rename(old, target, ignored);
    fs::remove_all(temp, ignored);
    return false;
  }
  if (exists) fs::remove_all(old, ec);
  return true;
}

}  // namespace rtcuda
