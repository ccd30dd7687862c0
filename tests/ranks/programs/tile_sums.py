"""Per-tile floating-point sums in a user task, printed as float.hex: they must have the same
bits on any number of cpus and ranks and in test mode (tiles follow the data, DESIGN §5).

    python tile_sums.py            # or under mpirun, or with TESSERA_TEST=1
"""
import numpy

import tessera.numpy as tnp
from tessera import InputArray, ReductionArray, broadcast, task


@task(constraints=(broadcast("total"),))
def sum_of_squares(total: ReductionArray["+"], x: InputArray) -> None:
    total[...] += (x * x).sum()


def main():
    values = numpy.random.default_rng(20261129).random(300_000)
    x = tnp.asarray(values)
    total = tnp.zeros(())
    sum_of_squares(total, x)
    print("task sum =", float(total).hex())
    # A 2-D array of as many elements: tiles are bands of rows.
    total2 = tnp.zeros(())
    sum_of_squares(total2, tnp.asarray(values.reshape(1000, 300)))
    print("task sum 2d =", float(total2).hex())
    # The same arrays reduced by tessera itself (a fixed blocking of the index space).
    print("tessera sum =", float((x * x).sum()).hex())


main()
