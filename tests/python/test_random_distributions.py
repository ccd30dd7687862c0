"""NumPy's distributions on tessera's counter-based generator. The values differ from NumPy's by
design, so each distribution is checked statistically against SciPy's (mean and variance
against the analytic ones, a Kolmogorov-Smirnov or chi-square test), on fixed seeds, so
every result is deterministic; shapes, dtypes, Python scalar types and exceptions are
compared with NumPy's exactly, for Generator methods and the legacy module functions."""

import numpy
import pytest

from parity import output_under, public_exception_type, tnp

stats = pytest.importorskip("scipy.stats")

pytestmark = pytest.mark.usefixtures("no_fallback")  # everything here runs natively

N = 20_000
# Bounds of 6 standard errors on a fixed seed: deterministic, and far from any edge.
SIGMAS = 6

# method: (arguments, the SciPy distribution they describe, discrete)
CONTINUOUS = {
    "exponential": ((2.0,), stats.expon(scale=2.0)),
    "standard_exponential": ((), stats.expon()),
    "gamma": ((2.5, 3.0), stats.gamma(2.5, scale=3.0)),
    "gamma_small_shape": ((0.3, 1.0), stats.gamma(0.3)),
    "standard_gamma": ((0.7,), stats.gamma(0.7)),
    "beta": ((2.0, 5.0), stats.beta(2.0, 5.0)),
    "beta_small": ((0.4, 0.6), stats.beta(0.4, 0.6)),
    "lognormal": ((0.5, 0.4), stats.lognorm(0.4, scale=numpy.exp(0.5))),
    "laplace": ((1.0, 2.0), stats.laplace(1.0, 2.0)),
    "logistic": ((1.0, 2.0), stats.logistic(1.0, 2.0)),
    "gumbel": ((1.0, 2.0), stats.gumbel_r(1.0, 2.0)),
    "chisquare": ((3.0,), stats.chi2(3.0)),
    "noncentral_chisquare": ((3.0, 2.0), stats.ncx2(3.0, 2.0)),
    "noncentral_chisquare_small_df": ((0.5, 2.0), stats.ncx2(0.5, 2.0)),
    "f": ((5.0, 12.0), stats.f(5.0, 12.0)),
    "noncentral_f": ((5.0, 12.0, 1.5), stats.ncf(5.0, 12.0, 1.5)),
    "standard_t": ((6.0,), stats.t(6.0)),
    "standard_cauchy": ((), stats.cauchy()),
    "weibull": ((1.5,), stats.weibull_min(1.5)),
    "pareto": ((3.0,), stats.lomax(3.0)),
    "power": ((2.5,), stats.powerlaw(2.5)),
    "rayleigh": ((2.0,), stats.rayleigh(scale=2.0)),
    "triangular": ((-1.0, 0.5, 2.0), stats.triang(0.5, loc=-1.0, scale=3.0)),
    "vonmises": ((0.0, 2.0), stats.vonmises(2.0)),
    "wald": ((1.5, 2.0), stats.invgauss(1.5 / 2.0, scale=2.0)),
}
DISCRETE = {
    "binomial": ((20, 0.3), stats.binom(20, 0.3)),
    "binomial_large": ((1000, 0.6), stats.binom(1000, 0.6)),
    "poisson": ((3.5,), stats.poisson(3.5)),
    "poisson_large": ((250.0,), stats.poisson(250.0)),
    "geometric": ((0.2,), stats.geom(0.2)),
    "zipf": ((2.5,), stats.zipf(2.5)),
    "logseries": ((0.7,), stats.logser(0.7)),
    "hypergeometric": ((12, 30, 10), stats.hypergeom(42, 12, 10)),
    "hypergeometric_large_sample": ((12, 30, 35), stats.hypergeom(42, 12, 35)),
    "hypergeometric_large_hrua": ((400, 600, 300), stats.hypergeom(1000, 400, 300)),
    "hypergeometric_large_hrua_good_heavy": ((900, 300, 500), stats.hypergeom(1200, 900, 500)),
    "negative_binomial": ((4.0, 0.35), stats.nbinom(4.0, 0.35)),
}
# Heavy tails: the sample variance does not estimate anything.
NO_VARIANCE = {"standard_cauchy", "zipf", "pareto"}


def method_of(case):
    for name in list(CONTINUOUS) + list(DISCRETE):
        if case == name:
            return case.split("_small")[0].split("_large")[0]
    raise KeyError(case)


def draw(case, table, seed=0, n=N):
    args, _ = table[case]
    return numpy.asarray(getattr(tnp.random.default_rng(seed), method_of(case))(*args, size=n))


def check_moments(x, dist, case):
    mean, var = float(dist.mean()), float(dist.var())
    if case == "standard_cauchy":
        assert abs(numpy.median(x)) < SIGMAS * numpy.pi / 2 / numpy.sqrt(len(x))
        return
    if numpy.isfinite(var):
        assert abs(x.mean() - mean) < SIGMAS * numpy.sqrt(var / len(x)), case
    if case in NO_VARIANCE or not numpy.isfinite(dist.moment(4)):
        return
    # The variance of the sample variance is (mu4 - var^2) / n.
    mu4 = float(dist.expect(lambda t: (t - mean) ** 4))
    assert abs(x.var() - var) < SIGMAS * numpy.sqrt(max(mu4 - var**2, 1e-300) / len(x)), case


@pytest.mark.parametrize("case", CONTINUOUS)
def test_continuous_distribution_matches_scipy(case):
    x = draw(case, CONTINUOUS)
    dist = CONTINUOUS[case][1]
    assert x.dtype == numpy.float64 and x.shape == (N,)
    lo, hi = dist.support()
    assert numpy.all((x >= lo) & (x <= hi)), "values outside the support"
    check_moments(x, dist, case)
    assert stats.kstest(x, dist.cdf).pvalue > 1e-4, case


@pytest.mark.parametrize("case", DISCRETE)
def test_discrete_distribution_matches_scipy(case):
    x = draw(case, DISCRETE)
    dist = DISCRETE[case][1]
    assert x.dtype == numpy.int64 and x.shape == (N,)
    lo, hi = dist.support()
    assert x.min() >= lo and x.max() <= hi, "values outside the support"
    check_moments(x, dist, case)
    # Chi-square over the values with expected count >= 10 (the rest pooled into one bin).
    values = numpy.arange(lo, min(hi, x.max()) + 1)
    expected = dist.pmf(values) * N
    keep = expected >= 10
    observed = numpy.array([numpy.count_nonzero(x == v) for v in values[keep]])
    obs = numpy.append(observed, N - observed.sum())
    exp = numpy.append(expected[keep], N - expected[keep].sum())
    assert stats.chisquare(obs, exp).pvalue > 1e-4, case


SHAPE_CALLS = {
    "exponential": (1.5,), "standard_exponential": (), "gamma": (2.0, 1.0), "standard_gamma": (2.0,),
    "beta": (1.0, 2.0), "binomial": (10, 0.4), "poisson": (2.0,), "geometric": (0.3,),
    "lognormal": (0.0, 1.0), "laplace": (0.0, 1.0), "logistic": (0.0, 1.0), "gumbel": (0.0, 1.0),
    "chisquare": (2.0,), "noncentral_chisquare": (2.0, 1.0), "f": (2.0, 3.0),
    "noncentral_f": (2.0, 3.0, 1.0), "standard_t": (3.0,), "standard_cauchy": (), "weibull": (2.0,),
    "pareto": (2.0,), "power": (2.0,), "rayleigh": (1.0,), "triangular": (0.0, 0.5, 1.0),
    "vonmises": (0.0, 1.0), "wald": (1.0, 1.0), "zipf": (2.0,), "logseries": (0.5,),
    "hypergeometric": (5, 6, 4), "negative_binomial": (3, 0.5),
}
SIZES = [None, 0, 5, (3, 4), (2, 0), ()]


def same_kind(actual, expected):
    """Same Python type for scalars; same shape and dtype for arrays."""
    if isinstance(expected, numpy.ndarray):
        assert isinstance(actual, tnp.ndarray), type(actual)
        assert actual.shape == expected.shape and actual.dtype == expected.dtype
    else:
        assert type(actual) is type(expected), (type(actual), type(expected))


@pytest.mark.parametrize("size", SIZES, ids=str)
@pytest.mark.parametrize("method", SHAPE_CALLS)
def test_shapes_dtypes_and_scalars_like_numpy(method, size):
    args = SHAPE_CALLS[method]
    same_kind(getattr(tnp.random.default_rng(0), method)(*args, size=size),
              getattr(numpy.random.default_rng(0), method)(*args, size=size))
    tnp.random.seed(0)
    same_kind(getattr(tnp.random, method)(*args, size=size), getattr(numpy.random, method)(*args, size=size))


@pytest.mark.parametrize("method", [m for m, a in SHAPE_CALLS.items() if a])
def test_array_parameters_broadcast(method):
    args = SHAPE_CALLS[method]
    # The first parameter as a column, non-contiguous (every other row of a longer column).
    column = numpy.repeat(numpy.asarray(args[0])[None, None], 6, axis=0)
    t_arrays = (tnp.asarray(column)[::2],) + args[1:]
    arrays = (column[::2],) + args[1:]
    for size in (None, (3, 4)):
        expected = getattr(numpy.random.default_rng(0), method)(*arrays, size=size)
        actual = getattr(tnp.random.default_rng(0), method)(*t_arrays, size=size)
        same_kind(actual, expected)
    zero_d = getattr(tnp.random.default_rng(0), method)(tnp.asarray(args[0]), *args[1:])
    same_kind(zero_d, getattr(numpy.random.default_rng(0), method)(numpy.asarray(args[0]), *args[1:]))


def test_array_parameters_give_each_element_its_law():
    scale = tnp.asarray([1.0, 10.0, 100.0])
    x = numpy.asarray(tnp.random.default_rng(3).exponential(scale, size=(N, 3)))
    for j, s in enumerate([1.0, 10.0, 100.0]):
        assert abs(x[:, j].mean() - s) < SIGMAS * s / numpy.sqrt(N)
    lam = tnp.asarray([[0.5], [40.0]])
    y = numpy.asarray(tnp.random.default_rng(4).poisson(lam, size=(2, N)))
    assert abs(y[0].mean() - 0.5) < SIGMAS * numpy.sqrt(0.5 / N)
    assert abs(y[1].mean() - 40.0) < SIGMAS * numpy.sqrt(40.0 / N)


def test_float32_dtypes():
    for method, args in (("standard_exponential", ()), ("standard_gamma", (2.0,))):
        rng = tnp.random.default_rng(5)
        x = getattr(rng, method)(*args, size=1000, dtype=numpy.float32)
        assert x.dtype == numpy.float32 and x.shape == (1000,)
        assert float(numpy.asarray(x).min()) >= 0
        out = tnp.zeros(7, dtype=numpy.float32)
        assert getattr(rng, method)(*args, dtype=numpy.float32, out=out) is out
        assert float(numpy.asarray(out).min()) > 0


def raises_like_numpy(fn):
    """fn(module) must raise in NumPy; tessera must raise the same public exception type."""
    with pytest.raises(Exception) as info:
        fn(numpy)
    with pytest.raises(public_exception_type(info.value)):
        fn(tnp)


BAD_CALLS = {
    "exponential_scale": lambda r: r.exponential(-1.0),
    "exponential_array_scale": lambda r: r.exponential([1.0, -1.0]),
    "gamma_shape": lambda r: r.gamma(-1.0),
    "beta_a": lambda r: r.beta(0.0, 1.0),
    "binomial_n": lambda r: r.binomial(-1, 0.5),
    "binomial_p": lambda r: r.binomial(5, 1.5),
    "binomial_p_nan": lambda r: r.binomial(5, [0.5, numpy.nan]),
    "poisson_lam": lambda r: r.poisson(-1.0),
    "poisson_large": lambda r: r.poisson(1e20),
    "geometric_p": lambda r: r.geometric(0.0),
    "lognormal_sigma": lambda r: r.lognormal(0.0, -1.0),
    "chisquare_df": lambda r: r.chisquare(0.0),
    "f_dfden": lambda r: r.f(1.0, -2.0),
    "noncentral_f_nonc": lambda r: r.noncentral_f(1.0, 2.0, -1.0),
    "standard_t_df": lambda r: r.standard_t(0.0),
    "weibull_a": lambda r: r.weibull(-1.0),
    "pareto_a": lambda r: r.pareto(0.0),
    "power_a": lambda r: r.power(-1.0),
    "rayleigh_scale": lambda r: r.rayleigh(-1.0),
    "triangular_order": lambda r: r.triangular(1.0, 0.0, 2.0),
    "triangular_empty": lambda r: r.triangular(0.0, 0.0, 0.0),
    "triangular_arrays": lambda r: r.triangular([0.0, 1.0], [3.0, 0.0], 4.0),
    "vonmises_kappa": lambda r: r.vonmises(0.0, -1.0),
    "wald_mean": lambda r: r.wald(0.0, 1.0),
    "zipf_a": lambda r: r.zipf(1.0),
    "logseries_p": lambda r: r.logseries(1.0),
    "hypergeometric_sample": lambda r: r.hypergeometric(5, 5, 11),
    "hypergeometric_good": lambda r: r.hypergeometric(-1, 5, 1),
    "negative_binomial_n": lambda r: r.negative_binomial(0, 0.5),
    "binomial_n_nan": lambda r: r.binomial(numpy.nan, 0.5),
    "binomial_n_array_nan": lambda r: r.binomial([numpy.nan], 0.5),
    "binomial_n_inf": lambda r: r.binomial(numpy.inf, 0.5),
    "hypergeometric_nan": lambda r: r.hypergeometric(numpy.nan, 5, 1),
    "size_mismatch": lambda r: r.exponential([1.0, 2.0], size=3),
    "negative_size": lambda r: r.gamma(1.0, size=-1),
    "multinomial_pvals": lambda r: r.multinomial(5, [-0.5, 1.5]),
    "multinomial_n": lambda r: r.multinomial(-1, [0.5, 0.5]),
    "dirichlet_alpha": lambda r: r.dirichlet([1.0, -1.0]),
    "multivariate_normal_length": lambda r: r.multivariate_normal([0.0], [[1.0, 0.0], [0.0, 1.0]]),
    "multivariate_normal_mean": lambda r: r.multivariate_normal([[0.0]], [[1.0]]),
    "choice_empty": lambda r: r.choice(0),
    "choice_p_size": lambda r: r.choice(5, p=[0.5, 0.5]),
    "choice_p_sum": lambda r: r.choice(5, p=[0.2, 0.2, 0.2, 0.2, 0.3]),
    "choice_too_many": lambda r: r.choice(5, 6, replace=False),
    "choice_p_zeros": lambda r: r.choice(3, 2, replace=False, p=[1.0, 0.0, 0.0]),
    "permutation_0d": lambda r: r.permutation(numpy.array(3)),
}
GENERATOR_ONLY = {"standard_exponential_dtype": lambda r: r.standard_exponential(3, dtype=numpy.int32),
                  "standard_gamma_dtype": lambda r: r.standard_gamma(1.0, 3, dtype=numpy.int32),
                  "negative_binomial_p": lambda r: r.negative_binomial(1, 0.0),
                  "negative_binomial_too_large": lambda r: r.negative_binomial(1e300, 1e-300),
                  "hypergeometric_too_large": lambda r: r.hypergeometric(10**9, 5, 1)}


def test_extreme_parameters():
    rng = tnp.random.default_rng(18)
    assert numpy.asarray(rng.zipf(2000.0, size=10)).tolist() == [1] * 10
    assert rng.zipf(numpy.inf) == 1
    assert int(numpy.asarray(rng.geometric(1e-300, size=3)).min()) == numpy.iinfo(numpy.int64).max
    assert rng.gamma(numpy.inf) == numpy.inf
    assert rng.binomial(2**62, 0.5) > 0
    assert numpy.isnan(rng.noncentral_chisquare(0.5, numpy.nan))
    x = numpy.asarray(rng.poisson(1e15, size=1000))
    assert abs(x.mean() - 1e15) < SIGMAS * numpy.sqrt(1e15 / 1000)


LEGACY_ONLY = {"dirichlet_zero": lambda r: r.dirichlet([1.0, 0.0]),
               "hypergeometric_no_sample": lambda r: r.hypergeometric(5, 5, 0),
               "multinomial_n_array": lambda r: r.multinomial([5, 6], [0.5, 0.5]),
               "multinomial_pvals_scalar": lambda r: r.multinomial(5, 0.5),
               "choice_2d": lambda r: r.choice([[1, 2]])}


@pytest.mark.parametrize("case", LEGACY_ONLY)
def test_legacy_checks_like_numpy(case):
    raises_like_numpy(lambda xp: LEGACY_ONLY[case](xp.random))


@pytest.mark.parametrize("case", list(BAD_CALLS) + list(GENERATOR_ONLY))
def test_invalid_parameters_raise_like_numpy(case):
    call = BAD_CALLS.get(case) or GENERATOR_ONLY[case]
    raises_like_numpy(lambda xp: call(xp.random.default_rng(0)))
    if case in BAD_CALLS:
        raises_like_numpy(lambda xp: call(xp.random))


@pytest.mark.parametrize("method", SHAPE_CALLS)
def test_same_seed_same_values(method):
    args = SHAPE_CALLS[method]
    first = numpy.asarray(getattr(tnp.random.default_rng(42), method)(*args, size=500))
    again = numpy.asarray(getattr(tnp.random.default_rng(42), method)(*args, size=500))
    other = numpy.asarray(getattr(tnp.random.default_rng(43), method)(*args, size=500))
    numpy.testing.assert_array_equal(first, again)
    assert not numpy.array_equal(first, other)
    tnp.random.seed(7)
    legacy = numpy.asarray(getattr(tnp.random, method)(*args, size=500))
    tnp.random.seed(7)
    numpy.testing.assert_array_equal(numpy.asarray(getattr(tnp.random, method)(*args, size=500)), legacy)


def test_element_values_do_not_depend_on_the_array_shape():
    # Element i of a draw is a function of (seed, draw, i): a prefix of a longer draw.
    long = numpy.asarray(tnp.random.default_rng(9).gamma(0.5, size=1000))
    short = numpy.asarray(tnp.random.default_rng(9).gamma(0.5, size=(10, 10)))
    numpy.testing.assert_array_equal(short.ravel(), long[:100])


def test_multinomial():
    rng = tnp.random.default_rng(10)
    p = [0.2, 0.3, 0.5]
    x = rng.multinomial(50, p, size=N)
    same_kind(x, numpy.random.default_rng(0).multinomial(50, p, size=N))
    x = numpy.asarray(x)
    assert numpy.all(x.sum(axis=1) == 50) and x.min() >= 0
    for j, pj in enumerate(p):
        assert abs(x[:, j].mean() - 50 * pj) < SIGMAS * numpy.sqrt(50 * pj * (1 - pj) / N)
    for n, pv in ((5, [[0.5, 0.5], [0.2, 0.8]]), ([5, 6], [0.5, 0.5]), (7, [1.0])):
        same_kind(rng.multinomial(n, pv), numpy.random.default_rng(0).multinomial(n, pv))
    tnp.random.seed(1)
    same_kind(tnp.random.multinomial(20, p, size=(2, 3)), numpy.random.multinomial(20, p, size=(2, 3)))


@pytest.mark.parametrize("method", ["marginals", "count"])
def test_multivariate_hypergeometric(method):
    colors, nsample = [4, 0, 7, 9], 12
    x = tnp.random.default_rng(12).multivariate_hypergeometric(colors, nsample, size=N, method=method)
    same_kind(x, numpy.random.default_rng(0).multivariate_hypergeometric(colors, nsample, size=N, method=method))
    x = numpy.asarray(x)
    assert numpy.all(x.sum(axis=1) == nsample) and numpy.all(x <= colors) and x.min() >= 0
    total = sum(colors)
    for j, c in enumerate(colors):  # each color's count is hypergeometric
        dist = stats.hypergeom(total, c, nsample)
        assert abs(x[:, j].mean() - dist.mean()) <= SIGMAS * numpy.sqrt(dist.var() / N) + 1e-12
        if c:
            assert abs(x[:, j].var() - dist.var()) < 0.1 * dist.var()
    for args in (([3, 2], 5), ([3, 2], 0), ([], 0), ([5], 2)):
        same_kind(tnp.random.default_rng(1).multivariate_hypergeometric(*args),
                  numpy.random.default_rng(1).multivariate_hypergeometric(*args))
    same_kind(tnp.random.default_rng(1).multivariate_hypergeometric([3, 2], 4, size=(2, 3)),
              numpy.random.default_rng(1).multivariate_hypergeometric([3, 2], 4, size=(2, 3)))


@pytest.mark.parametrize("args", [([3, "a"], 2), ([[1, 2]], 1), ([-1, 2], 1), ([2, 3], 6), ([2, 3], -1),
                                  ([2, 3], 2.5), ([2, 3], 2, None, "urn"),
                                  ([600_000_000, 400_000_000], 2, None, "marginals")])
def test_multivariate_hypergeometric_checks_like_numpy(args):
    with pytest.raises(ValueError) as want:
        numpy.random.default_rng(0).multivariate_hypergeometric(*args)
    with pytest.raises(ValueError) as got:
        tnp.random.default_rng(0).multivariate_hypergeometric(*args)
    assert str(got.value) == str(want.value)


def test_spawn_gives_independent_reproducible_children():
    children = tnp.random.default_rng(5).spawn(3)
    again = tnp.random.default_rng(5).spawn(3)
    assert len(children) == 3 and all(isinstance(c, tnp.random.Generator) for c in children)
    draws = [numpy.asarray(c.random(1000)) for c in children]
    for d, c in zip(draws, again):
        numpy.testing.assert_array_equal(d, numpy.asarray(c.random(1000)))
    assert abs(numpy.corrcoef(draws[0], draws[1])[0, 1]) < SIGMAS / numpy.sqrt(1000)
    assert not numpy.array_equal(draws[0], numpy.asarray(tnp.random.default_rng(5).random(1000)))
    assert tnp.random.default_rng(5).spawn(0) == numpy.random.default_rng(5).spawn(0) == []
    with pytest.raises(OverflowError):
        numpy.random.default_rng(5).spawn(-1)
    with pytest.raises(OverflowError):
        tnp.random.default_rng(5).spawn(-1)


def test_dirichlet():
    alpha = [1.0, 2.0, 3.5]
    x = tnp.random.default_rng(11).dirichlet(alpha, size=(N,))
    same_kind(x, numpy.random.default_rng(0).dirichlet(alpha, size=(N,)))
    x = numpy.asarray(x)
    numpy.testing.assert_allclose(x.sum(axis=1), 1.0)
    dist = stats.dirichlet(alpha)
    numpy.testing.assert_allclose(x.mean(axis=0), dist.mean(), atol=SIGMAS * 0.3 / numpy.sqrt(N))
    assert stats.kstest(x[:, 0], stats.beta(1.0, 5.5).cdf).pvalue > 1e-4
    same_kind(tnp.random.default_rng(0).dirichlet(alpha), numpy.random.default_rng(0).dirichlet(alpha))


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal(method):
    mean = [1.0, -2.0]
    cov = [[2.0, 0.6], [0.6, 1.0]]
    x = tnp.random.default_rng(12).multivariate_normal(mean, cov, size=N, method=method)
    same_kind(x, numpy.random.default_rng(0).multivariate_normal(mean, cov, size=N))
    x = numpy.asarray(x)
    numpy.testing.assert_allclose(x.mean(axis=0), mean, atol=SIGMAS * numpy.sqrt(2.0 / N))
    numpy.testing.assert_allclose(numpy.cov(x.T), cov, atol=0.1)
    same_kind(tnp.random.default_rng(0).multivariate_normal(mean, cov),
              numpy.random.default_rng(0).multivariate_normal(mean, cov))
    same_kind(tnp.random.default_rng(0).multivariate_normal(mean, cov, size=(2, 3)),
              numpy.random.default_rng(0).multivariate_normal(mean, cov, size=(2, 3)))


def test_multivariate_normal_checks_the_covariance():
    bad = [[1.0, 2.0], [2.0, 1.0]]
    with pytest.warns(RuntimeWarning):
        tnp.random.default_rng(0).multivariate_normal([0.0, 0.0], bad)
    raises_like_numpy(lambda xp: xp.random.default_rng(0).multivariate_normal([0.0, 0.0], bad,
                                                                              check_valid="raise"))


def test_choice():
    rng = tnp.random.default_rng(13)
    same_kind(rng.choice(5), numpy.random.default_rng(0).choice(5))
    x = numpy.asarray(rng.choice(4, size=N))
    assert x.dtype == numpy.int64 and set(numpy.unique(x).tolist()) == {0, 1, 2, 3}
    p = [0.1, 0.0, 0.6, 0.3]
    w = numpy.asarray(rng.choice(4, size=N, p=p))
    counts = numpy.bincount(w, minlength=4)
    assert counts[1] == 0
    assert stats.chisquare(counts[[0, 2, 3]], numpy.array([0.1, 0.6, 0.3]) * N).pvalue > 1e-4
    sample = numpy.asarray(rng.choice(10, size=10, replace=False))
    assert sorted(sample.tolist()) == list(range(10))
    weighted = numpy.asarray(rng.choice(4, size=3, replace=False, p=p))
    assert len(set(weighted.tolist())) == 3 and 1 not in weighted.tolist()
    a = tnp.asarray(numpy.arange(12.0).reshape(3, 4))
    for kwargs in ({"size": 5}, {"size": (2, 2), "axis": 1}, {"size": 2, "replace": False},
                   {"size": None}):
        same_kind(rng.choice(a, **kwargs), numpy.random.default_rng(0).choice(numpy.arange(12.0).reshape(3, 4),
                                                                               **kwargs))
    assert set(numpy.asarray(rng.choice(a, 50, axis=1)).ravel().tolist()) <= set(range(12))
    tnp.random.seed(2)
    same_kind(tnp.random.choice([1.5, 2.5], 3), numpy.random.choice([1.5, 2.5], 3))
    for args in ((0, (2, 0)), (5, (2, 0)), (numpy.arange(3.0), 0)):
        same_kind(tnp.random.default_rng(0).choice(*args), numpy.random.default_rng(0).choice(*args))
    raises_like_numpy(lambda xp: xp.random.default_rng(0).choice(0, (2, 3)))


def test_choice_without_replacement_weighs_first_picks_by_p():
    # The first pick of a weighted draw without replacement follows p.
    p = [0.5, 0.25, 0.25]
    rng = tnp.random.default_rng(14)
    first = [int(numpy.asarray(rng.choice(3, 2, replace=False, p=p))[0]) for _ in range(2000)]
    counts = numpy.bincount(first, minlength=3)
    assert stats.chisquare(counts, numpy.array(p) * 2000).pvalue > 1e-4


def test_permutation_shuffle_permuted():
    rng = tnp.random.default_rng(15)
    perm = numpy.asarray(rng.permutation(100))
    assert perm.dtype == numpy.int64 and sorted(perm.tolist()) == list(range(100))
    assert not numpy.array_equal(perm, numpy.arange(100))
    x = numpy.arange(24).reshape(4, 6)
    rows = numpy.asarray(rng.permutation(tnp.asarray(x)))
    assert sorted(map(tuple, rows.tolist())) == sorted(map(tuple, x.tolist()))
    cols = numpy.asarray(rng.permutation(tnp.asarray(x), axis=1))
    assert sorted(map(tuple, cols.T.tolist())) == sorted(map(tuple, x.T.tolist()))
    a = tnp.asarray(x.copy())
    assert rng.shuffle(a) is None
    assert sorted(map(tuple, numpy.asarray(a).tolist())) == sorted(map(tuple, x.tolist()))
    seq = list(range(10))
    rng.shuffle(seq)
    assert sorted(seq) == list(range(10))
    each = numpy.asarray(rng.permuted(tnp.asarray(x), axis=1))
    for row, orig in zip(each, x):
        assert sorted(row.tolist()) == orig.tolist()
    flat = numpy.asarray(rng.permuted(tnp.asarray(x)))
    assert flat.shape == x.shape and sorted(flat.ravel().tolist()) == list(range(24))
    out = tnp.zeros((4, 6), dtype=numpy.int64)
    assert rng.permuted(tnp.asarray(x), axis=0, out=out) is out
    tnp.random.seed(3)
    same_kind(tnp.random.permutation(5), numpy.random.permutation(5))


@pytest.mark.parametrize("view", ["whole", "transposed", "reversed_strided", "empty"])
def test_shuffle_changes_views_in_place(view):
    base = numpy.arange(54.0).reshape(9, 6)
    select = {"whole": lambda b: b, "transposed": lambda b: b.T, "reversed_strided": lambda b: b[::-2, 1:5],
              "empty": lambda b: b[3:3]}[view]
    t = tnp.asarray(base.copy())
    v = select(t)
    before = select(base)
    tnp.random.seed(1)
    assert tnp.random.shuffle(v) is None
    after = numpy.asarray(v)
    assert sorted(map(tuple, after.tolist())) == sorted(map(tuple, before.tolist()))
    outside = numpy.ones(base.shape, bool)
    select(outside)[...] = False
    numpy.testing.assert_array_equal(numpy.asarray(t)[outside], base[outside])
    if before.shape[0] > 3:
        assert not numpy.array_equal(after, before)
    raises_like_numpy(lambda xp: xp.random.shuffle(xp.asarray(numpy.array(3.0))))


def test_permutations_are_uniform():
    # Each of the 6 orders of 3 elements about equally often.
    rng = tnp.random.default_rng(16)
    keys = numpy.asarray(rng.permuted(tnp.asarray(numpy.tile([0, 1, 2], (6000, 1))), axis=1))
    codes = keys[:, 0] * 9 + keys[:, 1] * 3 + keys[:, 2]
    counts = numpy.unique(codes, return_counts=True)[1]
    assert len(counts) == 6 and stats.chisquare(counts).pvalue > 1e-4


def test_bytes_and_random_integers():
    b = tnp.random.default_rng(17).bytes(10)
    assert isinstance(b, bytes) and len(b) == 10
    tnp.random.seed(4)
    assert isinstance(tnp.random.bytes(3), bytes)
    with pytest.warns(DeprecationWarning):
        x = numpy.asarray(tnp.random.random_integers(1, 6, size=1000))
    assert x.min() == 1 and x.max() == 6
    with pytest.warns(DeprecationWarning):
        same_kind(tnp.random.random_integers(5), numpy.random.random_integers(5))


DIGEST_CODE = """
rng = np.random.default_rng(2024)
parts = [rng.gamma(0.7, size=(37, 29)), rng.poisson([[2.0], [300.0]], size=(2, 501)),
         rng.binomial(1000, 0.4, size=777), rng.vonmises(0.0, 3.0, size=333),
         rng.permutation(1000), rng.choice(50, 20, replace=False, p=numpy.full(50, 0.02)),
         rng.multinomial(30, [0.2, 0.3, 0.5], size=40), rng.hypergeometric(40, 60, 30, size=99)]
digest = hashlib.sha256(b"".join(numpy.asarray(p).tobytes() for p in parts)).hexdigest()
"""
INTEGER_BOUNDS = {
    "array_low": ((numpy.array([1, 2, 3]), 10), {}),
    "array_high": ((0, numpy.array([[2], [5]])), {}),
    "float_bounds": ((numpy.array([1.5, 2.5]), 5), {}),
    "one_bound": ((numpy.array([3, 4]),), {}),
    "zero_d": ((numpy.array(3),), {}),
    "sized": ((numpy.array([5, 2]), [6, 3]), {"size": (3, 2)}),
    "endpoint": ((numpy.array([0, 1]), [3, 1]), {"endpoint": True}),
    "uint8": (([0, 200], [5, 256]), {"dtype": numpy.uint8}),
    "bool": (([0, 1], [2, 2]), {"dtype": bool}),
    "empty": (([], 5), {}),
    "strided": ((numpy.arange(12)[::3], 100), {}),
}


@pytest.mark.parametrize("case", INTEGER_BOUNDS)
def test_integers_with_array_bounds(case):
    args, kwargs = INTEGER_BOUNDS[case]
    t_args = tuple(tnp.asarray(a) if isinstance(a, numpy.ndarray) else a for a in args)
    actual = tnp.random.default_rng(0).integers(*t_args, **kwargs)
    expected = numpy.random.default_rng(0).integers(*args, **kwargs)
    if isinstance(expected, numpy.ndarray):
        same_kind(actual, expected)
    else:
        assert type(actual) is type(expected)
    low, high = (numpy.zeros((), int), args[0]) if len(args) == 1 else args
    low = numpy.trunc(numpy.asarray(low, dtype=float))
    high = numpy.asarray(high, dtype=float) + (1 if kwargs.get("endpoint") else 0)
    values = numpy.asarray(actual).astype(float)
    assert numpy.all((values >= low) & (values < high))


def test_integers_with_array_bounds_are_uniform_per_element():
    high = tnp.asarray([2, 10, 1000])
    x = numpy.asarray(tnp.random.default_rng(19).integers(0, high, size=(N, 3)))
    for j, h in enumerate([2, 10, 1000]):
        assert x[:, j].min() == 0 and x[:, j].max() == h - 1
        assert abs(x[:, j].mean() - (h - 1) / 2) < SIGMAS * numpy.sqrt((h * h - 1) / 12 / N)
    raises_like_numpy(lambda xp: xp.random.default_rng(0).integers([0, 300], [5, 301], dtype=numpy.uint8))
    raises_like_numpy(lambda xp: xp.random.default_rng(0).integers([-1, 0], [5, 6], dtype=numpy.uint64))
    raises_like_numpy(lambda xp: xp.random.default_rng(0).integers([5], [2]))
    raises_like_numpy(lambda xp: xp.random.default_rng(0).integers([0, 1], [2, 3], size=3))


SCRIPT = "import hashlib, numpy, tessera.numpy as np\n" + DIGEST_CODE + "print(digest)\n"
# The digest of DIGEST_CODE's draws: the same in any process, with any cpus or ranks. (It
# changes with the samplers' algorithms, and then must be updated.)
PINNED_DIGEST = "357bf4ca900c28c307000f0e2585796336154da4e5fcf63bb93bb62c67de8e7a"


def test_draws_are_the_same_in_every_process():
    scope = {"hashlib": __import__("hashlib"), "numpy": numpy, "np": tnp}
    exec(DIGEST_CODE, scope)
    assert scope["digest"] == PINNED_DIGEST


def test_draws_do_not_depend_on_cpus():
    want = output_under("--cpus=1", SCRIPT)
    assert output_under("--cpus=2", SCRIPT) == want
    assert output_under("--cpus=2 --min-cpu-chunk=2", SCRIPT) == want
