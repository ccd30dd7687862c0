"""Black-Scholes prices of 10M European call and put options in float64.

The normal CDF is the Abramowitz-Stegun polynomial (error < 7.5e-8), built
from exp, abs and where only.
"""
import time

RISK_FREE = 0.02
VOLATILITY = 0.30


def size(quick):
    """Options priced."""
    return 1_000_000 if quick else 10_000_000


def traffic(quick):
    """One pass reads price, strike and years and writes call and put; the checksum reads
    call and put again. Everything else (d1, d2, the CDFs) is a temporary."""
    return (3 + 2 + 2) * size(quick) * 8


def cnd(np, d):
    """Cumulative normal distribution, Abramowitz and Stegun 26.2.17."""
    k = 1.0 / (1.0 + 0.2316419 * np.abs(d))
    poly = k * (0.319381530 + k * (-0.356563782 + k * (1.781477937
                + k * (-1.821255978 + k * 1.330274429))))
    tail = 0.3989422804014327 * np.exp(-0.5 * d * d) * poly
    return np.where(d > 0, 1.0 - tail, tail)


def run(np, quick=False):
    n = size(quick)
    price = np.linspace(5.0, 30.0, n)
    strike = np.linspace(1.0, 100.0, n)
    years = np.linspace(0.25, 10.0, n)
    float(np.sum(price) + np.sum(strike) + np.sum(years))

    start = time.perf_counter()
    sqrt_t = np.sqrt(years)
    d1 = (np.log(price / strike) + (RISK_FREE + 0.5 * VOLATILITY * VOLATILITY) * years) \
        / (VOLATILITY * sqrt_t)
    d2 = d1 - VOLATILITY * sqrt_t
    cnd1, cnd2 = cnd(np, d1), cnd(np, d2)
    discounted = strike * np.exp(-RISK_FREE * years)
    call = price * cnd1 - discounted * cnd2
    put = discounted * (1.0 - cnd2) - price * (1.0 - cnd1)
    checksum = float(np.sum(call) + np.sum(put))
    return time.perf_counter() - start, checksum
