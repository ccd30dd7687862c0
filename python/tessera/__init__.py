"""tessera: NumPy programs in parallel on every core and across machines.

Use it by changing one import line: ``import tessera.numpy as np``.
The runtime starts on import, configured by the TESSERA_CONFIG environment
variable (``TESSERA_CONFIG=--help`` lists the flags).
"""
from . import _tessera


class FallbackWarning(RuntimeWarning):
    """A NumPy function that tessera does not implement natively ran in NumPy, on copies of the
    arrays (changes it made to them in place were copied back). Silence it with
    ``warnings.simplefilter("ignore", tessera.FallbackWarning)``, or for the whole run with
    ``TESSERA_CONFIG=--fallback=silent``."""


class FallbackError(NotImplementedError):
    """A NumPy function that tessera does not implement natively was called while
    ``TESSERA_CONFIG`` has ``--fallback=error``; raised before anything is converted or run."""


from ._tessera import ConfigError, OutOfMemoryError, StoreTarget, fence, finish, memory_report, offload_to

OutOfMemoryError.__module__ = "tessera"  # as tracebacks name it: tessera.OutOfMemoryError
StoreTarget.__module__ = "tessera"

__all__ = ["ConfigError", "FallbackError", "FallbackWarning", "OutOfMemoryError", "StoreTarget", "fence", "finish", "memory_report", "offload_to",
           "show_config", "timing"]


def _start():
    import os
    import sys

    try:
        _tessera.start()
    except ConfigError:
        raise
    if "--help" in os.environ.get("TESSERA_CONFIG", "").split():
        sys.exit(0)
    if _tessera._rank_count() > 1:
        _tessera._random._seed_numpy_alike()


_start()


def _install_failure_hook():
    """With several ranks, an unhandled exception on one rank ends the whole run: its
    traceback and a line naming the rank reach the terminal (even from a rank whose output
    is silenced), then every rank is aborted through MPI rather than left waiting."""
    import sys

    previous = sys.excepthook

    def excepthook(exc_type, exc, tb):
        try:
            ranks = _tessera._rank_count()
        except Exception:  # the runtime itself failed to start: nothing to stop
            ranks = 1
        if ranks <= 1:
            return previous(exc_type, exc, tb)
        import traceback

        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        what = f"{exc_type.__name__}: {exc}" if str(exc) else exc_type.__name__
        _tessera._write_to_terminal("".join(traceback.format_exception(exc_type, exc, tb)))
        _tessera._abort_run(1, f"tessera: rank {_tessera._rank()} failed: {what}; stopping all ranks")

    sys.excepthook = excepthook


_install_failure_hook()


def show_config():
    """What the runtime reserved: processors and memory."""
    return _tessera.show_config()


from . import timing  # noqa: E402
from .task import (InOutArray, InputArray, OutputArray, ReductionArray, Task, TaskContext,  # noqa: E402
                   align, bloat, broadcast, image, min_extents, scale, task)

__all__ += ["InOutArray", "InputArray", "OutputArray", "ReductionArray", "Task", "TaskContext", "align", "bloat",
            "broadcast", "image", "min_extents", "scale", "task"]

import atexit as _atexit

_atexit.register(_tessera.finish)
