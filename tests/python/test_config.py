"""TESSERA_CONFIG as a Python program sees it: read once at import, --help exits 0,
a bad flag is an exception at import (never a crash) that names the flag."""

import os
import re
import subprocess
import sys

import pytest


def run_python(code, config):
    env = {k: v for k, v in os.environ.items() if not k.startswith("TESSERA_")}
    env["TESSERA_CONFIG"] = config
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)


def test_help_lists_flags_and_exits_zero():
    r = run_python("import tessera.numpy", "--help")
    assert r.returncode == 0, r.stderr
    for flag in ["--cpus", "--sysmem", "--utility", "--window-size", "--min-cpu-chunk", "--auto-config",
                 "--show-config", "--profile", "--test", "--simd"]:
        assert flag in r.stdout


@pytest.mark.parametrize("config, flag", [("--cpus=x", "--cpus"), ("--sysmem -3", "--sysmem"),
                                          ("--no-such-flag", "--no-such-flag"), ("--test=maybe", "--test")])
def test_bad_configuration_raises_at_import(config, flag):
    code = ("import tessera\n")
    r = run_python(code, config)
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert "ConfigError" in r.stderr and flag in r.stderr, r.stderr
    assert "Traceback" in r.stderr  # a Python exception, not a crash


def config_error_of(config):
    """The ConfigError message that importing tessera raises under `config` (checks it is one)."""
    code = ("import sys\n"
            "try:\n"
            "    import tessera\n"
            "except Exception as e:\n"
            "    ours = type(e) is sys.modules['tessera._tessera'].ConfigError\n"
            "    print(type(e).__name__ + ':', e, ours and isinstance(e, ValueError))\n"
            "else:\n"
            "    print('no error')\n")
    r = run_python(code, config)
    assert r.returncode == 0, (r.returncode, r.stderr)  # never an abort or a hang
    assert r.stdout.startswith("ConfigError: TESSERA_CONFIG: "), r.stdout + r.stderr
    assert r.stdout.endswith(" True\n")  # tessera.ConfigError, a ValueError
    return r.stdout


def test_absurd_cpus_is_a_config_error_naming_the_cores():
    message = config_error_of("--cpus=99999")
    assert "--cpus=99999 and --utility=1 ask for 100000 threads" in message
    assert re.search(r"this rank has \d+ cores? and tessera starts at most \d+ threads", message), message
    assert "give --cpus of at most" in message


def test_absurd_cpus_raises_at_import_as_a_traceback():
    r = run_python("import tessera.numpy", "--cpus=99999")
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert "Traceback" in r.stderr and "ConfigError: TESSERA_CONFIG: --cpus=99999" in r.stderr, r.stderr


@pytest.mark.parametrize("config, expected", [
    ("--utility=99999", ["--utility=99999 with 1 cpu worker asks for", "give --utility of at most"]),
    ("--sysmem=999999999", ["--sysmem=999999999 MiB is more than the", "MiB of memory this rank has"]),
    ("--window-size=0", ["invalid value '0' for --window-size: expected a positive integer"]),
    ("--cpus=-2", ["invalid value '-2' for --cpus: expected a non-negative integer"]),
    ("--utility=-1", ["invalid value '-1' for --utility"]),
    ("--sysmem=-5", ["invalid value '-5' for --sysmem"]),
    ("--min-cpu-chunk=-1", ["invalid value '-1' for --min-cpu-chunk"]),
    ("--window-size=99999999999", ["expected at most 2147483647"]),
])
def test_other_absurd_values_are_config_errors(config, expected):
    message = config_error_of(config)
    for text in expected:
        assert text in message, message


@pytest.mark.parametrize("config, flag, missing", [
    ("--omps=2", "--omps=2", "has no OpenMP task variants"),
    ("--ompthreads=4", "--ompthreads=4", "has no OpenMP task variants"),
    ("--numamem=512", "--numamem=512 MiB", "has no NUMA-local pools"),
    ("--fbmem=1024", "--fbmem=1024 MiB", "GPU framebuffer memory (FBMEM), which needs a GPU build"),
    ("--zcmem=64", "--zcmem=64 MiB", "zero-copy memory (ZCMEM, pinned host memory for GPUs), which needs a GPU build"),
])
def test_kinds_this_build_lacks_are_refused(config, flag, missing):
    message = config_error_of(config)
    assert flag in message and missing in message, message
    name = flag.split("=")[0]
    assert f"leave {name} out or set {name}=0" in message, message


def test_kinds_this_build_lacks_work_at_zero_and_min_omp_chunk_is_accepted():
    code = "import tessera, tessera.numpy as np\nprint(tessera.show_config())\nprint(float(np.arange(10.0).sum()))"
    r = run_python(code, "--cpus=2 --omps=0 --ompthreads=0 --numamem=0 --fbmem=0 --zcmem=0 --gpus=0 "
                         "--min-omp-chunk=1000 --window-size=99999 --min-cpu-chunk=99999999")
    assert r.returncode == 0, r.stderr
    assert "2 cpu workers" in r.stdout and "no OpenMP thread teams or GPUs" in r.stdout
    assert "no NUMAMEM, FBMEM or ZCMEM pools" in r.stdout
    assert r.stdout.strip().endswith("45.0")


def test_help_says_which_kinds_this_build_lacks():
    r = run_python("import tessera.numpy", "--help")
    assert r.returncode == 0, r.stderr
    text = " ".join(r.stdout.split())
    assert "this build has no OpenMP task variants: only 0" in text
    assert "needs a GPU build: only 0" in text
    assert "without effect in this build" in text


def test_config_error_is_catchable_value_error():
    code = ("try:\n    import tessera\nexcept ValueError as e:\n    print('caught', type(e).__name__, e)\n")
    r = run_python(code, "--cpus=x")
    assert r.returncode == 0, r.stderr
    assert "caught ConfigError" in r.stdout and "--cpus" in r.stdout


def test_show_config_reports_reservation():
    r = run_python("import tessera.numpy", "--show-config --cpus 2 --sysmem 512")
    assert r.returncode == 0, r.stderr
    text = r.stdout + r.stderr
    assert "2 cpu" in text and "512 MiB" in text


def test_last_repeated_flag_wins_and_booleans():
    code = "import tessera; print(tessera.show_config())"
    r = run_python(code, "--cpus 1 --cpus=2 --profile=no --show-memory-usage=yes")
    assert r.returncode == 0, r.stderr
    assert "2 cpu" in r.stdout


def test_auto_config_off_reserves_one_cpu_and_256_mib():
    r = run_python("import tessera; print(tessera.show_config())", "--auto-config=0")
    assert r.returncode == 0, r.stderr
    assert "1 cpu" in r.stdout and "256 MiB" in r.stdout


def test_show_all_ranks_is_a_runtime_flag():
    r = run_python("import tessera.numpy", "--help")
    assert "--show-all-ranks" in r.stdout
    r = run_python("import tessera; print(tessera.show_config())", "--show-all-ranks")
    assert r.returncode == 0, r.stderr
    assert "show-all-ranks on" in r.stdout


def test_one_rank_output_is_unchanged_by_show_all_ranks():
    code = "import sys, tessera\nprint('out')\nprint('err', file=sys.stderr)\n"
    r = run_python(code, "--show-all-ranks")
    assert r.returncode == 0, r.stderr
    assert (r.stdout, r.stderr) == ("out\n", "err\n")


def test_one_rank_unhandled_exception_is_an_ordinary_traceback():
    r = run_python("import tessera\nraise KeyError('missing')\n", "")
    assert r.returncode == 1
    assert r.stderr.startswith("Traceback (most recent call last):")
    assert r.stderr.endswith("KeyError: 'missing'\n")
    assert "stopping all ranks" not in r.stderr


def test_simd_caps_the_vector_instruction_set():
    # Each instruction set this CPU has, as --simd names it, is the one the runtime reports;
    # best is the widest; an unknown name is a ConfigError listing the known ones.
    probe = "import tessera\nfrom tessera import _tessera\nprint(*_tessera._instruction_sets())\nprint(_tessera._simd())"
    r = run_python(probe, "")
    assert r.returncode == 0, r.stderr
    sets, best = r.stdout.split("\n")[:2]
    sets = sets.split()
    assert sets[-1] == "scalar" and best == sets[0]
    for cap in sets:
        r = run_python(probe + "\nprint(tessera.show_config())", f"--simd={cap}")
        assert r.returncode == 0, r.stderr
        assert r.stdout.split("\n")[1] == cap and f"simd:       {cap} " in r.stdout, r.stdout
    message = config_error_of("--simd=avx512")
    assert "invalid value 'avx512' for --simd: expected one of best, avx3, avx2, sse4 or scalar" in message
