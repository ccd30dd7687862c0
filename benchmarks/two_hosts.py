"""Two "hosts" on one machine: two network namespaces joined by a veth pair, for running one
MPI rank in each with OpenMPI talking TCP over the veth only.

    hosts = TwoHosts(workdir)
    hosts.create(delay="50us")   # optional: a one-way delay on the link
    command = [*hosts.wrap, mpirun, "-n", "2", *hosts.mpirun_args, ...]
    hosts.destroy()

mpirun runs in namespace A and reaches host B through a remote agent (written into
`workdir`) that runs the command under `ip netns exec B` instead of ssh. Both ends of the link
carry the same name, so `btl_tcp_if_include`/`oob_tcp_if_include` name it on either side.
The link is a veth pair; with a delay, netem on both of its ends where the kernel has the
netem qdisc, else a TUN device in each namespace and a process carrying the packets between
them that much later (delay_line.c, built with the system's C compiler). Needs root and
iproute2; `create()` raises RuntimeError saying what failed. Used by
tests/ranks/test_two_hosts.py and benchmarks/ranks.py.
"""
import itertools
import os
import select
import shutil
import subprocess
import sys
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
DELAY_LINE = Path(__file__).resolve().parent / "delay_line.c"
TUN_MTU = 65535  # a veth passes segments this large (offloads); a TUN device only its MTU
_serial = itertools.count()


def delay_seconds(delay):
    """A tc-style time, "50us", "0.2ms" or "1s" (bare: microseconds), in seconds."""
    for suffix, scale in (("usec", 1e-6), ("us", 1e-6), ("msec", 1e-3), ("ms", 1e-3),
                          ("sec", 1.0), ("s", 1.0)):
        if delay.endswith(suffix):
            return float(delay[:-len(suffix)]) * scale
    return float(delay) * 1e-6


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
        self.link = None
        self.delay_line = None

    def create(self, delay=None):
        """Makes the namespaces and the link; `delay` (e.g. "50us") holds every packet that
        long on its way, so a round trip takes twice it more. `self.link` describes the link."""
        remove_stale_namespaces()
        for ns in self.namespaces:
            ip("netns", "add", ns)
        for ns in self.namespaces:
            ip("-n", ns, "link", "set", "lo", "up")
        self._add_veth()
        self.link = "a veth pair"
        if delay is None:
            return
        why = self._add_netem(delay)
        if why is None:
            self.link += f" with netem delay {delay} on each end"
            return
        ip("-n", self.namespaces[0], "link", "del", VETH)  # and its peer
        self._add_delay_line(delay)
        self.link = (f"TUN devices and a process carrying each packet {delay} later "
                     f"(no netem: {why})")

    def _add_veth(self):
        ip("link", "add", self.host_ends[0], "type", "veth", "peer", "name", self.host_ends[1])
        for ns, end, host in zip(self.namespaces, self.host_ends, HOSTS):
            ip("link", "set", end, "netns", ns)
            ip("-n", ns, "link", "set", end, "name", VETH)
            ip("-n", ns, "addr", "add", f"{host}/24", "dev", VETH)
            ip("-n", ns, "link", "set", VETH, "up")

    def _add_netem(self, delay):
        """Adds the netem qdisc on both ends of the veth; why not, or None."""
        if shutil.which("tc") is None:
            return "iproute2's `tc` is not installed"
        for ns in self.namespaces:
            done = subprocess.run(["ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", VETH,
                                   "root", "netem", "delay", delay],
                                  capture_output=True, text=True, timeout=30)
            if done.returncode != 0:
                return f"tc qdisc add dev {VETH} root netem delay {delay}: {done.stderr.strip()}"
        return None

    def _add_delay_line(self, delay):
        compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
        if compiler is None:
            raise RuntimeError("no netem qdisc and no C compiler to build the delay line")
        exe = self.agent.parent / "delay_line"
        done = subprocess.run([compiler, "-O2", "-o", str(exe), str(DELAY_LINE)],
                              capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"building {DELAY_LINE.name}: {done.stderr.strip()}")
        micros = delay_seconds(delay) * 1e6
        self.delay_line = subprocess.Popen([str(exe), *self.namespaces, VETH, f"{micros:g}"],
                                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                           text=True)
        ready, _, _ = select.select([self.delay_line.stdout], [], [], 30)
        if not ready or self.delay_line.stdout.readline().strip() != "ready":
            self.delay_line.kill()
            raise RuntimeError(f"the delay line did not start: {self.delay_line.stderr.read().strip()}")
        for ns, host in zip(self.namespaces, HOSTS):
            ip("-n", ns, "addr", "add", f"{host}/24", "dev", VETH)
            ip("-n", ns, "link", "set", VETH, "mtu", str(TUN_MTU), "up")

    def destroy(self):
        """Ends every process left in the namespaces and deletes them (and the link)."""
        if self.delay_line is not None:
            self.delay_line.kill()
            self.delay_line.wait()
            self.delay_line = None
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
        """(tx_bytes, rx_bytes) of the link's end in namespace `side`."""
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


ECHO_SERVER = """
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], 5555))
s.listen(1)
print("listening", flush=True)
c, _ = s.accept()
c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
while c.recv(1):
    c.sendall(b"x")
"""
ECHO_CLIENT = """
import socket, sys, time
c = socket.create_connection((sys.argv[1], 5555), timeout=10)
c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
times = []
for _ in range(int(sys.argv[2])):
    start = time.perf_counter()
    c.sendall(b"x")
    c.recv(1)
    times.append(time.perf_counter() - start)
print(sorted(times)[len(times) // 2])
"""


def round_trip(hosts, count=200):
    """The median time of a 1-byte TCP round trip from host A to host B, in seconds."""
    python = sys.executable
    server = subprocess.Popen(["ip", "netns", "exec", hosts.namespaces[1], python, "-c",
                               ECHO_SERVER, HOSTS[1]], stdout=subprocess.PIPE, text=True)
    try:
        if not select.select([server.stdout], [], [], 30)[0] or "listening" not in server.stdout.readline():
            raise RuntimeError("the echo server did not start")
        done = subprocess.run(["ip", "netns", "exec", hosts.namespaces[0], python, "-c",
                               ECHO_CLIENT, HOSTS[1], str(count)],
                              capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"the echo client failed: {done.stderr.strip()}")
        return float(done.stdout)
    finally:
        server.kill()
        server.wait()
