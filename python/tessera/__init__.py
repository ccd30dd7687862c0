"""tessera: NumPy programs in parallel on every core and across machines.

Use it by changing one import line: ``import tessera.numpy as np``.
The runtime starts on import, configured by the TESSERA_CONFIG environment
variable (``TESSERA_CONFIG=--help`` lists the flags).
"""
from . import _tessera
from ._tessera import ConfigError, OutOfMemoryError, fence, finish

__all__ = ["ConfigError", "OutOfMemoryError", "fence", "finish", "show_config"]


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


import atexit as _atexit

_atexit.register(_tessera.finish)
