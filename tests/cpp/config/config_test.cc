// parse_config: flag syntax (booleans, optional '=', last wins, quoting), errors that name
// the flag, auto-configuration against a fixed machine, test mode, help and show-config.
#include "config/config.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "config/instruction_sets.h"

namespace tessera {
namespace {

constexpr int64_t kGiB = int64_t{1} << 30;
const MachineInfo kMachine{8, 16 * kGiB, 1};  // 16384 MiB → 80 % is 13107 MiB

Config parse(std::string_view text, bool test_env = false) { return parse_config(text, kMachine, test_env); }

// The ConfigError message that parsing `text` for `machine` throws, or "" if it does not.
std::string parse_error(std::string_view text, const MachineInfo& machine) {
  try {
    parse_config(text, machine);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "";
}

std::string error_of(std::string_view text) { return parse_error(text, kMachine); }

TEST(ConfigTest, AutoConfigReservesMostOfTheMachine) {
  Config config = parse("");
  EXPECT_TRUE(config.auto_config);
  EXPECT_EQ(config.utility, 1);
  EXPECT_EQ(config.cpus, 7);
  EXPECT_EQ(config.omps, 0);
  EXPECT_EQ(config.gpus, 0);
  EXPECT_EQ(config.sysmem_mib, 13107);
  EXPECT_EQ(config.numamem_mib, 0);
  EXPECT_EQ(config.logdir, ".");
  EXPECT_EQ(config.window_size, 16);
  EXPECT_EQ(config.min_cpu_chunk, 65536);
  EXPECT_EQ(config.min_omp_chunk, 131072);
  EXPECT_FALSE(config.test);
  EXPECT_FALSE(config.profile);
  EXPECT_FALSE(config.help);
}

TEST(ConfigTest, AutoConfigFollowsUtilityAndSmallMachines) {
  EXPECT_EQ(parse("--utility 3").cpus, 5);
  EXPECT_EQ(parse_config("", MachineInfo{1, kGiB, 1}).cpus, 1);
  EXPECT_EQ(parse_config("", MachineInfo{1, 0, 1}).sysmem_mib, 256);  // RAM unknown
}

TEST(ConfigTest, AutoConfigReservesNothingThisBuildRefuses) {
  for (Config config : {parse(""), parse("--auto-config=0"), parse("--cpus=2 --utility=2"),
                        parse_config("", MachineInfo{64, 256 * kGiB, 4}), parse_config("", MachineInfo{1, 0, 1})}) {
    EXPECT_EQ(config.omps, 0);
    EXPECT_EQ(config.ompthreads, 0);
    EXPECT_EQ(config.gpus, 0);
    EXPECT_EQ(config.numamem_mib, 0);
    EXPECT_EQ(config.fbmem_mib, 0);
    EXPECT_EQ(config.zcmem_mib, 0);
  }
  // Auto-config never exceeds the thread limit, however many cores.
  EXPECT_EQ(parse_config("", MachineInfo{1000, 256 * kGiB, 1}).cpus, 999);
}

TEST(ConfigTest, ExplicitFlagsOverrideAutoConfig) {
  Config config = parse("--cpus 2 --sysmem=1000 --utility=2");
  EXPECT_EQ(config.cpus, 2);
  EXPECT_EQ(config.sysmem_mib, 1000);
  EXPECT_EQ(config.utility, 2);
}

TEST(ConfigTest, AutoConfigOffReservesOneCpuAndASmallPool) {
  Config config = parse("--auto-config=0");
  EXPECT_FALSE(config.auto_config);
  EXPECT_EQ(config.cpus, 1);
  EXPECT_EQ(config.utility, 1);
  EXPECT_EQ(config.sysmem_mib, 256);
  EXPECT_EQ(config.ompthreads, 0);

  Config explicit_flags = parse("--auto-config=0 --cpus=3 --sysmem 512");
  EXPECT_EQ(explicit_flags.cpus, 3);
  EXPECT_EQ(explicit_flags.sysmem_mib, 512);
  EXPECT_EQ(explicit_flags.ompthreads, 0);
}

TEST(ConfigTest, BareBooleanIsTrueAndTakesNoOtherWord) {
  EXPECT_TRUE(parse("--profile").profile);
  Config config = parse("--show-config --cpus 2");
  EXPECT_TRUE(config.show_config);
  EXPECT_EQ(config.cpus, 2);
  EXPECT_NE(error_of("--profile maybe"), "");  // 'maybe' is a stray word, not a value
}

TEST(ConfigTest, EqualsIsOptional) {
  EXPECT_EQ(parse("--cpus=3").cpus, parse("--cpus 3").cpus);
  EXPECT_EQ(parse("--logdir=/tmp/x").logdir, "/tmp/x");
  EXPECT_EQ(parse("--logdir /tmp/x").logdir, "/tmp/x");
  EXPECT_EQ(parse("  --window-size\t32\n--min-cpu-chunk 7 ").window_size, 32);
}

TEST(ConfigTest, LastOfARepeatedFlagWins) {
  EXPECT_TRUE(parse("--profile --profile=f --profile=1").profile);
  EXPECT_FALSE(parse("--profile=1 --profile no").profile);
  EXPECT_EQ(parse("--cpus 2 --cpus=5").cpus, 5);
  EXPECT_EQ(parse("--logdir a --logdir=b").logdir, "b");
}

TEST(ConfigTest, QuotedValuesKeepTheirBlanks) {
  EXPECT_EQ(parse("--logdir '/tmp/my runs'").logdir, "/tmp/my runs");
  EXPECT_EQ(parse("--logdir=\"a b\"").logdir, "a b");
  EXPECT_EQ(parse("--logdir=a\\ b").logdir, "a b");
  EXPECT_NE(error_of("--logdir 'unterminated").find("unterminated single quote"), std::string::npos);
}

TEST(ConfigTest, UnknownFlagIsNamedWithASuggestion) {
  EXPECT_EQ(error_of("--cpu 2"), "TESSERA_CONFIG: unknown flag '--cpu' (did you mean --cpus?)");
  EXPECT_EQ(error_of("--frobnicate=1"), "TESSERA_CONFIG: unknown flag '--frobnicate'");
  EXPECT_EQ(error_of("cpus=2"), "TESSERA_CONFIG: unexpected word 'cpus=2': every flag starts with --");
}

TEST(ConfigTest, BadValuesNameTheFlagAndWhatWasExpected) {
  EXPECT_EQ(error_of("--cpus=x"), "TESSERA_CONFIG: invalid value 'x' for --cpus: expected a non-negative integer");
  EXPECT_EQ(error_of("--cpus -1"), "TESSERA_CONFIG: invalid value '-1' for --cpus: expected a non-negative integer");
  EXPECT_EQ(error_of("--sysmem=0"),
            "TESSERA_CONFIG: invalid value '0' for --sysmem: expected a positive number of MiB");
  EXPECT_EQ(error_of("--window-size 2.5"),
            "TESSERA_CONFIG: invalid value '2.5' for --window-size: expected a positive integer");
  EXPECT_EQ(error_of("--profile=maybe"),
            "TESSERA_CONFIG: invalid value 'maybe' for --profile: expected "
            "1|t|true|y|yes or 0|f|false|n|no");
  EXPECT_EQ(error_of("--utility=0"), "TESSERA_CONFIG: invalid value '0' for --utility: expected a positive integer");
  EXPECT_EQ(error_of("--logdir="), "TESSERA_CONFIG: invalid value '' for --logdir: expected a non-empty value");
  EXPECT_EQ(error_of("--cpus=99999999999"),
            "TESSERA_CONFIG: invalid value '99999999999' for --cpus: expected at most "
            "2147483647");
}

TEST(ConfigTest, MissingValuesNameTheFlag) {
  EXPECT_EQ(error_of("--cpus"), "TESSERA_CONFIG: missing value for --cpus: expected a non-negative integer");
  EXPECT_EQ(error_of("--logdir --profile"),
            "TESSERA_CONFIG: missing value for --logdir: expected a non-empty value "
            "(write --logdir=VALUE if the value starts with --)");
}

TEST(ConfigTest, GpusAreRefusedInABuildWithoutGpuSupport) {
  EXPECT_EQ(parse("--gpus 0").gpus, 0);
  std::string error = error_of("--gpus=2");
  EXPECT_NE(error.find("--gpus=2"), std::string::npos) << error;
  EXPECT_NE(error.find("no GPU support"), std::string::npos) << error;
}

TEST(ConfigTest, ImpossibleCombinationsAreRefused) {
  EXPECT_NE(error_of("--cpus 0").find("--cpus=0 leaves no processor"), std::string::npos);
  EXPECT_NE(error_of("--cpus 0 --omps 1").find("--omps=1"), std::string::npos);
}

// The flags of processor and memory kinds this build lacks: 0 works, more is refused
// naming the flag, its value and what is missing.
TEST(ConfigTest, KindsThisBuildLacksAreRefusedAboveZero) {
  Config zeros = parse("--omps=0 --ompthreads=0 --numamem=0 --fbmem=0 --zcmem=0 --gpus=0");
  EXPECT_EQ(zeros.cpus, 7);
  EXPECT_EQ(zeros.omps + zeros.ompthreads + zeros.gpus, 0);
  const struct {
    const char* config;
    const char* flag;
    const char* missing;
  } refused[] = {
      {"--omps=2", "--omps=2", "no OpenMP task variants"},
      {"--omps 1 --ompthreads 4", "--omps=1", "no OpenMP task variants"},
      {"--ompthreads=4", "--ompthreads=4", "no OpenMP task variants"},
      {"--fbmem=1024", "--fbmem=1024 MiB", "GPU framebuffer memory (FBMEM), which needs a GPU build"},
      {"--zcmem=64", "--zcmem=64 MiB", "zero-copy memory (ZCMEM"},
      {"--numamem=512", "--numamem=512 MiB", "no NUMA-local pools"},
      {"--auto-config=0 --numamem 1", "--numamem=1 MiB", "no NUMA-local pools"},
  };
  for (const auto& c : refused) {
    const std::string error = error_of(c.config);
    EXPECT_TRUE(error.starts_with("TESSERA_CONFIG: ")) << c.config << ": " << error;
    EXPECT_NE(error.find(c.flag), std::string::npos) << c.config << ": " << error;
    EXPECT_NE(error.find(c.missing), std::string::npos) << c.config << ": " << error;
  }
  EXPECT_NE(error_of("--omps=2").find("give the number of workers with --cpus"), std::string::npos);
  EXPECT_NE(error_of("--numamem=512").find("this machine has 1 NUMA node)"), std::string::npos);
  EXPECT_NE(error_of("--fbmem=8").find("leave --fbmem out or set --fbmem=0"), std::string::npos);
}

TEST(ConfigTest, MinOmpChunkIsAcceptedWithoutEffect) {
  EXPECT_EQ(parse("--min-omp-chunk=1000").min_omp_chunk, 1000);
  EXPECT_EQ(parse("--min-omp-chunk=1000").cpus, 7);
  EXPECT_NE(error_of("--min-omp-chunk=0"), "");  // still a positive count
}

TEST(ConfigTest, ThreadsAreLimitedToAFewPerCore) {
  EXPECT_EQ(thread_limit(kMachine), 64);                   // 8 cores: the floor
  EXPECT_EQ(thread_limit(MachineInfo{32, kGiB, 1}), 256);  // 8 per core
  EXPECT_EQ(parse("--cpus=63").cpus, 63);                  // oversubscribing is allowed
  EXPECT_EQ(parse("--cpus=32 --utility=32").utility, 32);
  EXPECT_EQ(error_of("--cpus=99999"),
            "TESSERA_CONFIG: --cpus=99999 and --utility=1 ask for 100000 threads, but this rank "
            "has 8 cores and tessera starts at most 64 threads per rank on it (8 per core, and "
            "never fewer than 64): give --cpus of at most 63, or leave it out for one worker "
            "per core");
  EXPECT_NE(error_of("--cpus=64").find("ask for 65 threads"), std::string::npos);
  const std::string utility = error_of("--utility=99999");
  EXPECT_NE(utility.find("--utility=99999 with 1 cpu worker asks for 100000 threads"), std::string::npos) << utility;
  EXPECT_NE(utility.find("give --utility of at most 63"), std::string::npos) << utility;
  const std::string shared = parse_error("--cpus=200", MachineInfo{4, kGiB, 1, 2});
  EXPECT_NE(shared.find("this rank has 4 cores (its share of the node, which 2 ranks split)"), std::string::npos)
      << shared;
}

TEST(ConfigTest, SysmemBeyondTheRanksMemoryIsRefused) {
  EXPECT_EQ(parse("--sysmem=16384").sysmem_mib, 16384);  // all of it: allowed
  EXPECT_EQ(error_of("--sysmem=16385"),
            "TESSERA_CONFIG: --sysmem=16385 MiB is more than the 16384 MiB of memory this rank "
            "has (the machine's RAM, within any cgroup memory limit); give --sysmem of at most "
            "16384, or leave it out to reserve 80 % of it");
  // Unknown RAM: nothing to check against.
  EXPECT_EQ(parse_config("--sysmem=99999999", MachineInfo{1, 0, 1}).sysmem_mib, 99999999);
  // Auto-config off keeps its small pool even on a machine with less RAM than that.
  EXPECT_EQ(parse_config("--auto-config=0", MachineInfo{1, 128 << 20, 1}).sysmem_mib, 256);
}

TEST(ConfigTest, ProfileImpliesProvenance) {
  EXPECT_TRUE(parse("--profile").provenance);
  EXPECT_TRUE(parse("--profile --provenance=0").provenance);
  EXPECT_TRUE(parse("--provenance").provenance);
  EXPECT_FALSE(parse("--provenance").profile);
}

TEST(ConfigTest, TestModeShrinksChunksUnlessGivenExplicitly) {
  for (Config config : {parse("--test"), parse("", /*test_env=*/true)}) {
    EXPECT_TRUE(config.test);
    EXPECT_EQ(config.min_cpu_chunk, 2);
    EXPECT_EQ(config.min_omp_chunk, 2);
  }
  Config explicit_chunk = parse("--test --min-cpu-chunk=100");
  EXPECT_EQ(explicit_chunk.min_cpu_chunk, 100);
  EXPECT_EQ(explicit_chunk.min_omp_chunk, 2);
  Config test_off = parse("--test=0", /*test_env=*/true);
  EXPECT_FALSE(test_off.test);
  EXPECT_EQ(test_off.min_cpu_chunk, 65536);
}

TEST(ConfigTest, HelpFlagIsReported) {
  EXPECT_TRUE(parse("--help").help);
  EXPECT_TRUE(parse("--cpus 2 --help").help);
}

// `text` with every run of blanks and newlines made one space, undoing line wrapping.
std::string squeeze_blanks(const std::string& text) {
  std::string out;
  for (char c : text) {
    bool blank = c == ' ' || c == '\n';
    if (!blank || out.empty() || out.back() != ' ') out += blank ? ' ' : c;
  }
  return out;
}

TEST(ConfigTest, EveryFlagParsesAndIsListedInHelp) {
  const std::string help = squeeze_blanks(config_help());
  for (const FlagSpec& spec : config_flags()) {
    const std::string name = "--" + std::string(spec.name);
    EXPECT_NE(help.find(name), std::string::npos) << name;
    EXPECT_NE(help.find("[default: " + std::string(spec.default_text) + "]"), std::string::npos) << name;
    EXPECT_FALSE(spec.help.empty()) << name;
    // A valid value of each kind; the kinds this build lacks take only 0.
    const bool lacking = spec.name == "gpus" || spec.name == "omps" || spec.name == "ompthreads" ||
                         spec.name == "numamem" || spec.name == "fbmem" || spec.name == "zcmem";
    const int64_t number = std::max<int64_t>(spec.min_value, lacking ? 0 : 1);
    const std::string value = spec.kind == FlagKind::Bool   ? "=0"
                              : spec.kind == FlagKind::Text ? "=x"
                              : spec.kind == FlagKind::Choice
                                  ? "=" + std::string(spec.choices.substr(0, spec.choices.find('|')))
                                  : "=" + std::to_string(number);
    EXPECT_NO_THROW(parse(name + value)) << name;
  }
}

TEST(ConfigTest, FallbackTakesOneOfItsWords) {
  EXPECT_EQ(parse("").fallback, "warn");
  for (const char* word : {"warn", "silent", "error"}) {
    EXPECT_EQ(parse(std::string("--fallback=") + word).fallback, word);
  }
  EXPECT_EQ(parse("--fallback silent").fallback, "silent");
  try {
    parse("--fallback=loud");
    FAIL() << "--fallback=loud was accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "TESSERA_CONFIG: invalid value 'loud' for --fallback: expected one of warn, silent "
              "or error");
  }
  EXPECT_NE(describe_config(parse("--fallback=error")).find("fallback error"), std::string::npos);
}

TEST(ConfigTest, SimdCapsTheInstructionSetAtOneTheMachineHas) {
  MachineInfo avx512 = kMachine, avx2 = kMachine;
  avx512.instruction_sets = {"avx3", "avx2", "sse4", "scalar"};
  avx2.instruction_sets = {"avx2", "sse4", "scalar"};
  EXPECT_EQ(parse_config("", avx512).simd, "avx3");  // best: the widest
  EXPECT_EQ(parse_config("--simd=best", avx2).simd, "avx2");
  EXPECT_EQ(parse_config("--simd=avx2", avx512).simd, "avx2");
  EXPECT_EQ(parse_config("--simd sse4", avx512).simd, "sse4");
  EXPECT_EQ(parse_config("--simd=scalar", avx512).simd, "scalar");
  EXPECT_EQ(parse_config("--simd=avx3", avx2).simd, "avx2");  // a cap, not a demand
  EXPECT_EQ(parse("").simd, "scalar");                        // a machine known to have no vector sets
  EXPECT_EQ(error_of("--simd=avx512"),
            "TESSERA_CONFIG: invalid value 'avx512' for --simd: expected one of best, avx3, avx2, "
            "sse4 or scalar");
  EXPECT_NE(describe_config(parse_config("--simd=sse4", avx512)).find("simd:       sse4"), std::string::npos);
}

TEST(ConfigTest, SimdChoicesAreTheKnownInstructionSets) {
  std::string choices = "best";
  for (const std::string& set : known_instruction_sets()) choices += "|" + set;
  EXPECT_EQ(find_flag(config_flags(), "simd")->choices, choices);
  const std::vector<std::string> cpu = supported_instruction_sets();
  ASSERT_FALSE(cpu.empty());
  EXPECT_EQ(cpu.back(), "scalar");
  EXPECT_EQ(detect_machine().instruction_sets, cpu);
}

TEST(ConfigTest, DescribeConfigShowsWhatWasReserved) {
  const std::string text = describe_config(parse("--profile --logdir '/tmp/my runs'"));
  EXPECT_NE(text.find("7 cpu workers"), std::string::npos) << text;
  EXPECT_NE(text.find("1 utility thread "), std::string::npos) << text;
  EXPECT_NE(text.find("no OpenMP thread teams or GPUs"), std::string::npos) << text;
  EXPECT_NE(text.find("sysmem 13107 MiB"), std::string::npos) << text;
  EXPECT_NE(text.find("no NUMAMEM, FBMEM or ZCMEM pools"), std::string::npos) << text;
  EXPECT_EQ(text.find("min-omp-chunk"), std::string::npos) << text;
  EXPECT_NE(text.find("profile on, provenance on"), std::string::npos) << text;
  EXPECT_NE(text.find("logdir '/tmp/my runs'"), std::string::npos) << text;
}

TEST(ConfigTest, ReadsTheEnvironment) {
  ::setenv("TESSERA_CONFIG", "--cpus=3 --window-size 4", 1);
  ::setenv("TESSERA_TEST", "1", 1);
  Config config = config_from_environment();
  ::unsetenv("TESSERA_CONFIG");
  ::unsetenv("TESSERA_TEST");
  EXPECT_EQ(config.cpus, 3);
  EXPECT_EQ(config.window_size, 4);
  EXPECT_TRUE(config.test);
  EXPECT_EQ(config.min_cpu_chunk, 2);
  EXPECT_FALSE(config_from_environment().test);
}

TEST(ConfigTest, DetectsThisMachine) {
  MachineInfo machine = detect_machine();
  EXPECT_GE(machine.cores, 1);
  EXPECT_GT(machine.memory_bytes, 0);
  EXPECT_GE(machine.numa_nodes, 1);
  MachineInfo half = detect_machine(2);
  EXPECT_EQ(half.memory_bytes, machine.memory_bytes / 2);
  EXPECT_LE(half.cores, machine.cores);
}

}  // namespace
}  // namespace tessera
