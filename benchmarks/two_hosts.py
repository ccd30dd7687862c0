"""Two "hosts" on one machine: two network namespaces joined by a veth pair, for running one
MPI rank in each with OpenMPI talking TCP over the veth only.

    hosts = TwoHosts(workdir)
    hosts.create(delay="50us")   # optional: netem delay on both ends of the link
    command = [*hosts.wrap, mpirun, "-n", "2", *hosts.mpirun_args, ...]
    hosts.destroy()

mpirun runs in namespace A and reaches host B through a remote agent (written into
`workdir`) that runs the command under `ip netns exec B` instead of ssh. Both ends of the veth
carry the same name, so `btl_tcp_if_include`/`oob_tcp_if_include` name it on either side.
Needs root and iproute2 (`tc` for a delay); `create()` raises RuntimeError saying what
failed. Used by tests/ranks/test_two_hosts.py and benchmarks/ranks.py.
"""
import itertools
import os
import shutil
import subprocess
from pathlib import Path

VETH = "tsveth0"
SUBNET = "10.231.0"
HOSTS = (f"{SUBNET}.1", f"{SUBNET}.2")
PREFIXES = ("tessera-a-", "tessera-b-")
AGENT = """\
#!/bin/sh
# OpenMPI's remote agent for two hosts in network namespaces: skips ssh-style options, takes
# the host and runs the rest of the command (a shell command line) in that host's namespace.
while [ $# -gt 0 ]; do case "$1" in -*) shift ;; *) break ;; esac; done
host=$1; shift
case "$host" in
{cases}
  *) echo "netns agent: unknown host $host" >&2; exit 255 ;;
esac
exec ip netns exec "$ns" sh -c "$*"
"""
_serial = itertools.count()


def unavailable():
    """Why namespaces cannot be made here (no root, no `ip`), or None."""
    if os.geteuid() != 0:
        return "creating network namespaces and a veth pair needs root"
    if shutil.which("ip") is None:
        return "iproute2's `ip` is not installed"
    return None


def ip(*args, check=True):
    """Runs `ip args...`; returns its stdout, raising with its stderr when `check` fails."""
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)
    if check and done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


class TwoHosts:
    """Namespaces A and B, the veth between them, and the mpirun options to run across them."""

    def __init__(self, workdir):
        serial = next(_serial)
        self.namespaces = tuple(f"{prefix}{os.getpid()}x{serial}" for prefix in PREFIXES)
        # The veth's names before it moves into the namespaces (at most 15 characters).
        self.host_ends = tuple(f"ts{side}{os.getpid() % 1000000}x{serial}" for side in "ab")
        self.agent = Path(workdir) / "netns-agent.sh"
        cases = "\n".join(f'  {host}) ns={ns} ;;' for host, ns in zip(HOSTS, self.namespaces))
        self.agent.write_text(AGENT.format(cases=cases))
        self.agent.chmod(0o755)

    def create(self, delay=None):
        """Makes the namespaces and the veth; `delay` (e.g. "50us") adds a netem qdisc that
        holds every packet that long on each end, so a round trip takes twice it more."""
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
        if delay is not None:
            if shutil.which("tc") is None:
                raise RuntimeError("iproute2's `tc` is not installed (needed for the netem delay)")
            for ns in self.namespaces:
                done = subprocess.run(["ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", VETH,
                                       "root", "netem", "delay", delay],
                                      capture_output=True, text=True, timeout=30)
                if done.returncode != 0:
                    raise RuntimeError(f"tc qdisc add dev {VETH} root netem delay {delay}: "
                                       f"{done.stderr.strip()}")

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

    @property
    def wrap(self):
        """What goes before mpirun: it runs in namespace A."""
        return ["ip", "netns", "exec", self.namespaces[0]]

    @property
    def mpirun_args(self):
        """mpirun options for one rank on each host, TCP over the veth only."""
        return ["--host", ",".join(HOSTS), "--mca", "plm_rsh_agent", str(self.agent),
                "--mca", "btl", "tcp,self", "--mca", "btl_tcp_if_include", VETH,
                "--mca", "oob_tcp_if_include", VETH]


def remove_stale_namespaces():
    """Deletes namespaces made by a process that no longer exists (one killed before it
    could delete them)."""
    for line in ip("netns", "list", check=False).splitlines():
        name = line.split()[0] if line.split() else ""
        if name.startswith(PREFIXES):
            pid = name.split("-")[2].split("x")[0]
            if pid.isdigit() and int(pid) != os.getpid() and not Path(f"/proc/{pid}").exists():
                ip("netns", "del", name, check=False)
