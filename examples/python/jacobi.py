"""2-D Laplace equation solved by Jacobi iteration on an N x N grid.

The top edge is held at 1 and the other edges at 0. Every K iterations the
solver keeps a copy of the grid and reports the l2 norm of the change, so the
hot loop is a single stencil statement. Only `load_numpy` knows about tessera:
the solver itself is plain NumPy.

    python examples/python/jacobi.py -n 1000 --iters 100 --backend numpy
"""
import argparse
import time


def load_numpy(backend):
    """Return the array module: tessera.numpy or numpy."""
    if backend == "tessera":
        try:
            import tessera.numpy as np
        except ImportError as e:
            raise SystemExit(f"tessera is not importable ({e}); try --backend numpy")
    else:
        import numpy as np
    return np


def jacobi(np, n, iters, check_every, tol):
    """Run up to `iters` sweeps; return (sweeps done, l2 norm of the last checked change)."""
    p = np.zeros((n, n))
    p[0, :] = 1.0
    l2 = float("inf")
    for it in range(1, iters + 1):
        check = it % check_every == 0 or it == iters
        if check:
            pn = p.copy()
        p[1:-1, 1:-1] = .25 * (p[1:-1, 2:] + p[1:-1, :-2] + p[2:, 1:-1] + p[:-2, 1:-1])
        if check:
            l2 = float(np.sqrt(np.sum((p - pn) ** 2)))
            if l2 < tol:
                break
    return it, l2


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=1000, help="grid size (default 1000)")
    parser.add_argument("--iters", type=int, default=100, help="maximum sweeps (default 100)")
    parser.add_argument("-k", "--check-every", type=int, default=25,
                        help="measure the change every K sweeps (default 25)")
    parser.add_argument("--tol", type=float, default=0.0,
                        help="stop once the change is below this (default 0: never)")
    parser.add_argument("--backend", choices=["numpy", "tessera"], default="tessera")
    args = parser.parse_args()

    np = load_numpy(args.backend)
    start = time.perf_counter()
    sweeps, l2 = jacobi(np, args.n, args.iters, args.check_every, args.tol)  # l2 is a float: forced
    elapsed = time.perf_counter() - start
    print(f"sweeps = {sweeps}")
    print(f"l2 = {l2!r}")
    print(f"time = {elapsed:.4f} s")


if __name__ == "__main__":
    main()
