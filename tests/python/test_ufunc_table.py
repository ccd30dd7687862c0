"""tessera's ufunc table (src/numeric/elementwise/ufuncs.def, read through
_tessera._ufunc_table()) against NumPy: every row is a NumPy ufunc of its arity, its aliases
are NumPy's names for it, the identities the reductions fill with are NumPy's, and every name
reaches the same function with NumPy's dtype for every input dtype."""
import numpy
import pytest

import tessera.numpy as tnp
from parity import ALL_DTYPES, check, sample
from tessera import _tessera

TABLE = _tessera._ufunc_table()
BY_NAME = {row["name"]: row for row in TABLE}


def test_rows_are_numpy_ufuncs_of_their_arity():
    assert len(BY_NAME) == len(TABLE)  # one row per name
    for row in TABLE:
        theirs = getattr(numpy, row["name"])
        assert isinstance(theirs, numpy.ufunc), row["name"]
        assert theirs.nin == row["nin"] and theirs.nout == 1, row["name"]


def test_aliases_are_numpy_names_of_the_same_function():
    names = [alias for row in TABLE for alias in row["aliases"]] + list(BY_NAME)
    assert len(names) == len(set(names))  # no name in two rows
    for row in TABLE:
        for alias in row["aliases"]:
            theirs = getattr(numpy, alias, None)
            if theirs is None:  # an alias NumPy 2 dropped (true_divide); tessera keeps it
                continue
            assert isinstance(theirs, numpy.ufunc), alias
            assert theirs.types == getattr(numpy, row["name"]).types, alias
            assert callable(getattr(tnp, alias)), alias


@pytest.mark.parametrize("name", sorted(n for n, r in BY_NAME.items() if r["reorderable"]))
def test_reorderable_identity_is_numpys(name):
    assert BY_NAME[name]["identity"] == getattr(numpy, name).identity
    assert BY_NAME[name]["fold"]  # a reorderable ufunc folds natively


@pytest.mark.parametrize("name", sorted(n for n, r in BY_NAME.items() if r["identity"] is not None))
def test_identity_is_a_right_identity(name):
    """x op identity == x for values of every dtype the ufunc has a loop for."""
    y = BY_NAME[name]["identity"]
    for dtype in ALL_DTYPES:
        x = sample(dtype, (7,), "nonzero" if name == "gcd" else "any")
        if name == "gcd":
            x = numpy.abs(x)
        try:
            expected = getattr(numpy, name)(x, numpy.array(y).astype(dtype))
        except TypeError:
            continue  # no loop for dtype
        if expected.dtype == x.dtype:
            numpy.testing.assert_array_equal(expected, x)


def test_native_reductions_and_accumulations_exist():
    for row in TABLE:
        if row["reduce"] is not None:
            assert callable(getattr(_tessera, row["reduce"][0])), row["name"]
        if row["accumulate"] is not None:
            assert callable(getattr(_tessera, row["accumulate"])), row["name"]


@pytest.mark.parametrize("name", sorted(BY_NAME))
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_row_matches_numpy_per_dtype(name, dtype):
    """The loop the table gives each input dtype: NumPy's result dtype and values, or NumPy's
    exception type when NumPy has no loop."""
    nin = BY_NAME[name]["nin"]
    args = [sample(dtype, (5,), "shift" if name.endswith("shift") or name == "ldexp" else "nonzero", seed=k)
            for k in range(nin)]
    if name == "ldexp":
        args[1] = args[1].astype("int32") if numpy.dtype(dtype).kind == "f" else args[1]
    with numpy.errstate(all="ignore"):
        check(lambda xp, *a: getattr(xp, name)(*a), *args, rtol=1e-5 if "float16" != dtype else None)
