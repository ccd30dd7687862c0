"""Timing tessera programs.

Operations run asynchronously, so reading a clock right after issuing them measures only
how long issuing took. ``time()`` first waits for every pending operation::

    from tessera.timing import time
    start = time()
    run_step()
    print(f"{(time() - start) / 1000:.1f} ms")
"""
from ._tessera import _timing_time

__all__ = ["time"]


def time(units="us"):
    """The time, as an int in `units` ('s', 'ms', 'us' or 'ns'; default microseconds), read
    after all work issued so far has finished. Only differences between two calls matter."""
    return _timing_time(units)
