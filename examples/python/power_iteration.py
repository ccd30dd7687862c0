"""Power iteration on a random sparse symmetric matrix: the scipy.sparse program of the
talk with only its imports changed, so the sparse matrix and the dense vectors are tessera
arrays in one dependence graph, on every core (and on every rank under `tessera -n`).

    python examples/python/power_iteration.py [-n 20000] [--iters 50]
"""
import argparse

import tessera.numpy as numpy
import tessera.sparse as scipy_sparse


class scipy:  # noqa: N801  the program below spells scipy.sparse.*
    sparse = scipy_sparse


def program(n, iters):
    A = scipy.sparse.random(n, n, format="csr")
    A = 0.5 * (A + A.T) + n * scipy.sparse.eye(n)
    x = numpy.random.rand(A.shape[0])
    for _ in range(iters):
        x = A @ x
        x /= numpy.linalg.norm(x)
    result = numpy.dot(x.T, A @ x)
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=20000)
    parser.add_argument("--iters", type=int, default=50)
    args = parser.parse_args()
    print(f"largest eigenvalue estimate: {float(program(args.n, args.iters)):.12g}")
