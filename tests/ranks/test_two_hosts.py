"""Two "hosts" on one machine: two network namespaces joined by a veth pair, one rank in
each, OpenMPI talking TCP between them over the veth only (issue 3, tests in CI).

mpirun runs in namespace A and reaches host B through a remote agent (written by the
fixture) that runs the command under `ip netns exec B` instead of ssh. Both ends of the
veth carry the same name, so `btl_tcp_if_include`/`oob_tcp_if_include` name it on either
side. The veth's byte counters, read before and after a run, prove the data crossed it.
Skips, saying why, without root, without `ip`, or where namespaces cannot be created.
"""

import itertools
import os
import shutil
import subprocess

import pytest

import harness
from test_determinism import numbers

VETH = "tsveth0"
SUBNET = "10.231.0"
HOSTS = (f"{SUBNET}.1", f"{SUBNET}.2")
AGENT = """\
#!/bin/sh
# OpenMPI's remote agent for the two-host test: skips ssh-style options, takes the host and
# runs the rest of the command (a shell command line) in that host's network namespace.
while [ $# -gt 0 ]; do case "$1" in -*) shift ;; *) break ;; esac; done
host=$1; shift
case "$host" in
{cases}
  *) echo "netns agent: unknown host $host" >&2; exit 255 ;;
esac
exec ip netns exec "$ns" sh -c "$*"
"""
_serial = itertools.count()


def ip(*args, check=True):
    """Runs `ip args...`; returns its stdout, raising with its stderr when `check` fails."""
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)
    if check and done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


class TwoHosts:
    """Namespaces A and B, the veth between them, and mpirun across them."""

    def __init__(self, tmp_path):
        serial = next(_serial)
        self.namespaces = tuple(f"tessera-{side}-{os.getpid()}x{serial}" for side in "ab")
        # The veth's names before it moves into the namespaces (at most 15 characters).
        self.host_ends = tuple(f"ts{side}{os.getpid() % 1000000}x{serial}" for side in "ab")
        self.agent = tmp_path / "netns-agent.sh"
        cases = "\n".join(f'  {host}) ns={ns} ;;' for host, ns in zip(HOSTS, self.namespaces))
        self.agent.write_text(AGENT.format(cases=cases))
        self.agent.chmod(0o755)

    def create(self):
        remove_stale_namespaces()
        for ns in self.namespaces:
            ip("netns", "add", ns)
        ip("link", "add", self.host_ends[0], "type", "veth", "peer", "name", self.host_ends[1])
        for ns, end, host in zip(self.namespaces, self.host_ends, HOSTS):
            ip("link", "set", end, "netns", ns)
            ip("-n", ns, "link", "set", end, "name", VETH)
            ip("-n", ns, "addr", "add", f"{host}/24", "dev", VETH)
            ip("-n", ns, "link", "set", "lo", "up")
            ip("-n", ns, "link", "set", VETH, "up")

    def destroy(self):
        """Ends every process left in the namespaces and deletes them (and the veth)."""
        for ns in self.namespaces:
            for pid in ip("netns", "pids", ns, check=False).split():
                try:
                    os.kill(int(pid), 9)
                except (ProcessLookupError, ValueError):
                    pass
            ip("netns", "del", ns, check=False)
        for end in self.host_ends:
            ip("link", "del", end, check=False)  # only if it never moved

    def counters(self, side=0):
        """(tx_bytes, rx_bytes) of the veth end in namespace `side`."""
        stats = f"/sys/class/net/{VETH}/statistics"
        text = subprocess.run(["ip", "netns", "exec", self.namespaces[side], "cat",
                               f"{stats}/tx_bytes", f"{stats}/rx_bytes"],
                              capture_output=True, text=True, timeout=30, check=True).stdout
        tx, rx = map(int, text.split())
        return tx, rx

    def namespace_id(self, side):
        """The inode naming namespace `side`, as /proc/self/ns/net shows it inside."""
        return subprocess.run(["ip", "netns", "exec", self.namespaces[side], "readlink",
                               "/proc/self/ns/net"], capture_output=True, text=True,
                              timeout=30, check=True).stdout.strip()

    def run(self, argv, config="--cpus=1", timeout=180, env=None):
        """Runs `argv` as rank 0 in namespace A and rank 1 in namespace B, TCP over the veth."""
        mpirun_args = ["--host", ",".join(HOSTS), "--mca", "plm_rsh_agent", str(self.agent),
                       "--mca", "btl", "tcp,self", "--mca", "btl_tcp_if_include", VETH,
                       "--mca", "oob_tcp_if_include", VETH]
        return harness.run_mpi(2, argv, config=config, timeout=timeout, env=env,
                               mpirun_args=mpirun_args,
                               wrap=["ip", "netns", "exec", self.namespaces[0]])


def remove_stale_namespaces():
    """Deletes namespaces this test made in a pytest process that no longer exists (one
    killed before its teardown ran)."""
    for line in ip("netns", "list", check=False).splitlines():
        name = line.split()[0] if line.split() else ""
        if name.startswith(("tessera-a-", "tessera-b-")):
            pid = name.split("-")[2].split("x")[0]
            if pid.isdigit() and int(pid) != os.getpid() and not harness.alive(int(pid)):
                ip("netns", "del", name, check=False)


@pytest.fixture
def two_hosts(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("creating network namespaces and a veth pair needs root")
    if shutil.which("ip") is None:
        pytest.skip("iproute2's `ip` is not installed")
    hosts = TwoHosts(tmp_path)
    try:
        try:
            hosts.create()
        except RuntimeError as e:
            pytest.skip(f"cannot create network namespaces and a veth pair here: {e}")
        yield hosts
    finally:
        hosts.destroy()


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


def test_mpi_bytes_cross_the_veth(two_hosts, pingpong):
    size = 8 << 20
    before = two_hosts.counters()
    run = two_hosts.run([pingpong, size])
    after = two_hosts.counters()
    assert run.returncode == 0 and "0 wrong" in run.stdout, run.describe()
    tx, rx = after[0] - before[0], after[1] - before[1]
    assert tx >= size and rx >= size, f"veth moved tx {tx} / rx {rx} bytes, want >= {size} each"


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

