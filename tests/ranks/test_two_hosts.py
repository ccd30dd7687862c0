"""Two "hosts" on one machine: two network namespaces joined by a veth pair, one rank in
each, OpenMPI talking TCP between them over the veth only (issue 3, tests in CI).

The namespaces, the veth and the mpirun options come from benchmarks/two_hosts.py (also
used by benchmarks/ranks.py): mpirun runs in namespace A and reaches host B through a remote
agent that runs the command under `ip netns exec B` instead of ssh. The veth's byte
counters, read before and after a run, prove the data crossed it. Skips, saying why,
without root, without `ip`, or where namespaces cannot be created.
"""

import shutil
import subprocess
import sys

import pytest

import harness
from test_determinism import numbers

sys.path.insert(0, str(harness.REPO))
from benchmarks import two_hosts as two_hosts_setup  # noqa: E402


class Hosts(two_hosts_setup.TwoHosts):
    """The two hosts, with mpirun across them under the harness's timeout."""

    def run(self, argv, config="--cpus=1", timeout=180, env=None):
        """Runs `argv` as rank 0 in namespace A and rank 1 in namespace B, TCP over the veth."""
        return harness.run_mpi(2, argv, config=config, timeout=timeout, env=env,
                               mpirun_args=self.mpirun_args, wrap=self.wrap)


def make_hosts(tmp_path, delay=None):
    """Yields the two hosts (the link delayed by `delay`), deleting them afterwards; skips
    saying why where they cannot be made."""
    why = two_hosts_setup.unavailable()
    if why:
        pytest.skip(why)
    hosts = Hosts(tmp_path)
    try:
        try:
            hosts.create(delay=delay)
        except RuntimeError as e:
            pytest.skip(f"cannot create network namespaces and a link between them here: {e}")
        yield hosts
    finally:
        hosts.destroy()


@pytest.fixture
def two_hosts(tmp_path):
    yield from make_hosts(tmp_path)


@pytest.fixture
def delayed_hosts(tmp_path):
    yield from make_hosts(tmp_path, delay="50us")


RECORD_PLACE = """
import os, sys
import tessera.numpy as np
rank = os.environ["OMPI_COMM_WORLD_RANK"]
total = float(np.arange(1000).sum())
with open(os.path.join(sys.argv[1], "rank-" + rank), "w") as f:
    f.write(os.readlink("/proc/self/ns/net") + " " + repr(total))
"""


def test_one_rank_in_each_namespace(two_hosts, out_dir):
    run = two_hosts.run(harness.python("-c", RECORD_PLACE, out_dir))
    assert run.returncode == 0, run.describe()
    for rank in range(2):
        place, total = (out_dir / f"rank-{rank}").read_text().split()
        assert place == two_hosts.namespace_id(rank), f"rank {rank} ran outside its namespace"
        assert total == repr(float(sum(range(1000))))


@pytest.fixture(scope="module")
def pingpong(tmp_path_factory):
    mpicc = shutil.which("mpicc")
    if mpicc is None:
        pytest.skip("mpicc (OpenMPI's compiler wrapper) is not installed")
    exe = tmp_path_factory.mktemp("pingpong") / "pingpong"
    subprocess.run([mpicc, "-O2", str(harness.PROGRAMS / "pingpong.c"), "-o", str(exe)],
                   check=True, timeout=120)
    return exe


def check_pingpong(hosts, pingpong, size, link):
    """MPI pingpong of `size` bytes between the hosts: every byte intact, and through `link`."""
    before = hosts.counters()
    run = hosts.run([pingpong, size])
    after = hosts.counters()
    assert run.returncode == 0 and "0 wrong" in run.stdout, run.describe()
    tx, rx = after[0] - before[0], after[1] - before[1]
    assert tx >= size and rx >= size, f"{link} moved tx {tx} / rx {rx} bytes, want >= {size} each"


def test_mpi_bytes_cross_the_veth(two_hosts, pingpong):
    check_pingpong(two_hosts, pingpong, 8 << 20, "veth")


def test_mpi_across_a_delayed_link(delayed_hosts, pingpong):
    # netem on the veth, or the TUN devices and delay line where the kernel has no netem:
    # every byte arrives intact, and through the link.
    check_pingpong(delayed_hosts, pingpong, 1 << 20, delayed_hosts.link)
    print(f"{delayed_hosts.link}: 1-byte round trip {two_hosts_setup.round_trip(delayed_hosts) * 1e6:.0f} us")


JACOBI_N, JACOBI_ITERS = 1000, 100


def test_jacobi_across_two_hosts(two_hosts, out_dir, tmp_path):
    args = [harness.REPO / "examples/python/jacobi.py", "-n", JACOBI_N, "--iters", JACOBI_ITERS]
    one_rank_dir = tmp_path / "one-rank"
    one_rank_dir.mkdir()
    reference = harness.run_plain(harness.python(harness.PROGRAMS / "record.py", one_rank_dir, *args))
    assert reference.returncode == 0, reference.describe()
    expected = numbers((one_rank_dir / "rank-0.out").read_text())

    before = two_hosts.counters()
    run = two_hosts.run(harness.python(harness.PROGRAMS / "record.py", out_dir, *args))
    after = two_hosts.counters()
    assert run.returncode == 0, run.describe()
    for rank in range(2):
        assert numbers((out_dir / f"rank-{rank}.out").read_text()) == expected, run.describe()

    # Split between two ranks, every sweep moves at least one boundary row of the interior
    # ((N - 2) float64) each way: a lower bound far above MPI's own handshake.
    halo = JACOBI_ITERS * (JACOBI_N - 2) * 8
    tx, rx = after[0] - before[0], after[1] - before[1]
    print(f"veth moved tx {tx} / rx {rx} bytes for a halo lower bound of {halo}")
    assert tx >= halo and rx >= halo, f"veth moved tx {tx} / rx {rx} bytes, want >= {halo} each"

