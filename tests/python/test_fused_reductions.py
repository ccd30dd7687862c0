"""A reduction of an element-wise result (`np.sum((p - pn) ** 2)`) evaluates the expression
block by block instead of storing it: the values must be NumPy's, and bitwise the same
whether or not the window fused them (--window-size=1 fuses nothing), on 1 or 2 cpus."""
import os
import subprocess
import sys

import numpy
import pytest

import tessera.numpy as np

SHAPES = [(1000003,), (700, 900), (3, 5, 7001), (7,), (300, 1)]


def cases(m, a, b):
    out = [m.sum((a - b) ** 2), m.max(a * b + 1), m.mean(m.abs(a - b)), m.argmax(a + b), m.argmin(a - b),
           m.sum((a > b).astype(m.float32)), m.prod(1 + (a - b) * 1e-3), m.min(m.sqrt(m.abs(a)) - b)]
    if a.ndim > 1:
        out += [m.sum(a * b, axis=-1), m.max(a - b, axis=-1), m.sum(a * b, axis=0)]
    return out


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_reductions_of_expressions_match_numpy(shape):
    rng = numpy.random.default_rng(5)
    a0, b0 = rng.standard_normal(shape), rng.standard_normal(shape)
    a, b = np.array(a0), np.array(b0)
    for got, want in zip(cases(np, a, b), cases(numpy, a0, b0)):
        got = numpy.asarray(got)
        assert got.dtype == want.dtype and got.shape == want.shape
        numpy.testing.assert_allclose(got, want, rtol=1e-12)


def digest_under(config):
    code = "\n".join([
        "import hashlib, numpy, tessera.numpy as np",
        "from test_fused_reductions import cases, SHAPES",
        "digest = hashlib.sha1()",
        "rng = numpy.random.default_rng(5)",
        "for shape in SHAPES:",
        "    a, b = np.array(rng.standard_normal(shape)), np.array(rng.standard_normal(shape))",
        "    for r in cases(np, a, b):",
        "        digest.update(numpy.asarray(r).tobytes())",
        "print(digest.hexdigest())",
    ])
    env = dict(os.environ, TESSERA_CONFIG=config, PYTHONPATH=os.path.dirname(__file__))
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_fused_and_unfused_agree_bitwise():
    fused = digest_under("--cpus=2")
    assert digest_under("--cpus=2 --window-size=1") == fused
    assert digest_under("--cpus=1") == fused
