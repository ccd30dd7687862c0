"""tessera.numpy.random: random numbers from a counter-based generator (Philox-4x32-10).

Element i of a draw depends only on (seed, draw, i), so results do not depend on the number
of cpus, tiles or ranks; the values differ from NumPy's. `default_rng`/`Generator` and the
legacy module functions run natively: the element-wise distributions are one C++ operation
(tessera::Law, whose rejection samplers read further words of the element's own stream);
multinomial, multivariate_normal, dirichlet, choice and the permutations are compositions of
those draws with tessera's sort, indexing and linear algebra (a permutation is an argsort of
uniform keys). get_state, set_state and NumPy's bit generators fall back to numpy.random
(whose legacy state `seed` also seeds), with a FallbackWarning naming them.
"""
import builtins as _builtins
import inspect as _inspect
import operator as _operator
import warnings as _warnings

import numpy as _np

import tessera.numpy as _tnp
from tessera._tessera import _random
from tessera._tessera._random import (  # noqa: F401
    Generator, default_rng, normal, rand, randint, randn, random, random_sample, ranf, sample,
    seed, standard_normal, uniform,
)
from tessera.numpy._fallback import fallback_attribute as _fallback_attribute

_F64 = _np.float64


# ---- element-wise distributions: NumPy's signatures onto Generator._draw ----

def exponential(self, scale=1.0, size=None):
    return self._draw("exponential", (scale,), size)


def standard_exponential(self, size=None, dtype=_F64, method="zig", out=None):
    if method not in ("zig", "inv"):
        raise ValueError(f"method must be 'zig' or 'inv', got {method!r}")
    return self._draw("standard_exponential", (), size, _checked_float(dtype, "standard_exponential"), out)


def gamma(self, shape, scale=1.0, size=None):
    return self._draw("gamma", (shape, scale), size)


def standard_gamma(self, shape, size=None, dtype=_F64, out=None):
    return self._draw("standard_gamma", (shape,), size, _checked_float(dtype, "standard_gamma"), out)


def beta(self, a, b, size=None):
    return self._draw("beta", (a, b), size)


def binomial(self, n, p, size=None):
    return self._draw("binomial", (n, p), size)


def poisson(self, lam=1.0, size=None):
    return self._draw("poisson", (lam,), size)


def geometric(self, p, size=None):
    return self._draw("geometric", (p,), size)


def lognormal(self, mean=0.0, sigma=1.0, size=None):
    return self._draw("lognormal", (mean, sigma), size)


def laplace(self, loc=0.0, scale=1.0, size=None):
    return self._draw("laplace", (loc, scale), size)


def logistic(self, loc=0.0, scale=1.0, size=None):
    return self._draw("logistic", (loc, scale), size)


def gumbel(self, loc=0.0, scale=1.0, size=None):
    return self._draw("gumbel", (loc, scale), size)


def chisquare(self, df, size=None):
    return self._draw("chisquare", (df,), size)


def noncentral_chisquare(self, df, nonc, size=None):
    return self._draw("noncentral_chisquare", (df, nonc), size)


def f(self, dfnum, dfden, size=None):
    return self._draw("f", (dfnum, dfden), size)


def noncentral_f(self, dfnum, dfden, nonc, size=None):
    return self._draw("noncentral_f", (dfnum, dfden, nonc), size)


def standard_t(self, df, size=None):
    return self._draw("standard_t", (df,), size)


def standard_cauchy(self, size=None):
    return self._draw("standard_cauchy", (), size)


def weibull(self, a, size=None):
    return self._draw("weibull", (a,), size)


def pareto(self, a, size=None):
    return self._draw("pareto", (a,), size)


def power(self, a, size=None):
    return self._draw("power", (a,), size)


def rayleigh(self, scale=1.0, size=None):
    return self._draw("rayleigh", (scale,), size)


def triangular(self, left, mode, right, size=None):
    return self._draw("triangular", (left, mode, right), size)


def vonmises(self, mu, kappa, size=None):
    return self._draw("vonmises", (mu, kappa), size)


def wald(self, mean, scale, size=None):
    return self._draw("wald", (mean, scale), size)


def zipf(self, a, size=None):
    return self._draw("zipf", (a,), size)


def logseries(self, p, size=None):
    return self._draw("logseries", (p,), size)


def hypergeometric(self, ngood, nbad, nsample, size=None):
    return self._draw("hypergeometric", (ngood, nbad, nsample), size)


def negative_binomial(self, n, p, size=None):
    return self._draw("negative_binomial", (n, p), size)


def _checked_float(dtype, method):
    dt = _np.dtype(dtype)
    if dt not in (_np.dtype(_np.float64), _np.dtype(_np.float32)):
        raise TypeError(f"Unsupported dtype {dt!r} for {method}")
    return dt


def _size_tuple(size):
    if size is None:
        return None
    return tuple(_operator.index(s) for s in size) if _np.iterable(size) else (_operator.index(size),)


def _count(size):
    """The number of values a draw of `size` makes (one for None)."""
    shape = _size_tuple(size)
    return 1 if shape is None else int(_np.prod(shape, dtype=_np.int64))


# ---- multivariate distributions ----

def multinomial(self, n, pvals, size=None):
    """Counts of n trials over len(pvals) categories: a binomial draw per category, each of
    the trials left and the probability left (as NumPy's own method)."""
    pv = _tnp.asarray(pvals, dtype=_F64)
    if pv.ndim == 0 or pv.shape[-1] == 0:
        raise ValueError("pvals must have at least 1 dimension and the last dimension of pvals "
                         "must be greater than 0.")
    if bool(_tnp.any(~((pv >= 0) & (pv <= 1)))):
        raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
    if pv.shape[-1] > 1 and bool(_tnp.any(_tnp.sum(pv[..., :-1], axis=-1) > 1.0 + 1e-12)):
        raise ValueError("sum(pvals[:-1]) > 1.0")
    n = _tnp.asarray(n)
    if n.dtype.kind == "f":
        n = n.astype(_np.int64)
    if bool(_tnp.any(n < 0)):
        raise ValueError("n < 0")
    k = pv.shape[-1]
    batch = _size_tuple(size)
    if batch is None:
        batch = _np.broadcast_shapes(n.shape, pv.shape[:-1])
    left = _tnp.broadcast_to(n.astype(_np.int64), batch)
    mass = _tnp.ones(pv.shape[:-1], dtype=_F64)
    counts = []
    for j in range(k - 1):
        pj = pv[..., j]
        q = _tnp.clip(pj / _tnp.maximum(mass, 1e-300), 0.0, 1.0)
        x = self.binomial(left, q, size=batch)
        counts.append(x)
        left = left - x
        mass = mass - pj
    counts.append(_tnp.asarray(left).astype(_np.int64))
    return _tnp.stack(counts, axis=-1)


def multivariate_hypergeometric(self, colors, nsample, size=None, method="marginals"):
    """Balls of each color in `nsample` draws without replacement: a hypergeometric draw per
    color, of the balls left to draw among the balls left (NumPy's 'marginals' method; 'count'
    is accepted and draws from the same distribution)."""
    if method not in ("count", "marginals"):
        raise ValueError('method must be "count" or "marginals".')
    try:
        c = _np.asarray(colors)
        ok = c.ndim == 1 and c.dtype.kind in "iub" or (c.ndim == 1 and c.size == 0)
        c = c.astype(_np.int64) if ok else c
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok or (c.size and int(c.min()) < 0):
        raise ValueError("colors must be a one-dimensional sequence of nonnegative integers not exceeding "
                         f"{_np.iinfo(_np.int64).max}.")
    if not isinstance(nsample, (int, _np.integer)) or isinstance(nsample, bool):
        raise ValueError("nsample must be an integer")
    if nsample < 0:
        raise ValueError("nsample must be nonnegative.")
    total = int(c.sum())
    if nsample > total:
        raise ValueError("nsample > sum(colors)")
    if method == "marginals" and total >= 1_000_000_000:
        raise ValueError('When method is "marginals", sum(colors) must be less than 1000000000.')
    batch = _size_tuple(size) or ()
    left = _tnp.full(batch, int(nsample), dtype=_np.int64)
    counts = []
    rest = total
    for j in range(c.size - 1):
        good = int(c[j])
        rest -= good
        if good == 0:
            x = _tnp.zeros(batch, dtype=_np.int64)
        elif rest == 0:
            x = left
        else:
            x = _tnp.asarray(self.hypergeometric(good, rest, _tnp.maximum(left, 0), size=batch or None))
            x = x.astype(_np.int64)
        counts.append(x)
        left = left - x
    if c.size:
        counts.append(_tnp.asarray(left).astype(_np.int64))
    if not counts:
        return _tnp.zeros(batch + (0,), dtype=_np.int64)
    return _tnp.stack([_tnp.broadcast_to(x, batch) for x in counts], axis=-1)


def spawn(self, n_children):
    """`n_children` independent generators, each seeded by four 64-bit words of this one's
    stream: reproducible from this generator's seed, on any number of cpus and ranks."""
    n = _operator.index(n_children)
    if n < 0:
        raise OverflowError("can't convert negative value to uint32_t")
    if n == 0:
        return []
    words = self.integers(0, 2**63 - 1, size=(n, 4), dtype=_np.int64).tolist()
    return [Generator(w) for w in words]


def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *, method="svd"):
    """mean + z @ A, z standard normal and A a square root of cov (by svd, eigh or cholesky)."""
    if method not in ("svd", "eigh", "cholesky"):
        raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
    mean = _tnp.asarray(mean, dtype=_F64)
    cov = _tnp.asarray(cov, dtype=_F64)
    if mean.ndim != 1:
        raise ValueError("mean must be 1 dimensional")
    if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
        raise ValueError("cov must be 2 dimensional and square")
    if mean.shape[0] != cov.shape[0]:
        raise ValueError("mean and cov must have same length")
    if check_valid not in ("warn", "raise", "ignore"):
        raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
    batch = _size_tuple(size) or ()
    n = mean.shape[0]
    z = self.standard_normal(batch + (n,))
    if method == "cholesky":
        root = _tnp.linalg.cholesky(cov).T
    else:
        if method == "svd":
            _, s, vh = _tnp.linalg.svd(cov)
        else:
            s, u = _tnp.linalg.eigh(cov)
            vh = u.T
        if check_valid != "ignore":
            psd = bool(_tnp.allclose((vh.T * s) @ vh, cov, rtol=tol, atol=tol))
            if method == "eigh":
                psd = psd and not bool(_tnp.any(s < -tol))
            if not psd:
                if check_valid == "raise":
                    raise ValueError("covariance is not symmetric positive-semidefinite.")
                _warnings.warn("covariance is not symmetric positive-semidefinite.", RuntimeWarning,
                               stacklevel=2)
        root = _tnp.sqrt(_tnp.abs(s))[:, None] * vh
    return mean + z @ root


def dirichlet(self, alpha, size=None):
    """Gamma(alpha_i) draws normalised to sum 1 along the last axis."""
    alpha = _tnp.asarray(alpha, dtype=_F64)
    if alpha.ndim != 1:
        raise ValueError("object of too small depth for desired array" if alpha.ndim == 0 else
                         "setting an array element with a sequence. The requested array would "
                         "exceed the maximum number of dimension of 1.")
    if bool(_tnp.any(alpha < 0)):
        raise ValueError("alpha < 0")
    shape = (_size_tuple(size) or ()) + alpha.shape
    g = self.standard_gamma(_tnp.broadcast_to(alpha, shape), size=shape)
    return g / _tnp.sum(g, axis=-1, keepdims=True)


# ---- sampling and permutations: argsort of uniform keys ----

def _along(a, idx, axis):
    """a indexed by the integer array idx along axis (NumPy's take, by native fancy indexing)."""
    return a[(slice(None),) * axis + (idx,)]


def _random_order(self, shape, axis):
    """Positions that sort a draw of uniform keys along `axis`: a uniformly random permutation
    per lane, independent of tiles and ranks."""
    return _tnp.argsort(self.random(shape), axis=axis, kind="stable")


def _ndim(x):
    return x.ndim if isinstance(x, _tnp.ndarray) else _np.ndim(x)


def permutation(self, x, axis=0):
    if isinstance(x, (int, _np.integer)):
        return _random_order(self, (max(int(x), 0),), 0)  # NumPy permutes arange(x): empty for x < 0
    if _ndim(x) == 0:
        raise _np.exceptions.AxisError(axis, 0)
    a = _tnp.asarray(x)
    if a.ndim == 0:
        raise _np.exceptions.AxisError(axis, 0)
    axis = _np.lib.array_utils.normalize_axis_index(axis, a.ndim)
    return _along(a, _random_order(self, (a.shape[axis],), 0), axis)


def shuffle(self, x, axis=0):
    """Permutes `x` in place along `axis` (a tessera array, or a mutable sequence)."""
    if isinstance(x, _tnp.ndarray):
        if x.ndim == 0:
            raise TypeError("len() of unsized object")
        axis = _np.lib.array_utils.normalize_axis_index(axis, x.ndim)
        x[...] = _along(x, _random_order(self, (x.shape[axis],), 0), axis)
        return None
    if axis != 0:
        raise NotImplementedError("Axis argument is only supported on ndarray objects")
    order = [int(i) for i in _random_order(self, (len(x),), 0).tolist()]
    x[:] = [x[i] for i in order]
    return None


def permuted(self, x, *, axis=None, out=None):
    a = _tnp.asarray(x)
    if a.ndim == 0 and axis is None and out is None:
        raise TypeError("len() of unsized object")
    if axis is None:
        flat = a.ravel()
        result = flat[_random_order(self, flat.shape, 0)].reshape(a.shape)
    else:
        axis = _np.lib.array_utils.normalize_axis_index(axis, a.ndim)
        order = _random_order(self, a.shape, axis)
        lanes = [_tnp.arange(n).reshape((1,) * d + (n,) + (1,) * (a.ndim - d - 1))
                 for d, n in enumerate(a.shape)]
        lanes[axis] = order
        result = a[tuple(lanes)]
    if out is None:
        return result
    if out.shape != a.shape:
        raise ValueError("out must have the same shape as x")
    out[...] = result
    return out


def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
    """Uniform indices (integers), weighted ones (searchsorted in the cumulative p), or without
    replacement the first of a random order (weighted: Efraimidis-Spirakis keys log(u) / p)."""
    if isinstance(a, (int, _np.integer)) or (hasattr(a, "ndim") and a.ndim == 0 and
                                             _np.dtype(a.dtype).kind in "iu"):
        pop_size = int(a)
        if pop_size < 0 or (pop_size == 0 and _count(size) != 0):
            raise ValueError("a must be a positive integer unless no samples are taken")
        pool = None
    else:
        pool = _tnp.asarray(a)
        if pool.ndim == 0:
            raise ValueError("a must be a sequence or an integer, not <class 'int'>")
        axis = _np.lib.array_utils.normalize_axis_index(axis, pool.ndim)
        pop_size = pool.shape[axis]
        if pop_size == 0 and _count(size) != 0:
            raise ValueError("a cannot be empty unless no samples are taken")
    shape = _size_tuple(size)
    count = _count(size)
    if p is not None:
        p = _tnp.asarray(p, dtype=_F64)
        if p.ndim != 1:
            raise ValueError("p must be 1-dimensional")
        if p.shape[0] != pop_size:
            raise ValueError("a and p must have same size")
        if bool(_tnp.any(~(p >= 0))):
            raise ValueError("Probabilities are not non-negative")
        if abs(float(_tnp.sum(p)) - 1.0) > _np.sqrt(_np.finfo(_np.float64).eps):
            raise ValueError("Probabilities do not sum to 1. See Notes section of docstring for "
                             "more information.")
    draw_shape = shape if shape is not None else ()
    if replace:
        if p is None:
            idx = self.integers(0, max(pop_size, 1), size=draw_shape)
        else:
            cdf = _tnp.cumsum(p)
            cdf = cdf / cdf[-1]
            idx = _tnp.minimum(_tnp.searchsorted(cdf, self.random(draw_shape), side="right"),
                               pop_size - 1)
    else:
        if count > pop_size:
            raise ValueError("Cannot take a larger sample than population when replace is False")
        if p is not None:
            if int(_tnp.count_nonzero(p > 0)) < count:
                raise ValueError("Fewer non-zero entries in p than size")
            u = self.random((pop_size,))
            positive = p > 0
            keys = _tnp.where(positive, _tnp.log(u) / _tnp.where(positive, p, 1.0), -_np.inf)
            order = _tnp.argsort(-keys, kind="stable")
        else:
            order = _random_order(self, (pop_size,), 0)
        idx = order[:count].reshape(draw_shape)
    if pool is None:
        return int(idx) if shape is None else idx
    if shape is None:
        return pool[(slice(None),) * axis + (int(idx),)]
    return _along(pool, idx, axis)


def bytes(self, length):
    """`length` random bytes."""
    return _builtins.bytes(self.integers(0, 256, size=_operator.index(length), dtype=_np.uint8).tolist())


_METHODS = (
    exponential, standard_exponential, gamma, standard_gamma, beta, binomial, poisson,
    geometric, lognormal, laplace, logistic, gumbel, chisquare, noncentral_chisquare, f,
    noncentral_f, standard_t, standard_cauchy, weibull, pareto, power, rayleigh, triangular,
    vonmises, wald, zipf, logseries, hypergeometric, negative_binomial, multinomial,
    multivariate_normal, dirichlet, permutation, shuffle, permuted, choice, bytes,
    multivariate_hypergeometric, spawn,
)
for _m in _METHODS:
    setattr(Generator, _m.__name__, _m)


# ---- legacy module functions (numpy.random.*) on the process's generator ----

_legacy = _random._legacy_generator()


def _legacy_function(name, wrapper):
    wrapper.__name__ = wrapper.__qualname__ = name
    wrapper.__doc__ = f"numpy.random.{name} on tessera's legacy generator."
    return wrapper


def _bind_legacy(m):
    wrapper = _legacy_function(m.__name__, lambda *args, **kwargs: m(_legacy, *args, **kwargs))
    signature = _inspect.signature(m)
    wrapper.__signature__ = signature.replace(parameters=list(signature.parameters.values())[1:])
    return wrapper


for _m in _METHODS:
    if _m.__name__ not in ("permuted", "permutation", "standard_exponential", "standard_gamma", "choice",
                           "multivariate_normal", "multinomial", "dirichlet", "hypergeometric"):
        globals()[_m.__name__] = _bind_legacy(_m)


def standard_exponential(size=None):  # noqa: F811  the legacy signature
    return _legacy._draw("standard_exponential", (), size)


def standard_gamma(shape, size=None):  # noqa: F811
    return _legacy._draw("standard_gamma", (shape,), size)


def permutation(x):  # noqa: F811  the legacy check: an integer or an array of at least 1-D
    if not isinstance(x, (int, _np.integer)) and _ndim(x) == 0:
        raise IndexError("x must be an integer or at least 1-dimensional")
    return Generator.permutation(_legacy, x)


def choice(a, size=None, replace=True, p=None):  # noqa: F811
    if not isinstance(a, (int, _np.integer)) and _tnp.asarray(a).ndim > 1:
        raise ValueError("a must be 1-dimensional")
    return Generator.choice(_legacy, a, size, replace, p)


def multivariate_normal(mean, cov, size=None, check_valid="warn", tol=1e-8):  # noqa: F811
    return Generator.multivariate_normal(_legacy, mean, cov, size, check_valid, tol)


def multinomial(n, pvals, size=None):  # noqa: F811
    if not isinstance(n, (int, _np.integer)):
        raise TypeError("an integer is required")
    if _np.ndim(pvals) != 1 if not isinstance(pvals, _tnp.ndarray) else pvals.ndim != 1:
        raise TypeError("pvals must be a 1-d sequence")
    return Generator.multinomial(_legacy, n, pvals, size)


def dirichlet(alpha, size=None):  # noqa: F811  the legacy check: every alpha > 0
    if bool(_tnp.any(_tnp.asarray(alpha, dtype=_F64) <= 0)):
        raise ValueError("alpha <= 0")
    return Generator.dirichlet(_legacy, alpha, size)


def hypergeometric(ngood, nbad, nsample, size=None):  # noqa: F811  the legacy check: nsample >= 1
    if bool(_tnp.any(~(_tnp.asarray(nsample) >= 1))):
        raise ValueError("nsample < 1 or nsample is NaN")
    return Generator.hypergeometric(_legacy, ngood, nbad, nsample, size)


def random_integers(low, high=None, size=None):
    """Integers in [low, high] (deprecated in NumPy: randint(low, high + 1))."""
    if high is None:
        _warnings.warn(f"This function is deprecated. Please call randint(1, {low} + 1) instead",
                       DeprecationWarning, stacklevel=2)
        low, high = 1, low
    else:
        _warnings.warn(f"This function is deprecated. Please call randint({low}, {high} + 1) "
                       "instead", DeprecationWarning, stacklevel=2)
    return randint(low, high + 1, size=size, dtype=_np.int64)


def __getattr__(name):
    return _fallback_attribute(name, _np.random, "numpy.random")
