// Runtime configuration: the flags read once from TESSERA_CONFIG, the machine they are
// sized against, and the table of flag descriptors that the parser, the `tessera`
// launcher and --help all share (DESIGN §10).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "machine/machine_info.h"

namespace tessera {

/// Most threads one rank starts (cpu workers plus utility threads) on `machine`: a few per
/// core, so that a typing slip such as --cpus=99999 is refused rather than exhausting the
/// process's threads, while tests may still oversubscribe a small machine.
int thread_limit(const MachineInfo& machine);

/// The resources and behaviour the runtime starts with. The defaults are what
/// --auto-config=0 reserves before explicit flags. This build has cpu variants only and one
/// memory kind (SYSMEM): omps, ompthreads, gpus, numamem, fbmem and zcmem must stay 0 and
/// min_omp_chunk is kept only so that configurations written for other builds parse.
struct Config {
  int cpus = 1;
  int omps = 0;
  int ompthreads = 0;
  int gpus = 0;
  int utility = 1;
  int64_t sysmem_mib = 256;
  int64_t numamem_mib = 0;
  int64_t fbmem_mib = 0;
  int64_t zcmem_mib = 0;
  bool auto_config = true;
  bool show_config = false;
  bool profile = false;
  bool provenance = false;
  bool show_memory_usage = false;
  bool show_all_ranks = false;  // every rank's output reaches the terminal, prefixed
  bool test = false;
  bool help = false;
  std::string logdir = ".";
  int window_size = 16;
  int64_t min_cpu_chunk = 65536;
  int64_t min_omp_chunk = 131072;
  std::string fallback = "warn";  // a NumPy function tessera lacks: warn, silent or error
  // The instruction set the vector loops run on: parse_config resolves --simd (a cap,
  // "best" for none) against the machine's sets, to one it has ("avx3", "avx2", "sse4" or
  // "scalar").
  std::string simd = "best";
};

/// A bad flag, value or combination; the message names the flag and what was expected.
class ConfigError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Parses the space-separated flags of TESSERA_CONFIG and auto-configures the rest.
/// Example: parse_config("--cpus=4 --profile", detect_machine()).cpus == 4
Config parse_config(std::string_view text, const MachineInfo& machine, bool test_env = false);

/// Reads TESSERA_CONFIG and TESSERA_TEST (1 = test mode) and parses them for this machine.
Config config_from_environment();

/// Whether TESSERA_TEST asks for test mode (1 or another true word).
bool test_mode_from_environment();

/// The leading positive count in environment variable `name` ("2(x3)" → 2), if any.
std::optional<int> environment_count(const char* name);

/// SLURM's per-node task counts, node by node: "2(x3),1" → {2, 2, 2, 1}; nullopt when the
/// text is not such a list.
std::optional<std::vector<int>> parse_task_counts(std::string_view text);

/// The --help text: every runtime flag, its default and meaning.
std::string config_help();

/// What --show-config prints: the processors and memory that were reserved.
std::string describe_config(const Config& config);

// ---------------------------------------------------------------------------------------
// Flag descriptors, shared by parse_config and the launcher.

enum class FlagKind {
  Bool,    // --flag, --flag=1|t|true|y|yes, --flag=0|f|false|n|no
  Count,   // a whole number of things, at least FlagSpec::min_value
  Size,    // a whole number of MiB, at least FlagSpec::min_value
  Text,    // any non-empty word
  Choice,  // one of the words of FlagSpec::choices, separated by '|' ("warn|silent|error")
};

/// One flag: how it is spelled, what value it takes, and how --help describes it.
struct FlagSpec {
  std::string_view name;  // without the leading "--"
  FlagKind kind;
  std::string_view value_name;  // shown in --help ("N", "MiB", "DIR"); empty for Bool
  int64_t min_value;            // for Count and Size
  std::string_view default_text;
  std::string_view help;
  std::string_view choices = {};  // for Choice: the words it takes, separated by '|'
};

/// A flag found in a list of words: which flag and its value text (bools become "1"/"0").
struct FlagOccurrence {
  const FlagSpec* spec;
  std::string value;
};

/// The runtime flags, in the order --help lists them.
std::span<const FlagSpec> config_flags();

/// The entry of `table` called `name` (without "--"), or nullptr.
const FlagSpec* find_flag(std::span<const FlagSpec> table, std::string_view name);

/// Reads the flag at words[pos] with its value and moves pos past both; nullopt (pos
/// unchanged) when its name is not in `table`. Errors start with `source`.
std::optional<FlagOccurrence> read_flag(std::span<const std::string> words, size_t& pos,
                                        std::span<const FlagSpec> table, std::string_view source);

/// 1|t|true|y|yes → true, 0|f|false|n|no → false (any case), anything else → nullopt.
std::optional<bool> parse_bool_word(std::string_view word);

/// The value of a Count or Size flag; throws ConfigError naming the flag unless it is a
/// whole number from spec.min_value up to what an int (Count) or int64 bytes (Size) hold.
int64_t parse_flag_number(const FlagSpec& spec, std::string_view value, std::string_view source);

/// "unknown flag --x" with a did-you-mean hint drawn from the given tables.
ConfigError unknown_flag_error(std::string_view word, std::string_view source, std::span<const FlagSpec> table,
                               std::span<const FlagSpec> other_table = {});

/// Splits TESSERA_CONFIG into words on blanks, honouring '…', "…" and backslashes.
std::vector<std::string> split_config_words(std::string_view text, std::string_view source);

/// Quotes `word` for a POSIX shell (and for split_config_words) when it needs it.
std::string shell_quote(std::string_view word);

/// One line per flag of `table` for --help: spelling, meaning and default.
std::string format_flag_table(std::span<const FlagSpec> table);

}  // namespace tessera
