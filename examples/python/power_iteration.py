"""Power iteration on a random sparse symmetric matrix: a scipy.sparse program that runs on
tessera with only its imports changed (`import tessera.numpy as np`, `import tessera.sparse
as sparse`), the sparse matrix and the dense vectors in one dependence graph, on every core
(and on every rank under `tessera -n`).

    python examples/python/power_iteration.py [-n 20000] [--iters 50] [--backend numpy]
"""
import argparse
import time


def program(np, sparse, n, iters):
    A = sparse.random(n, n, format="csr")
    A = 0.5 * (A + A.T) + n * sparse.eye(n)
    x = np.random.rand(A.shape[0])
    for _ in range(iters):
        x = A @ x
        x /= np.linalg.norm(x)
    return np.dot(x.T, A @ x)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=20000, help="matrix size (default 20000)")
    parser.add_argument("--iters", type=int, default=50, help="iterations (default 50)")
    parser.add_argument("--backend", choices=["numpy", "tessera"], default="tessera",
                        help="tessera, or NumPy with scipy.sparse")
    args = parser.parse_args()
    if args.backend == "tessera":
        import tessera.numpy as np
        import tessera.sparse as sparse
    else:
        import numpy as np
        import scipy.sparse as sparse
    start = time.perf_counter()
    result = float(program(np, sparse, args.n, args.iters))
    print(f"largest eigenvalue estimate: {result:.12g}")
    print(f"time = {time.perf_counter() - start:.4f} s")


if __name__ == "__main__":
    main()
