"""A 2-D FFT of a 4096 x 4096 complex128 array and its inverse, 2 rounds (FFTW under tessera,
pocketfft under NumPy).
"""
import time

KERNEL = True  # one library function, not a program
ROUNDS = 2


def size(quick):
    return 1024 if quick else 4096


def units(quick):
    return ROUNDS, "round"


def run(np, quick=False):
    n = size(quick)
    re = np.cos(np.arange(n * n, dtype=np.float64) * 0.001).reshape(n, n)
    z = re + 1j * np.sin(re)
    float(np.sum(re))
    start = time.perf_counter()
    checksum = 0.0
    for _ in range(ROUNDS):
        f = np.fft.fft2(z)
        back = np.fft.ifft2(f)
        checksum += float(np.abs(f[1, 2])) + float(np.real(back[3, 4]))
    return time.perf_counter() - start, checksum
