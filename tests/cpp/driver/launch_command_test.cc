// The `tessera` launcher's logic: splitting its command line, TESSERA_CONFIG assembly,
// and the commands it builds for one rank, mpirun and srun, and what --dry-run prints.
#include "driver/launch_command.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../comm/scoped_environment.h"

namespace tessera {
namespace {

using Words = std::vector<std::string>;

LaunchRequest request_of(const Words& args) { return parse_launch_request(args); }

std::string request_error(const Words& args) {
  try {
    request_of(args);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "";
}

LaunchEnvironment test_environment() {
  LaunchEnvironment environment;
  environment.python = "/opt/venv/bin/python3";
  environment.machine = MachineInfo{4, int64_t{8} << 30, 1};
  return environment;
}

LaunchCommand command_of(const Words& args, const LaunchEnvironment& environment) {
  return build_launch_command(request_of(args), environment);
}

std::string command_error(const Words& args, const LaunchEnvironment& environment) {
  try {
    command_of(args, environment);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "";
}

TEST(LaunchRequestTest, FlagsBeforeTheProgramArgumentsAfter) {
  LaunchRequest request = request_of({"--cpus", "2", "prog.py", "--cpus", "9", "-v"});
  EXPECT_EQ(request.program_kind, ProgramKind::Script);
  EXPECT_EQ(request.program, "prog.py");
  EXPECT_EQ(request.program_args, (Words{"--cpus", "9", "-v"}));
  EXPECT_EQ(request.runtime_flags, Words{"--cpus=2"});
}

TEST(LaunchRequestTest, RuntimeFlagsAreNormalisedForTesseraConfig) {
  EXPECT_EQ(request_of({"--profile", "prog.py"}).runtime_flags, Words{"--profile"});
  EXPECT_EQ(request_of({"--profile", "no", "p.py"}).runtime_flags, Words{"--profile=0"});
  EXPECT_EQ(request_of({"--logdir=/tmp/my runs", "--sysmem", "100"}).runtime_flags,
            (Words{"--logdir='/tmp/my runs'", "--sysmem=100"}));
}

TEST(LaunchRequestTest, LauncherFlags) {
  LaunchRequest request =
      request_of({"--nodes", "2", "--ranks-per-node=3", "--launcher", "mpirun", "--launcher-extra=--hostfile",
                  "--launcher-extra", "hosts", "--verbose", "--dry-run=y", "--cpu-bind", "0-3,8/4-7/9-11",
                  "--nic-bind=mlx5_0/mlx5_1/mlx5_2", "./prog"});
  EXPECT_EQ(request.nodes, 2);
  EXPECT_EQ(request.ranks_per_node, 3);
  EXPECT_EQ(request.launcher, Launcher::Mpirun);
  EXPECT_EQ(request.launcher_extra, (Words{"--hostfile", "hosts"}));
  EXPECT_TRUE(request.verbose);
  EXPECT_TRUE(request.dry_run);
  EXPECT_FALSE(request.help);
  EXPECT_EQ(request.bindings["cpu"], (Words{"0-3,8", "4-7", "9-11"}));
  EXPECT_EQ(request.bindings["nic"].size(), 3u);
  EXPECT_EQ(request.program_kind, ProgramKind::Executable);
  EXPECT_TRUE(request.runtime_flags.empty());
  EXPECT_TRUE(request_of({"--help"}).help);
  EXPECT_TRUE(request_of({"-h"}).help);
}

TEST(LaunchRequestTest, ProgramKinds) {
  EXPECT_EQ(request_of({}).program_kind, ProgramKind::Interactive);
  EXPECT_EQ(request_of({"--cpus=1"}).program_kind, ProgramKind::Interactive);
  LaunchRequest code = request_of({"-c", "print(1)", "a"});
  EXPECT_EQ(code.program_kind, ProgramKind::Code);
  EXPECT_EQ(code.program, "print(1)");
  EXPECT_EQ(code.program_args, Words{"a"});
  EXPECT_EQ(request_of({"-m", "pytest"}).program_kind, ProgramKind::Module);
  LaunchRequest dashed = request_of({"--", "--odd-name", "x"});
  EXPECT_EQ(dashed.program_kind, ProgramKind::Executable);
  EXPECT_EQ(dashed.program, "--odd-name");
  EXPECT_EQ(dashed.program_args, Words{"x"});
}

TEST(LaunchRequestTest, ErrorsNameTheFlag) {
  EXPECT_EQ(request_error({"--frobnicate", "prog.py"}), "tessera: unknown flag '--frobnicate'");
  EXPECT_EQ(request_error({"--verbos"}), "tessera: unknown flag '--verbos' (did you mean --verbose?)");
  EXPECT_EQ(request_error({"-x", "prog.py"}), "tessera: unknown flag '-x' (launcher and runtime flags start with --)");
  EXPECT_EQ(request_error({"--cpus=x", "prog.py"}),
            "tessera: invalid value 'x' for --cpus: expected a non-negative integer");
  EXPECT_EQ(request_error({"--nodes", "0"}), "tessera: invalid value '0' for --nodes: expected a positive integer");
  EXPECT_EQ(request_error({"--launcher=slurm"}),
            "tessera: invalid value 'slurm' for --launcher: expected mpirun, srun or none");
  EXPECT_EQ(request_error({"-c"}), "tessera: -c needs the code to run");
  EXPECT_NE(request_error({"--cpu-bind", "0-3/x"}).find("for --cpu-bind"), std::string::npos);
  EXPECT_NE(request_error({"--mem-bind", "3-1"}), "");
  EXPECT_NE(request_error({"--gpu-bind", "0//1"}), "");
}

TEST(LaunchCommandTest, OneRankRunsTheProgramDirectly) {
  LaunchEnvironment environment = test_environment();
  LaunchCommand script = command_of({"--cpus", "2", "prog.py", "a b"}, environment);
  EXPECT_EQ(script.argv, (Words{"/opt/venv/bin/python3", "prog.py", "a b"}));
  EXPECT_EQ(script.config_text, "--cpus=2");
  EXPECT_EQ(script.config.cpus, 2);
  EXPECT_EQ(command_of({"./prog", "-n", "3"}, environment).argv, (Words{"./prog", "-n", "3"}));
  EXPECT_EQ(command_of({"-m", "mod", "x"}, environment).argv, (Words{"/opt/venv/bin/python3", "-m", "mod", "x"}));
  // With one rank in all there is nothing for mpirun to do.
  EXPECT_EQ(command_of({"--launcher", "mpirun", "p.py"}, environment).argv.front(), "/opt/venv/bin/python3");
}

TEST(LaunchCommandTest, InteractiveSessionImportsTessera) {
  Words argv = command_of({}, test_environment()).argv;
  ASSERT_EQ(argv.size(), 4u);
  EXPECT_EQ(argv[1], "-i");
  EXPECT_EQ(argv[2], "-c");
  EXPECT_NE(argv[3].find("import tessera.numpy as np"), std::string::npos);
  EXPECT_NE(argv[3].find("print("), std::string::npos);
}

TEST(LaunchCommandTest, LauncherFlagsComeAfterTheEnvironmentsConfig) {
  LaunchEnvironment environment = test_environment();
  environment.existing_config = "--cpus=1 --profile";
  LaunchCommand command = command_of({"--cpus", "3", "p.py"}, environment);
  EXPECT_EQ(command.config_text, "--cpus=1 --profile --cpus=3");
  EXPECT_EQ(command.config.cpus, 3);
  EXPECT_TRUE(command.config.profile);

  environment.existing_config = "--cpus=oops";
  EXPECT_EQ(command_error({"p.py"}, environment),
            "TESSERA_CONFIG: invalid value 'oops' for --cpus: expected a non-negative integer");
  EXPECT_NE(command_error({"--gpus", "1", "p.py"}, test_environment()).find("no GPU support"), std::string::npos);
}

TEST(LaunchCommandTest, MpirunStartsEveryRank) {
  LaunchEnvironment environment = test_environment();
  environment.forwarded_vars = {"PYTHONPATH"};
  LaunchCommand command = command_of({"--nodes", "2", "--ranks-per-node", "2", "--launcher", "mpirun",
                                      "--launcher-extra=--hostfile", "--launcher-extra=hosts", "p.py", "a"},
                                     environment);
  EXPECT_EQ(command.argv, (Words{"mpirun", "-n", "4", "--npernode", "2", "--bind-to", "none", "-x", "TESSERA_CONFIG",
                                 "-x", "PYTHONPATH", "--hostfile", "hosts", "/opt/venv/bin/python3", "p.py", "a"}));
}

TEST(LaunchCommandTest, MpirunOversubscribesOnlyWhenRanksOutnumberCores) {
  LaunchEnvironment environment = test_environment();  // 4 cores
  auto argv_for = [&](const char* ranks) {
    return command_of({"--ranks-per-node", ranks, "--launcher=mpirun", "./prog"}, environment).argv;
  };
  auto has_oversubscribe = [](const Words& argv) {
    return std::find(argv.begin(), argv.end(), "--oversubscribe") != argv.end();
  };
  EXPECT_FALSE(has_oversubscribe(argv_for("4")));
  EXPECT_TRUE(has_oversubscribe(argv_for("5")));
}

TEST(LaunchCommandTest, SrunStartsEveryRank) {
  LaunchCommand command = command_of({"--nodes=3", "--ranks-per-node=2", "--launcher=srun", "--launcher-extra=-p",
                                      "--launcher-extra=debug", "./prog", "x"},
                                     test_environment());
  EXPECT_EQ(command.argv, (Words{"srun", "-N", "3", "--ntasks-per-node", "2", "--cpu-bind=none", "--kill-on-bad-exit=1",
                                 "-p", "debug", "./prog", "x"}));
}

TEST(LaunchCommandTest, RankCountsComeFromSlurmWhenLaunching) {
  LaunchEnvironment environment = test_environment();
  environment.slurm_nodes = 3;
  environment.slurm_ranks_per_node = 2;
  LaunchCommand inferred = command_of({"--launcher", "srun", "p.py"}, environment);
  EXPECT_EQ(inferred.nodes, 3);
  EXPECT_EQ(inferred.ranks_per_node, 2);
  LaunchCommand overridden = command_of({"--launcher", "srun", "--nodes", "1", "p.py"}, environment);
  EXPECT_EQ(overridden.nodes, 1);
  EXPECT_EQ(overridden.ranks_per_node, 2);
  // Started by an external srun, each copy of tessera runs its one rank.
  LaunchCommand external = command_of({"p.py"}, environment);
  EXPECT_EQ(external.nodes * external.ranks_per_node, 1);
  EXPECT_EQ(external.argv.front(), "/opt/venv/bin/python3");
}

TEST(LaunchCommandTest, SeveralRanksNeedALauncherAndAProgram) {
  EXPECT_EQ(command_error({"--nodes", "2", "p.py"}, test_environment()),
            "tessera: --nodes=2 --ranks-per-node=1 start 2 ranks, which needs a launcher: "
            "add --launcher mpirun or srun");
  EXPECT_NE(command_error({"--ranks-per-node", "2", "--launcher", "mpirun"}, test_environment())
                .find("interactive session runs on one rank"),
            std::string::npos);
}

TEST(LaunchCommandTest, BindListsNeedOneEntryPerRank) {
  LaunchEnvironment environment = test_environment();
  EXPECT_EQ(command_error({"--cpu-bind", "0-1/2-3", "p.py"}, environment),
            "tessera: --cpu-bind has 2 /-separated entries but there is 1 rank per node (see "
            "--ranks-per-node): give one entry per rank on a node");
  EXPECT_EQ(
      command_error({"--ranks-per-node=2", "--launcher=mpirun", "--cpu-bind", "0-1/2-3", "--mem-bind", "0/0", "p.py"},
                    environment),
      "");
}

TEST(LaunchCommandTest, DryRunPrintsAReplayableScript) {
  LaunchCommand command = command_of(
      {"--ranks-per-node=2", "--launcher=mpirun", "--cpus=2", "--profile", "--logdir", "/tmp/my runs", "p.py", "a b"},
      test_environment());
  EXPECT_EQ(describe_launch(command),
            "export TESSERA_CONFIG='--cpus=2 --profile --logdir='\\''/tmp/my runs'\\'''\n"
            "mpirun -n 2 --npernode 2 --bind-to none -x TESSERA_CONFIG "
            "/opt/venv/bin/python3 p.py 'a b'\n");
}

TEST(LaunchCommandTest, BindingsReachEveryRankInTesseraBind) {
  LaunchEnvironment environment = test_environment();
  LaunchCommand command = command_of({"--ranks-per-node=2", "--launcher=mpirun", "--cpu-bind", "0-1/2-3",
                                      "--mem-bind=0/1", "--nic-bind=eth0/eth1", "--gpu-bind=0/1", "p.py"},
                                     environment);
  EXPECT_EQ(command.bind_text, "cpu=0-1/2-3;mem=0/1;gpu=0/1;nic=eth0/eth1");
  EXPECT_EQ(command.argv, (Words{"mpirun", "-n", "2", "--npernode", "2", "--bind-to", "none", "-x", "TESSERA_CONFIG",
                                 "-x", "TESSERA_BIND", "/opt/venv/bin/python3", "p.py"}));
  EXPECT_EQ(describe_launch(command),
            "export TESSERA_CONFIG=''\n"
            "export TESSERA_BIND='cpu=0-1/2-3;mem=0/1;gpu=0/1;nic=eth0/eth1'\n"
            "mpirun -n 2 --npernode 2 --bind-to none -x TESSERA_CONFIG -x TESSERA_BIND "
            "/opt/venv/bin/python3 p.py\n");
  // srun hands the whole environment on; one rank runs the program with it directly.
  EXPECT_EQ(command_of({"--nodes=2", "--launcher=srun", "--cpu-bind=1", "p.py"}, environment).bind_text, "cpu=1");
  LaunchCommand alone = command_of({"--cpu-bind=1", "p.py"}, environment);
  EXPECT_EQ(alone.bind_text, "cpu=1");
  EXPECT_EQ(describe_launch(alone),
            "export TESSERA_CONFIG=''\nexport TESSERA_BIND=cpu=1\n/opt/venv/bin/python3 p.py\n");
  EXPECT_EQ(command_of({"p.py"}, environment).bind_text, "");
}

TEST(LaunchCommandTest, BindFlagsComeAfterTheEnvironmentsTesseraBind) {
  LaunchEnvironment environment = test_environment();
  environment.existing_bind = "cpu=0/1;gpu=2/3";
  LaunchCommand command =
      command_of({"--ranks-per-node=2", "--launcher=mpirun", "--cpu-bind=1/0", "p.py"}, environment);
  EXPECT_EQ(command.bind_text, "cpu=1/0;gpu=2/3");
  // Passed on with -x even when no flag changes it.
  Words argv = command_of({"--ranks-per-node=2", "--launcher=mpirun", "p.py"}, environment).argv;
  EXPECT_NE(std::find(argv.begin(), argv.end(), "TESSERA_BIND"), argv.end());
  // Every list must fit the ranks per node, whichever set it.
  EXPECT_NE(command_error({"p.py"}, environment).find("--cpu-bind has 2 /-separated entries"), std::string::npos);
  environment.existing_bind = "cpu=0;bogus=1";
  EXPECT_NE(command_error({"p.py"}, environment).find("TESSERA_BIND: cannot read 'bogus=1'"), std::string::npos);
}

detail::RankPlacement started_rank(const std::string& source, int rank, int ranks, int local_ranks) {
  detail::RankPlacement placement;
  placement.launched = true;
  placement.source = source;
  placement.rank = rank;
  placement.ranks = ranks;
  placement.local_rank = rank % local_ranks;
  placement.local_ranks = local_ranks;
  return placement;
}

TEST(LaunchCommandTest, ARankStartedByMpirunRunsTheProgramNeverANestedLaunch) {
  LaunchEnvironment environment = test_environment();
  environment.placement = started_rank("OpenMPI", 1, 4, 2);
  LaunchCommand command =
      command_of({"--launcher=mpirun", "--ranks-per-node=4", "--cpu-bind=0/1", "p.py", "x"}, environment);
  EXPECT_EQ(command.argv, (Words{"/opt/venv/bin/python3", "p.py", "x"}));
  EXPECT_EQ(command.bind_text, "cpu=0/1");
  EXPECT_EQ(command.ranks_per_node, 2);
  EXPECT_EQ(command.nodes, 2);
  EXPECT_EQ(describe_launch(command),
            "export TESSERA_CONFIG=''\nexport TESSERA_BIND=cpu=0/1\n"
            "# OpenMPI started this as rank 1 of 4: running the program for this rank "
            "(--launcher, --nodes and --ranks-per-node do not apply)\n"
            "/opt/venv/bin/python3 p.py x\n");
  // The bind lists must match the ranks the external launch put on this node.
  EXPECT_EQ(command_error({"--cpu-bind=0", "p.py"}, environment),
            "tessera: --cpu-bind has 1 /-separated entries but 2 ranks of this OpenMPI launch "
            "share this node: give one entry per rank on a node");
  EXPECT_NE(command_error({}, environment).find("an interactive session runs on one rank"), std::string::npos);
}

TEST(LaunchCommandTest, AnAllocationsShellStillLaunchesWithSrun) {
  // `srun --pty bash` gives the shell a job step's variables; asked to launch, tessera does.
  LaunchEnvironment environment = test_environment();
  environment.placement = started_rank("SLURM", 0, 2, 1);
  environment.slurm_nodes = 2;
  environment.slurm_ranks_per_node = 1;
  EXPECT_EQ(command_of({"--launcher=srun", "p.py"}, environment).argv.front(), "srun");
  // Without --launcher it is one task of an external `srun -n 2 tessera p.py`.
  LaunchCommand task = command_of({"p.py"}, environment);
  EXPECT_EQ(task.argv.front(), "/opt/venv/bin/python3");
  EXPECT_NE(task.note.find("SLURM started this as rank 0 of 2"), std::string::npos);
}

TEST(LaunchCommandTest, UnevenSlurmTasksNeedExplicitRanksPerNode) {
  LaunchEnvironment environment = test_environment();
  environment.slurm_nodes = 4;
  environment.slurm_uneven_tasks = "2(x3),1";
  EXPECT_EQ(command_error({"--launcher=srun", "p.py"}, environment),
            "tessera: SLURM_TASKS_PER_NODE=2(x3),1 does not give every node the same number of "
            "tasks: choose --ranks-per-node (and --nodes)");
  EXPECT_EQ(command_of({"--launcher=srun", "--ranks-per-node=1", "p.py"}, environment).argv,
            (Words{"srun", "-N", "4", "--ntasks-per-node", "1", "--cpu-bind=none", "--kill-on-bad-exit=1",
                   "/opt/venv/bin/python3", "p.py"}));
  EXPECT_EQ(command_error({"p.py"}, environment), "");  // not launching: not needed
}

TEST(LaunchEnvironmentTest, ReadsSlurmCountsAndForwardedVariables) {
  ::setenv("SLURM_JOB_NUM_NODES", "3", 1);
  ::setenv("SLURM_TASKS_PER_NODE", "2(x3)", 1);
  ::setenv("PYTHONPATH", "/somewhere", 1);
  ::setenv("TESSERA_CONFIG", "--cpus=2", 1);
  LaunchEnvironment environment = read_launch_environment({});
  for (const char* name : {"SLURM_JOB_NUM_NODES", "SLURM_TASKS_PER_NODE", "PYTHONPATH", "TESSERA_CONFIG"}) {
    ::unsetenv(name);
  }
  EXPECT_EQ(environment.slurm_nodes, 3);
  EXPECT_EQ(environment.slurm_ranks_per_node, 2);
  EXPECT_EQ(environment.existing_config, "--cpus=2");
  EXPECT_NE(std::find(environment.forwarded_vars.begin(), environment.forwarded_vars.end(), "PYTHONPATH"),
            environment.forwarded_vars.end());
  EXPECT_GE(environment.machine.cores, 1);
}

TEST(LaunchEnvironmentTest, ReadsUnevenSlurmTasksTesseraBindAndThePlacement) {
  testing::ScopedEnvironment environment;
  environment.set("SLURM_TASKS_PER_NODE", "2(x3),1")
      .set("TESSERA_BIND", "cpu=0/1")
      .set("OMPI_COMM_WORLD_SIZE", "2")
      .set("OMPI_COMM_WORLD_RANK", "1");
  LaunchEnvironment uneven = read_launch_environment({});
  environment.set("SLURM_TASKS_PER_NODE", "3(x2)");
  LaunchEnvironment even = read_launch_environment({});
  EXPECT_FALSE(uneven.slurm_ranks_per_node.has_value());
  EXPECT_EQ(uneven.slurm_uneven_tasks, "2(x3),1");
  EXPECT_EQ(uneven.existing_bind, "cpu=0/1");
  EXPECT_TRUE(uneven.placement.launched);
  EXPECT_EQ(uneven.placement.rank, 1);
  EXPECT_EQ(even.slurm_ranks_per_node, 3);
  EXPECT_EQ(even.slurm_uneven_tasks, "");
}

TEST(LaunchEnvironmentTest, FindsThePythonBesideTheLauncher) {
  char dir_template[] = "/tmp/tessera_bin_XXXXXX";
  ASSERT_NE(::mkdtemp(dir_template), nullptr);
  const std::string dir = dir_template;
  const std::string python = dir + "/python3";
  EXPECT_EQ(read_launch_environment(Words{dir + "/tessera"}).python, "python3");
  std::fclose(std::fopen(python.c_str(), "w"));
  ::chmod(python.c_str(), 0755);
  EXPECT_EQ(read_launch_environment(Words{"/nonexistent/tessera", dir + "/tessera"}).python, python);
  std::remove(python.c_str());
  ::rmdir(dir.c_str());
}

TEST(LaunchCommandTest, HelpListsEveryFlag) {
  const std::string help = launcher_help();
  EXPECT_EQ(help.rfind("usage: tessera", 0), 0u);
  for (auto table : {launcher_flags(), config_flags()}) {
    for (const FlagSpec& spec : table) {
      EXPECT_NE(help.find("--" + std::string(spec.name) + " "), std::string::npos) << spec.name;
    }
  }
}

}  // namespace
}  // namespace tessera
