"""Trips per hour of the day: a pandas program that runs on tessera with only its import
changed (`import tessera.pandas as pd`). It writes a Parquet file of synthetic taxi trips,
reads it back (one task per row group, on every core and, under `tessera -n`, every rank),
derives a column, filters rows and aggregates by a key — the arrays are tessera arrays, the
arithmetic one fused pass, the group-by hashed per tile.

    python examples/python/trips.py [-n 5000000] [--backend pandas]
"""
import argparse
import os
import tempfile
import time

import numpy


def write_trips(path, n):
    import pandas
    rng = numpy.random.default_rng(2026)
    pandas.DataFrame({
        "hour": rng.integers(0, 24, n),
        "distance": rng.gamma(2.0, 1.6, n),
        "minutes": rng.gamma(3.0, 4.0, n) + 1.0,
        "fare": rng.gamma(2.5, 6.0, n),
        "passengers": rng.integers(1, 7, n),
    }).to_parquet(path, row_group_size=1 << 18)


def program(pd, path):
    trips = pd.read_parquet(path)
    trips["speed"] = trips["distance"] / trips["minutes"] * 60.0
    fast = trips[(trips["speed"] > 10.0) & (trips["passengers"] >= 2)]
    by_hour = fast.groupby("hour")[["fare", "speed"]].mean()
    return len(fast), by_hour


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=5_000_000, help="trips (default 5,000,000)")
    parser.add_argument("--backend", choices=["pandas", "tessera"], default="tessera",
                        help="tessera, or pandas itself")
    args = parser.parse_args()
    if args.backend == "tessera":
        import tessera.pandas as pd
    else:
        import pandas as pd
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "trips.parquet")
        write_trips(path, args.n)
        start = time.perf_counter()
        rows, by_hour = program(pd, path)
        elapsed = time.perf_counter() - start
    print(f"fast shared trips = {rows}")
    print(f"busiest mean fare = {float(by_hour['fare'].max()):.10f}")
    print(f"mean speed = {float(by_hour['speed'].mean()):.10f}")
    print(f"time = {elapsed:.4f} s")


if __name__ == "__main__":
    main()
