// The command the launcher runs: one rank runs the program itself; several ranks run it
// under mpirun or srun, with TESSERA_CONFIG passed to every rank. Also what the launch
// takes from the environment: the Python beside tessera and SLURM's counts.
#include "config/launch_command.h"

#include <unistd.h>

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

void check_bindings(const LaunchRequest& request, int ranks_per_node) {
  for (const auto& [flag, entries] : request.bindings) {
    if (static_cast<int>(entries.size()) == ranks_per_node) continue;
    throw ConfigError(
        std::string(kSource) + "--" + flag + " has " + std::to_string(entries.size()) +
        " /-separated entries but there " +
        (ranks_per_node == 1 ? "is 1 rank" : "are " + std::to_string(ranks_per_node) + " ranks") +
        " per node: give one entry per rank (see --ranks-per-node)");
  }
}

std::vector<std::string> mpirun_prefix(const LaunchCommand& command,
                                       const LaunchEnvironment& environment) {
  const int total = command.nodes * command.ranks_per_node;
  // Each rank runs its own worker threads: Open MPI's default of binding a rank to one
  // core would squeeze all of them onto it.
  std::vector<std::string> argv = {"mpirun", "-n", std::to_string(total), "--npernode",
                                   std::to_string(command.ranks_per_node)};
  argv.insert(argv.end(), {"--bind-to", "none"});
  if (command.ranks_per_node > environment.machine.cores) argv.push_back("--oversubscribe");
  argv.insert(argv.end(), {"-x", "TESSERA_CONFIG"});
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
  environment.test_env = test_mode_from_environment();
  environment.slurm_nodes = environment_count("SLURM_JOB_NUM_NODES");
  if (!environment.slurm_nodes) environment.slurm_nodes = environment_count("SLURM_NNODES");
  environment.slurm_ranks_per_node = environment_count("SLURM_NTASKS_PER_NODE");
  if (!environment.slurm_ranks_per_node) {
    environment.slurm_ranks_per_node = environment_count("SLURM_TASKS_PER_NODE");
  }
  // mpirun gives remote ranks only the variables named with -x.
  for (const char* name : {"TESSERA_TEST", "PYTHONPATH", "LD_LIBRARY_PATH"}) {
    if (std::getenv(name) != nullptr) environment.forwarded_vars.emplace_back(name);
  }
  environment.machine = detect_machine();
  return environment;
}

LaunchCommand build_launch_command(const LaunchRequest& request,
                                   const LaunchEnvironment& environment) {
  LaunchCommand command;
  // Flags given to the launcher come last, so that they win over the environment's.
  command.config_text = join_config(environment.existing_config, request.runtime_flags);
  command.config = parse_config(command.config_text, environment.machine, environment.test_env);

  const bool launching = request.launcher != Launcher::None;
  command.nodes = request.nodes.value_or(launching ? environment.slurm_nodes.value_or(1) : 1);
  command.ranks_per_node =
      request.ranks_per_node.value_or(launching ? environment.slurm_ranks_per_node.value_or(1) : 1);
  const int64_t total = int64_t{command.nodes} * command.ranks_per_node;
  if (total > INT32_MAX) {
    throw ConfigError(std::string(kSource) + "--nodes times --ranks-per-node is too large");
  }
  if (!launching && total > 1) {
    throw ConfigError(std::string(kSource) + "--nodes=" + std::to_string(command.nodes) +
                      " --ranks-per-node=" + std::to_string(command.ranks_per_node) + " start " +
                      std::to_string(total) +
                      " ranks, which needs a launcher: add --launcher mpirun or srun");
  }
  if (request.program_kind == ProgramKind::Interactive && total > 1) {
    throw ConfigError(std::string(kSource) + "an interactive session runs on one rank; " +
                      "give a program to run it on " + std::to_string(total) + " ranks");
  }
  check_bindings(request, command.ranks_per_node);

  std::vector<std::string> program = program_argv(request, environment.python);
  if (total == 1) {
    command.argv = std::move(program);
    return command;
  }
  command.argv = request.launcher == Launcher::Mpirun ? mpirun_prefix(command, environment)
                                                      : srun_prefix(command);
  command.argv.insert(command.argv.end(), request.launcher_extra.begin(),
                      request.launcher_extra.end());
  command.argv.insert(command.argv.end(), program.begin(), program.end());
  return command;
}

std::string describe_launch(const LaunchCommand& command) {
  std::string text = "export TESSERA_CONFIG=" + shell_quote(command.config_text) + "\n";
  for (size_t i = 0; i < command.argv.size(); ++i) {
    text += (i == 0 ? "" : " ") + shell_quote(command.argv[i]);
  }
  return text + "\n";
}

}  // namespace tessera
