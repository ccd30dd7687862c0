// parse_launch_request: the launcher's flags come before the program; runtime flags among
// them are checked and kept for TESSERA_CONFIG; the program and its arguments are not read.
#include <array>
#include <string>

#include "driver/launch_command.h"

namespace tessera {
namespace {

constexpr std::string_view kSource = "tessera";

constexpr std::array kLauncherFlags = {
    FlagSpec{"nodes", FlagKind::Count, "N", 1, "1, or SLURM_JOB_NUM_NODES with a launcher", "nodes to run on"},
    FlagSpec{"ranks-per-node", FlagKind::Count, "R", 1, "1, or SLURM_NTASKS_PER_NODE with a launcher",
             "ranks (processes) on each node"},
    FlagSpec{"launcher", FlagKind::Text, "NAME", 0, "none", "what starts several ranks: mpirun, srun or none"},
    FlagSpec{"launcher-extra", FlagKind::Text, "ARG", 0, "none", "one more argument for mpirun or srun (repeatable)"},
    FlagSpec{"cpu-bind", FlagKind::Text, "LIST", 0, "none",
             "CPUs (OS numbering) of each rank on a node, /-separated (0-15/16-31)"},
    FlagSpec{"mem-bind", FlagKind::Text, "LIST", 0, "none", "NUMA nodes of each rank on a node, /-separated (0/1)"},
    FlagSpec{"gpu-bind", FlagKind::Text, "LIST", 0, "none", "GPUs of each rank on a node, /-separated (0,1/2,3)"},
    FlagSpec{"nic-bind", FlagKind::Text, "LIST", 0, "none",
             "network interfaces of each rank on a node, /-separated (eth0/eth1)"},
    FlagSpec{"verbose", FlagKind::Bool, "", 0, "0",
             "print the command, TESSERA_CONFIG and TESSERA_BIND to stderr before running"},
    FlagSpec{"dry-run", FlagKind::Bool, "", 0, "0",
             "print the command, TESSERA_CONFIG and TESSERA_BIND, and exit without running"},
    FlagSpec{"help", FlagKind::Bool, "", 0, "0", "print this help and exit"},
};

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
    const std::string_view kind = name.substr(0, name.size() - std::string_view("-bind").size());
    request.bindings[std::string(kind)] = parse_binding_list(kind, flag.value, kSource);
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
         "the program on every rank; one rank runs it directly. Started as one rank by\n"
         "mpirun or srun itself (mpirun -n 2 tessera prog.py), it runs the program for\n"
         "that rank. The --*-bind lists reach every rank in TESSERA_BIND (e.g.\n"
         "cpu=0-7/8-15;mem=0/1), and each rank applies the entry at its place on its node\n"
         "when the runtime starts.\n\n"
         "Launcher flags:\n" +
         format_flag_table(launcher_flags()) + "\n" + config_help();
}

}  // namespace tessera
