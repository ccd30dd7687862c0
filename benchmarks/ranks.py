"""Jacobi N=4000 on 2 ranks x 1 cpu against 1 rank x 2 cpus, and the bytes the ranks send.

    python benchmarks/ranks.py [-n 4000] [--iters 100] [--repeat 3] [--mpirun-arg ARG]...

Runs the solver of examples/python/jacobi.py (i) as one process with TESSERA_CONFIG=--cpus=2
and (ii) under `mpirun -n 2` with --cpus=1 per rank, on the same machine. Prints the best
time of each, the ratio (ii)/(i) (goal: <= 1.25), whether the l2 norms agree bit for bit,
and the bytes all ranks sent per sweep against the theoretical halo, 2 rows x N x 8 bytes
per rank boundary per sweep (goal: <= 1.2x). Bytes come from the runtime's
tessera._tessera._comm_stats(); "n/a" when this build does not have it.

Then SpMV on the 2-D Poisson matrix of a G x G grid (--spmv-side, default 1000) on 2 ranks
x 1 cpu: x = A @ x, --spmv-iters times, once with x following the image of the matrix's
per-block column ranges (tessera.sparse's SpMV) and once reading x whole (the kernel without
the ranges), and prints the bytes the ranks sent per product in each case (the runtime's
counters) against the whole-vector gather, (R - 1) x N x 8 bytes, and the halo the ranges
need, G columns x 8 bytes per direction and rank boundary. The results of the two must agree
bit for bit.

Each rank of a run writes its numbers to DIR/rank-<rank>.json (the --child mode of this
file), and this process sums them. Needs OpenMPI's mpirun; `make bench` runs it.
"""
import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JACOBI = ROOT / "examples" / "python" / "jacobi.py"
GOAL_TIME_RATIO = 1.25
GOAL_HALO_RATIO = 1.2
CHECK_EVERY = 25
WARMUP_SWEEPS = 3


def child(out_dir, n, iters):
    """One rank: warm up, run `iters` sweeps, write time, l2 and sent bytes to out_dir."""
    import tessera
    import tessera.numpy as np

    spec = importlib.util.spec_from_file_location("jacobi_example", JACOBI)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    comm_stats = getattr(tessera._tessera, "_comm_stats", None)

    example.jacobi(np, n, WARMUP_SWEEPS, CHECK_EVERY, 0.0)  # pools, threads, MPI connections
    before = comm_stats() if comm_stats else None
    start = time.perf_counter()
    sweeps, l2 = example.jacobi(np, n, iters, CHECK_EVERY, 0.0)  # l2 is a float: forced
    seconds = time.perf_counter() - start
    after = comm_stats() if comm_stats else None

    rank = int(os.environ.get("OMPI_COMM_WORLD_RANK", "0"))
    report = {"rank": rank, "seconds": seconds, "sweeps": sweeps, "l2": repr(l2)}
    if before is not None:
        for key in ("bytes_sent", "messages_sent"):
            report[key] = after[key] - before[key]
    (Path(out_dir) / f"rank-{rank}.json").write_text(json.dumps(report))


def spmv_child(out_dir, side, iters):
    """One rank: x = A @ x on the Poisson matrix, by column ranges and reading x whole; the
    bytes sent per product by each, and whether the two results agree bit for bit."""
    import tessera
    import tessera.numpy as np
    from benchmarks.workloads._poisson import poisson

    comm_stats = tessera._tessera._comm_stats
    A = poisson(np, side)
    report = {"rank": int(os.environ.get("OMPI_COMM_WORLD_RANK", "0")), "rows": A.shape[0], "iters": iters}
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


def spmv_on_ranks(args, ranks=2):
    with tempfile.TemporaryDirectory() as out_dir:
        command = [args.mpirun, "-n", str(ranks), "--bind-to", "none", "-x", "TESSERA_CONFIG", "-x", "PYTHONPATH",
                   *args.mpirun_arg, sys.executable, str(Path(__file__).resolve()), "--spmv-child", out_dir,
                   "--spmv-side", str(args.spmv_side), "--spmv-iters", str(args.spmv_iters)]
        env = environment("--cpus=1")
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
        done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=args.timeout)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
        reports = [json.loads((Path(out_dir) / f"rank-{r}.json").read_text()) for r in range(ranks)]
    rows, iters = reports[0]["rows"], reports[0]["iters"]
    gather = (ranks - 1) * rows * 8
    halo = 2 * (ranks - 1) * args.spmv_side * 8
    print(f"SpMV, Poisson {args.spmv_side}x{args.spmv_side} ({rows:,} rows), {iters} products of x = A @ x, "
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


def environment(config):
    env = {k: v for k, v in os.environ.items() if not k.startswith("TESSERA_")}
    env["TESSERA_CONFIG"] = config
    if os.geteuid() == 0:
        env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    return env


def run(ranks, cpus, args):
    """Runs the child on `ranks` ranks with `cpus` cpus each; returns the per-rank reports."""
    with tempfile.TemporaryDirectory() as out_dir:
        command = [sys.executable, str(Path(__file__).resolve()), "--child", out_dir,
                   "-n", str(args.n), "--iters", str(args.iters)]
        if ranks > 1:
            command = [args.mpirun, "-n", str(ranks), "--bind-to", "none", "-x", "TESSERA_CONFIG",
                       "-x", "PYTHONPATH", *args.mpirun_arg, *command]
        done = subprocess.run(command, env=environment(f"--cpus={cpus}"), cwd=ROOT,
                              capture_output=True, text=True, timeout=args.timeout)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n"
                             f"{done.stdout}{done.stderr}")
        return [json.loads((Path(out_dir) / f"rank-{r}.json").read_text()) for r in range(ranks)]


def best_of(ranks, cpus, args):
    """The reports of the repeat whose slowest rank was fastest."""
    runs = [run(ranks, cpus, args) for _ in range(args.repeat)]
    return min(runs, key=lambda reports: max(r["seconds"] for r in reports))


def describe(label, reports):
    seconds = max(r["seconds"] for r in reports)
    sweeps = reports[0]["sweeps"]
    print(f"{label}: {seconds:.3f} s, {seconds / sweeps * 1e3:.2f} ms per sweep, "
          f"l2 = {reports[0]['l2']}")
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=4000, help="grid size (default 4000)")
    parser.add_argument("--iters", type=int, default=100, help="timed sweeps (default 100)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, best kept (default 3)")
    parser.add_argument("--mpirun", default=shutil.which("mpirun") or "mpirun")
    parser.add_argument("--mpirun-arg", action="append", default=[],
                        help="extra mpirun argument, e.g. --mpirun-arg=--bind-to=core")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per run")
    parser.add_argument("--spmv-side", type=int, default=1000, help="Poisson grid side for SpMV (default 1000)")
    parser.add_argument("--spmv-iters", type=int, default=20, help="SpMV products (default 20)")
    parser.add_argument("--spmv-only", action="store_true", help="only the SpMV part")
    parser.add_argument("--child", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("--spmv-child", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.n, args.iters)
        return
    if args.spmv_child:
        spmv_child(args.spmv_child, args.spmv_side, args.spmv_iters)
        return
    if args.spmv_only:
        spmv_on_ranks(args)
        return

    print(f"Jacobi N={args.n}, {args.iters} sweeps (l2 every {CHECK_EVERY}), best of {args.repeat}")
    one = best_of(1, 2, args)
    two = best_of(2, 1, args)
    t_one = describe("(i)  1 rank  x 2 cpus", one)
    t_two = describe("(ii) 2 ranks x 1 cpu ", two)
    ratio = t_two / t_one
    print(f"time (ii)/(i) = {ratio:.2f} (goal <= {GOAL_TIME_RATIO}: "
          f"{'met' if ratio <= GOAL_TIME_RATIO else 'NOT met'})")
    same = {r["l2"] for r in one + two} == {one[0]["l2"]}
    print(f"l2 bit for bit the same on every rank of both runs: {'yes' if same else 'NO'}")

    halo = 2 * args.n * 8 * (len(two) - 1)
    if all("bytes_sent" in r for r in two):
        sent = sum(r["bytes_sent"] for r in two) / two[0]["sweeps"]
        messages = sum(r["messages_sent"] for r in two) / two[0]["sweeps"]
        halo_ratio = sent / halo
        print(f"bytes sent per sweep, all ranks: {sent:,.0f} in {messages:.1f} messages; "
              f"theoretical halo {halo:,} (2 rows x {args.n} x 8 B x {len(two) - 1} boundary): "
              f"{halo_ratio:.2f}x (goal <= {GOAL_HALO_RATIO}: "
              f"{'met' if halo_ratio <= GOAL_HALO_RATIO else 'NOT met'})")
    else:
        print(f"bytes sent per sweep, all ranks: n/a (no tessera._tessera._comm_stats); "
              f"theoretical halo {halo:,} (2 rows x {args.n} x 8 B x {len(two) - 1} boundary)")
    spmv_on_ranks(args)


if __name__ == "__main__":
    main()
