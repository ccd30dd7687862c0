"""Runs one benchmark workload (benchmarks/workloads/NAME.py) at its small (--quick) size on
tessera and prints its checksum exactly: `checksum = <repr> <float.hex>`.

    python workload_checksum.py jacobi
"""
import importlib
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3]))


def main():
    name = sys.argv[1]
    workload = importlib.import_module(f"benchmarks.workloads.{name}")
    import tessera.numpy as np

    _, checksum = workload.run(np, quick=True)
    print(f"checksum = {checksum!r} {float(checksum).hex()}")


if __name__ == "__main__":
    main()
