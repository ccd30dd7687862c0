"""TESSERA_CONFIG as a Python program sees it: read once at import, --help exits 0,
a bad flag is an exception at import (never a crash) that names the flag."""

import os
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
                 "--show-config", "--profile", "--test"]:
        assert flag in r.stdout


@pytest.mark.parametrize("config, flag", [("--cpus=x", "--cpus"), ("--sysmem -3", "--sysmem"),
                                          ("--no-such-flag", "--no-such-flag"), ("--test=maybe", "--test")])
def test_bad_configuration_raises_at_import(config, flag):
    code = ("import tessera\n")
    r = run_python(code, config)
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert "ConfigError" in r.stderr and flag in r.stderr, r.stderr
    assert "Traceback" in r.stderr  # a Python exception, not a crash


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
