"""One module per workload, each with `run(np, quick=False) -> (seconds, checksum)`.

`np` is numpy or tessera.numpy. Setup is outside the timed region, and the
result is forced with float() before the clock stops. Every function a workload calls
runs natively in tessera (tests/python/test_fallback.py runs them with
`--fallback=error`).

A module may also define, for run.py:

- `traffic(quick) -> bytes`: the bytes the timed part must move between memory and the
  processors at least. Every input array is read once and every result array written once
  per pass, a pass being what must finish before the next can start (a sweep, an
  iteration, a time step, an operation on data the next one overlaps); temporaries inside
  a pass never reach memory. The final checksum counts as one read of what it sums. Each
  module says what it assumed. run.py divides it by the time for GB/s.
- `units(quick) -> (count, name)`: the timed part is `count` repetitions of one `name`
  (e.g. 20000 "operation"s); run.py prints the time per repetition.
- `MICRO = True`: a measurement of one mechanism (the cost of a tiny operation), not a
  program: run.py leaves it out of the geometric mean over the programs.
- `KERNEL = True`: one library function or mechanism (sort, FFT, SpMV, ...) rather than
  one of the seed programs: run.py gives the kernels their own geometric mean.

Both are called after run() in the same process, so they may use what run() recorded.
"""
