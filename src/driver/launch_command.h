// How the `tessera` launcher turns its command line into the command it runs: which
// words are its own flags, which go to the runtime through TESSERA_CONFIG, and how mpirun
// or srun is asked to start several ranks. Pure functions, so tests can check them.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "comm/rank_setup.h"
#include "config/binding_lists.h"
#include "config/config.h"

namespace tessera {

enum class Launcher { None, Mpirun, Srun };

/// What the launcher was asked to run.
enum class ProgramKind {
  Interactive,  // nothing: an interactive Python with tessera imported
  Script,       // prog.py, run by the Python interpreter
  Code,         // -c CODE, run by the Python interpreter
  Module,       // -m MODULE, run by the Python interpreter
  Executable,   // ./prog, exec'd directly
};

/// The launcher's command line, split into its own flags, runtime flags and the program.
struct LaunchRequest {
  std::optional<int> nodes;
  std::optional<int> ranks_per_node;
  Launcher launcher = Launcher::None;
  std::vector<std::string> launcher_extra;
  BindingLists bindings;  // "cpu", "mem", "gpu", "nic" → one entry per rank on a node
  bool verbose = false;
  bool dry_run = false;
  bool help = false;
  std::vector<std::string> runtime_flags;  // words for TESSERA_CONFIG, "--name=value"
  ProgramKind program_kind = ProgramKind::Interactive;
  std::string program;                    // the script, code, module or executable
  std::vector<std::string> program_args;  // handed to the program untouched
};

/// What a launch depends on besides the command line.
struct LaunchEnvironment {
  std::string python = "python3";           // the interpreter for scripts
  std::string existing_config;              // TESSERA_CONFIG before the launcher ran
  std::string existing_bind;                // TESSERA_BIND before the launcher ran
  bool test_env = false;                    // TESSERA_TEST=1
  std::optional<int> slurm_nodes;           // from SLURM_JOB_NUM_NODES
  std::optional<int> slurm_ranks_per_node;  // from SLURM_NTASKS_PER_NODE or _TASKS_PER_NODE
  std::string slurm_uneven_tasks;           // SLURM_TASKS_PER_NODE when nodes differ ("2(x3),1")
  // Set (launched) when an MPI or SLURM launcher started this launcher as one rank of a run
  // (`mpirun -n 2 tessera prog.py`): it then runs the program for that rank.
  detail::RankPlacement placement;
  std::vector<std::string> forwarded_vars;  // set variables mpirun passes to every rank
  MachineInfo machine;
};

/// The command the launcher runs, and the TESSERA_CONFIG it runs it with.
struct LaunchCommand {
  std::vector<std::string> argv;
  std::string config_text;
  std::string bind_text;  // TESSERA_BIND for every rank ("" for none)
  std::string note;       // why the command is what it is, when that is not obvious
  Config config;          // config_text as this machine reads it
  int nodes = 1;
  int ranks_per_node = 1;
};

/// The launcher's own flags, in the order --help lists them.
std::span<const FlagSpec> launcher_flags();

/// Splits the launcher's arguments (argv without argv[0]); throws ConfigError naming an
/// unknown or malformed flag. Example: {"--cpus", "2", "prog.py", "-v"} → program
/// "prog.py", program_args {"-v"}, runtime_flags {"--cpus=2"}.
LaunchRequest parse_launch_request(std::span<const std::string> args);

/// The launcher's --help text: usage, its own flags, then config_help().
std::string launcher_help();

/// Reads the environment: the Python beside the first of `launcher_paths` that has one
/// (else python3 on PATH), TESSERA_CONFIG, TESSERA_BIND, TESSERA_TEST, SLURM's counts,
/// whether this process is already one rank of a run, the machine.
LaunchEnvironment read_launch_environment(std::span<const std::string> launcher_paths);

/// Checks the request (runtime flags, rank counts, bind lists) and builds the command:
/// the program itself for one rank (or when this process already is a rank of a run an MPI
/// launcher started), else mpirun or srun starting it on every rank. The bind lists go to
/// every rank in TESSERA_BIND, after those TESSERA_BIND already held.
LaunchCommand build_launch_command(const LaunchRequest& request, const LaunchEnvironment& environment);

/// What --verbose and --dry-run print: a shell script that repeats the launch.
std::string describe_launch(const LaunchCommand& command);

}  // namespace tessera
