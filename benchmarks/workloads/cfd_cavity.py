"""Lid-driven cavity flow: step 11 of Barba's "12 steps to Navier-Stokes", float64.

A square cavity whose lid (the top row) moves at speed 1. Every time step builds the
source term b of the pressure Poisson equation from u and v, relaxes the pressure with
NIT Jacobi iterations (boundary conditions on slices after each), then updates u and v
with shifted-slice finite differences. The time step is a fifth of the viscous stability
limit dx**2 / (4 * nu), so the flow stays bounded on any grid.
"""
import time

NIT = 50        # pressure iterations per time step, as in the original
RHO, NU = 1.0, 0.1


def size(quick):
    """(grid points per side, time steps)."""
    return (128, 10) if quick else (300, 40)


def units(quick):
    """run.py prints the time per time step."""
    return size(quick)[1], "time step"


def traffic(quick):
    """Bytes a time step must move at least, times the steps, plus the final sums.

    Assumes each sweep is one pass over memory and temporaries never reach it: b reads u
    and v and writes b (3 arrays); each pressure iteration reads p and b and writes p
    (3; the copy pn becomes a second buffer); the velocity update reads u, v, p and
    writes u, v (5). Boundary rows and columns and the copies un, vn are not counted.
    The checksum reads u, v and p once.
    """
    n, steps = size(quick)
    array = n * n * 8
    return steps * (3 + 3 * NIT + 5) * array + 3 * array


def build_up_b(b, u, v, dt, dx, dy):
    du_dx = (u[1:-1, 2:] - u[1:-1, :-2]) / (2 * dx)
    dv_dy = (v[2:, 1:-1] - v[:-2, 1:-1]) / (2 * dy)
    b[1:-1, 1:-1] = RHO * (1 / dt * (du_dx + dv_dy) - du_dx ** 2
                           - 2 * ((u[2:, 1:-1] - u[:-2, 1:-1]) / (2 * dy)
                                  * (v[1:-1, 2:] - v[1:-1, :-2]) / (2 * dx))
                           - dv_dy ** 2)


def pressure_poisson(p, b, dx, dy):
    for _ in range(NIT):
        pn = p.copy()
        p[1:-1, 1:-1] = (((pn[1:-1, 2:] + pn[1:-1, :-2]) * dy ** 2
                          + (pn[2:, 1:-1] + pn[:-2, 1:-1]) * dx ** 2)
                         / (2 * (dx ** 2 + dy ** 2))
                         - dx ** 2 * dy ** 2 / (2 * (dx ** 2 + dy ** 2)) * b[1:-1, 1:-1])
        p[:, -1] = p[:, -2]  # dp/dx = 0 at x = 2
        p[0, :] = p[1, :]    # dp/dy = 0 at y = 0
        p[:, 0] = p[:, 1]    # dp/dx = 0 at x = 0
        p[-1, :] = 0         # p = 0 at y = 2


def step(u, v, p, b, dt, dx, dy):
    un = u.copy()
    vn = v.copy()
    build_up_b(b, u, v, dt, dx, dy)
    pressure_poisson(p, b, dx, dy)
    c = un[1:-1, 1:-1]
    w = vn[1:-1, 1:-1]
    u[1:-1, 1:-1] = (c - c * dt / dx * (c - un[1:-1, :-2]) - w * dt / dy * (c - un[:-2, 1:-1])
                     - dt / (2 * RHO * dx) * (p[1:-1, 2:] - p[1:-1, :-2])
                     + NU * (dt / dx ** 2 * (un[1:-1, 2:] - 2 * c + un[1:-1, :-2])
                             + dt / dy ** 2 * (un[2:, 1:-1] - 2 * c + un[:-2, 1:-1])))
    v[1:-1, 1:-1] = (w - c * dt / dx * (w - vn[1:-1, :-2]) - w * dt / dy * (w - vn[:-2, 1:-1])
                     - dt / (2 * RHO * dy) * (p[2:, 1:-1] - p[:-2, 1:-1])
                     + NU * (dt / dx ** 2 * (vn[1:-1, 2:] - 2 * w + vn[1:-1, :-2])
                             + dt / dy ** 2 * (vn[2:, 1:-1] - 2 * w + vn[:-2, 1:-1])))
    u[0, :] = 0
    u[:, 0] = 0
    u[:, -1] = 0
    u[-1, :] = 1  # the lid
    v[0, :] = 0
    v[-1, :] = 0
    v[:, 0] = 0
    v[:, -1] = 0


def run(np, quick=False):
    n, steps = size(quick)
    dx = dy = 2.0 / (n - 1)
    dt = 0.2 * dx ** 2 / (4 * NU)
    u = np.zeros((n, n))
    v = np.zeros((n, n))
    p = np.zeros((n, n))
    b = np.zeros((n, n))
    u[-1, :] = 1
    float(np.sum(u) + np.sum(v) + np.sum(p) + np.sum(b))

    start = time.perf_counter()
    for _ in range(steps):
        step(u, v, p, b, dt, dx, dy)
    checksum = float(np.sum(u) + np.sum(v) + np.sum(p))
    return time.perf_counter() - start, checksum
