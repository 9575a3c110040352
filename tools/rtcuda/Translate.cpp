// `rtcuda translate <config>... -o <outdir>`: the whole translation of one program in one
// function (translateProgram); several configs run as a batch of child processes (Batch.h).
#include "Batch.h"
#include "CommandLine.h"
#include "Commands.h"

#include "rtcuda/CodeGen/CodeGen.h"
#include "rtcuda/Format/Format.h"
#include "rtcuda/HostRewrite/HostRewrite.h"
#include "rtcuda/Support/Files.h"
#include "rtcuda/Config/Options.h"
#include "rtcuda/Frontend/Frontend.h"
#include "rtcuda/IR/Printer.h"
#include "rtcuda/Transforms/Pipeline.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include <unistd.h>

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

}  // namespace

bool translateConfig(const std::string &config, const std::string &outDir, const DumpOptions &dump,
                     Diagnostics &diags, Translation &t) {
  // 1. Config.
  Options &options = t.options;
  try {
    std::vector<std::string> clangArgs = std::move(options.clangArgs);
    std::string compileCommandsDir = std::move(options.compileCommandsDir);
    options = loadConfig(config);
    options.clangArgs = std::move(clangArgs);
    options.compileCommandsDir = std::move(compileCommandsDir);
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
  // A function that is more than one parallel nest becomes several kernels and a host function.
  t.outlined = outlineProgram(program.kernels, diags);
  t.sources = t.outlined.sources;
  for (const KernelSource &source : t.sources) {
    try {
      auto parent = t.outlined.parentOf.find(source.kernel.name);
      auto sites = callSites.find(parent == t.outlined.parentOf.end() ? source.kernel.name
                                                                       : parent->second);
      // A one-thread kernel's wrapper loop is asserted parallel: no warning for the user.
      Diagnostics quiet;
      quiet.quiet = true;
      LoweredKernel k = lowerKernel(source, t.outlined.singleThread(source.kernel.name) ? quiet : diags,
                                    dump, sites == callSites.end() ? nullptr : &sites->second);
      for (const auto &[array, f] : k.footprints)
        if ((f.read || f.written) && !f.elements)
          throw CompileError(k.kernel.findParam(array)->loc,
                             "cannot tell how many elements of '" + array + "' kernel '" +
                                 k.kernel.name + "' accesses; declare the parameter with its "
                                 "size, e.g. '" + k.kernel.findParam(array)->type.cName() + " " +
                                 array + "[restrict 256]'");
      checkDataType(k, options);
      for (const LocatedRemark &r : k.remarks) diags.remark(r.loc, r.text, r.pass);
      kernels.push_back(std::move(k));
    } catch (const CompileError &e) {
      diags.error(e.loc, e.what());
    }
  }
  checkReservedNames(userNamedKernels(kernels, t.outlined), diags);
  if (diags.errors()) return false;
  if (!dump.stopAfter.empty()) return true;  // --stop-after: the IR was printed, no code
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
  files["kernel.cu"] = formatCuda(kernelFile(kernels));  // laid out for a reader (lib/Format)
  files["launch.cuh"] = launchHeader(kernels);
  for (const LoweredKernel &k : kernels) files[paramsHeaderName(k.kernel)] = paramsHeader(k);
  // main.c calls the kernels it named and the outlined functions' host functions.
  std::vector<LoweredKernel> called, shells;
  for (const LoweredKernel &k : kernels)
    if (!t.outlined.parentOf.count(k.kernel.name)) called.push_back(k);
  try {
    for (const OutlinedFunction &f : t.outlined.functions) {
      files["launch.cuh"] += hostFunction(f, kernels) + "\n";
      shells.push_back(functionShell(f, kernels));
    }
  } catch (const CompileError &e) {
    diags.error(e.loc, e.what());
    return false;
  }
  called.insert(called.end(), shells.begin(), shells.end());
  bool hasMain = !options.mainFile.empty();
  if (hasMain && !rewriteHost(options, program, called, diags, files["main.cu"])) return false;
  bool usesRtapi = hasMain && files["main.cu"].find("#include \"rtapi.h\"") != std::string::npos;
  // The headers the program reads from the user's folders, and its extra C sources, travel
  // with it: the output builds where those folders are absent.
  addProgramHeaders(options, program.headers, diags);
  if (diags.errors()) return false;
  for (const auto &[place, path] : program.headers) files["include/" + place] = readFile(path);
  const std::vector<std::string> extraPlaces = extraSourcePaths(options);
  for (size_t i = 0; i < options.extraSources.size(); ++i)
    files[extraPlaces[i]] = readFile(options.extraSources[i]);
  const std::string name = programName(outDir);
  files["CMakeLists.txt"] = projectCMake(name, options, hasMain, usesRtapi) +
                            projectCMakeInputs(name, options, !program.headers.empty());
  std::map<std::string, HostLoops> hostLoops;
  for (const OutlinedFunction &f : t.outlined.functions) hostLoops.merge(hostLoopsOfKernels(f));
  files["manifest.json"] =
      manifest(options, program, kernels, hasMain, shells, t.outlined.parentOf, hostLoops);
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

namespace {

// What the command line gives every program of a run.
struct TranslateSettings {
  std::set<std::string> printAfter;
  bool printAfterAll = false;
  std::string stopAfter;
  bool remarks = false;
  std::set<std::string> remarkPasses;  // --remarks=A,B: only these (empty: all)
  bool explain = false;
  std::string explainFile;
  std::vector<std::string> clangArgs;
  std::string compileCommandsDir;
};

// Writes what a translation produced (for batch mode's summary): kernels and their passes.
void writeResult(const std::string &path, const std::vector<LoweredKernel> &kernels) {
  if (path.empty()) return;
  nlohmann::json list = nlohmann::json::array();
  for (const LoweredKernel &k : kernels)
    list.push_back({{"name", k.kernel.name}, {"passes", k.kernel.passes}});
  std::ofstream(path) << nlohmann::json{{"kernels", list}}.dump() << "\n";
}

// Translates one config into `outDir`. Returns the exit status.
int translateProgram(const std::string &config, const std::string &outDir,
                     const TranslateSettings &settings, const std::string &resultPath) {
  DumpOptions dump;
  dump.out = &std::cout;
  dump.after = settings.printAfter;
  dump.all = settings.printAfterAll;
  dump.stopAfter = settings.stopAfter;
  Diagnostics diags;
  diags.showRemarks = settings.remarks;
  diags.remarkPasses = settings.remarkPasses;
  const bool explain = settings.explain;
  const std::string &explainFile = settings.explainFile;
  ExplainRecorder recorder;
  if (explain) recorder.attach(dump);
  Translation t;
  t.options.clangArgs = settings.clangArgs;
  t.options.compileCommandsDir = settings.compileCommandsDir;
  if (!translateConfig(config, outDir, dump, diags, t)) return 1;
  if (!settings.stopAfter.empty()) {  // nothing is written but batch mode's result
    writeResult(resultPath, t.kernels);
    return 0;
  }
  // The report goes into the output folder (explain.html) unless a file is named.
  if (explain && explainFile.empty()) {
    std::string error;
    if (!recorder.render(config, t, fs::path(outDir) / "explain.html",
                         fs::path(outDir) / "tuning" / "report.json", t.files["explain.html"], error)) {
      diags.error(outDir, error);
      return 1;
    }
  }
  if (!checkHostBuilds(t.options, t.files, diags)) return 1;
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
  for (const OutlinedFunction &f : t.outlined.functions)
    std::cout << "  " << f.function.name << ": outlined into " << f.kernels.size()
              << " kernel(s), launched by its host function\n";
  std::cout << "  files: kernel.cu" << (t.options.mainFile.empty() ? "" : " main.cu")
            << " <kernel>_params.h CMakeLists.txt manifest.json"
            << (explain && explainFile.empty() ? " explain.html" : "") << "\n";
  writeResult(resultPath, kernels);
  return 0;
}

// A config named on the command line: a file, or a folder holding config.yaml, config.yml,
// config.txt or global.txt.
std::string findConfig(const std::string &input) {
  if (!fs::is_directory(input)) return input;
  for (const char *name : {"config.yaml", "config.yml", "config.txt", "global.txt"})
    if (fs::exists(fs::path(input) / name)) return (fs::path(input) / name).string();
  return input;  // loadConfig reports it
}

// The folder a config's program gets in batch mode: named after the config's folder
// (examples/matmul/config.txt -> matmul), or after the file (jobs/sgemm.yaml -> sgemm).
std::string batchName(const std::string &config) {
  fs::path p = fs::absolute(config).lexically_normal();
  std::string stem = p.stem().string();
  if (stem == "config" || stem == "global") return p.parent_path().filename().string();
  return stem;
}

}  // namespace

int translateCommand(const std::vector<std::string> &allArgs) {
  namespace cl = llvm::cl;
  // Everything after `--` goes to Clang as written.
  auto dashes = std::find(allArgs.begin(), allArgs.end(), "--");
  std::vector<std::string> args(allArgs.begin(), dashes), rawClangArgs;
  if (dashes != allArgs.end()) rawClangArgs.assign(dashes + 1, allArgs.end());

  cl::OptionCategory category("rtcuda translate options");
  cl::SubCommand &sub = subcommand("translate");
  cl::list<std::string> inputs(cl::Positional, cl::OneOrMore, cl::desc("<config or folder>..."),
                               cl::cat(category), cl::sub(sub));
  cl::opt<std::string> outDir("o", cl::Required, cl::value_desc("outdir"), cl::cat(category), cl::sub(sub),
                              cl::desc("output folder (several configs: one folder each in it)"));
  std::string steps;
  for (const std::string &step : pipelineStepNames()) steps += (steps.empty() ? "" : ", ") + step;
  // llvm::cl keeps a reference to the description: it must outlive the option.
  const std::string printAfterHelp = "print the kernel IR after a step (" + steps + ")";
  cl::list<std::string> printAfter("print-after", cl::value_desc("step"), cl::cat(category),
                                   cl::sub(sub), cl::desc(printAfterHelp));
  cl::opt<bool> printAfterAll("print-after-all", cl::cat(category), cl::sub(sub),
                              cl::desc("print the kernel IR after every step"));
  const std::string stopAfterHelp = "print the kernel IR after a step and stop there, writing "
                                    "no output (" + steps + ")";
  cl::opt<std::string> stopAfter("stop-after", cl::value_desc("step"), cl::cat(category),
                                 cl::sub(sub), cl::desc(stopAfterHelp));
  cl::opt<std::string> remarks(
      "remarks", cl::ValueOptional, cl::value_desc("pass,..."), cl::cat(category), cl::sub(sub),
      cl::desc("print what each pass did or why it did not apply (only these passes' remarks "
               "with =pass,...)"));
  cl::list<std::string> includes("I", cl::Prefix, cl::value_desc("dir"), cl::cat(category), cl::sub(sub),
                                 cl::desc("add a folder to Clang's include path"));
  cl::list<std::string> defines("D", cl::Prefix, cl::value_desc("macro[=value]"),
                                cl::cat(category), cl::sub(sub), cl::desc("define a macro for Clang"));
  cl::list<std::string> undefines("U", cl::Prefix, cl::value_desc("macro"), cl::cat(category), cl::sub(sub),
                                  cl::desc("undefine a macro for Clang"));
  cl::opt<std::string> standard("std", cl::value_desc("c99|c11|gnu11|..."), cl::cat(category), cl::sub(sub),
                                cl::desc("the C standard Clang parses with (default gnu11)"));
  cl::opt<std::string> compileCommands(
      "p", cl::value_desc("dir"), cl::cat(category), cl::sub(sub),
      cl::desc("take each file's -I/-D/-U/-std flags from <dir>/compile_commands.json"));
  BatchFlags batchFlags(category, sub, "configs", "default <outdir>/summary.json");
  cl::opt<std::string> explainReport(
      "explain", cl::ValueOptional, cl::value_desc("report.html"), cl::cat(category), cl::sub(sub),
      cl::desc("also write the HTML report of rtcuda explain (default <outdir>/explain.html)"));
  cl::opt<std::string> resultJson("result-json", cl::Hidden, cl::cat(category), cl::sub(sub),
                                  cl::desc("write the kernels and passes as JSON (batch mode)"));
  if (auto status = parseCommandLine(
          "translate", args, category,
          "C loop nests -> a CUDA project. rtcuda translate <config>... -o <outdir> [options] "
          "[-- <clang arguments>]; --version prints the version"))
    return *status;

  const std::string out = outDir;
  TranslateSettings settings;
  std::vector<std::string> known = pipelineStepNames();
  for (const std::string &step : printAfter) {
    if (std::find(known.begin(), known.end(), step) == known.end())
      return usageError("translate", "unknown step '" + step + "' for --print-after (steps: " +
                                         steps + ")");
    settings.printAfter.insert(step);
  }
  settings.printAfterAll = printAfterAll;
  if (!stopAfter.empty() && std::find(known.begin(), known.end(), stopAfter) == known.end())
    return usageError("translate", "unknown step '" + stopAfter + "' for --stop-after (steps: " +
                                       steps + ")");
  settings.stopAfter = stopAfter;
  settings.remarks = remarks.getNumOccurrences() > 0;
  for (size_t start = 0; start < remarks.size();) {
    size_t end = std::min(remarks.find(',', start), remarks.size());
    std::string pass = remarks.substr(start, end - start);
    // These run on the function before Outline, not in a kernel's pipeline.
    static const std::vector<std::string> functionSteps = {"Delinearize", "ElementReduction", "Reschedule",
                                                           "ArrayExpansion", "Fission", "LaunchFusion"};
    if (std::find(functionSteps.begin(), functionSteps.end(), pass) == functionSteps.end() &&
        std::find(known.begin(), known.end(), pass) == known.end())
      return usageError("translate", "unknown pass '" + pass + "' for --remarks (steps: " +
                                         steps + ", Delinearize, ElementReduction, Reschedule, ArrayExpansion, Fission, LaunchFusion)");
    settings.remarkPasses.insert(pass);
    start = end + 1;
  }
  settings.explain = explainReport.getNumOccurrences() > 0;
  settings.explainFile = explainReport;
  for (const std::string &d : includes) settings.clangArgs.push_back("-I" + d);
  for (const std::string &d : defines) settings.clangArgs.push_back("-D" + d);
  for (const std::string &d : undefines) settings.clangArgs.push_back("-U" + d);
  if (!standard.empty()) settings.clangArgs.push_back("-std=" + standard);
  settings.clangArgs.insert(settings.clangArgs.end(), rawClangArgs.begin(), rawClangArgs.end());
  settings.compileCommandsDir = compileCommands;
  if (!settings.compileCommandsDir.empty()) {
    std::string error;
    if (!checkCompileCommands(settings.compileCommandsDir, error)) {
      std::cerr << displayPath((fs::path(settings.compileCommandsDir) / "compile_commands.json")
                                   .string())
                << ": error: cannot read the compilation database: " << error << "\n";
      return 1;
    }
  }
  if (inputs.size() == 1) return translateProgram(findConfig(inputs[0]), out, settings, resultJson);

  // Batch: one child per config, each into <outdir>/<name>.
  std::vector<BatchJob> batch;
  std::map<std::string, std::string> names;
  for (const std::string &input : inputs) {
    std::string config = findConfig(input);
    BatchJob job;
    job.name = batchName(config);
    job.input = config;
    if (!names.emplace(job.name, config).second)
      return usageError("translate", "'" + names[job.name] + "' and '" + config +
                                         "' would both be translated into " + out + "/" +
                                         job.name + "; translate them separately");
    job.output = (fs::path(out) / job.name).string();
    job.args = {"translate", config, "-o", job.output};
    for (const std::string &step : printAfter) job.args.push_back("--print-after=" + step);
    if (printAfterAll) job.args.push_back("--print-after-all");
    if (!stopAfter.empty()) job.args.push_back("--stop-after=" + stopAfter);
    if (settings.remarks)
      job.args.push_back(remarks.empty() ? std::string("--remarks") : "--remarks=" + remarks);
    if (settings.explain) job.args.push_back("--explain");  // into each program's folder
    if (!settings.compileCommandsDir.empty()) job.args.push_back("-p=" + settings.compileCommandsDir);
    job.resultFile = (fs::temp_directory_path() /
                      ("rtcuda-result-" + std::to_string(getpid()) + "-" + job.name + ".json")).string();
    job.args.push_back("--result-json=" + job.resultFile);
    if (!settings.clangArgs.empty()) job.args.push_back("--");
    job.args.insert(job.args.end(), settings.clangArgs.begin(), settings.clangArgs.end());
    batch.push_back(std::move(job));
  }
  BatchSettings batchSettings;
  batchSettings.command = "translate";
  batchSettings.jobs = int(batchFlags.jobs);
  batchSettings.keepGoing = batchFlags.keepGoing;
  batchSettings.replayStdout = printAfterAll || !printAfter.empty() || !stopAfter.empty();
  batchSettings.summaryPath = batchFlags.summary.empty()
                                  ? (fs::path(out) / "summary.json").string()
                                  : std::string(batchFlags.summary);
  std::error_code ec;
  fs::create_directories(out, ec);
  return runBatch(batch, batchSettings);
}

}  // namespace rtcuda
