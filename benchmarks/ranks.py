"""The seed workloads on 2 ranks x 1 cpu against 1 rank x 2 cpus: time, bits and bytes sent.

    python benchmarks/ranks.py [--quick] [--repeat 3] [--workload NAME]... [--delay 50us]
                               [--no-two-hosts] [--spmv-side 1000] [--spmv-iters 20]
                               [--mpirun-arg ARG]...

Runs each of jacobi, cfd_cavity, cg, black_scholes and masked_update (benchmarks/workloads/)
(i) as one process with TESSERA_CONFIG=--cpus=2 and (ii) under `mpirun -n 2 --oversubscribe`
with --cpus=1 per rank, on this machine, and prints one row per workload: the time of each
(the workload's own timer), the ratio (ii)/(i) (goal: <= 1.15), whether the checksums of
every run of both agree bit for bit, and the bytes each rank sent and received per
iteration (sweep, time step, run; the runtime's counters, tessera._tessera._comm_stats())
against the minimum the workload's algorithm needs (MINIMUM below says how each is worked
out), and that ratio (goal for the stencils, jacobi and cfd_cavity: <= 1.2).

Timing: the first touch of fresh memory on a virtual machine varies widely (0.1 s to 1.7 s
for 640 MB here), so each process runs the workload once to warm up (memory pools, threads,
MPI connections) and then --repeat times, and keeps the best time; for 2 ranks, the slower
rank of each repeat, then the best repeat. Machines shared with other work have slow spells,
so --launches processes of each kind are started in turn and the best of all is kept. The byte counters are read around each timed
run() call, so they include its setup (the sums it reads before starting its clock); the
minimum does too.

Then the same 2 ranks x 1 cpu across two "hosts": two network namespaces joined by a link
(benchmarks/two_hosts.py), one rank in each, TCP over the link, every packet delayed by
--delay (default 50us) each way: `tc qdisc ... netem delay` on a veth pair, or where the
kernel has no netem qdisc (this VM's), TUN devices and a process that passes each packet on
that much later (benchmarks/delay_line.c). Prints the link's measured 1-byte TCP round trip,
the time ratio against (i) again, and the rounds of exchanges each workload needs one after
another (each costs at least the delay). Needs root and iproute2: without namespaces the
table is skipped, saying why; where no delay can be injected it runs over the bare veth and
adds rounds x delay to its times as an estimate.

Last, SpMV on the 2-D Poisson matrix of a G x G grid (--spmv-side, default 1000) on 2 ranks
x 1 cpu: x = A @ x, --spmv-iters times, once with x following the image of the matrix's
per-block column ranges (tessera.sparse's SpMV) and once reading x whole (the kernel without
the ranges), and the bytes the ranks sent per product in each case against the whole-vector
gather, (R - 1) x N x 8 bytes, and the halo the ranges need, G columns x 8 bytes per
direction and rank boundary. The results of the two must agree bit for bit.

--quick runs the workloads' small sizes, one process and one timed run each, and a 200 x 200 SpMV
(tests/ranks/test_benchmark.py). Each rank of a run writes its numbers to DIR/rank-<rank>.json
(the --child modes of this file), and this process reads them. Needs OpenMPI's mpirun;
`make bench` runs it.
"""
import argparse
import collections
import importlib
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import two_hosts  # noqa: E402

WORKLOADS = ("jacobi", "cfd_cavity", "cg", "black_scholes", "masked_update")
STENCILS = ("jacobi", "cfd_cavity")
GOAL_TIME_RATIO = 1.15
GOAL_BYTES_RATIO = 1.2
COUNTERS = ("bytes_sent", "messages_sent", "bytes_received", "messages_received")
MPIRUN_OPTIONS = ["--oversubscribe", "--bind-to", "none", "-x", "TESSERA_CONFIG", "-x", "PYTHONPATH"]


# ---------------------------------------------------------------------------------------------
# The minimum each workload needs on `ranks` ranks in one run() call, its setup included:
# `bytes`, what one rank sends (and, the split being symmetric, receives); `rounds`, the
# exchanges that must follow one another (each waits for the one before, so each costs at
# least the link's one-way latency). Grids are split by rows, one block of rows per rank;
# vectors by blocks of elements.

Minimum = collections.namedtuple("Minimum", "bytes rounds")


def scalars(count, ranks):
    """`count` float64 partial sums combined into values every rank reads: with 2 ranks each
    rank sends its partial (8 bytes) and receives the other's; with R ranks, recursive
    doubling, ceil(log2 R) exchanges of 8 bytes."""
    return count * 8 * math.ceil(math.log2(ranks)) if ranks > 1 else 0


def halo_rows(exchanges, n, ranks):
    """`exchanges` times one boundary row to each neighbour (one for the first and last rank,
    two for a middle one) of an n x n float64 grid whose stencil writes the interior: the
    rows above and below are read at the interior columns only, n - 2 values."""
    return exchanges * min(ranks - 1, 2) * (n - 2) * 8


def jacobi_minimum(quick, ranks, iterations):
    """Every sweep `p[1:-1, 1:-1] = .25 * (...)` reads the row above and below each row: one
    halo row each way per rank boundary, which the next sweep waits for. `pn = p.copy()` and
    `p - pn` are row-aligned (no traffic). The partial sums, each a round of its own: the
    setup's np.sum(p), one norm of the change per convergence check, the final checksum."""
    from benchmarks.workloads import jacobi
    n, sweeps, check_every = jacobi.size(quick)
    sums = 1 + sweeps // check_every + 1
    return Minimum(halo_rows(sweeps, n, ranks) + scalars(sums, ranks), sweeps + sums)


def cfd_cavity_minimum(quick, ranks, iterations):
    """Per time step: build_up_b reads u and v at the rows above and below (one halo row of
    each), and the velocity update reads un and vn there too, which equal u and v until that
    update, so those rows serve both; each of the NIT pressure iterations reads pn = p at the
    rows above and below (one halo row); the velocity update reads the final p there, the same
    rows the next step's first pressure iteration reads, so one more p row over the whole run.
    The boundary conditions on rows 0, 1 and n-1 and on columns stay inside a rank. Partial
    sums: 4 before the clock starts, 3 in the checksum (one round each).
    Rounds per step: u and v, then NIT - 1 between pressure iterations, then p for the
    velocity update (the first step's first p rows go with u and v)."""
    from benchmarks.workloads import cfd_cavity
    n, steps = cfd_cavity.size(quick)
    return Minimum(halo_rows(steps * (2 + cfd_cavity.NIT) + 1, n, ranks) + scalars(4 + 3, ranks),
                   steps * (1 + cfd_cavity.NIT) + 2)


def cg_minimum(quick, ranks, iterations):
    """A is distributed by rows, so every A.dot(p) needs the whole of p on every rank: a rank
    sends its block to each other rank, (R - 1)/R x N x 8 bytes. So does building A from
    i[:, None] - i[None, :] (one gather of i). The scalars: np.sum(A) and np.sum(b) before the
    clock (one round), r.dot(r) before the loop, p.dot(Ap) and r.dot(r) per iteration (the
    convergence test reads the latter, already on every rank), and the checksum. The vector
    updates are aligned with p (no traffic). Rounds per iteration: the gather, alpha, rr."""
    from benchmarks.workloads import cg
    n = cg.size(quick)
    gather = (ranks - 1) * n * 8 // ranks
    return Minimum((iterations + 1) * gather + scalars(2 + 1 + 2 * iterations + 1, ranks),
                   3 * iterations + 4)


def black_scholes_minimum(quick, ranks, iterations):
    """Element-wise on aligned vectors: only the partial sums, 3 before the clock (price,
    strike, years) and 2 in the checksum (call, put), one round each."""
    return Minimum(scalars(3 + 2, ranks), 2)


def masked_update_minimum(quick, ranks, iterations):
    """Element-wise on aligned vectors (`z[m] = x[m] * 2` with one mask on both sides is an
    element-wise where): only the partial sums, 2 before the clock and 1 in the checksum,
    one round each."""
    return Minimum(scalars(2 + 1, ranks), 2)


MINIMUM = {"jacobi": jacobi_minimum, "cfd_cavity": cfd_cavity_minimum, "cg": cg_minimum,
           "black_scholes": black_scholes_minimum, "masked_update": masked_update_minimum}


# ---------------------------------------------------------------------------------------------
# The ranks' side.

def rank():
    return int(os.environ.get("OMPI_COMM_WORLD_RANK", "0"))


def child(out_dir, name, quick, repeat):
    """One rank: run the workload once to warm up, then `repeat` times; write each run's
    time, checksum and the runtime's byte and message counters around it."""
    workload = importlib.import_module(f"benchmarks.workloads.{name}")
    import tessera
    import tessera.numpy as np

    comm_stats = getattr(tessera._tessera, "_comm_stats", None)
    _, warmup = workload.run(np, quick)
    runs = []
    for _ in range(repeat):
        before = comm_stats() if comm_stats else None
        seconds, checksum = workload.run(np, quick)
        after = comm_stats() if comm_stats else None
        run = {"seconds": seconds, "checksum": repr(checksum)}
        if before is not None:
            run.update({key: after[key] - before[key] for key in COUNTERS})
        runs.append(run)
    count, unit = workload.units(quick) if hasattr(workload, "units") else (1, "run")
    report = {"rank": rank(), "warmup_checksum": repr(warmup), "runs": runs, "count": count,
              "unit": unit}
    (Path(out_dir) / f"rank-{rank()}.json").write_text(json.dumps(report))


def spmv_child(out_dir, side, iters):
    """One rank: x = A @ x on the Poisson matrix, by column ranges and reading x whole; the
    bytes sent per product by each, and whether the two results agree bit for bit."""
    import tessera
    import tessera.numpy as np
    from benchmarks.workloads._poisson import poisson

    comm_stats = tessera._tessera._comm_stats
    A = poisson(np, side)
    report = {"rank": rank(), "rows": A.shape[0], "iters": iters}
    results = {}
    for label, product in (("ranges", lambda x: A @ x),
                           ("whole", lambda x: tessera._tessera._csr_matvec(A.indptr, A.indices, A.data, x))):
        x = np.linspace(0.0, 1.0, A.shape[0])
        x = product(x)  # the matrix's ranges, pools, connections
        float(x[0])
        before = comm_stats()
        start = time.perf_counter()
        for _ in range(iters):
            x = product(x)
        float(x[0])  # waits for the products (x[0] depends on every earlier x) and moves 8 bytes
        seconds = time.perf_counter() - start
        after = comm_stats()
        checksum = float(np.sum(x))
        results[label] = x
        report[label] = {"seconds": seconds, "checksum": repr(checksum),
                         "bytes_sent": after["bytes_sent"] - before["bytes_sent"],
                         "messages_sent": after["messages_sent"] - before["messages_sent"]}
    report["same"] = bool(np.array_equal(results["ranges"], results["whole"]))
    (Path(out_dir) / f"rank-{report['rank']}.json").write_text(json.dumps(report))


# ---------------------------------------------------------------------------------------------
# Launching.

def environment(cpus):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("TESSERA_", "OMPI_COMM_WORLD", "PMIX_", "PMI_"))}
    env["TESSERA_CONFIG"] = f"--cpus={cpus}"
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    if os.geteuid() == 0:
        env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    return env


def launch(child_args, ranks, cpus, args, hosts=None):
    """Runs this file with `child_args` on `ranks` ranks of `cpus` cpus (one process without
    mpirun when ranks == 1; across `hosts` when given); returns the per-rank reports."""
    with tempfile.TemporaryDirectory() as out_dir:
        command = [sys.executable, str(Path(__file__).resolve()), *child_args[:1], out_dir,
                   *child_args[1:]]
        if ranks > 1:
            command = [*(hosts.wrap if hosts else []), args.mpirun, "-n", str(ranks),
                       *MPIRUN_OPTIONS, *(hosts.mpirun_args if hosts else []), *args.mpirun_arg,
                       *command]
        process = subprocess.Popen(command, env=environment(cpus), cwd=ROOT, text=True,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        try:
            output, _ = process.communicate(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            output, _ = process.communicate()
            raise SystemExit(f"{' '.join(command)} took over {args.timeout} s:\n{output}")
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        if process.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed ({process.returncode}):\n{output}")
        return [json.loads((Path(out_dir) / f"rank-{r}.json").read_text()) for r in range(ranks)]


def run_workload(name, ranks, cpus, args, hosts=None):
    child_args = ["--child", "--workload", name, "--repeat", str(args.repeat)]
    return launch(child_args + (["--quick"] if args.quick else []), ranks, cpus, args, hosts)


def merge(launches):
    """The per-rank reports of several launches as one: each rank's runs one after another."""
    merged = [dict(r, runs=[], warmup_checksums=[]) for r in launches[0]]
    for reports in launches:
        for into, r in zip(merged, reports):
            into["runs"] += r["runs"]
            into["warmup_checksums"].append(r["warmup_checksum"])
    return merged


def alternate(name, args):
    """--launches launches of 1 rank x 2 cpus and of 2 ranks x 1 cpu, in turn (so that a
    slow spell of a shared machine does not fall on one of them only); their merged reports."""
    ones, twos = [], []
    for _ in range(args.launches):
        ones.append(run_workload(name, 1, 2, args))
        twos.append(run_workload(name, 2, 1, args))
    return merge(ones), merge(twos)


# ---------------------------------------------------------------------------------------------
# Tables.

def best_seconds(reports):
    """The best repeat, each repeat taking as long as its slowest rank."""
    return min(max(r["runs"][i]["seconds"] for r in reports) for i in range(len(reports[0]["runs"])))


def checksums(reports):
    """Every checksum any rank computed, warm-ups included."""
    return ({run["checksum"] for r in reports for run in r["runs"]}
            | {c for r in reports for c in r["warmup_checksums"]})


def per_unit(reports, key):
    """The most any rank counted per iteration, averaged over the repeats."""
    count = reports[0]["count"]
    return max(sum(run[key] for run in r["runs"]) / len(r["runs"]) for r in reports) / count


def compare(name, one, two, args):
    """One row: times, ratio, bit equality, and the bytes of `two` against the minimum."""
    t_one, t_two = best_seconds(one), best_seconds(two)
    same = checksums(one) == checksums(two) and len(checksums(one)) == 1
    row = {"name": name, "one": t_one, "two": t_two, "ratio": t_two / t_one, "same": same,
           "checksum": next(iter(checksums(one))), "unit": two[0]["unit"], "count": two[0]["count"]}
    if all("bytes_sent" in run for r in two for run in r["runs"]):
        minimum = MINIMUM[name](args.quick, len(two), two[0]["count"]).bytes / two[0]["count"]
        row.update(sent=per_unit(two, "bytes_sent"), received=per_unit(two, "bytes_received"),
                   messages=per_unit(two, "messages_sent"), minimum=minimum)
        row["bytes_ratio"] = max(row["sent"], row["received"]) / minimum
    return row


def verdict(value, goal):
    return "ok" if value <= goal else "over"


def print_header(columns):
    print(f"  {'workload':14s} {'1x2 s':>8s} {'2x1 s':>8s} {'ratio':>6s}      {'same bits':9s} {columns}",
          flush=True)


BYTES_COLUMNS = (f"{'sent/rank':>11s} {'recv/rank':>11s} {'msgs':>6s} {'minimum':>11s} {'ratio':>6s}"
                 f"       per")


def print_row(row, columns):
    line = (f"  {row['name']:14s} {row['one']:8.3f} {row['two']:8.3f} {row['ratio']:6.2f} "
            f"{verdict(row['ratio'], GOAL_TIME_RATIO):4s} {'yes' if row['same'] else 'NO':9s} {columns}")
    print(line.rstrip(), flush=True)


def bytes_columns(row):
    if "sent" not in row:
        return "bytes n/a (no tessera._tessera._comm_stats)"
    goal = verdict(row["bytes_ratio"], GOAL_BYTES_RATIO) if row["name"] in STENCILS else ""
    return (f"{row['sent']:11,.0f} {row['received']:11,.0f} {row['messages']:6.1f} "
            f"{row['minimum']:11,.0f} {row['bytes_ratio']:6.2f} {goal:4s}  {row['unit']}")


def workloads_table(args):
    """Table (i)/(ii) on this machine; returns the one-rank reports for the two-host table."""
    print(f"Workloads{' (quick sizes)' if args.quick else ''}: 1 rank x 2 cpus against 2 ranks "
          f"x 1 cpu (mpirun -n 2), {args.launches} processes of each in turn, best of {args.repeat} "
          f"runs in each after a warm-up run; "
          f"time goal <= {GOAL_TIME_RATIO}, bytes goal <= {GOAL_BYTES_RATIO} for "
          f"{' and '.join(STENCILS)}")
    print_header(BYTES_COLUMNS)
    rows, ones = [], {}
    for name in args.workload:
        ones[name], two = alternate(name, args)
        rows.append(compare(name, ones[name], two, args))
        print_row(rows[-1], bytes_columns(rows[-1]))
    print("  (sent/recv/msgs: the most any rank sent, received, and sent messages per iteration; "
          "minimum: what the algorithm needs per rank, see MINIMUM in benchmarks/ranks.py)")
    for row in rows:
        print(f"  checksum {row['name']}: {row['checksum']}")
    return ones


def two_hosts_table(args, ones):
    """Table (i)/(ii) with the two ranks on two "hosts" joined by a link with a delay."""
    why = two_hosts.unavailable()
    if why:
        print(f"\nTwo hosts: skipped ({why})")
        return
    with tempfile.TemporaryDirectory() as workdir:
        hosts = two_hosts.TwoHosts(workdir)
        injected = args.delay is not None
        try:
            try:
                hosts.create(delay=args.delay)
            except RuntimeError as e:
                if args.delay is None:
                    raise
                hosts.destroy()
                hosts = two_hosts.TwoHosts(workdir)
                hosts.create()
                hosts.link += f", NO delay injected ({e})"
                injected = False
        except RuntimeError as e:
            hosts.destroy()
            print(f"\nTwo hosts: skipped (cannot create network namespaces and a link: {e})")
            return
        delay = two_hosts.delay_seconds(args.delay) if args.delay else 0.0
        try:
            try:
                rtt = f"{two_hosts.round_trip(hosts) * 1e6:.0f} us"
            except (RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
                rtt = f"not measured ({e})"
            print(f"\nTwo hosts: 2 ranks x 1 cpu in two network namespaces joined by {hosts.link}, "
                  f"TCP over it (1-byte round trip {rtt}), against 1 rank x 2 cpus (the runs above)")
            estimate = args.delay is not None and not injected
            columns = f"{'rounds':>7s} {'rounds x delay':>14s}"
            if estimate:
                columns += f" {'2x1 + that':>10s} {'ratio':>6s}"
            print_header(columns)
            before = hosts.counters()
            for name in args.workload:
                two = merge([run_workload(name, 2, 1, args, hosts) for _ in range(args.launches)])
                row = compare(name, ones[name], two, args)
                rounds = MINIMUM[name](args.quick, 2, row["count"]).rounds
                columns = f"{rounds:7d} {rounds * delay:14.4f}"
                if estimate:
                    seconds = row["two"] + rounds * delay
                    columns += f" {seconds:10.3f} {seconds / row['one']:6.2f}"
                print_row(row, columns)
            after = hosts.counters()
        finally:
            hosts.destroy()
    print("  (rounds: the exchanges the algorithm must make one after another, see MINIMUM in "
          "benchmarks/ranks.py; each waits at least the one-way delay, so rounds x delay is the least "
          "time the delay adds" + ("; 2x1 + that estimates the time with the delay" if estimate else "")
          + ")")
    print(f"  the link carried {after[0] - before[0]:,} bytes one way and {after[1] - before[1]:,} "
          f"the other during these runs (warm-ups and MPI's start-up included)")


def spmv_table(args, ranks=2):
    child_args = ["--spmv-child", "--spmv-side", str(args.spmv_side), "--spmv-iters", str(args.spmv_iters)]
    reports = launch(child_args, ranks, 1, args)
    rows, iters = reports[0]["rows"], reports[0]["iters"]
    gather = (ranks - 1) * rows * 8
    halo = 2 * (ranks - 1) * args.spmv_side * 8
    print(f"\nSpMV, Poisson {args.spmv_side}x{args.spmv_side} ({rows:,} rows), {iters} products of x = A @ x, "
          f"{ranks} ranks x 1 cpu")
    for label in ("ranges", "whole"):
        sent = sum(r[label]["bytes_sent"] for r in reports) / iters
        messages = sum(r[label]["messages_sent"] for r in reports) / iters
        seconds = max(r[label]["seconds"] for r in reports)
        print(f"  x by {label:6s}: {sent:,.0f} bytes sent per product, all ranks, in {messages:.1f} messages "
              f"({sent / gather:.3f}x the whole-vector gather of {gather:,}; {sent / halo:.2f}x the halo of "
              f"{halo:,}); {seconds / iters * 1e3:.2f} ms per product")
    same = all(r["same"] for r in reports) and len({r[label]["checksum"] for r in reports for label in ("ranges", "whole")}) == 1
    print(f"  results bit for bit the same by ranges and whole, on every rank: {'yes' if same else 'NO'}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, one timed run, small SpMV")
    parser.add_argument("--repeat", type=int, help="timed runs after the warm-up, best kept (default 3, --quick 1)")
    parser.add_argument("--launches", type=int, help="processes of each kind, in turn (default 2, --quick 1)")
    parser.add_argument("--workload", action="append", choices=WORKLOADS,
                        help="only these workloads (default: all five)")
    parser.add_argument("--delay", default="50us", help="netem delay on each end of the two-host link "
                        "(default 50us; 'none' for the bare veth)")
    parser.add_argument("--no-two-hosts", action="store_true", help="leave out the two-host table")
    parser.add_argument("--mpirun", default=shutil.which("mpirun") or "mpirun")
    parser.add_argument("--mpirun-arg", action="append", default=[],
                        help="extra mpirun argument, e.g. --mpirun-arg=--bind-to=core")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per run")
    parser.add_argument("--spmv-side", type=int, help="Poisson grid side for SpMV (default 1000, --quick 200)")
    parser.add_argument("--spmv-iters", type=int, help="SpMV products (default 20, --quick 5)")
    parser.add_argument("--spmv-only", action="store_true", help="only the SpMV part")
    parser.add_argument("--child", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("--spmv-child", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.repeat = args.repeat or (1 if args.quick else 3)
    args.launches = args.launches or (1 if args.quick else 2)
    args.spmv_side = args.spmv_side or (200 if args.quick else 1000)
    args.spmv_iters = args.spmv_iters or (5 if args.quick else 20)
    args.delay = None if args.delay.lower() in ("", "none", "0") else args.delay
    if args.child:
        child(args.child, args.workload[0], args.quick, args.repeat)
        return
    if args.spmv_child:
        spmv_child(args.spmv_child, args.spmv_side, args.spmv_iters)
        return
    if not args.spmv_only:
        args.workload = args.workload or list(WORKLOADS)
        ones = workloads_table(args)
        if not args.no_two_hosts:
            two_hosts_table(args, ones)
    spmv_table(args)


if __name__ == "__main__":
    main()
