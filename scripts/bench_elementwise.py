#!/usr/bin/env python3
"""Element-wise kernel speed: a few expressions on 10M float64 and float32, NumPy against
tessera with one worker (per-core kernel speed) and with the default configuration.

    .venv/bin/python scripts/bench_elementwise.py [--n 10000000] [--repeat 5]

Each configuration runs in its own process (TESSERA_CONFIG is read once, at import); the
tessera found on sys.path/PYTHONPATH is the one measured, so the same script times any build
(e.g. PYTHONPATH=build/dev-NAME/pkg from scripts/dev_build.sh). Prints milliseconds, best of
--repeat, and tessera's ratio to NumPy.
"""
import argparse
import json
import os
import subprocess
import sys
import time

EXPRESSIONS = {
    "exp(x)": lambda np, x, y, z: np.exp(x),
    "sin(x)": lambda np, x, y, z: np.sin(x),
    "log(y)": lambda np, x, y, z: np.log(y),
    "tanh(x)": lambda np, x, y, z: np.tanh(x),
    "x*y+z": lambda np, x, y, z: x * y + z,
    "sqrt(y)": lambda np, x, y, z: np.sqrt(y),
    "x**2": lambda np, x, y, z: x ** 2,
    "y**0.5": lambda np, x, y, z: y ** 0.5,
    "x**3": lambda np, x, y, z: x ** 3,
    "y**1.7": lambda np, x, y, z: y ** 1.7,
    "maximum(x,z)": lambda np, x, y, z: np.maximum(x, z),
    "x<z": lambda np, x, y, z: x < z,
    "where(x<z,x,z)": lambda np, x, y, z: np.where(x < z, x, z),
    "float32(x)": lambda np, x, y, z: x.astype("float32" if x.dtype == "float64" else "float64"),
}


def child(backend, n, repeat):
    import numpy
    if backend == "numpy":
        np, sync = numpy, (lambda r: None)
    else:
        import tessera
        import tessera.numpy as np
        sync = lambda r: tessera.fence()  # noqa: E731
    results = {}
    for dtype in ("float64", "float32"):
        rng = numpy.random.default_rng(0)
        x, y, z = (np.array(v.astype(dtype)) for v in (rng.standard_normal(n), rng.uniform(0.1, 10, n),
                                                        rng.standard_normal(n)))
        sync(None)
        for name, fn in EXPRESSIONS.items():
            best = float("inf")
            for _ in range(repeat):
                t0 = time.perf_counter()
                r = fn(np, x, y, z)
                sync(r)
                best = min(best, time.perf_counter() - t0)
                del r
            results[f"{name} {dtype}"] = best * 1e3
    print(json.dumps(results))


def run(backend, config, n, repeat):
    env = dict(os.environ)
    env.pop("TESSERA_TEST", None)
    if config is None:
        env.pop("TESSERA_CONFIG", None)
    else:
        env["TESSERA_CONFIG"] = config
    out = subprocess.run([sys.executable, __file__, "--child", backend, "--n", str(n), "--repeat", str(repeat)],
                         env=env, capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--child", choices=["numpy", "tessera"])
    args = parser.parse_args()
    if args.child:
        return child(args.child, args.n, args.repeat)
    numpy_ms = run("numpy", None, args.n, args.repeat)
    one = run("tessera", "--cpus=1", args.n, args.repeat)
    default = run("tessera", None, args.n, args.repeat)
    print(f"{'expression':<24}{'numpy ms':>10}{'cpus=1 ms':>11}{'speedup':>8}{'default ms':>12}{'speedup':>8}")
    for key, base in numpy_ms.items():
        print(f"{key:<24}{base:>10.1f}{one[key]:>11.1f}{base / one[key]:>8.2f}{default[key]:>12.1f}"
              f"{base / default[key]:>8.2f}")


if __name__ == "__main__":
    main()
