"""The NumPy parity suite of tests/python under `mpirun -n 2` and `-n 4`.

Every rank runs the same tests in the same order (control replication), with hypothesis
derandomized (the "ranks" profile of tests/python/conftest.py). Each rank writes a JUnit
report (programs/rank_pytest.py); every rank must pass, and every rank must have run the
same tests with the same outcomes. mpirun's exit code is non-zero when any rank fails.
"""

import xml.etree.ElementTree as ElementTree

import pytest

import harness

SUITE = harness.REPO / "tests" / "python"

# The parity families at -n 2.
N2_FILES = ["test_array_api.py", "test_array_protocol.py", "test_compositions.py", "test_coverage.py",
            "test_creation.py", "test_einsum.py", "test_elementwise.py", "test_errors.py", "test_fallback.py",
            "test_fancy_indexing.py", "test_fft.py", "test_indexing.py", "test_inplace.py", "test_io.py", "test_lazy_copy.py",
            "test_linalg.py", "test_linalg_by_tiles.py", "test_linalg_lapack.py", "test_mask_aliasing.py",
            "test_math_more.py", "test_metadata.py", "test_operators.py", "test_pandas_copy_on_write.py",
            "test_pandas_datetime.py", "test_pandas_dbbench.py", "test_pandas_display.py", "test_pandas_frame.py",
            "test_pandas_groupby.py", "test_pandas_groupby_many.py", "test_pandas_join_indices.py", "test_pandas_merge.py",
            "test_pandas_read_csv.py", "test_pandas_reshape.py",
            "test_pandas_sort.py", "test_properties.py", "test_protocols.py",
            "test_random.py", "test_random_distributions.py", "test_reductions.py", "test_runtime.py",
            "test_scans.py", "test_selections.py", "test_sets.py", "test_shape.py", "test_shapes_more.py",
            "test_sort.py", "test_sparse.py", "test_sparse_ranges.py", "test_statement_errors.py", "test_stats.py",
            "test_tasks.py", "test_ufunc_methods.py"]
# A smaller part at -n 4: one file per family that moves data differently (about 3,700).
N4_FILES = ["test_creation.py", "test_indexing.py", "test_linalg.py", "test_mask_aliasing.py",
            "test_properties.py", "test_random.py", "test_reductions.py", "test_shape.py"]

# Files of tests/python not run under ranks, and why.
NOT_UNDER_RANKS = {
    "test_config.py": "starts interpreters with their own TESSERA_CONFIG (subprocesses)",
    "test_examples.py": "runs the examples as subprocesses (test_determinism.py runs them on ranks)",
    "test_launcher.py": "runs the launcher executable (subprocesses)",
    "test_rank_launch.py": "launches ranks itself (subprocesses)",
    "test_memory_tools.py": "subprocesses, and checks one process's memory pool",
    "test_oom.py": "subprocesses that exhaust one process's memory pool",
    "test_profile.py": "runs the launcher and tessera-prof (subprocesses)",
}
# Single tests of the files above that cannot run under ranks, and why.
DESELECT = {
    "tests/python/test_linalg_by_tiles.py::test_bits_do_not_depend_on_cpus":
        "starts interpreters with their own TESSERA_CONFIG (subprocesses)",
    "tests/python/test_ufunc_methods.py::test_results_do_not_depend_on_cpus":
        "starts interpreters with their own TESSERA_CONFIG (subprocesses)",
    "tests/python/test_fancy_indexing.py::test_scatter_and_gather_do_not_depend_on_cpus":
        "starts interpreters with their own TESSERA_CONFIG (subprocesses)",
    "tests/python/test_fallback.py::test_fallback_warns_once_naming_the_function":
        "spawns a fresh interpreter to see the first warning",
    "tests/python/test_fallback.py::test_fallback_warn_is_the_default":
        "starts interpreters with their own TESSERA_CONFIG (subprocesses)",
    "tests/python/test_fallback.py::test_fallback_silent_runs_numpy_without_a_warning":
        "starts interpreters with their own TESSERA_CONFIG (subprocesses)",
    "tests/python/test_fallback.py::test_fallback_error_raises_before_anything_runs":
        "starts interpreters with their own TESSERA_CONFIG (subprocesses)",
    "tests/python/test_fallback.py::test_fallback_flag_refuses_other_values":
        "starts interpreters with their own TESSERA_CONFIG (subprocesses)",
    "tests/python/test_fallback.py::test_fallback_flag_is_in_help_and_show_config":
        "starts interpreters with their own TESSERA_CONFIG (subprocesses)",
    "tests/python/test_fallback.py::test_example_runs_without_fallback":
        "starts interpreters with their own TESSERA_CONFIG (subprocesses)",
    "tests/python/test_fallback.py::test_workload_runs_without_fallback":
        "starts interpreters with their own TESSERA_CONFIG (subprocesses)",
    "tests/python/test_coverage.py::test_committed_table_is_what_the_script_generates":
        "runs scripts/api_coverage.py (subprocesses)",
    "tests/python/test_coverage.py::test_a_stale_table_fails_and_says_how_to_regenerate":
        "runs scripts/api_coverage.py (subprocesses)",
    "tests/python/test_runtime.py::test_storage_returns_to_pool_when_last_reference_goes":
        "checks this process's pool usage, which under ranks holds only its own tiles",
    "tests/python/test_runtime.py::test_views_keep_storage_alive":
        "checks this process's pool usage, which under ranks holds only its own tiles",
    "tests/python/test_selections.py::test_dropping_the_array_a_selection_reads_frees_it":
        "checks this process's pool usage, which under ranks holds only its own tiles",
    "tests/python/test_scans.py::test_long_scans_do_not_depend_on_tiling":
        "starts interpreters with their own TESSERA_CONFIG (subprocesses)",
    "tests/python/test_sort.py::test_results_do_not_depend_on_chunks":
        "starts interpreters with their own TESSERA_CONFIG (subprocesses)",
    "tests/python/test_random_distributions.py::test_draws_do_not_depend_on_cpus":
        "starts interpreters with their own TESSERA_CONFIG (subprocesses)",
}

# (ranks, files, TESSERA_CONFIG). Test mode cuts even tiny arrays into many tiles, so they
# spread over the ranks; the default mode is what users run.
SUITES = {
    "2ranks": (2, N2_FILES, "--cpus=1"),
    "2ranks-test-mode": (2, N2_FILES, "--cpus=1 --test"),
    "4ranks-test-mode": (4, N4_FILES, "--cpus=1 --test"),
}
TIMEOUT = 900


def pytest_command(out_dir, paths, *extra):
    """argv for every rank: pytest on `paths`, a JUnit report per rank in out_dir."""
    deselect = [arg for nodeid in DESELECT for arg in ("--deselect", nodeid)]
    return harness.python(harness.PROGRAMS / "rank_pytest.py", out_dir, *map(str, paths),
                          "-q", "--color=no", "-p", "no:cacheprovider", *deselect,
                          *extra)


def outcomes(report):
    """{test id: outcome} from a JUnit report."""
    result = {}
    for case in ElementTree.parse(report).iter("testcase"):
        kinds = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
        result[f"{case.get('classname')}::{case.get('name')}"] = kinds[0] if kinds else "passed"
    return result


def progress(out_dir, rank):
    """What the rank's progress log says: its failed tests and the test it was last in."""
    path = out_dir / f"rank-{rank}.log"
    lines = path.read_text().splitlines() if path.exists() else []
    failed = [line.split(" ", 1)[1] for line in lines if line.startswith("failed ")]
    last = next((line.split(" ", 1)[1] for line in reversed(lines) if line.startswith("start ")),
                "none")
    return f"rank {rank}: last test started: {last}; failed: {failed[:10] or 'none'}"


def per_rank_outcomes(ranks, out_dir, run):
    reports = []
    for rank in range(ranks):
        path = out_dir / f"rank-{rank}.xml"
        assert path.exists(), (f"rank {rank} wrote no report (it did not finish)\n"
                               + "\n".join(progress(out_dir, r) for r in range(ranks))
                               + "\n" + run.describe())
        reports.append(outcomes(path))
    return reports


@pytest.mark.parametrize("suite", SUITES)
def test_parity_suite_under_ranks(suite, out_dir):
    ranks, files, config = SUITES[suite]
    run = harness.run_mpi(ranks, pytest_command(out_dir, [SUITE / f for f in files]),
                          config=config, timeout=TIMEOUT)
    reports = per_rank_outcomes(ranks, out_dir, run)
    failed = {rank: [t for t, o in r.items() if o in ("failure", "error")]
              for rank, r in enumerate(reports)}
    assert run.returncode == 0 and not any(failed.values()), (
        "failed on some rank: " + "; ".join(f"rank {r}: {t[:10]}" for r, t in failed.items() if t)
        + "\n" + run.describe())
    assert len(reports[0]) > 100, run.describe()
    for rank, report in enumerate(reports[1:], start=1):
        assert report == reports[0], f"rank {rank} ran other tests or had other outcomes than rank 0"


def test_not_under_ranks_lists_real_files():
    for name in [*NOT_UNDER_RANKS, *N2_FILES, *N4_FILES]:
        assert (SUITE / name).exists() or name == "test_rank_launch.py", name
    for nodeid in DESELECT:
        assert (harness.REPO / nodeid.split("::")[0]).exists(), nodeid


RANK_DEPENDENT = """
import os

def test_same_everywhere():
    assert True

def test_fails_on_rank_1_only():
    assert os.environ["OMPI_COMM_WORLD_RANK"] != "1"
"""


def test_mpirun_fails_when_one_ranks_tests_fail(tmp_path, out_dir):
    test_file = tmp_path / "test_rank_dependent.py"
    test_file.write_text(RANK_DEPENDENT)
    run = harness.run_mpi(2, pytest_command(out_dir, [test_file]), timeout=120, cwd=tmp_path)
    assert run.returncode != 0, run.describe()


DRAWS = """
import os
from hypothesis import given, strategies as st

@given(st.lists(st.floats(allow_nan=False), max_size=5), st.integers())
def test_draw(values, number):
    with open(os.environ["DRAWS_DIR"] + "/rank-" + os.environ["OMPI_COMM_WORLD_RANK"], "a") as f:
        f.write(repr((values, number)) + "\\n")
"""


def test_hypothesis_draws_the_same_examples_on_every_rank(tmp_path, out_dir):
    # The profile lives in tests/python/conftest.py: load that file as a plugin.
    test_file = tmp_path / "test_draws.py"
    test_file.write_text(DRAWS)
    run = harness.run_mpi(2, pytest_command(out_dir, [test_file], "-p", "conftest"),
                          timeout=120, cwd=tmp_path,
                          env={"DRAWS_DIR": str(out_dir), "PYTHONPATH": _with_suite_path()})
    assert run.returncode == 0, run.describe()
    draws = [(out_dir / f"rank-{rank}").read_text() for rank in range(2)]
    assert draws[0].count("\n") >= 10
    assert draws[0] == draws[1], "ranks drew different hypothesis examples"


def _with_suite_path():
    import os

    return os.pathsep.join(p for p in [str(SUITE), os.environ.get("PYTHONPATH")] if p)
