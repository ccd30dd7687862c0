"""tessera.numpy.fft: NumPy's discrete Fourier transforms, native on FFTW.

Every function of numpy.fft runs in tessera's runtime: fft, ifft, rfft, irfft, hfft, ihfft,
fft2, ifft2, rfft2, irfft2, fftn, ifftn, rfftn, irfftn, fftfreq, rfftfreq, fftshift and
ifftshift, with NumPy 2's arguments, dtypes (float32 and complex64 stay single precision)
and errors.

A transform along one axis is one deferred operation over the lines of the other axes: its
tiles cut those axes and hold the transformed axis whole, so a large batch runs on every
worker and, under mpirun, on every rank. Transforms over several axes are one such pass per
axis, last axis first, as in NumPy. On several ranks a pass runs where the lines' tiles are:
when the array is cut along the transformed axis, each line is first gathered whole on the
rank that transforms it (a one-dimensional transform of a single line runs on one rank).
"""
import numpy as _np

from tessera._tessera._fft import (  # noqa: F401
    fft, ifft, rfft, irfft, hfft, ihfft, fft2, ifft2, rfft2, irfft2, fftn, ifftn, rfftn, irfftn,
    fftfreq, rfftfreq, fftshift, ifftshift,
)
from tessera.numpy._fallback import fallback_attribute as _fallback_attribute


def __getattr__(name):
    return _fallback_attribute(name, _np.fft, "numpy.fft")
