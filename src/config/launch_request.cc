// parse_launch_request: the launcher's flags come before the program; runtime flags among
// them are checked and kept for TESSERA_CONFIG; the program and its arguments are not read.
#include <array>
#include <cctype>
#include <cstdint>
#include <string>

#include "config/launch_command.h"

namespace tessera {
namespace {

constexpr std::string_view kSource = "tessera";

constexpr std::array kLauncherFlags = {
    FlagSpec{"nodes", FlagKind::Count, "N", 1, "1, or SLURM_JOB_NUM_NODES with a launcher",
             "nodes to run on"},
    FlagSpec{"ranks-per-node", FlagKind::Count, "R", 1,
             "1, or SLURM_NTASKS_PER_NODE with a launcher", "ranks (processes) on each node"},
    FlagSpec{"launcher", FlagKind::Text, "NAME", 0, "none",
             "what starts several ranks: mpirun, srun or none"},
    FlagSpec{"launcher-extra", FlagKind::Text, "ARG", 0, "none",
             "one more argument for mpirun or srun (repeatable)"},
    FlagSpec{"cpu-bind", FlagKind::Text, "LIST", 0, "none",
             "cores of each rank on a node, /-separated (0-15/16-31)"},
    FlagSpec{"mem-bind", FlagKind::Text, "LIST", 0, "none",
             "NUMA nodes of each rank on a node, /-separated (0/1)"},
    FlagSpec{"gpu-bind", FlagKind::Text, "LIST", 0, "none",
             "GPUs of each rank on a node, /-separated (0,1/2,3)"},
    FlagSpec{"nic-bind", FlagKind::Text, "LIST", 0, "none",
             "network interfaces of each rank on a node, /-separated (mlx5_0/mlx5_1)"},
    FlagSpec{"verbose", FlagKind::Bool, "", 0, "0",
             "print the command and TESSERA_CONFIG to stderr before running"},
    FlagSpec{"dry-run", FlagKind::Bool, "", 0, "0",
             "print the command and TESSERA_CONFIG, and exit without running"},
    FlagSpec{"help", FlagKind::Bool, "", 0, "0", "print this help and exit"},
};

// A whole number of at most nine digits, so that it fits any index.
std::optional<int64_t> parse_index(std::string_view text) {
  if (text.empty() || text.size() > 9) return std::nullopt;
  int64_t value = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

// A list of indices and ranges such as "0-3,8,10-11".
bool is_index_list(std::string_view text) {
  for (size_t start = 0;;) {
    size_t comma = text.find(',', start);
    std::string_view part = text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    size_t dash = part.find('-');
    auto low = parse_index(part.substr(0, dash));
    if (!low) return false;
    if (dash != std::string_view::npos) {
      auto high = parse_index(part.substr(dash + 1));
      if (!high || *high < *low) return false;
    }
    if (comma == std::string_view::npos) return true;
    start = comma + 1;
  }
}

std::vector<std::string> parse_binding(const FlagSpec& spec, const std::string& list) {
  std::vector<std::string> entries;
  bool valid = true;
  for (size_t start = 0;;) {
    size_t slash = list.find('/', start);
    std::string entry = list.substr(start, slash == std::string::npos ? slash : slash - start);
    valid = valid && !entry.empty() && (spec.name == "nic-bind" || is_index_list(entry));
    entries.push_back(std::move(entry));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  if (!valid) {
    std::string example = spec.name == "nic-bind" ? "mlx5_0/mlx5_1" : "0-15/16-31";
    throw ConfigError(std::string(kSource) + ": invalid value '" + list + "' for --" +
                      std::string(spec.name) + ": expected one entry per rank on a node, " +
                      "separated by / (e.g. " + example + ")");
  }
  return entries;
}

void apply_launcher_flag(const FlagOccurrence& flag, LaunchRequest& request) {
  const std::string_view name = flag.spec->name;
  const bool truth = flag.value == "1";
  if (name == "nodes") {
    request.nodes = static_cast<int>(parse_flag_number(*flag.spec, flag.value, kSource));
  } else if (name == "ranks-per-node") {
    request.ranks_per_node = static_cast<int>(parse_flag_number(*flag.spec, flag.value, kSource));
  } else if (name == "launcher") {
    if (flag.value == "mpirun") {
      request.launcher = Launcher::Mpirun;
    } else if (flag.value == "srun") {
      request.launcher = Launcher::Srun;
    } else if (flag.value == "none") {
      request.launcher = Launcher::None;
    } else {
      throw ConfigError(std::string(kSource) + ": invalid value '" + flag.value +
                        "' for --launcher: expected mpirun, srun or none");
    }
  } else if (name == "launcher-extra") {
    request.launcher_extra.push_back(flag.value);
  } else if (name.ends_with("-bind")) {
    request.bindings[std::string(name)] = parse_binding(*flag.spec, flag.value);
  } else if (name == "verbose") {
    request.verbose = truth;
  } else if (name == "dry-run") {
    request.dry_run = truth;
  } else if (name == "help") {
    request.help = truth;
  }
}

void set_program(const std::string& program, LaunchRequest& request) {
  request.program_kind = program.ends_with(".py") ? ProgramKind::Script : ProgramKind::Executable;
  request.program = program;
}

// The TESSERA_CONFIG word for a runtime flag given to the launcher.
std::string config_word(const FlagOccurrence& flag) {
  std::string word = "--" + std::string(flag.spec->name);
  if (flag.spec->kind == FlagKind::Bool) return flag.value == "1" ? word : word + "=0";
  return word + "=" + shell_quote(flag.value);
}

}  // namespace

std::span<const FlagSpec> launcher_flags() { return kLauncherFlags; }

LaunchRequest parse_launch_request(std::span<const std::string> args) {
  LaunchRequest request;
  size_t pos = 0;
  while (pos < args.size()) {
    const std::string& word = args[pos];
    if (word == "--") {
      ++pos;
      if (pos < args.size()) set_program(args[pos++], request);
      break;
    }
    if (word == "-c" || word == "-m") {
      if (pos + 1 >= args.size()) {
        throw ConfigError(std::string(kSource) + ": " + word + " needs " +
                          (word == "-c" ? "the code to run" : "the module to run"));
      }
      request.program_kind = word == "-c" ? ProgramKind::Code : ProgramKind::Module;
      request.program = args[pos + 1];
      pos += 2;
      break;
    }
    if (word == "-h") {
      request.help = true;
      ++pos;
      continue;
    }
    if (!word.starts_with("-")) {
      set_program(args[pos++], request);
      break;
    }
    if (!word.starts_with("--")) {
      throw ConfigError(std::string(kSource) + ": unknown flag '" + word +
                        "' (launcher and runtime flags start with --)");
    }
    if (auto flag = read_flag(args, pos, launcher_flags(), kSource)) {
      apply_launcher_flag(*flag, request);
    } else if (auto runtime_flag = read_flag(args, pos, config_flags(), kSource)) {
      request.runtime_flags.push_back(config_word(*runtime_flag));
    } else {
      throw unknown_flag_error(word, kSource, launcher_flags(), config_flags());
    }
  }
  request.program_args.assign(args.begin() + static_cast<std::ptrdiff_t>(pos), args.end());
  return request;
}

std::string launcher_help() {
  return "usage: tessera [flags] [prog.py | ./prog | -c CODE | -m MODULE] [args...]\n\n"
         "Runs prog.py with the Python beside tessera, a compiled ./prog directly, or an\n"
         "interactive Python with tessera imported when no program is given. Flags come\n"
         "before the program; everything from the program on is passed to it untouched.\n"
         "Runtime flags are added to TESSERA_CONFIG after what it already holds. With\n"
         "--launcher mpirun or srun and more than one rank in all, the launcher starts\n"
         "the program on every rank; one rank runs it directly.\n\n"
         "Launcher flags:\n" +
         format_flag_table(launcher_flags()) + "\n" + config_help();
}

}  // namespace tessera
