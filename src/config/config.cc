// Config from TESSERA_CONFIG: parse_config reads the flags (the last of a repeated flag
// wins) and fills in the rest from the machine (auto-config) or from the small reservation
// of --auto-config=0; config_help and describe_config are what the runtime prints of it.
#include "config/config.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>
#include <utility>

#include "comm/rank_setup.h"
#include "config/instruction_sets.h"

namespace tessera {
namespace {

constexpr std::string_view kSource = "TESSERA_CONFIG";
// thread_limit: a few threads per core lets tests oversubscribe a small machine; a floor
// keeps small machines usable for that.
constexpr int kThreadsPerCore = 8;
constexpr int kFewestThreadLimit = 64;

std::string on_off(bool value) { return value ? "on" : "off"; }

std::string plural(int64_t count, std::string_view noun) {
  return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

// The last value given for each flag; a flag that was not given has none.
class GivenFlags {
 public:
  void set(FlagOccurrence flag) { values_[flag.spec->name] = std::move(flag); }

  std::optional<bool> truth(std::string_view name) const {
    const FlagOccurrence* flag = find(name);
    if (flag == nullptr) return std::nullopt;
    return flag->value == "1";
  }

  std::optional<int64_t> number(std::string_view name) const {
    const FlagOccurrence* flag = find(name);
    if (flag == nullptr) return std::nullopt;
    return parse_flag_number(*flag->spec, flag->value, kSource);
  }

  std::optional<int> count(std::string_view name) const {
    // parse_flag_number already bounds a Count by INT32_MAX.
    if (auto value = number(name)) return static_cast<int>(*value);
    return std::nullopt;
  }

  std::optional<std::string> text(std::string_view name) const {
    const FlagOccurrence* flag = find(name);
    if (flag == nullptr) return std::nullopt;
    return flag->value;
  }

 private:
  const FlagOccurrence* find(std::string_view name) const {
    auto it = values_.find(name);
    return it == values_.end() ? nullptr : &it->second;
  }

  std::map<std::string_view, FlagOccurrence> values_;
};

GivenFlags read_given_flags(std::string_view text) {
  std::vector<std::string> words = split_config_words(text, kSource);
  GivenFlags given;
  for (size_t pos = 0; pos < words.size();) {
    if (!words[pos].starts_with("--")) {
      throw ConfigError(std::string(kSource) + ": unexpected word '" + words[pos] + "': every flag starts with --");
    }
    std::optional<FlagOccurrence> flag = read_flag(words, pos, config_flags(), kSource);
    if (!flag) throw unknown_flag_error(words[pos], kSource, config_flags());
    given.set(std::move(*flag));
  }
  return given;
}

// Fills the processors and the memory pools: most of the machine with auto-config, else
// Config's defaults (one cpu, a small pool); explicit flags win either way. Thread teams,
// GPUs and the NUMA, framebuffer and zero-copy pools are never reserved by default (this
// build has none of them), so only an explicit flag can ask for them and be refused.
void reserve_resources(const GivenFlags& given, const MachineInfo& machine, Config& config) {
  const int cores = std::max(1, machine.cores);
  config.utility = given.count("utility").value_or(config.utility);
  config.omps = given.count("omps").value_or(config.omps);
  config.ompthreads = given.count("ompthreads").value_or(config.ompthreads);
  if (config.auto_config) {
    config.cpus = given.count("cpus").value_or(std::max(1, cores - config.utility));
    const int64_t ram_mib = machine.memory_bytes >> 20;
    const int64_t most_ram = ram_mib > 0 ? std::max<int64_t>(1, ram_mib * 4 / 5) : config.sysmem_mib;
    config.sysmem_mib = given.number("sysmem").value_or(most_ram);
  } else {
    config.cpus = given.count("cpus").value_or(config.cpus);
    config.sysmem_mib = given.number("sysmem").value_or(config.sysmem_mib);
  }
  config.numamem_mib = given.number("numamem").value_or(config.numamem_mib);
  config.fbmem_mib = given.number("fbmem").value_or(config.fbmem_mib);
  config.zcmem_mib = given.number("zcmem").value_or(config.zcmem_mib);
}

std::string flag_value(std::string_view name, int64_t value) {
  return "--" + std::string(name) + "=" + std::to_string(value);
}

// Refuses what this build cannot provide: other processor kinds and memory kinds.
void check_build_support(const Config& config, const MachineInfo& machine) {
  const std::string prefix = std::string(kSource) + ": ";
  auto leave_out = [](std::string_view name) {
    return "leave --" + std::string(name) + " out or set --" + std::string(name) + "=0";
  };
  if (config.gpus > 0 && !machine.gpu_build) {
    throw ConfigError(prefix + flag_value("gpus", config.gpus) +
                      " asks for GPUs, but this build of tessera has no GPU support; " + leave_out("gpus"));
  }
  if (config.gpus > 0) {
    // A build with CUDA finds the GPUs (machine.gpus) but starts no GPU workers yet.
    throw ConfigError(prefix + flag_value("gpus", config.gpus) + " asks for GPUs; this build of tessera finds " +
                      plural(machine.processors(ProcessorKind::GPU), "GPU") +
                      " here but runs every task on the cpu workers; " + leave_out("gpus"));
  }
  for (auto [name, value] : {std::pair{"omps", config.omps}, {"ompthreads", config.ompthreads}}) {
    if (value > 0) {
      throw ConfigError(prefix + flag_value(name, value) +
                        " asks for OpenMP thread teams, but this build of tessera has no "
                        "OpenMP task variants: every task runs on the cpu workers; " +
                        leave_out(name) + ", and give the number of workers with --cpus");
    }
  }
  for (auto [name, value, memory] :
       {std::tuple{"fbmem", config.fbmem_mib, "GPU framebuffer memory (FBMEM)"},
        {"zcmem", config.zcmem_mib, "zero-copy memory (ZCMEM, pinned host memory for GPUs)"}}) {
    if (value > 0) {
      throw ConfigError(prefix + flag_value(name, value) + " MiB asks for a pool of " + memory +
                        ", which needs a GPU build, and this build of tessera has no GPU "
                        "support; " +
                        leave_out(name));
    }
  }
  if (config.numamem_mib > 0) {
    throw ConfigError(prefix + flag_value("numamem", config.numamem_mib) +
                      " MiB asks for a NUMA memory pool (NUMAMEM), but this build of tessera "
                      "has no NUMA-local pools: every array comes from the system memory pool "
                      "(this machine has " +
                      plural(machine.numa_nodes, "NUMA node") + "); " + leave_out("numamem") +
                      ", and size the pool with --sysmem");
  }
}

// Refuses what this machine cannot hold: more threads than a few per core, more memory
// than the rank's share of RAM.
void check_machine_limits(const GivenFlags& given, const Config& config, const MachineInfo& machine) {
  const std::string prefix = std::string(kSource) + ": ";
  const int cores = std::max(1, machine.cores);
  const std::string rank_share = machine.local_ranks > 1 ? " (its share of the node, which " +
                                                               std::to_string(machine.local_ranks) + " ranks split)"
                                                         : "";
  const int64_t threads = int64_t{config.cpus} + config.utility;
  const int limit = thread_limit(machine);
  if (threads > limit) {
    const std::string asked =
        given.count("cpus")
            ? flag_value("cpus", config.cpus) + " and " + flag_value("utility", config.utility) + " ask"
            : flag_value("utility", config.utility) + " with " + plural(config.cpus, "cpu worker") + " asks";
    const std::string hint = config.utility >= limit
                                 ? "give --utility of at most " + std::to_string(limit - 1)
                                 : "give --cpus of at most " + std::to_string(limit - config.utility) +
                                       ", or leave it out for one worker per core";
    throw ConfigError(prefix + asked + " for " + std::to_string(threads) + " threads, but this rank has " +
                      plural(cores, "core") + rank_share + " and tessera starts at most " + std::to_string(limit) +
                      " threads per rank on it (" + std::to_string(kThreadsPerCore) +
                      " per core, and never fewer than " + std::to_string(kFewestThreadLimit) + "): " + hint);
  }
  // The pool is accounting over memory that is allocated as arrays are made, so a pool
  // larger than the RAM would fail later, at an arbitrary allocation, or invite the
  // kernel's out-of-memory killer. Only an explicit --sysmem can do that: auto-config
  // reserves 80 % of the RAM.
  const int64_t ram_mib = machine.memory_bytes >> 20;
  if (ram_mib > 0 && given.number("sysmem") && config.sysmem_mib > ram_mib) {
    throw ConfigError(prefix + flag_value("sysmem", config.sysmem_mib) + " MiB is more than the " +
                      std::to_string(ram_mib) + " MiB of memory this rank has" + rank_share +
                      " (the machine's RAM, within any cgroup memory limit); give --sysmem of "
                      "at most " +
                      std::to_string(ram_mib) + ", or leave it out to reserve 80 % of it");
  }
}

void check_consistency(const GivenFlags& given, const Config& config, const MachineInfo& machine) {
  check_build_support(config, machine);
  if (config.cpus == 0) {
    throw ConfigError(std::string(kSource) +
                      ": --cpus=0 leaves no processor to run tasks: give --cpus of at least 1, "
                      "or leave it out for one worker per core");
  }
  check_machine_limits(given, config, machine);
}

}  // namespace

int thread_limit(const MachineInfo& machine) {
  return std::max(kFewestThreadLimit, kThreadsPerCore * std::max(1, machine.cores));
}

Config parse_config(std::string_view text, const MachineInfo& machine, bool test_env) {
  GivenFlags given = read_given_flags(text);
  Config config;
  config.auto_config = given.truth("auto-config").value_or(config.auto_config);
  config.help = given.truth("help").value_or(config.help);
  config.test = given.truth("test").value_or(test_env);
  config.gpus = given.count("gpus").value_or(config.gpus);
  reserve_resources(given, machine, config);

  config.show_config = given.truth("show-config").value_or(config.show_config);
  config.profile = given.truth("profile").value_or(config.profile);
  config.provenance = config.profile || given.truth("provenance").value_or(config.provenance);
  config.show_memory_usage = given.truth("show-memory-usage").value_or(config.show_memory_usage);
  config.show_all_ranks = given.truth("show-all-ranks").value_or(config.show_all_ranks);
  config.logdir = given.text("logdir").value_or(config.logdir);
  config.window_size = given.count("window-size").value_or(config.window_size);
  config.fallback = given.text("fallback").value_or(config.fallback);
  config.simd = resolve_simd(given.text("simd").value_or("best"), machine.instruction_sets);
  // Test mode cuts even tiny arrays into many tiles, to exercise the partitioning paths.
  const int64_t test_chunk = 2;
  config.min_cpu_chunk = given.number("min-cpu-chunk").value_or(config.test ? test_chunk : config.min_cpu_chunk);
  config.min_omp_chunk = given.number("min-omp-chunk").value_or(config.test ? test_chunk : config.min_omp_chunk);
  check_consistency(given, config, machine);
  return config;
}

std::optional<int> environment_count(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  // SLURM writes counts like "2(x3)", 2 on each of 3 nodes: the leading number is the one.
  std::string_view text(value);
  int count = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), count);
  if (error != std::errc() || count <= 0) return std::nullopt;
  return count;
}

std::optional<std::vector<int>> parse_task_counts(std::string_view text) {
  constexpr size_t kMostNodes = size_t{1} << 20;
  std::vector<int> counts;
  const char* at = text.data();
  const char* end = text.data() + text.size();
  while (true) {
    int count = 0, repeat = 1;
    auto [after, error] = std::from_chars(at, end, count);
    if (error != std::errc() || count <= 0) return std::nullopt;
    at = after;
    if (end - at >= 2 && at[0] == '(' && at[1] == 'x') {
      auto [close, repeat_error] = std::from_chars(at + 2, end, repeat);
      if (repeat_error != std::errc() || repeat <= 0 || close == end || *close != ')') {
        return std::nullopt;
      }
      at = close + 1;
    }
    if (counts.size() + static_cast<size_t>(repeat) > kMostNodes) return std::nullopt;
    counts.insert(counts.end(), static_cast<size_t>(repeat), count);
    if (at == end) return counts;
    if (*at++ != ',') return std::nullopt;
  }
}

bool test_mode_from_environment() {
  const char* test = std::getenv("TESSERA_TEST");
  return test != nullptr && parse_bool_word(test).value_or(false);
}

Config config_from_environment() {
  const char* text = std::getenv("TESSERA_CONFIG");
  // Ranks that share this node without a CPU binding split its cores and memory.
  const int local_ranks = detail::placement_from_environment().local_ranks;
  return parse_config(text != nullptr ? text : "", detect_machine(local_ranks), test_mode_from_environment());
}

std::string config_help() {
  return "Runtime flags, read once from TESSERA_CONFIG when the runtime starts, e.g.\n"
         "  TESSERA_CONFIG='--cpus=4 --sysmem=4000' python prog.py\n"
         "--flag=value and --flag value are the same. A boolean flag alone means 1; it\n"
         "also takes 1|t|true|y|yes or 0|f|false|n|no. The last of a repeated flag wins.\n"
         "The `tessera` launcher accepts the same flags before the program.\n\n" +
         format_flag_table(config_flags());
}

std::string describe_config(const Config& config) {
  std::string out =
      "tessera configuration (auto-config " + on_off(config.auto_config) + (config.test ? ", test mode" : "") + "):\n";
  // Only what was reserved: this build has no thread teams, GPUs or other memory kinds
  // (parse_config refuses them), so the lines say so instead of listing zeros.
  out += "  processors: " + plural(config.cpus, "cpu worker") + ", " + plural(config.utility, "utility thread") +
         " (this build has no OpenMP thread teams or GPUs)\n";
  out += "  memory:     sysmem " + std::to_string(config.sysmem_mib) +
         " MiB (this build has no NUMAMEM, FBMEM or ZCMEM pools)\n";
  out += "  tasks:      window-size " + std::to_string(config.window_size) + ", min-cpu-chunk " +
         std::to_string(config.min_cpu_chunk) + "\n";
  out += "  output:     profile " + on_off(config.profile) + ", provenance " + on_off(config.provenance) +
         ", show-memory-usage " + on_off(config.show_memory_usage) + ", show-all-ranks " +
         on_off(config.show_all_ranks) + ", logdir " + shell_quote(config.logdir) + "\n";
  out += "  numpy:      fallback " + config.fallback + "\n";
  out += "  simd:       " + config.simd + " (the vector loops' instruction set)\n";
  return out;
}

}  // namespace tessera
