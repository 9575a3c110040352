// `rtcuda translate <config> -o <outdir>`: the whole translation in one function.
#include "Commands.h"

#include "rtcuda/CodeGen/CodeGen.h"
#include "rtcuda/Support/Files.h"
#include "rtcuda/Config/Options.h"
#include "rtcuda/Frontend/Frontend.h"
#include "rtcuda/IR/Printer.h"
#include "rtcuda/Transforms/Pipeline.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace rtcuda {

namespace fs = std::filesystem;

namespace {

// The program is named after the output folder (out/madd_std builds madd_std).
std::string programName(const std::string &outDir) {
  std::string name = fs::absolute(outDir).lexically_normal().filename().string();
  if (name.empty()) name = fs::absolute(outDir).lexically_normal().parent_path().filename().string();
  for (char &c : name)
    if (!isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  return name.empty() ? "program" : name;
}

// DATA_TYPE / data_type states the element type of the kernel's arrays: a value that the
// source contradicts is an error (the original ignored the key silently).
void checkDataType(const LoweredKernel &k, const Options &options) {
  const std::string &wanted = k.options.dataType;
  if (wanted.empty()) return;
  std::string found;
  for (const ir::Param &p : k.kernel.params) {
    if (!p.isArray) continue;
    if (p.type.cName() == wanted) return;
    if (found.find(p.type.cName()) == std::string::npos) found += (found.empty() ? "" : ", ") + p.type.cName();
  }
  std::string where = displayPath(k.options.configFile.empty() ? options.configPath : k.options.configFile);
  if (k.options.configLine) where += ":" + std::to_string(k.options.configLine);
  throw CompileError(ir::SourceLoc{where, 0, 0},
                     "data type '" + wanted + "' given for kernel '" + k.kernel.name +
                         "', but its arrays are " + (found.empty() ? "none" : found));
}

void usage() {
  std::cerr << "usage: rtcuda translate <config> -o <outdir> [--print-after=<step>]... "
               "[--print-after-all] [--remarks] [--explain[=<report.html>]]\n       steps:";
  for (const std::string &s : pipelineStepNames()) std::cerr << " " << s;
  std::cerr << "\n";
}

}  // namespace

bool translateConfig(const std::string &config, const std::string &outDir, const DumpOptions &dump,
                     Diagnostics &diags, Translation &t) {
  // 1. Config.
  Options &options = t.options;
  try {
    options = loadConfig(config);
  } catch (const ConfigError &e) {
    std::cerr << e.what() << "\n";
    return false;
  }
  // 2. Frontend: C → kernel IR.
  ParsedProgram &program = t.program;
  if (!parseKernels(options, diags, program)) return false;
  // 3. Passes, kernel by kernel (the host program's calls tell which arrays may alias).
  std::map<std::string, CallSites> callSites = analyzeCallSites(options, program, diags);
  std::vector<LoweredKernel> &kernels = t.kernels;
  t.sources = program.kernels;
  for (const KernelSource &source : t.sources) {
    try {
      auto sites = callSites.find(source.kernel.name);
      LoweredKernel k = lowerKernel(source, diags, dump,
                                    sites == callSites.end() ? nullptr : &sites->second);
      for (const auto &[array, f] : k.footprints)
        if ((f.read || f.written) && !f.elements)
          throw CompileError(k.kernel.findParam(array)->loc,
                             "cannot tell how many elements of '" + array + "' kernel '" +
                                 k.kernel.name + "' accesses; declare the parameter with its "
                                 "size, e.g. '" + k.kernel.findParam(array)->type.cName() + " " +
                                 array + "[restrict 256]'");
      checkDataType(k, options);
      for (const std::string &r : k.kernel.remarks) diags.remark(k.kernel.loc, r);
      kernels.push_back(std::move(k));
    } catch (const CompileError &e) {
      diags.error(e.loc, e.what());
    }
  }
  checkReservedNames(kernels, diags);
  if (diags.errors()) return false;
  // Two kernels must not share a macro.
  for (size_t i = 0; i < kernels.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (kernels[i].kernel.macroPrefix == kernels[j].kernel.macroPrefix) {
        diags.error(kernels[i].kernel.loc, "kernels '" + kernels[i].kernel.name + "' and '" +
                                               kernels[j].kernel.name +
                                               "' would share the macro prefix " +
                                               kernels[i].kernel.macroPrefix + "; rename one");
        return false;
      }
  // 4. Code: kernel.cu, parameter headers, main.cu, project files.
  FileSet &files = t.files;
  files["kernel.cu"] = kernelFile(kernels);
  files["launch.cuh"] = launchHeader(kernels);
  for (const LoweredKernel &k : kernels) files[paramsHeaderName(k.kernel)] = paramsHeader(k);
  bool hasMain = !options.mainFile.empty();
  if (hasMain && !rewriteHost(options, program, kernels, diags, files["main.cu"])) return false;
  bool usesRtapi = hasMain && files["main.cu"].find("#include \"rtapi.h\"") != std::string::npos;
  files["CMakeLists.txt"] = projectCMake(programName(outDir), options, hasMain, usesRtapi);
  files["manifest.json"] = manifest(options, program, kernels, hasMain);
  files["runtime/rtcuda_runtime.h"] = readFile(fs::path(runtimeIncludeDir()) / "rtcuda_runtime.h");
  if (usesRtapi)
    files["runtime/rtcuda_rtapi.h"] = readFile(fs::path(runtimeIncludeDir()) / "rtcuda_rtapi.h");
  // The RT-API sources travel with the program so that its CMakeLists.txt builds them.
  if (usesRtapi)
    for (const char *part : {"include", "common", "cuda"})
      for (const auto &entry : fs::directory_iterator(fs::path(rtapiIncludeDir()).parent_path() / part))
        files[std::string("runtime/rtapi/") + part + "/" + entry.path().filename().string()] =
            readFile(entry.path());
  // Copies of the inputs: verification and tuning read only the output folder.
  files["src/" + fs::path(options.configPath).filename().string()] = readFile(options.configPath);
  for (const std::string &f : options.kernelFiles)
    files["src/" + fs::path(f).filename().string()] = readFile(f);
  if (hasMain) files["src/" + fs::path(options.mainFile).filename().string()] =
      readFile(options.mainFile);
  for (const ReferenceSource &r : program.references) files["reference/" + r.fileName] = r.text;
  return true;
}

int translateCommand(const std::vector<std::string> &args) {
  std::string config, outDir, explainFile;
  bool explain = false;
  DumpOptions dump;
  dump.out = &std::cout;
  Diagnostics diags;
  std::vector<std::string> steps = pipelineStepNames();
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    if (a == "--help" || a == "-h") {
      usage();
      return 0;
    } else if (a == "-o" && i + 1 < args.size()) {
      outDir = args[++i];
    } else if (a.rfind("--print-after=", 0) == 0) {
      std::string step = a.substr(14);
      if (std::find(steps.begin(), steps.end(), step) == steps.end()) {
        diags.error("rtcuda", "unknown step '" + step + "' for --print-after");
        usage();
        return 1;
      }
      dump.after.insert(step);
    } else if (a == "--print-after-all") {
      dump.all = true;
    } else if (a == "--remarks") {
      diags.showRemarks = true;
    } else if (a == "--explain" || a.rfind("--explain=", 0) == 0) {
      explain = true;
      explainFile = a.size() > 10 ? a.substr(10) : "";
    } else if (!a.empty() && a[0] != '-' && config.empty()) {
      config = a;
    } else {
      diags.error("rtcuda", "unexpected argument '" + a + "'");
      usage();
      return 1;
    }
  }
  if (config.empty() || outDir.empty()) {
    usage();
    return 1;
  }
  ExplainRecorder recorder;
  if (explain) recorder.attach(dump);
  Translation t;
  if (!translateConfig(config, outDir, dump, diags, t)) return 1;
  // The report goes into the output folder (explain.html) unless a file is named.
  if (explain && explainFile.empty()) {
    std::string error;
    if (!recorder.render(config, t, fs::path(outDir) / "explain.html",
                         fs::path(outDir) / "tuning" / "report.json", t.files["explain.html"], error)) {
      diags.error(outDir, error);
      return 1;
    }
  }
  std::string error;
  std::vector<std::string> inputs = t.options.kernelFiles;
  inputs.insert(inputs.end(), {t.options.configPath, t.options.mainFile});
  if (!writeOutputFolder(outDir, t.files, inputs, error)) {
    diags.error(outDir, error);
    return 1;
  }
  if (explain && !explainFile.empty() &&
      !recorder.write(config, t, explainFile, fs::path(outDir) / "tuning" / "report.json", error)) {
    diags.error(explainFile, error);
    return 1;
  }
  const std::vector<LoweredKernel> &kernels = t.kernels;
  std::cout << "rtcuda: translated " << kernels.size() << " kernel(s) from "
            << displayPath(config) << " into " << outDir << "/\n";
  for (const LoweredKernel &k : kernels) {
    std::cout << "  " << k.kernel.name << ": ";
    for (size_t i = 0; i < k.kernel.passes.size(); ++i)
      std::cout << (i ? ", " : "") << k.kernel.passes[i];
    long long points = 1;
    for (const ir::TuningParam &tp : k.kernel.tuning) points *= (long long)tp.values.size();
    const ir::TuningParam &bs = k.kernel.tuning.front();
    std::cout << "; " << bs.macro << "=" << bs.defaultValue << " (" << points
              << " tuning points)\n";
  }
  std::cout << "  files: kernel.cu" << (t.options.mainFile.empty() ? "" : " main.cu")
            << " <kernel>_params.h CMakeLists.txt manifest.json"
            << (explain && explainFile.empty() ? " explain.html" : "") << "\n";
  return 0;
}

}  // namespace rtcuda
