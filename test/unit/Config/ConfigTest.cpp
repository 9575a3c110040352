// Tests of rtcuda::loadConfig: the YAML format, the legacy config.txt and global.txt formats,
// and the exact text of every kind of error.

#include "rtcuda/Config/Options.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using rtcuda::ConfigError;
using rtcuda::KernelOptions;
using rtcuda::loadConfig;
using rtcuda::Options;
using rtcuda::TuningRange;
using Strings = std::vector<std::string>;

namespace {

class ConfigTest : public ::testing::Test {
protected:
  void SetUp() override {
    const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir = fs::temp_directory_path() /
          ("rtcuda-config-" + std::to_string(getpid()) + "-" + info->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  // Writes `text` verbatim (binary: CR LF stays CR LF) and returns the file's path.
  std::string write(const std::string &name, const std::string &text) {
    fs::path p = dir / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  std::string path(const std::string &name) const { return (dir / name).string(); }
  // A legacy folder: kernel.c, main.c and config.txt.
  std::string legacy(const std::string &config, bool withMain = true) {
    write("kernel.c", "void k(float *A) {}\n");
    if (withMain)
      write("main.c", "int main(void) { return 0; }\n");
    return write("config.txt", config);
  }
  std::string yaml(const std::string &text, const std::string &name = "config.yaml") {
    write("kernel.c", "void k(float *A) {}\n");
    write("main.c", "int main(void) { return 0; }\n");
    return write(name, text);
  }
  // The message loadConfig throws for `file`.
  static std::string error(const std::string &file) {
    try {
      loadConfig(file);
    } catch (const ConfigError &e) {
      return e.what();
    }
    return "(no error)";
  }

  fs::path dir;
};

TuningRange R(int a, int b) { return {a, b}; }

// --- legacy config.txt ---------------------------------------------------------------------

// Listing 5.7 of the original thesis (matrix multiply), verbatim.
TEST_F(ConfigTest, LegacyMatrixMultiplyExample) {
  std::string cfg = legacy("LOOP_COLLAPSING=1\nBLOCK_SKEW=0\nPREFETCHING=1\n"
                           "PREFETCHED_ARRAYS=A\nNON_PREFETCHED_ARRAYS=B\nDATA_TYPE=float\n"
                           "KERNEL_NAMES=matrix_mul\n2DMATRIX=1\nROW_DIM=N\nMAX_BLOCKSIZE=0\n"
                           "MAX_MERGE_LEVEL=0\nMAX_SKEW_LEVEL=0\nMIN_BLOCKSIZE=32\n"
                           "MIN_MERGE_LEVEL=1\nMIN_SKEW_LEVEL=1\n");
  Options o = loadConfig(cfg);
  EXPECT_TRUE(o.legacy);
  EXPECT_EQ(o.configPath, cfg);
  EXPECT_EQ(o.kernelFiles, Strings{path("kernel.c")});
  EXPECT_EQ(o.mainFile, path("main.c"));
  EXPECT_EQ(o.memory, "explicit");
  EXPECT_EQ(o.arch, "sm_90");
  ASSERT_EQ(o.kernels.size(), 1u);
  const KernelOptions &k = o.kernels[0];
  EXPECT_EQ(k.name, "matrix_mul");
  EXPECT_EQ(k.configFile, cfg);
  EXPECT_EQ(k.configLine, 7);
  EXPECT_EQ(k.parallelLoops, 0);
  EXPECT_TRUE(k.collapse);
  EXPECT_FALSE(k.skew);
  EXPECT_TRUE(k.merge);                      // MAX_MERGE_LEVEL=0: up to 32
  EXPECT_EQ(k.mergeLevel, R(1, 32));
  EXPECT_EQ(k.skewLevel, R(1, 1));           // skew off: never varied
  EXPECT_EQ(k.blockSize, R(32, 1024));       // MAX_BLOCKSIZE=0: device maximum
  EXPECT_EQ(k.prefetch, Strings{"A"});
  EXPECT_EQ(k.noPrefetch, Strings{"B"});
  EXPECT_EQ(k.dataType, "float");
  EXPECT_EQ(k.rowDim, "N");
  ASSERT_TRUE(k.matrix2D.has_value());
  EXPECT_TRUE(*k.matrix2D);
  EXPECT_EQ(k.tileK, R(8, 32));
  EXPECT_EQ(k.defaultBlockSize, 0);
  // Kernels marked with the pragma get the same options.
  EXPECT_EQ(o.defaults.name, "");
  EXPECT_EQ(o.defaults.prefetch, Strings{"A"});
  EXPECT_EQ(o.defaults.mergeLevel, R(1, 32));
}

// The matrix scale example, with the trailing blanks it has in the thesis.
TEST_F(ConfigTest, LegacyMatrixScaleExampleWithTrailingBlanks) {
  Options o = loadConfig(legacy(
      "LOOP_COLLAPSING=1  \nBLOCK_SKEW=1  \nPREFETCHING=0  \nPREFETCHED_ARRAYS=A  \n"
      "NON_PREFETCHED_ARRAYS=B  \nDATA_TYPE=float  \nKERNEL_NAMES=matrix_scale  \n2DMATRIX=1  \n"
      "ROW_DIM=N  \nMAX_BLOCKSIZE=0  \nMAX_MERGE_LEVEL=8  \nMAX_SKEW_LEVEL=2  \n"
      "MIN_BLOCKSIZE=32  \nMIN_MERGE_LEVEL=1  \nMIN_SKEW_LEVEL=1"));
  ASSERT_EQ(o.kernels.size(), 1u);
  const KernelOptions &k = o.kernels[0];
  EXPECT_EQ(k.name, "matrix_scale");
  EXPECT_TRUE(k.skew);
  EXPECT_EQ(k.skewLevel, R(1, 2));
  EXPECT_TRUE(k.merge);
  EXPECT_EQ(k.mergeLevel, R(1, 8));
  EXPECT_TRUE(k.prefetch.empty());           // PREFETCHING=0 even though A is listed
  EXPECT_EQ(k.noPrefetch, Strings{"B"});
}

TEST_F(ConfigTest, LegacyMissingKeysTakeDefaults) {
  Options o = loadConfig(legacy("KERNEL_NAMES=k\n", /*withMain=*/false));
  EXPECT_EQ(o.mainFile, "");
  ASSERT_EQ(o.kernels.size(), 1u);
  const KernelOptions &k = o.kernels[0];
  EXPECT_TRUE(k.collapse);
  EXPECT_FALSE(k.skew);
  EXPECT_FALSE(k.merge);
  EXPECT_EQ(k.mergeLevel, R(1, 1));
  EXPECT_EQ(k.skewLevel, R(1, 1));
  EXPECT_EQ(k.blockSize, R(32, 1024));
  EXPECT_TRUE(k.prefetch.empty());
  EXPECT_TRUE(k.noPrefetch.empty());
  EXPECT_EQ(k.dataType, "");
  EXPECT_EQ(k.rowDim, "");
  EXPECT_FALSE(k.matrix2D.has_value());
}

TEST_F(ConfigTest, LegacyEmptyFileNamesNoKernel) {
  Options o = loadConfig(legacy(""));
  EXPECT_TRUE(o.kernels.empty());
  EXPECT_TRUE(o.defaults.collapse);
}

TEST_F(ConfigTest, LegacyEachKey) {
  Options o = loadConfig(legacy(
      "LOOP_COLLAPSING=0\nBLOCK_SKEW=1\nPREFETCHING=1\nPREFETCHED_ARRAYS=A, B\n"
      "NON_PREFETCHED_ARRAYS=C,D\nDATA_TYPE=double\nKERNEL_NAMES=first, second\n2DMATRIX=0\n"
      "ROW_DIM=(N + 16)\nMIN_BLOCKSIZE=64\nMAX_BLOCKSIZE=256\nMIN_MERGE_LEVEL=2\n"
      "MAX_MERGE_LEVEL=4\nMIN_SKEW_LEVEL=2\nMAX_SKEW_LEVEL=16\n"));
  ASSERT_EQ(o.kernels.size(), 2u);
  for (const KernelOptions &k : o.kernels) {
    EXPECT_FALSE(k.collapse);
    EXPECT_TRUE(k.skew);
    EXPECT_EQ(k.prefetch, (Strings{"A", "B"}));
    EXPECT_EQ(k.noPrefetch, (Strings{"C", "D"}));
    EXPECT_EQ(k.dataType, "double");
    ASSERT_TRUE(k.matrix2D.has_value());
    EXPECT_FALSE(*k.matrix2D);
    EXPECT_EQ(k.rowDim, "(N + 16)");
    EXPECT_EQ(k.blockSize, R(64, 256));
    EXPECT_TRUE(k.merge);
    EXPECT_EQ(k.mergeLevel, R(2, 4));
    EXPECT_EQ(k.skewLevel, R(2, 16));
    EXPECT_EQ(k.configLine, 7);
  }
  EXPECT_EQ(o.kernels[0].name, "first");
  EXPECT_EQ(o.kernels[1].name, "second");
}

TEST_F(ConfigTest, LegacyMergeAndSkewLevels) {
  Options o = loadConfig(legacy("MAX_MERGE_LEVEL=1\nBLOCK_SKEW=1\nMAX_SKEW_LEVEL=0\n"));
  EXPECT_FALSE(o.defaults.merge);            // MAX_MERGE_LEVEL=1 means no merging
  EXPECT_EQ(o.defaults.mergeLevel, R(1, 1));
  EXPECT_EQ(o.defaults.skewLevel, R(1, 32));
  o = loadConfig(legacy("BLOCK_SKEW=1\n"));  // on, no range: the documented [1, 8]
  EXPECT_EQ(o.defaults.skewLevel, R(1, 8));
  o = loadConfig(legacy("BLOCK_SKEW=0\nMIN_SKEW_LEVEL=2\nMAX_SKEW_LEVEL=4\n"));
  EXPECT_EQ(o.defaults.skewLevel, R(1, 1));  // off: the range is not searched
}

TEST_F(ConfigTest, LegacyEmptyLists) {
  Options o = loadConfig(legacy("PREFETCHED_ARRAYS=\nNON_PREFETCHED_ARRAYS=  \nKERNEL_NAMES=\n"
                                "DATA_TYPE=\nROW_DIM=\n"));
  EXPECT_TRUE(o.kernels.empty());
  EXPECT_TRUE(o.defaults.prefetch.empty());
  EXPECT_TRUE(o.defaults.noPrefetch.empty());
  EXPECT_EQ(o.defaults.dataType, "");
}

TEST_F(ConfigTest, LegacyCrLfBomCommentsAndBlanks) {
  Options o = loadConfig(legacy("\xEF\xBB\xBF# RT-CUDA config\r\n\r\n  LOOP_COLLAPSING = 0 \r\n"
                                "\t# indented comment\r\nKERNEL_NAMES= a,b, \r\n"
                                "DATA_TYPE=int # inline comment\r\nROW_DIM=N\r"));
  ASSERT_EQ(o.kernels.size(), 2u);           // the trailing comma is tolerated
  EXPECT_EQ(o.kernels[1].name, "b");
  EXPECT_EQ(o.kernels[0].configLine, 5);
  EXPECT_FALSE(o.kernels[0].collapse);
  EXPECT_EQ(o.kernels[0].dataType, "int");
  EXPECT_EQ(o.kernels[0].rowDim, "N");
}

TEST_F(ConfigTest, LegacyRelativePathInMessages) {
  std::string cfg = legacy("KERNEL_NAMES=k\n\nLOOP_COLAPSING=1\n");
  fs::path old = fs::current_path();
  fs::current_path(dir);
  std::string msg = error("config.txt");
  legacy("KERNEL_NAMES=k\n");   // valid again, for the load through a relative path
  fs::current_path(dir.parent_path());
  Options rel = loadConfig(dir.filename().string() + "/config.txt");
  fs::current_path(old);
  EXPECT_EQ(msg, "config.txt:3: error: unknown key 'LOOP_COLAPSING' (did you mean "
                 "'LOOP_COLLAPSING'?)");
  EXPECT_EQ(rel.configPath, cfg);            // made absolute
  EXPECT_EQ(rel.kernelFiles, Strings{path("kernel.c")});
  EXPECT_EQ(rel.mainFile, path("main.c"));
}

TEST_F(ConfigTest, LegacyErrors) {
  struct Case {
    std::string config, message;
  };
  const std::vector<Case> cases = {
      {"KERNEL_NAMES=k\nFOO=1\n", ":2: error: unknown key 'FOO'"},
      {"LOOP_COLLAPSING=1\nKERNEL_NAMES=k\nLOOP_COLLAPSING=0\n",
       ":3: error: duplicate key 'LOOP_COLLAPSING' (first given on line 1)"},
      {"MAX_BLOCKSIZE=x\n", ":1: error: invalid value 'x' for MAX_BLOCKSIZE: expected an integer"},
      {"MIN_MERGE_LEVEL=1.5\n",
       ":1: error: invalid value '1.5' for MIN_MERGE_LEVEL: expected an integer"},
      {"LOOP_COLLAPSING=2\n", ":1: error: invalid value '2' for LOOP_COLLAPSING: expected 0 or 1"},
      {"2DMATRIX=yes\n", ":1: error: invalid value 'yes' for 2DMATRIX: expected 0 or 1"},
      {"BLOCK_SKEW=\n", ":1: error: invalid value '' for BLOCK_SKEW: expected 0 or 1"},
      {"PREFETCHING=true\n", ":1: error: invalid value 'true' for PREFETCHING: expected 0 or 1"},
      {"MIN_BLOCKSIZE=256\nMAX_BLOCKSIZE=128\n",
       ":2: error: MIN_BLOCKSIZE (256) is greater than MAX_BLOCKSIZE (128)"},
      {"MAX_MERGE_LEVEL=4\nMIN_MERGE_LEVEL=8\n",
       ":1: error: MIN_MERGE_LEVEL (8) is greater than MAX_MERGE_LEVEL (4)"},
      {"BLOCK_SKEW=1\nMIN_SKEW_LEVEL=4\nMAX_SKEW_LEVEL=2\n",
       ":3: error: MIN_SKEW_LEVEL (4) is greater than MAX_SKEW_LEVEL (2)"},
      {"MAX_BLOCKSIZE=2048\n", ":1: error: invalid value '2048' for MAX_BLOCKSIZE: expected 0 "
                               "(the device maximum) or a block size from 1 to 1024"},
      {"MIN_BLOCKSIZE=1048\n", ":1: error: invalid value '1048' for MIN_BLOCKSIZE: expected a "
                               "block size from 1 to 1024 (the device maximum)"},
      {"MIN_BLOCKSIZE=0\n", ":1: error: invalid value '0' for MIN_BLOCKSIZE: expected a block "
                            "size from 1 to 1024 (the device maximum)"},
      {"MIN_BLOCKSIZE=1\nMAX_BLOCKSIZE=20\n",
       ":2: error: block size range [1, 20] holds no multiple of 32 (block sizes are searched in "
       "multiples of 32)"},
      {"MIN_MERGE_LEVEL=0\n",
       ":1: error: invalid value '0' for MIN_MERGE_LEVEL: expected an integer >= 1"},
      {"MAX_MERGE_LEVEL=-1\n", ":1: error: invalid value '-1' for MAX_MERGE_LEVEL: expected 0 "
                               "(up to 32) or an integer >= 1"},
      {"MAX_SKEW_LEVEL=-2\n", ":1: error: invalid value '-2' for MAX_SKEW_LEVEL: expected 0 (up "
                              "to 32) or an integer >= 1"},
      {"DATA_TYPE=float4\n", ":1: error: invalid value 'float4' for DATA_TYPE: expected one of "
                             "float, double, int, char, short, long, unsigned"},
      {"PREFETCHED_ARRAYS=A,B\nNON_PREFETCHED_ARRAYS=C,B\n",
       ":2: error: array 'B' is named by both PREFETCHED_ARRAYS and NON_PREFETCHED_ARRAYS"},
      {"PREFETCHING=1\nPREFETCHED_ARRAYS=\n",
       ":1: error: PREFETCHING=1 but PREFETCHED_ARRAYS names no array"},
      {"PREFETCHING=1\n", ":1: error: PREFETCHING=1 but PREFETCHED_ARRAYS names no array"},
      {"PREFETCHED_ARRAYS=A B\n", ":1: error: invalid value 'A B' for PREFETCHED_ARRAYS: "
                                  "expected an array name (a C identifier)"},
      {"NON_PREFETCHED_ARRAYS=A,,B\n", ":1: error: invalid value '' for NON_PREFETCHED_ARRAYS: "
                                       "expected an array name (a C identifier)"},
      {"PREFETCHED_ARRAYS=A,A\n", ":1: error: array 'A' is listed twice in PREFETCHED_ARRAYS"},
      {"KERNEL_NAMES=mm,2mm\n",
       ":1: error: invalid value '2mm' for KERNEL_NAMES: expected a C function name"},
      {"KERNEL_NAMES=mm,mv,mm\n", ":1: error: kernel 'mm' is listed twice in KERNEL_NAMES"},
      {"ROW_DIM=N; exit(1)\n", ":1: error: invalid value 'N; exit(1)' for ROW_DIM: expected an "
                               "arithmetic expression over the kernel's scalar parameters"},
      {"ROW_DIM=(N+1\n", ":1: error: invalid value '(N+1' for ROW_DIM: expected an arithmetic "
                         "expression over the kernel's scalar parameters"},
      {"KERNEL_NAMES=k\nLOOP_COLLAPSING 1\n",
       ":2: error: expected KEY=VALUE, got 'LOOP_COLLAPSING 1'"},
      {"kernel_files: [kernel.c]\n", ":1: error: expected KEY=VALUE, got 'kernel_files: "
                                     "[kernel.c]' (a YAML config needs a .yaml or .yml file name)"},
      {"=1\n", ":1: error: expected KEY=VALUE, got '=1'"},
  };
  for (const Case &c : cases) {
    std::string cfg = legacy(c.config);
    EXPECT_EQ(error(cfg), cfg + c.message) << c.config;
  }
}

TEST_F(ConfigTest, LegacyNeedsKernelC) {
  std::string cfg = write("config.txt", "KERNEL_NAMES=k\n");
  EXPECT_EQ(error(cfg), cfg + ": error: a legacy config.txt reads its kernels from 'kernel.c', "
                              "which does not exist (looked for " + path("kernel.c") + ")");
}

TEST_F(ConfigTest, MissingConfigFile) {
  EXPECT_EQ(error(path("none.txt")),
            path("none.txt") + ": error: cannot read config file: No such file or directory");
  EXPECT_EQ(error(path("none.yaml")),
            path("none.yaml") + ": error: cannot read config file: No such file or directory");
  EXPECT_EQ(error(dir.string()), dir.string() + ": error: cannot read config file: Is a directory");
  EXPECT_THROW(loadConfig(path("none.txt")), ConfigError);
}

// --- legacy global.txt ---------------------------------------------------------------------

TEST_F(ConfigTest, GlobalTwoKernelFilesTwoConfigs) {
  write("k1.c", "void a(float *A) {}\n");
  write("sub/k2.c", "void b(float *B) {}\n");
  write("main.c", "int main(void) { return 0; }\n");
  write("c1.txt", "KERNEL_NAMES=a,c\nMAX_MERGE_LEVEL=4\n");
  write("sub/c2.txt", "# second\nBLOCK_SKEW=1\nKERNEL_NAMES=b\nMAX_BLOCKSIZE=512\n");
  std::string g = write("global.txt", "KERNEL_FILES=k1.c, sub/k2.c\r\nCONFIG_FILES=c1.txt,sub/c2.txt\r\n");
  Options o = loadConfig(g);
  EXPECT_TRUE(o.legacy);
  EXPECT_EQ(o.configPath, g);
  EXPECT_EQ(o.kernelFiles, (Strings{path("k1.c"), path("sub/k2.c")}));
  EXPECT_EQ(o.mainFile, path("main.c"));
  ASSERT_EQ(o.kernels.size(), 3u);
  EXPECT_EQ(o.kernels[0].name, "a");
  EXPECT_EQ(o.kernels[1].name, "c");
  EXPECT_EQ(o.kernels[2].name, "b");
  EXPECT_EQ(o.kernels[0].configFile, path("c1.txt"));
  EXPECT_EQ(o.kernels[2].configFile, path("sub/c2.txt"));
  EXPECT_EQ(o.kernels[2].configLine, 3);
  EXPECT_TRUE(o.kernels[1].merge);
  EXPECT_EQ(o.kernels[1].mergeLevel, R(1, 4));
  EXPECT_FALSE(o.kernels[1].skew);
  EXPECT_FALSE(o.kernels[2].merge);
  EXPECT_TRUE(o.kernels[2].skew);
  EXPECT_EQ(o.kernels[2].blockSize, R(32, 512));
  EXPECT_EQ(o.defaults.blockSize, R(32, 1024));
}

TEST_F(ConfigTest, GlobalRecognizedByContent) {
  write("k.c", "void a(void) {}\n");
  write("c.txt", "KERNEL_NAMES=a\n");
  Options o = loadConfig(write("project.txt", "CONFIG_FILES=c.txt\nKERNEL_FILES=k.c\n"));
  ASSERT_EQ(o.kernels.size(), 1u);
  EXPECT_EQ(o.kernelFiles, Strings{path("k.c")});
  EXPECT_EQ(o.mainFile, "");
}

TEST_F(ConfigTest, GlobalErrors) {
  write("k.c", "void a(void) {}\n");
  write("c1.txt", "KERNEL_NAMES=a,b\n");
  write("c2.txt", "LOOP_COLLAPSING=1\nKERNEL_NAMES=b\n");
  write("c3.txt", "LOOP_COLLAPSING=1\n");
  write("bad.txt", "KERNEL_NAMES=z\nMAX_BLOCKSIZE=big\n");
  std::string g = path("global.txt");
  struct Case {
    std::string global, message;
  };
  const std::vector<Case> cases = {
      {"KERNEL_FILES=k.c\nCONFIG_FILES=c1.txt,c2.txt\n",
       path("c2.txt") + ":2: error: kernel 'b' is already configured by " + path("c1.txt") + ":1"},
      {"KERNEL_FILES=k.c\nCONFIG_FILES=c1.txt,gone.txt\n",
       g + ":2: error: CONFIG_FILES names 'gone.txt', which does not exist (looked for " +
           path("gone.txt") + ")"},
      {"KERNEL_FILES=k.c,gone.c\nCONFIG_FILES=c1.txt\n",
       g + ":1: error: KERNEL_FILES names 'gone.c', which does not exist (looked for " +
           path("gone.c") + ")"},
      {"KERNEL_FILES=k.c\nCONFIG_FILE=c1.txt\n",
       g + ":2: error: unknown key 'CONFIG_FILE' (did you mean 'CONFIG_FILES'?)"},
      {"KERNEL_FILES=k.c\nCONFIG_FILES=c1.txt\nBLOCK_SKEW=1\n",
       g + ":3: error: unknown key 'BLOCK_SKEW' (global.txt takes only KERNEL_FILES and "
           "CONFIG_FILES; BLOCK_SKEW belongs in a config file it lists)"},
      {"KERNEL_FILES=k.c\n", g + ": error: missing key CONFIG_FILES"},
      {"KERNEL_FILES=\nCONFIG_FILES=c1.txt\n", g + ":1: error: KERNEL_FILES names no file"},
      {"KERNEL_FILES=k.c\nCONFIG_FILES=c3.txt\n",
       path("c3.txt") + ": error: names no kernel: configs listed by global.txt need KERNEL_NAMES"},
      {"KERNEL_FILES=k.c\nCONFIG_FILES=bad.txt\n",
       path("bad.txt") + ":2: error: invalid value 'big' for MAX_BLOCKSIZE: expected an integer"},
      {"KERNEL_FILES=k.c\nCONFIG_FILES=c1.txt,./c1.txt\n",
       g + ":2: error: CONFIG_FILES names './c1.txt' twice"},
  };
  for (const Case &c : cases) {
    write("global.txt", c.global);
    EXPECT_EQ(error(g), c.message) << c.global;
  }
}

// --- YAML ----------------------------------------------------------------------------------

TEST_F(ConfigTest, YamlFullSchema) {
  std::string cfg = yaml(R"(kernel_files: [kernel.c]
main_file: main.c
memory: managed
arch: sm_80
defaults:
  collapse: false
kernels:
  - name: matrix_mul
    parallel_loops: 2
    collapse: true
    merge: true
    skew: false
    prefetch: [A, B]
    no_prefetch: []
    row_dim: N
    data_type: float
    tuning:
      block_size: [32, 1024]
      merge_level: [1, 8]
      skew_level: [1, 1]
      tile_k: [8, 32]
      default_block_size: 128
)");
  Options o = loadConfig(cfg);
  EXPECT_FALSE(o.legacy);
  EXPECT_EQ(o.configPath, cfg);
  EXPECT_EQ(o.kernelFiles, Strings{path("kernel.c")});
  EXPECT_EQ(o.mainFile, path("main.c"));
  EXPECT_EQ(o.memory, "managed");
  EXPECT_EQ(o.arch, "sm_80");
  EXPECT_FALSE(o.defaults.collapse);
  EXPECT_EQ(o.defaults.configLine, 6);
  ASSERT_EQ(o.kernels.size(), 1u);
  const KernelOptions &k = o.kernels[0];
  EXPECT_EQ(k.name, "matrix_mul");
  EXPECT_EQ(k.configFile, cfg);
  EXPECT_EQ(k.configLine, 8);
  EXPECT_EQ(k.parallelLoops, 2);
  EXPECT_TRUE(k.collapse);
  EXPECT_TRUE(k.merge);
  EXPECT_FALSE(k.skew);
  EXPECT_EQ(k.prefetch, (Strings{"A", "B"}));
  EXPECT_TRUE(k.noPrefetch.empty());
  EXPECT_EQ(k.rowDim, "N");
  EXPECT_EQ(k.dataType, "float");
  EXPECT_FALSE(k.matrix2D.has_value());
  EXPECT_EQ(k.blockSize, R(32, 1024));
  EXPECT_EQ(k.mergeLevel, R(1, 8));
  EXPECT_EQ(k.skewLevel, R(1, 1));
  EXPECT_EQ(k.tileK, R(8, 32));
  EXPECT_EQ(k.defaultBlockSize, 128);
}

TEST_F(ConfigTest, YamlMinimalAndBareStringKernels) {
  Options o = loadConfig(yaml("kernel_files: kernel.c\nkernels: [mm, mv]\n", "c.yml"));
  EXPECT_EQ(o.kernelFiles, Strings{path("kernel.c")});
  EXPECT_EQ(o.mainFile, "");
  EXPECT_EQ(o.memory, "explicit");
  EXPECT_EQ(o.arch, "sm_90");
  ASSERT_EQ(o.kernels.size(), 2u);
  EXPECT_EQ(o.kernels[0].name, "mm");
  EXPECT_EQ(o.kernels[1].name, "mv");
  EXPECT_EQ(o.kernels[1].configLine, 2);
  EXPECT_TRUE(o.kernels[1].collapse);
  EXPECT_EQ(o.kernels[1].blockSize, R(32, 1024));
  EXPECT_EQ(o.kernels[1].tileK, R(8, 32));
}

TEST_F(ConfigTest, YamlDefaultsMerging) {
  // `defaults` comes after `kernels` on purpose: its place in the file does not matter.
  Options o = loadConfig(yaml(R"(kernel_files: [kernel.c]
kernels:
  - plain
  - name: tuned
    prefetch: B
    merge: true
    tuning: {skew_level: 2}
  - name: flat
    merge: false
    no_prefetch: ~
defaults:
  collapse: false
  prefetch: [A]
  no_prefetch: [C]
  tuning:
    block_size: [64, 0]
    merge_level: [2, 4]
    tile_k: 16
)"));
  ASSERT_EQ(o.kernels.size(), 3u);
  const KernelOptions &plain = o.kernels[0], &tuned = o.kernels[1], &flat = o.kernels[2];
  // The defaults themselves, as pragma-marked kernels get them.
  EXPECT_FALSE(o.defaults.collapse);
  EXPECT_EQ(o.defaults.prefetch, Strings{"A"});
  EXPECT_EQ(o.defaults.blockSize, R(64, 1024));
  EXPECT_EQ(o.defaults.mergeLevel, R(1, 1));   // merge is off in defaults
  EXPECT_EQ(o.defaults.tileK, R(16, 16));
  // A bare name takes every default.
  EXPECT_EQ(plain.name, "plain");
  EXPECT_FALSE(plain.collapse);
  EXPECT_EQ(plain.prefetch, Strings{"A"});
  EXPECT_EQ(plain.noPrefetch, Strings{"C"});
  EXPECT_EQ(plain.blockSize, R(64, 1024));
  // Keys override one by one; lists are replaced, not appended; tuning ranges one by one.
  EXPECT_FALSE(tuned.collapse);
  EXPECT_EQ(tuned.prefetch, Strings{"B"});
  EXPECT_EQ(tuned.noPrefetch, Strings{"C"});
  EXPECT_TRUE(tuned.merge);
  EXPECT_EQ(tuned.mergeLevel, R(2, 4));      // from defaults, though merge is off there
  EXPECT_EQ(tuned.skewLevel, R(1, 1));       // skew off: fitted to [1, 1]
  EXPECT_EQ(tuned.blockSize, R(64, 1024));
  EXPECT_EQ(tuned.tileK, R(16, 16));
  EXPECT_FALSE(flat.merge);
  EXPECT_TRUE(flat.noPrefetch.empty());      // null = empty list
}

TEST_F(ConfigTest, YamlImpliedRangesAndAuto) {
  Options o = loadConfig(yaml(R"(kernel_files: [kernel.c]
kernels:
  - name: a
    merge: true
    skew: true
    parallel_loops: auto
  - name: b
    parallel_loops: 3
    skew: true
    tuning: {skew_level: [2, 2], block_size: 256}
)"));
  ASSERT_EQ(o.kernels.size(), 2u);
  EXPECT_EQ(o.kernels[0].mergeLevel, R(1, 8));
  EXPECT_EQ(o.kernels[0].skewLevel, R(1, 8));
  EXPECT_EQ(o.kernels[0].parallelLoops, 0);
  EXPECT_EQ(o.kernels[1].parallelLoops, 3);
  EXPECT_EQ(o.kernels[1].skewLevel, R(2, 2));
  EXPECT_EQ(o.kernels[1].blockSize, R(256, 256));
}

TEST_F(ConfigTest, YamlErrors) {
  const std::string head = "kernel_files: [kernel.c]\n";
  struct Case {
    std::string yaml, message;
  };
  const std::vector<Case> cases = {
      {head + "kernels:\n  - name: matrix_mul\n    colapse: true\n",
       ":4:5: error: unknown key 'colapse' in kernel 'matrix_mul' (did you mean 'collapse'?)"},
      {head + "kernels:\n  - name: mm\n    collapse: maybe\n",
       ":4:15: error: invalid value 'maybe' for 'collapse': expected true or false"},
      {head + "defaults:\n  sckew: true\n",
       ":3:3: error: unknown key 'sckew' in 'defaults' (did you mean 'skew'?)"},
      {head + "defaults:\n  name: x\n", ":3:3: error: unknown key 'name' in 'defaults'"},
      {head + "kernel: [mm]\n",
       ":2:1: error: unknown key 'kernel' (did you mean 'kernels'?)"},
      {head + "verbose: true\n", ":2:1: error: unknown key 'verbose'"},
      {head + "kernels:\n  - name: mm\n    tuning:\n      blocksize: 64\n",
       ":5:7: error: unknown key 'blocksize' in 'tuning' in kernel 'mm' (did you mean "
       "'block_size'?)"},
      {head + "arch: sm_90\narch: sm_80\n", ":3:1: error: duplicate key 'arch'"},
      {head + "kernels: [mm\n", ":3:1: error: end of sequence flow not found"},
      {"kernel_files: [kernel.c]\n  bad: indent\n", ":2:3: error: end of map not found"},
      {"memory: managed\n", ": error: missing required key 'kernel_files' (or 'source')"},
      {"", ": error: empty config: 'kernel_files' is required"},
      {"- kernel.c\n", ":1:1: error: expected a mapping of config keys at the top level"},
      {"kernel_files: []\n", ":1:1: error: 'kernel_files' names no file"},
      {head + "memory: unified\n",
       ":2:9: error: invalid value 'unified' for 'memory': expected explicit or managed"},
      {head + "arch: sm_35\n",
       ":2:7: error: invalid value 'sm_35' for 'arch': expected sm_XY with XY >= 50, such as sm_90"},
      {head + "arch: compute_90\n", ":2:7: error: invalid value 'compute_90' for 'arch': "
                                    "expected sm_XY with XY >= 50, such as sm_90"},
      {head + "kernels:\n  - name: mm\n    tuning: {block_size: [32, 2048]}\n",
       ":4:26: error: invalid value '2048' for 'block_size': expected 0 (the device maximum) or a "
       "block size from 1 to 1024"},
      {head + "kernels:\n  - name: mm\n    tuning: {block_size: [256, 128]}\n",
       ":4:26: error: invalid range for 'block_size': min 256 is greater than max 128"},
      {head + "kernels:\n  - name: mm\n    tuning: {block_size: [32]}\n",
       ":4:26: error: invalid value '[32]' for 'block_size': expected [min, max] or an integer"},
      {head + "kernels:\n  - name: mm\n    tuning: {tile_k: [0, 8]}\n",
       ":4:22: error: invalid value '0' for 'tile_k': expected an integer >= 1"},
      {head + "defaults:\n  tuning:\n    block_size: [64, 256]\n    default_block_size: 32\n",
       ":5:25: error: invalid value '32' for 'default_block_size': expected 0 or a block size "
       "within [64, 256]"},
      {head + "kernels:\n  - name: mm\n    merge: true\n    tuning: {merge_level: [4, x]}\n",
       ":5:31: error: invalid value 'x' for 'merge_level': expected an integer"},
      {head + "kernels:\n  - name: mm\n    prefetch: [A, B]\n    no_prefetch: [B]\n",
       ":5:18: error: array 'B' is named by both 'prefetch' and 'no_prefetch'"},
      {head + "defaults:\n  no_prefetch: [A]\nkernels:\n  - name: mm\n    prefetch: [A]\n",
       ":3:16: error: array 'A' is named by both 'prefetch' and 'no_prefetch'"},
      {head + "kernels:\n  - name: mm\n    prefetch: [A, {B: 1}]\n",
       ":4:19: error: invalid value '{...}' for 'prefetch': expected a list of array names"},
      {head + "kernels:\n  - name: mm\n    data_type: half\n",
       ":4:16: error: invalid value 'half' for 'data_type': expected one of float, double, int, "
       "char, short, long, unsigned"},
      {head + "kernels:\n  - name: mm\n    parallel_loops: -1\n",
       ":4:21: error: invalid value '-1' for 'parallel_loops': expected \"auto\" or an integer >= 0"},
      {head + "kernels:\n  - mm\n  - name: mv\n  - mm\n",
       ":5: error: kernel 'mm' is configured twice (first at "},
      {head + "kernels:\n  - collapse: true\n", ":3:5: error: kernel entry without 'name'"},
      {head + "kernels:\n  - name: 2mm\n",
       ":3:11: error: invalid value '2mm' for 'name': expected a C function name"},
      {head + "kernels:\n  - [mm]\n", ":3:5: error: invalid value '[mm]' for 'kernels': "
                                      "expected a kernel name or a mapping with 'name'"},
      {head + "kernels:\n  mm: {}\n", ":3:3: error: invalid value '{...}' for 'kernels': "
                                      "expected a list of kernels"},
  };
  for (const Case &c : cases) {
    std::string cfg = yaml(c.yaml);
    std::string msg = error(cfg);
    if (c.message.find("configured twice") != std::string::npos)
      EXPECT_EQ(msg, cfg + c.message + cfg + ":3)") << c.yaml;
    else
      EXPECT_EQ(msg, cfg + c.message) << c.yaml;
  }
}

TEST_F(ConfigTest, YamlMissingSourceFiles) {
  std::string cfg = yaml("kernel_files: [kernel.c, other.c]\n");
  EXPECT_EQ(error(cfg), cfg + ":1:26: error: 'kernel_files' names 'other.c', which does not "
                              "exist (looked for " + path("other.c") + ")");
  cfg = yaml("kernel_files: kernel.c\nmain_file: app/main.c\n");
  EXPECT_EQ(error(cfg), cfg + ":2:12: error: 'main_file' names 'app/main.c', which does not "
                              "exist (looked for " + path("app/main.c") + ")");
  cfg = yaml("kernel_files: [kernel.c, ./kernel.c]\n");
  EXPECT_EQ(error(cfg), cfg + ":1:26: error: 'kernel_files' names './kernel.c' twice");
}

TEST_F(ConfigTest, YamlPathsRelativeToConfigFolder) {
  write("src/k.c", "void k(void) {}\n");
  write("src/m.c", "int main(void) { return 0; }\n");
  Options o = loadConfig(write("cfg/app.yaml", "kernel_files: ../src/k.c\nmain_file: ../src/m.c\n"));
  EXPECT_EQ(o.kernelFiles, Strings{path("src/k.c")});
  EXPECT_EQ(o.mainFile, path("src/m.c"));
  EXPECT_TRUE(fs::path(o.configPath).is_absolute());
}

}  // namespace
