// The command the launcher runs: one rank runs the program itself; several ranks run it
// under mpirun or srun, with TESSERA_CONFIG and TESSERA_BIND passed to every rank. Also what
// the launch takes from the environment: the Python beside tessera, SLURM's counts, and
// whether an MPI launcher already started this process as one rank.
#include "driver/launch_command.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace tessera {
namespace {

constexpr std::string_view kSource = "tessera: ";

// Runs at the start of an interactive session, in the user's namespace.
constexpr std::string_view kInteractiveStartup =
    "import tessera; import tessera.numpy as np; "
    "print('tessera: imported tessera, and tessera.numpy as np')";

std::string join_config(const std::string& existing, const std::vector<std::string>& words) {
  std::string text = existing;
  for (const std::string& word : words) {
    if (!text.empty() && text.back() != ' ') text += ' ';
    text += word;
  }
  return text;
}

std::vector<std::string> program_argv(const LaunchRequest& request, const std::string& python) {
  std::vector<std::string> argv;
  switch (request.program_kind) {
    case ProgramKind::Interactive: return {python, "-i", "-c", std::string(kInteractiveStartup)};
    case ProgramKind::Script: argv = {python, request.program}; break;
    case ProgramKind::Code: argv = {python, "-c", request.program}; break;
    case ProgramKind::Module: argv = {python, "-m", request.program}; break;
    case ProgramKind::Executable: argv = {request.program}; break;
  }
  argv.insert(argv.end(), request.program_args.begin(), request.program_args.end());
  return argv;
}

// Every list needs one entry per rank on a node; `ranks_text` says where that count came from.
void check_bindings(const BindingLists& bindings, int ranks_per_node, const std::string& ranks_text) {
  for (const auto& [kind, entries] : bindings) {
    if (static_cast<int>(entries.size()) == ranks_per_node) continue;
    throw ConfigError(std::string(kSource) + "--" + kind + "-bind has " + std::to_string(entries.size()) +
                      " /-separated entries but " + ranks_text + ": give one entry per rank on a node");
  }
}

std::string per_node_text(int ranks_per_node) {
  return std::string("there ") +
         (ranks_per_node == 1 ? "is 1 rank" : "are " + std::to_string(ranks_per_node) + " ranks") +
         " per node (see --ranks-per-node)";
}

std::vector<std::string> mpirun_prefix(const LaunchCommand& command, const LaunchEnvironment& environment) {
  const int total = command.nodes * command.ranks_per_node;
  // Each rank runs its own worker threads: Open MPI's default of binding a rank to one
  // core would squeeze all of them onto it.
  std::vector<std::string> argv = {"mpirun", "-n", std::to_string(total), "--npernode",
                                   std::to_string(command.ranks_per_node)};
  argv.insert(argv.end(), {"--bind-to", "none"});
  if (command.ranks_per_node > environment.machine.cores) argv.push_back("--oversubscribe");
  argv.insert(argv.end(), {"-x", "TESSERA_CONFIG"});
  if (!command.bind_text.empty()) argv.insert(argv.end(), {"-x", kBindVariable});
  for (const std::string& name : environment.forwarded_vars) {
    argv.insert(argv.end(), {"-x", name});
  }
  return argv;
}

std::vector<std::string> srun_prefix(const LaunchCommand& command) {
  // srun passes the whole environment on; the runtime places its own threads, and a rank
  // that fails must end the whole run rather than leave the others waiting.
  std::vector<std::string> argv = {"srun", "-N", std::to_string(command.nodes), "--ntasks-per-node",
                                   std::to_string(command.ranks_per_node)};
  argv.insert(argv.end(), {"--cpu-bind=none", "--kill-on-bad-exit=1"});
  return argv;
}

// The python3 (or python) in the directory of `launcher_path`, or "" if there is none.
std::string python_beside(std::string_view launcher_path) {
  size_t slash = launcher_path.rfind('/');
  if (slash == std::string_view::npos) return "";
  std::string dir(launcher_path.substr(0, slash + 1));
  for (const char* name : {"python3", "python"}) {
    std::string candidate = dir + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

// The command for a launcher that already is one rank of a run: the program itself.
LaunchCommand rank_command(const LaunchRequest& request, const LaunchEnvironment& environment,
                           const BindingLists& bindings, LaunchCommand command) {
  const detail::RankPlacement& placement = environment.placement;
  if (request.program_kind == ProgramKind::Interactive && placement.ranks > 1) {
    throw ConfigError(std::string(kSource) + "an interactive session runs on one rank, but " + placement.source +
                      " started this one as rank " + std::to_string(placement.rank) + " of " +
                      std::to_string(placement.ranks) + ": give a program to run");
  }
  command.ranks_per_node = placement.local_ranks;
  command.nodes = (placement.ranks + placement.local_ranks - 1) / placement.local_ranks;
  check_bindings(
      bindings, placement.local_ranks,
      std::to_string(placement.local_ranks) + " ranks of this " + placement.source + " launch share this node");
  command.note = "# " + placement.source + " started this as rank " + std::to_string(placement.rank) + " of " +
                 std::to_string(placement.ranks) + ": running the program for this rank";
  if (request.launcher != Launcher::None || request.nodes || request.ranks_per_node) {
    command.note += " (--launcher, --nodes and --ranks-per-node do not apply)";
  }
  command.argv = program_argv(request, environment.python);
  return command;
}

}  // namespace

LaunchEnvironment read_launch_environment(std::span<const std::string> launcher_paths) {
  LaunchEnvironment environment;
  for (const std::string& path : launcher_paths) {
    if (std::string python = python_beside(path); !python.empty()) {
      environment.python = python;
      break;
    }
  }
  if (const char* config = std::getenv("TESSERA_CONFIG")) environment.existing_config = config;
  if (const char* bind = std::getenv(kBindVariable)) environment.existing_bind = bind;
  environment.test_env = test_mode_from_environment();
  environment.slurm_nodes = environment_count("SLURM_JOB_NUM_NODES");
  if (!environment.slurm_nodes) environment.slurm_nodes = environment_count("SLURM_NNODES");
  environment.slurm_ranks_per_node = environment_count("SLURM_NTASKS_PER_NODE");
  if (const char* tasks = std::getenv("SLURM_TASKS_PER_NODE"); tasks != nullptr && !environment.slurm_ranks_per_node) {
    // "2(x3)" is 2 on each of 3 nodes; "2(x3),1" gives nodes different counts.
    std::optional<std::vector<int>> counts = parse_task_counts(tasks);
    if (counts && std::all_of(counts->begin(), counts->end(), [&](int count) { return count == counts->front(); })) {
      environment.slurm_ranks_per_node = counts->front();
    } else {
      environment.slurm_uneven_tasks = tasks;
    }
  }
  environment.placement = detail::placement_from_environment();
  // mpirun gives remote ranks only the variables named with -x.
  for (const char* name : {"TESSERA_TEST", "PYTHONPATH", "LD_LIBRARY_PATH"}) {
    if (std::getenv(name) != nullptr) environment.forwarded_vars.emplace_back(name);
  }
  environment.machine = detect_machine();
  return environment;
}

LaunchCommand build_launch_command(const LaunchRequest& request, const LaunchEnvironment& environment) {
  LaunchCommand command;
  // Flags given to the launcher come last, so that they win over the environment's.
  command.config_text = join_config(environment.existing_config, request.runtime_flags);
  command.config = parse_config(command.config_text, environment.machine, environment.test_env);

  BindingLists bindings = decode_bindings(environment.existing_bind);
  for (const auto& [kind, entries] : request.bindings) bindings[kind] = entries;
  command.bind_text = encode_bindings(bindings);

  // Started as one rank by an MPI launcher (or by srun, when not asked to launch itself from
  // an allocation's shell): run the program for this rank, never a launch inside a launch.
  const detail::RankPlacement& placement = environment.placement;
  if (placement.launched && (placement.source != "SLURM" || request.launcher == Launcher::None)) {
    return rank_command(request, environment, bindings, std::move(command));
  }

  const bool launching = request.launcher != Launcher::None;
  command.nodes = request.nodes.value_or(launching ? environment.slurm_nodes.value_or(1) : 1);
  if (launching && !request.ranks_per_node && !environment.slurm_ranks_per_node &&
      !environment.slurm_uneven_tasks.empty()) {
    throw ConfigError(std::string(kSource) + "SLURM_TASKS_PER_NODE=" + environment.slurm_uneven_tasks +
                      " does not give every node the same number of tasks: choose "
                      "--ranks-per-node (and --nodes)");
  }
  command.ranks_per_node =
      request.ranks_per_node.value_or(launching ? environment.slurm_ranks_per_node.value_or(1) : 1);
  const int64_t total = int64_t{command.nodes} * command.ranks_per_node;
  if (total > INT32_MAX) {
    throw ConfigError(std::string(kSource) + "--nodes times --ranks-per-node is too large");
  }
  if (!launching && total > 1) {
    throw ConfigError(std::string(kSource) + "--nodes=" + std::to_string(command.nodes) +
                      " --ranks-per-node=" + std::to_string(command.ranks_per_node) + " start " +
                      std::to_string(total) + " ranks, which needs a launcher: add --launcher mpirun or srun");
  }
  if (request.program_kind == ProgramKind::Interactive && total > 1) {
    throw ConfigError(std::string(kSource) + "an interactive session runs on one rank; " +
                      "give a program to run it on " + std::to_string(total) + " ranks");
  }
  check_bindings(bindings, command.ranks_per_node, per_node_text(command.ranks_per_node));

  std::vector<std::string> program = program_argv(request, environment.python);
  if (total == 1) {
    command.argv = std::move(program);
    return command;
  }
  command.argv = request.launcher == Launcher::Mpirun ? mpirun_prefix(command, environment) : srun_prefix(command);
  command.argv.insert(command.argv.end(), request.launcher_extra.begin(), request.launcher_extra.end());
  command.argv.insert(command.argv.end(), program.begin(), program.end());
  return command;
}

std::string describe_launch(const LaunchCommand& command) {
  std::string text = "export TESSERA_CONFIG=" + shell_quote(command.config_text) + "\n";
  if (!command.bind_text.empty()) {
    text += std::string("export ") + kBindVariable + "=" + shell_quote(command.bind_text) + "\n";
  }
  if (!command.note.empty()) text += command.note + "\n";
  for (size_t i = 0; i < command.argv.size(); ++i) {
    if (i > 0) text += ' ';
    text += shell_quote(command.argv[i]);
  }
  return text + "\n";
}

}  // namespace tessera
