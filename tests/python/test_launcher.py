"""End-to-end tests of the `tessera` launcher executable.

The launcher is found through TESSERA_EXE, else beside the package PYTHONPATH names
(build/dev-NAME/pkg → build/dev-NAME/tessera), else as build/<dir>/tessera in the repository
(build/dev first). The tests run it as a user would: flags before the program, the program's
arguments untouched, exit codes and signals passed through, --dry-run and --verbose output.
"""

import json
import os
import pathlib
import signal
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def find_launcher():
    if os.environ.get("TESSERA_EXE"):
        return pathlib.Path(os.environ["TESSERA_EXE"])
    candidates = [pathlib.Path(entry).parent / "tessera"
                  for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry]
    candidates += [pathlib.Path(sys.executable).parent / "tessera", REPO / "build" / "dev" / "tessera"]
    candidates += sorted(REPO.glob("build/*/tessera"))
    return next((path for path in candidates if path.is_file()), None)


LAUNCHER = find_launcher()
pytestmark = pytest.mark.skipif(LAUNCHER is None, reason="tessera launcher not built")


def launch(*args, env=None, input=None):
    """Runs the launcher with a clean TESSERA_*/SLURM_*/MPI environment plus `env`."""
    full_env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("TESSERA_", "SLURM_", "OMPI_COMM_WORLD", "PMI_", "PMIX_"))
    }
    full_env.update(env or {})
    return subprocess.run(
        [str(LAUNCHER), *args],
        env=full_env,
        input=input,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_help_lists_launcher_and_runtime_flags():
    result = launch("--help")
    assert result.returncode == 0
    for flag in ("--nodes", "--launcher-extra", "--dry-run", "--cpus", "--sysmem", "--test",
                 "--cpu-bind", "--nic-bind", "--show-all-ranks"):
        assert flag in result.stdout


def test_dry_run_prints_config_and_command_without_running():
    result = launch("--dry-run", "--cpus", "2", "--profile", "missing.py", "a b", "--cpus=9")
    assert result.returncode == 0, result.stderr
    config_line, command_line = result.stdout.splitlines()
    assert config_line == "export TESSERA_CONFIG='--cpus=2 --profile'"
    assert command_line.endswith(" missing.py 'a b' --cpus=9")


def test_dry_run_builds_mpirun_command():
    result = launch("--nodes", "2", "--ranks-per-node=2", "--launcher", "mpirun",
                    "--dry-run", "p.py")
    assert result.returncode == 0, result.stderr
    command_line = result.stdout.splitlines()[1]
    assert command_line.startswith("mpirun -n 4 --npernode 2 ")
    assert "-x TESSERA_CONFIG" in command_line
    assert command_line.endswith(" p.py")


def test_dry_run_infers_ranks_from_slurm():
    env = {"SLURM_JOB_NUM_NODES": "3", "SLURM_NTASKS_PER_NODE": "2"}
    result = launch("--launcher=srun", "--dry-run", "./prog", env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1].startswith("srun -N 3 --ntasks-per-node 2 ")


def test_dry_run_passes_bindings_to_every_rank_in_tessera_bind():
    result = launch("--ranks-per-node", "2", "--launcher", "mpirun", "--cpu-bind", "0/1",
                    "--mem-bind=0/0", "--show-all-ranks", "--dry-run", "p.py")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "export TESSERA_CONFIG=--show-all-ranks",
        "export TESSERA_BIND='cpu=0/1;mem=0/0'",
        result.stdout.splitlines()[2],
    ]
    command_line = result.stdout.splitlines()[2]
    assert command_line.startswith("mpirun -n 2 --npernode 2 --bind-to none ")
    assert "-x TESSERA_CONFIG -x TESSERA_BIND" in command_line
    assert "warning" not in result.stderr


def test_verbose_prints_tessera_bind_and_the_program_receives_it():
    code = "import os; print(os.environ['TESSERA_BIND'])"
    result = launch("--verbose", "--gpu-bind", "3", "--nic-bind", "lo", "-c", code)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "gpu=3;nic=lo\n"
    assert result.stderr.splitlines()[:2] == ["export TESSERA_CONFIG=''",
                                              "export TESSERA_BIND='gpu=3;nic=lo'"]


def test_a_rank_started_by_mpirun_runs_the_program_itself():
    # What each copy of `mpirun -n 2 tessera ... p.py` sees.
    env = {"OMPI_COMM_WORLD_SIZE": "2", "OMPI_COMM_WORLD_RANK": "1",
           "OMPI_COMM_WORLD_LOCAL_RANK": "1", "OMPI_COMM_WORLD_LOCAL_SIZE": "2"}
    result = launch("--launcher", "mpirun", "--ranks-per-node", "2", "--cpu-bind", "0/1",
                    "--dry-run", "p.py", env=env)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[2].startswith("# OpenMPI started this as rank 1 of 2: running the program")
    assert lines[3].endswith(" p.py") and "mpirun" not in lines[3]
    bad = launch("--cpu-bind", "0/1/2", "p.py", env=env)
    assert bad.returncode == 2
    assert "--cpu-bind has 3 /-separated entries but 2 ranks of this OpenMPI launch" in bad.stderr


def test_uneven_slurm_tasks_ask_for_ranks_per_node():
    env = {"SLURM_JOB_NUM_NODES": "4", "SLURM_TASKS_PER_NODE": "2(x3),1"}
    result = launch("--launcher=srun", "--dry-run", "./prog", env=env)
    assert result.returncode == 2
    assert "SLURM_TASKS_PER_NODE=2(x3),1 does not give every node the same number" in result.stderr
    env["SLURM_TASKS_PER_NODE"] = "2(x4)"
    result = launch("--launcher=srun", "--dry-run", "./prog", env=env)
    assert result.stdout.splitlines()[1].startswith("srun -N 4 --ntasks-per-node 2 ")


def test_a_binding_this_machine_cannot_apply_fails_at_start_naming_flag_and_rank():
    result = launch("--cpu-bind", "100000", sys.executable, "-c", "import tessera")
    assert result.returncode == 1
    assert "cannot apply --cpu-bind entry '100000' on rank 0: CPU 100000 is not available" \
        in result.stderr


def test_program_gets_config_and_untouched_arguments():
    code = "import json, os, sys; print(json.dumps([os.environ['TESSERA_CONFIG'], sys.argv[1:]]))"
    result = launch("--cpus", "1", "-c", code, "--cpus", "x",
                    env={"TESSERA_CONFIG": "--window-size 3"})
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == ["--window-size 3 --cpus=1", ["--cpus", "x"]]


def test_script_runs_with_its_arguments(tmp_path):
    script = tmp_path / "prog.py"
    script.write_text("import sys\nprint(' '.join(sys.argv[1:]))\n")
    result = launch("--test", str(script), "--verbose", "y")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "--verbose y\n"


def test_verbose_prints_command_to_stderr():
    result = launch("--verbose", "-c", "print('ran')")
    assert result.returncode == 0
    assert result.stdout == "ran\n"
    assert result.stderr.startswith("export TESSERA_CONFIG=''\n")


def test_exit_code_passes_through():
    assert launch("-c", "import sys; sys.exit(7)").returncode == 7
    assert launch("/bin/sh", "-c", "exit 5").returncode == 5


def test_signal_passes_through():
    result = launch("-c", "import os, signal; os.kill(os.getpid(), signal.SIGTERM)")
    assert result.returncode == -signal.SIGTERM


def test_interactive_session_reads_stdin():
    result = launch(input="print(6 * 7)\n")
    assert result.returncode == 0
    assert "42" in result.stdout


@pytest.mark.parametrize(
    "args, env, message",
    [
        (["--frobnicate", "p.py"], {}, "unknown flag '--frobnicate'"),
        (["--cpus=x", "p.py"], {}, "invalid value 'x' for --cpus"),
        (["--gpus", "1", "p.py"], {}, "no GPU support"),
        (["--nodes", "2", "p.py"], {}, "needs a launcher"),
        (["p.py"], {"TESSERA_CONFIG": "--bogus"}, "TESSERA_CONFIG: unknown flag '--bogus'"),
        (["--cpus", "99999", "-c", "print(1)"], {}, "--cpus=99999 and --utility=1 ask for 100000 threads"),
        (["--utility=99999", "p.py"], {}, "give --utility of at most"),
        (["--omps", "2", "p.py"], {}, "--omps=2 asks for OpenMP thread teams, but this build"),
        (["--ompthreads=4", "p.py"], {}, "no OpenMP task variants"),
        (["--numamem", "512", "p.py"], {}, "no NUMA-local pools"),
        (["--fbmem=64", "p.py"], {}, "which needs a GPU build"),
        (["--zcmem=64", "p.py"], {}, "which needs a GPU build"),
        (["--sysmem=999999999", "p.py"], {}, "--sysmem=999999999 MiB is more than the"),
        (["--window-size=0", "p.py"], {}, "invalid value '0' for --window-size"),
        (["p.py"], {"TESSERA_CONFIG": "--cpus=99999"}, "TESSERA_CONFIG: --cpus=99999"),
    ],
)
def test_usage_errors_exit_2_naming_the_problem(args, env, message):
    result = launch(*args, env=env)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr and "terminate" not in result.stderr  # refused before the program runs


def test_missing_program_exits_127():
    result = launch("./no-such-program")
    assert result.returncode == 127
    assert "cannot run './no-such-program'" in result.stderr


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-v"]))
