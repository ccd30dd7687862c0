"""tessera.numpy.random: random numbers from a counter-based generator (Philox-4x32-10).

Element i of a draw depends only on (seed, draw, i), so results do not depend on the number
of cpus or tiles; the values differ from NumPy's. `default_rng`/`Generator` and the legacy
functions below run natively; every other function falls back to numpy.random (whose legacy
state `seed` also seeds), with a RuntimeWarning naming it the first time it is used.
"""
import numpy as _np

from tessera._tessera._random import (  # noqa: F401
    Generator, default_rng, normal, rand, randint, randn, random, random_sample, ranf, sample,
    seed, standard_normal, uniform,
)
from tessera.numpy._fallback import fallback_attribute as _fallback_attribute


def __getattr__(name):
    return _fallback_attribute(name, _np.random, "numpy.random")
