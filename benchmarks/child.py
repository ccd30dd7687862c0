"""Run one benchmark module on one backend; print the result as one JSON line.

    python -m benchmarks.child workloads.jacobi --backend numpy [--quick]

Prints {"result": ...} with whatever the module's run(np, quick) returned, or
{"unavailable": reason} when the backend cannot be imported. Beside the result:
"traffic" and "units" when the module defines traffic(quick) and units(quick) (see
benchmarks/workloads/__init__.py); "rss_growth", the peak resident set during run()
minus the resident set before it, in bytes (None where /proc is missing); and on
tessera "pool_peak", each memory pool's peak use in bytes over the whole process, as
the runtime's --show-memory-usage prints it when it finishes.
"""
import argparse
import gc
import importlib
import json
import os
import re
import sys
import tempfile

_POOL_PEAK = re.compile(r"^\s*(\w+): peak (\d+) bytes", re.M)


def load_numpy(backend):
    """Return the array module: tessera.numpy or numpy."""
    if backend == "tessera":
        # Read when the runtime starts: the pools print their peaks when it finishes.
        config = os.environ.get("TESSERA_CONFIG", "")
        os.environ["TESSERA_CONFIG"] = f"{config} --show-memory-usage".strip()
        import tessera.numpy as np
    else:
        import numpy as np
    return np


def status_kib(field):
    """A `VmRSS`-style field of /proc/self/status in KiB, or None without /proc."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


class ResidentGrowth:
    """The peak resident set during a block minus the resident set before it, in bytes.

    Writing "5" to /proc/self/clear_refs resets VmHWM to the current VmRSS; where that is
    not allowed, the peak since the process started stands in (it is at least as high)."""

    def __enter__(self):
        gc.collect()
        try:
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")
        except OSError:
            pass
        self.before = status_kib("VmRSS")
        self.growth = None
        return self

    def __exit__(self, *exc):
        peak = status_kib("VmHWM")
        if self.before is not None and peak is not None:
            self.growth = max(0, peak - self.before) * 1024
        return False


def tessera_pool_peaks():
    """{pool: peak bytes}: finishes the runtime and reads what --show-memory-usage prints.

    The runtime writes to file descriptor 2, so that is pointed at a file meanwhile;
    anything else written there is passed on to stderr."""
    import tessera

    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as captured:
        os.dup2(captured.fileno(), 2)
        try:
            tessera.finish()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        captured.seek(0)
        text = captured.read().decode(errors="replace")
    peaks = {m[1]: int(m[2]) for m in _POOL_PEAK.finditer(text)}
    rest = [line for line in text.splitlines()
            if not _POOL_PEAK.match(line) and line != "tessera memory usage at exit:"]
    if rest:
        print("\n".join(rest), file=sys.stderr)
    return peaks


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", help="module under benchmarks/, e.g. workloads.cg")
    parser.add_argument("--backend", choices=["numpy", "tessera"], required=True)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()

    module = importlib.import_module(f"benchmarks.{args.module}")
    try:
        np = load_numpy(args.backend)
    except Exception as e:  # a broken build is as unavailable as a missing one
        print(json.dumps({"unavailable": f"{type(e).__name__}: {e}"}))
        return
    with ResidentGrowth() as resident:
        result = module.run(np, quick=args.quick)
    report = {"result": result, "rss_growth": resident.growth}
    if hasattr(module, "traffic"):
        report["traffic"] = module.traffic(args.quick)
    if hasattr(module, "units"):
        report["units"] = module.units(args.quick)
    if args.backend == "tessera":
        report["pool_peak"] = tessera_pool_peaks()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
