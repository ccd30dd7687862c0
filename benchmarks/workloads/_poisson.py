"""The 2-D Poisson matrix (5-point Laplacian on a side × side grid, Dirichlet boundary) shared by
the sparse workloads, built by the backend's own sparse module: scipy.sparse under NumPy,
tessera.sparse under tessera.numpy."""


def sparse_module(np):
    if np.__name__.startswith("tessera"):
        import tessera.sparse as sparse
    else:
        import scipy.sparse as sparse
    return sparse


def side(quick):
    """Grid points per side: 1500² = 2.25M rows and 11.2M stored values (300² when quick)."""
    return 300 if quick else 1500


def poisson(np, n):
    """kron(I, T) + kron(T, I) with T = tridiag(-1, 2, -1), as CSR."""
    sparse = sparse_module(np)
    T = sparse.diags_array([-np.ones(n - 1), 2 * np.ones(n), -np.ones(n - 1)], offsets=[-1, 0, 1], format="csr")
    I = sparse.eye_array(n, format="csr")
    return (sparse.kron(I, T, format="csr") + sparse.kron(T, I, format="csr")).tocsr()


def nnz(n):
    """Stored values of poisson(n): 5 per row but one fewer per grid edge touched."""
    return 5 * n * n - 4 * n
