"""Tensor contractions with einsum, float64: a batch of 16 matrix products (N x N), a chain
of three N x N matrices, a 4-index contraction of two M^4 tensors (M = N / 20) over two
indices, a trace of each matrix of the batch and a bilinear form, 5 rounds.

Every call is the same on both backends. The two-operand contractions use einsum's default
(optimize=False), with which NumPy runs its own summation loops rather than BLAS; the chain
and the bilinear form pass optimize=True (without it NumPy would run the chain as one
O(N^4) loop). tessera contracts pairwise on its BLAS matmul either way.
"""
import time

KERNEL = True  # a library kernel, not one of the seed programs

ROUNDS = 5
BATCH = 16


def size(quick):
    """N, the side of the matrices (the tensors have side N // 20)."""
    return 160 if quick else 480


def units(quick):
    """run.py prints the time per round."""
    return ROUNDS, "round"


def run(np, quick=False):
    n = size(quick)
    m = n // 20
    stack = np.linspace(-1.0, 1.0, BATCH * n * n).reshape(BATCH, n, n)
    others = np.cos(np.linspace(0.0, 50.0, BATCH * n * n)).reshape(BATCH, n, n)
    a, b, c = stack[0], others[1], stack[2] * 0.5
    t = np.sin(np.linspace(0.0, 30.0, m ** 4)).reshape(m, m, m, m)
    u = np.cos(np.linspace(0.0, 20.0, m ** 4)).reshape(m, m, m, m)
    x = np.linspace(0.0, 1.0, n)
    float(np.sum(stack) + np.sum(others) + np.sum(t) + np.sum(u))

    start = time.perf_counter()
    checksum = 0.0
    for _ in range(ROUNDS):
        products = np.einsum("bij,bjk->bik", stack, others)
        chain = np.einsum("ij,jk,kl->il", a, b, c, optimize=True)
        tensor = np.einsum("abcd,cdef->abef", t, u)
        traces = np.einsum("bii->b", products)
        form = np.einsum("i,ij,j->", x, chain, x, optimize=True)
        checksum += float(np.sum(traces) + np.sum(tensor) + form)
    return time.perf_counter() - start, checksum
