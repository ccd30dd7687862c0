"""Run every workload under NumPy and under tessera and print one comparison table.

    python benchmarks/run.py [--only NAME] [--quick] [--repeat N] [--backends numpy,tessera]
                             [--json PATH]

Each (workload, backend) pair runs --repeat times (3 by default), each run in its
own process (`python -m benchmarks.child`), so the backends never share a heap or
a thread pool; the runs of the backends alternate and the table takes each
backend's best time, as STREAM takes its best of several (a shared machine only
ever makes a run slower). The same run also measures the machine (memory bandwidth and GEMM peak
with plain NumPy) and tessera's issue latency. A backend that cannot be
imported is reported as "unavailable".

Per workload the table gives both times, their ratio, whether the checksums
agree, the bytes the workload must move at least (its traffic(quick)), the GB/s
that makes for each backend with its share of the STREAM triad bandwidth on all
CPUs measured in this run, and the peak memory: NumPy's resident-set growth
during the workload, tessera's peak memory-pool use. Under the table: the
geometric mean of the ratios over the programs, over the library kernels (KERNEL) and
over every workload (with the measurements of a single mechanism, MICRO). --json PATH writes every figure (every run's
time too), to compare runs.
"""
import argparse
import datetime
import json
import math
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKLOADS = sorted(p.stem for p in (ROOT / "benchmarks" / "workloads").glob("*.py")
                   if not p.stem.startswith("_"))
BACKENDS = ("numpy", "tessera")
RTOL = 1e-6
MIB = 1 << 20


def run_child(module, backend, quick, timeout):
    """Run one module on one backend; return the child's JSON report or {"failed": why}.

    A failure keeps the end of the child's stderr in "stderr" for the JSON file."""
    cmd = [sys.executable, "-m", "benchmarks.child", module, "--backend", backend]
    if quick:
        cmd.append("--quick")
    try:
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"failed": f"timed out after {timeout} s"}
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        stderr = proc.stderr.strip().splitlines()
        return {"failed": (stderr or [f"exit code {proc.returncode}"])[-1],
                "returncode": proc.returncode, "stderr": stderr[-40:]}
    return json.loads(lines[-1])


def best_of(runs):
    """The fastest successful report of one (workload, backend), with every run's time in
    "times"; the last report when none succeeded."""
    good = [r for r in runs if ok(r)]
    if not good:
        return runs[-1]
    best = dict(min(good, key=lambda r: r["result"][0]))
    best["times"] = [r["result"][0] for r in good]
    return best


def marked(name, flag):
    """Whether workload `name` sets `flag = True` (MICRO, KERNEL)."""
    text = (ROOT / "benchmarks" / "workloads" / f"{name}.py").read_text()
    return f"\n{flag} = True" in text


def ok(report):
    return report is not None and "result" in report


def seconds_cell(report):
    """The table cell for one child report's time."""
    if report is None:
        return "-"
    if "unavailable" in report:
        return "unavailable"
    if "failed" in report:
        return "failed"
    return f"{report['result'][0]:.4f}"


def traffic_of(reports):
    """{backend: bytes} of the reports that declare their traffic."""
    return {b: r["traffic"] for b, r in reports.items() if ok(r) and r.get("traffic") is not None}


def summarise(reports, triad):
    """The figures of one workload computed from its reports: ratio, agreement, GB/s..."""
    numpy, tessera = reports.get("numpy"), reports.get("tessera")
    summary = {}
    if ok(numpy) and ok(tessera):
        (t_np, sum_np), (t_ts, sum_ts) = numpy["result"], tessera["result"]
        summary["ratio"] = t_np / t_ts
        summary["checksums_agree"] = math.isclose(sum_np, sum_ts, rel_tol=RTOL)
    # Each backend's own figure: cg's depends on the iterations that run took.
    traffic = traffic_of(reports)
    summary["traffic_bytes"] = next(iter(traffic.values()), None)
    for backend, report in reports.items():
        if backend in traffic:
            gbs = traffic[backend] / report["result"][0] / 1e9
            summary[f"{backend}_gbs"] = gbs
            summary[f"{backend}_triad_share"] = gbs / triad if triad else None
        if ok(report) and "units" in report:
            count, unit = report["units"]
            summary[f"{backend}_us_per_unit"] = report["result"][0] / count * 1e6
            summary["unit"] = unit
    if ok(numpy):
        summary["numpy_peak_bytes"] = numpy.get("rss_growth")
    if ok(tessera) and tessera.get("pool_peak") is not None:
        summary["tessera_peak_bytes"] = sum(tessera["pool_peak"].values())
    return summary


def geometric_mean(values):
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def gbs_cell(summary, backend):
    gbs = summary.get(f"{backend}_gbs")
    if gbs is None:
        return "-"
    share = summary.get(f"{backend}_triad_share")
    return f"{gbs:.1f}" + (f" ({share:.0%})" if share is not None else "")


def mib_cell(size):
    return "-" if size is None else f"{size / MIB:.1f}"


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


def print_table(results, summaries, triad):
    header = ("workload", "numpy s", "tessera s", "numpy/tessera", "checksums", "traffic GB",
              "numpy GB/s", "tessera GB/s", "numpy MiB", "tessera MiB")
    rows = []
    for name, reports in results.items():
        s = summaries[name]
        agree = s.get("checksums_agree")
        rows.append((name, seconds_cell(reports.get("numpy")), seconds_cell(reports.get("tessera")),
                     f"{s['ratio']:.2f}" if "ratio" in s else "-",
                     "-" if agree is None else "agree" if agree else "DIFFER",
                     "-" if s["traffic_bytes"] is None else f"{s['traffic_bytes'] / 1e9:.2f}",
                     gbs_cell(s, "numpy"), gbs_cell(s, "tessera"),
                     mib_cell(s.get("numpy_peak_bytes")), mib_cell(s.get("tessera_peak_bytes"))))
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, tuple("-" * w for w in widths), *rows]:
        # Names left-aligned, figures right-aligned so their decimal points line up.
        cells = [row[0].ljust(widths[0])] + [text.rjust(w) for text, w in zip(row[1:], widths[1:])]
        print("  ".join(cells).rstrip())
    ratios = [s["ratio"] for s in summaries.values() if "ratio" in s]
    programs = [s["ratio"] for name, s in summaries.items()
                if "ratio" in s and not marked(name, "MICRO") and not marked(name, "KERNEL")]
    kernels = [s["ratio"] for name, s in summaries.items() if "ratio" in s and marked(name, "KERNEL")]
    if programs and len(programs) != len(ratios):
        print(f"geometric mean of numpy/tessera over the {len(programs)} programs: "
              f"{geometric_mean(programs):.2f}; over the {len(kernels)} library kernels: "
              f"{geometric_mean(kernels) if kernels else float('nan'):.2f}; "
              f"over all {len(ratios)} workloads: {geometric_mean(ratios):.2f}")
    elif ratios:
        print(f"geometric mean of numpy/tessera over {len(ratios)} workload"
              f"{'s' if len(ratios) != 1 else ''}: {geometric_mean(ratios):.2f}")
    print("traffic GB: the least the workload must move (its traffic(), "
          "see benchmarks/workloads/__init__.py)")
    if triad:
        print(f"GB/s: traffic / time, (%) of the STREAM triad on all CPUs above, {triad:.1f} GB/s;")
        print("      over 100 % when the data stay in cache or are mostly read (the triad also writes)")
    else:
        print("GB/s: traffic / time; no triad figure (the machine measurement failed)")
    print("MiB: numpy = growth of the resident set at its peak; tessera = peak use of its memory "
          "pools; both with the setup")


def print_notes(results, summaries, latency, quick):
    unavailable = {b: r["unavailable"] for reports in [*results.values(), latency]
                   for b, r in reports.items() if "unavailable" in r}
    for backend, why in unavailable.items():
        print(f"{backend} unavailable: {why}")
    for name, reports in results.items():
        s = summaries[name]
        if s.get("checksums_agree") is False:
            print(f"{name}: checksums differ: numpy {reports['numpy']['result'][1]!r}, "
                  f"tessera {reports['tessera']['result'][1]!r} (relative tolerance {RTOL})")
        if len(set(traffic_of(reports).values())) > 1:
            print(f"{name}: the backends moved different traffic: " + ", ".join(
                f"{b} {t / 1e9:.3f} GB" for b, t in traffic_of(reports).items()))
        for backend, report in reports.items():
            if "failed" in report:
                print(f"{name} on {backend} failed: {report['failed']}")
        per_unit = [f"{backend} {s[f'{backend}_us_per_unit']:.1f}" for backend in reports
                    if f"{backend}_us_per_unit" in s]
        if per_unit:
            print(f"{name}: us per {s['unit']}: " + ", ".join(per_unit))
    parts = []
    for backend, report in latency.items():
        if "result" in report:
            issued, synced = report["result"]
            parts.append(f"{backend} loop returned after {issued:.3f} s, float() after {synced:.3f} s")
        else:
            parts.append(f"{backend} {seconds_cell(report)}")
    size = "2M" if quick else "20M"
    print(f"issue latency (50 element-wise ops on {size} float64): " + "; ".join(parts))


def write_json(path, args, machine, results, summaries, latency):
    ratios = [s["ratio"] for s in summaries.values() if "ratio" in s]
    document = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "host": platform.node(),
        "python": sys.version.split()[0],
        "quick": args.quick,
        "backends": sorted({b for reports in results.values() for b in reports}),
        "tessera_config": os.environ.get("TESSERA_CONFIG", ""),
        "machine": machine,
        "workloads": {name: {"reports": results[name], **summaries[name]} for name in results},
        "geometric_mean_ratio": geometric_mean(ratios),
        "programs_geometric_mean_ratio": geometric_mean(
            [s["ratio"] for name, s in summaries.items()
             if "ratio" in s and not marked(name, "MICRO") and not marked(name, "KERNEL")]),
        "repeat": args.repeat,
        "issue_latency": latency,
    }
    Path(path).write_text(json.dumps(document, indent=1) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=WORKLOADS, help="run just this workload")
    parser.add_argument("--quick", action="store_true", help="smaller problem sizes")
    parser.add_argument("--backends", default=",".join(BACKENDS),
                        help="comma-separated, from: numpy,tessera (default both)")
    parser.add_argument("--json", metavar="PATH", help="also write every figure to PATH as JSON")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per process")
    parser.add_argument("--repeat", type=int, default=3, metavar="N",
                        help="runs per workload and backend, alternating; the best counts (default 3)")
    args = parser.parse_args()
    backends = [b for b in BACKENDS if b in args.backends.split(",")]
    if not backends:
        parser.error(f"--backends must name at least one of {', '.join(BACKENDS)}")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    machine = run_child("machine", "numpy", args.quick, args.timeout)
    print_machine(machine)
    triad = machine["result"]["triad_n"] if "result" in machine else None
    results = {}
    for name in [args.only] if args.only else WORKLOADS:
        runs = {b: [] for b in backends}
        for _ in range(args.repeat):
            for b in backends:
                if runs[b] and not ok(runs[b][-1]):
                    continue  # a failure repeats: report it without running again
                runs[b].append(run_child(f"workloads.{name}", b, args.quick, args.timeout))
        results[name] = {b: best_of(r) for b, r in runs.items()}
    summaries = {name: summarise(reports, triad) for name, reports in results.items()}
    latency = {b: run_child("issue_latency", b, args.quick, args.timeout) for b in backends}
    print()
    print_table(results, summaries, triad)
    print(f"times: the best of {args.repeat} run{'s' if args.repeat != 1 else ''} of each backend, alternating")
    print()
    print_notes(results, summaries, latency, args.quick)
    if args.json:
        write_json(args.json, args, machine, results, summaries, latency)
        print(f"figures written to {args.json}")


if __name__ == "__main__":
    main()
