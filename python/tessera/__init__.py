"""tessera: NumPy programs in parallel on every core and across machines.

Use it by changing one import line: ``import tessera.numpy as np``.
The runtime starts on import, configured by the TESSERA_CONFIG environment
variable (``TESSERA_CONFIG=--help`` lists the flags).
"""
from . import _tessera
from ._tessera import ConfigError, OutOfMemoryError, StoreTarget, fence, finish, memory_report, offload_to

OutOfMemoryError.__module__ = "tessera"  # as tracebacks name it: tessera.OutOfMemoryError
StoreTarget.__module__ = "tessera"

__all__ = ["ConfigError", "OutOfMemoryError", "StoreTarget", "fence", "finish", "memory_report", "offload_to",
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


_start()


def show_config():
    """What the runtime reserved: processors and memory."""
    return _tessera.show_config()


from . import timing  # noqa: E402

import atexit as _atexit

_atexit.register(_tessera.finish)
