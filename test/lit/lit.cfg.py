# lit configuration: each test runs `rtcuda translate` and checks its output with FileCheck.
import os
import lit.formats

config.name = "rtcuda"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.rtcuda_build_dir, "test", "lit")

# %rtcuda-tune before %rtcuda, which is its prefix.
config.substitutions.append(("%rtcuda-tune", os.path.join(config.rtcuda_build_dir, "bin", "rtcuda-tune")))
config.substitutions.append(("%rtcuda", os.path.join(config.rtcuda_build_dir, "bin", "rtcuda")))
config.substitutions.append(("%examples", os.path.join(config.rtcuda_source_dir, "examples")))
# Every translation in the tests runs the IR verifier after each pass (docs/architecture.md).
config.environment["RTCUDA_VERIFY_IR"] = "1"
config.environment["PATH"] = os.pathsep.join([config.llvm_tools_dir, config.environment.get("PATH", "")])
expect = "sh " + os.path.join(config.test_source_root, "Inputs", "expect-status.sh")
config.substitutions.append(("%exit1", expect + " 1"))
config.substitutions.append(("%exit2", expect + " 2"))
