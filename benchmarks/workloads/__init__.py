"""One module per workload, each with `run(np, quick=False) -> (seconds, checksum)`.

`np` is numpy or tessera.numpy. Setup is outside the timed region, and the
result is forced with float() before the clock stops. Workloads use only
array creation, operators, sqrt/exp/log/abs/tanh, maximum/minimum/where,
putmask, sum, dot, slicing, boolean masks and copy, so that tessera can run
them natively.
"""
