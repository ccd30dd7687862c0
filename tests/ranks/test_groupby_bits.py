"""tessera.pandas' groupby and drop_duplicates with many groups (programs/groupby_bits.py) print
the same bits with 1 or 2 cpus and on 1 or 2 ranks, in the default configuration and in test
mode (tiny tiles): the partial groups and the order they fold in follow the data, never the
machine. (Test mode cuts other tiles, so its sums may round differently from the default's:
each mode has its own reference.)"""

import pytest

import harness

PROGRAM = harness.PROGRAMS / "groupby_bits.py"
KEYS = {"many groups", "one key", "sorted", "drop_duplicates", "cumcount"}
# (reference, runs that must print its bits)
MODES = {
    "default": ((1, "--cpus=1"), [(1, "--cpus=2"), (2, "--cpus=1"), (2, "--cpus=2")]),
    "test": ((1, "--cpus=1 --test"), [(1, "--cpus=2 --test"), (2, "--cpus=2 --test")]),
}
_reference = {}


def printed(ranks, config, out_dir):
    """Each rank's {name: value} lines."""
    argv = harness.python(harness.PROGRAMS / "record.py", out_dir, PROGRAM)
    run = (harness.run_plain(argv, config=config, timeout=300) if ranks == 1
           else harness.run_mpi(ranks, argv, config=config, timeout=300))
    assert run.returncode == 0, run.describe()
    per_rank = []
    for rank in range(ranks):
        path = out_dir / f"rank-{rank}.out"
        assert path.exists(), f"rank {rank} printed nothing\n" + run.describe()
        per_rank.append(dict(line.split(" = ", 1) for line in path.read_text().splitlines() if " = " in line))
    return per_rank


def reference(mode, tmp_path_factory):
    if mode not in _reference:
        (lines,) = printed(*MODES[mode][0], tmp_path_factory.mktemp(f"reference-{mode}"))
        assert set(lines) == KEYS, lines
        _reference[mode] = lines
    return _reference[mode]


RUNS = [(mode, ranks, config) for mode, (_, runs) in MODES.items() for ranks, config in runs]


@pytest.mark.parametrize("mode,ranks,config", RUNS, ids=[f"{r}ranks{c.replace(' ', '')}" for _, r, c in RUNS])
def test_groupby_results_have_the_same_bits(mode, ranks, config, out_dir, tmp_path_factory):
    expected = reference(mode, tmp_path_factory)
    for rank, lines in enumerate(printed(ranks, config, out_dir)):
        assert lines == expected, f"rank {rank} of {ranks} with {config!r}"
