"""Run one benchmark module on one backend; print the result as one JSON line.

    python -m benchmarks.child workloads.jacobi --backend numpy [--quick]

Prints {"result": ...} with whatever the module's run(np, quick) returned, or
{"unavailable": reason} when the backend cannot be imported.
"""
import argparse
import importlib
import json


def load_numpy(backend):
    """Return the array module: tessera.numpy or numpy."""
    if backend == "tessera":
        import tessera.numpy as np
    else:
        import numpy as np
    return np


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
    report = {"result": module.run(np, quick=args.quick)}
    if hasattr(module, "OPERATIONS"):
        report["operations"] = module.OPERATIONS
    print(json.dumps(report))


if __name__ == "__main__":
    main()
