"""Run every workload under NumPy and under tessera and print one comparison table.

    python benchmarks/run.py [--only NAME] [--quick] [--backends numpy,tessera]

Each (workload, backend) pair runs once, in its own process
(`python -m benchmarks.child`), so the backends never share a heap or a thread
pool. The same run also measures the machine (memory bandwidth and GEMM peak
with plain NumPy) and tessera's issue latency. A backend that cannot be
imported is reported as "unavailable".
"""
import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKLOADS = sorted(p.stem for p in (ROOT / "benchmarks" / "workloads").glob("*.py")
                   if not p.stem.startswith("_"))
BACKENDS = ("numpy", "tessera")
RTOL = 1e-6


def run_child(module, backend, quick, timeout):
    """Run one module on one backend; return the child's JSON report or {"failed": why}."""
    cmd = [sys.executable, "-m", "benchmarks.child", module, "--backend", backend]
    if quick:
        cmd.append("--quick")
    try:
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"failed": f"timed out after {timeout} s"}
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        last = (proc.stderr.strip().splitlines() or [f"exit code {proc.returncode}"])[-1]
        return {"failed": last}
    return json.loads(lines[-1])


def cell(report):
    """The table cell for one child report."""
    if report is None:
        return "-"
    if "unavailable" in report:
        return "unavailable"
    if "failed" in report:
        return "failed"
    return f"{report['result'][0]:.4f}"


def compare(reports):
    """(ratio numpy/tessera, checksums agree) cells when both backends produced results."""
    numpy, tessera = reports.get("numpy"), reports.get("tessera")
    if not (numpy and tessera and "result" in numpy and "result" in tessera):
        return "-", "-"
    (t_np, sum_np), (t_ts, sum_ts) = numpy["result"], tessera["result"]
    agree = math.isclose(sum_np, sum_ts, rel_tol=RTOL)
    return f"{t_np / t_ts:.2f}", "yes" if agree else f"NO ({sum_np!r} vs {sum_ts!r})"


def print_machine(report):
    if "result" not in report:
        print(f"machine: {report.get('failed', report)}")
        return
    m = report["result"]
    print(f"machine: {m['cpus']} CPUs, numpy {m['numpy']}")
    print(f"memory bandwidth (plain NumPy, 200 MB arrays, best of 3): "
          f"1 thread copy {m['copy_1']:.1f} / triad {m['triad_1']:.1f} GB/s, "
          f"{m['cpus']} threads copy {m['copy_n']:.1f} / triad {m['triad_n']:.1f} GB/s")
    print(f"GEMM peak (NumPy float64 matmul 2000x2000, best of 3): {m['gemm_gflops']:.1f} GFLOP/s")


def print_table(results):
    header = ("workload", "numpy s", "tessera s", "numpy/tessera", "checksums agree")
    rows = [(name, cell(r.get("numpy")), cell(r.get("tessera")), *compare(r))
            for name, r in results.items()]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, tuple("-" * w for w in widths), *rows]:
        print("  ".join(text.ljust(w) for text, w in zip(row, widths)).rstrip())


def print_notes(results, latency, quick):
    unavailable = {b: r["unavailable"] for reports in [*results.values(), latency]
                   for b, r in reports.items() if "unavailable" in r}
    for backend, why in unavailable.items():
        print(f"{backend} unavailable: {why}")
    for name, reports in results.items():
        for backend, report in reports.items():
            if "failed" in report:
                print(f"{name} on {backend} failed: {report['failed']}")
            elif "operations" in report:
                per_op = report["result"][0] / report["operations"] * 1e6
                print(f"{name} on {backend}: {per_op:.1f} us per operation")
    parts = []
    for backend, report in latency.items():
        if "result" in report:
            issued, synced = report["result"]
            parts.append(f"{backend} loop returned after {issued:.3f} s, float() after {synced:.3f} s")
        else:
            parts.append(f"{backend} {cell(report)}")
    size = "2M" if quick else "20M"
    print(f"issue latency (50 element-wise ops on {size} float64): " + "; ".join(parts))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=WORKLOADS, help="run just this workload")
    parser.add_argument("--quick", action="store_true", help="smaller problem sizes")
    parser.add_argument("--backends", default=",".join(BACKENDS),
                        help="comma-separated, from: numpy,tessera (default both)")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per process")
    args = parser.parse_args()
    backends = [b for b in BACKENDS if b in args.backends.split(",")]
    if not backends:
        parser.error(f"--backends must name at least one of {', '.join(BACKENDS)}")

    print_machine(run_child("machine", "numpy", args.quick, args.timeout))
    results = {}
    for name in [args.only] if args.only else WORKLOADS:
        results[name] = {b: run_child(f"workloads.{name}", b, args.quick, args.timeout)
                         for b in backends}
    latency = {b: run_child("issue_latency", b, args.quick, args.timeout) for b in backends}
    print()
    print_table(results)
    print()
    print_notes(results, latency, args.quick)


if __name__ == "__main__":
    main()
