"""docs/api-coverage.md is generated from the code and up to date, and its classification of
each NumPy function matches what tessera.numpy actually does with it."""

import os
import pathlib
import subprocess
import sys
import warnings

import numpy
import pytest

from parity import SELFCHECK

pytestmark = [pytest.mark.usefixtures("no_fallback"),
              pytest.mark.skipif(SELFCHECK, reason="the table describes tessera.numpy, not plain NumPy")]

REPO = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "api_coverage.py"


@pytest.fixture(scope="module")
def coverage():
    from tessera.numpy import _coverage

    return _coverage


@pytest.fixture(scope="module")
def rows(coverage):
    return {r["name"]: r for r in coverage.rows()}


def _script(*args):
    env = {k: v for k, v in os.environ.items() if not k.startswith("TESSERA_")}
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, env=env,
                          timeout=300, cwd=REPO)


def test_committed_table_is_what_the_script_generates():
    done = _script("--check")
    assert done.returncode == 0, done.stderr


def test_a_stale_table_fails_and_says_how_to_regenerate(tmp_path):
    stale = tmp_path / "api-coverage.md"
    stale.write_text((REPO / "docs" / "api-coverage.md").read_text().replace("| yes |", "| no |", 1))
    done = _script("--check", "--target", str(stale))
    assert done.returncode != 0 and "make build" in done.stderr and "stale" in done.stderr
    assert _script("--target", str(stale)).returncode == 0
    assert stale.read_text() == (REPO / "docs" / "api-coverage.md").read_text()


def _numpy_functions(module):
    return {n for n in dir(module) if not n.startswith("_") and callable(getattr(module, n))
            and not isinstance(getattr(module, n), type)}


def test_every_public_numpy_function_has_one_row(rows):
    expected = {f"numpy.{n}" for n in _numpy_functions(numpy)}
    for sub in ("linalg", "fft", "random"):
        expected |= {f"numpy.{sub}.{n}" for n in _numpy_functions(getattr(numpy, sub))}
    expected |= {f"numpy.random.Generator.{n}" for n in _numpy_functions(numpy.random.Generator)}
    assert set(rows) == expected
    assert len([n for n in rows if n.count(".") == 1]) == len(_numpy_functions(numpy))


def _ours(name):
    import tessera.numpy as tnp

    parts = name.split(".")[1:]
    owner = tnp
    for part in parts[:-1]:
        owner = vars(owner)[part] if part in vars(owner) else getattr(owner, part)
    return vars(owner).get(parts[-1]), getattr(numpy.random.Generator if parts[:-1] == ["random", "Generator"]
                                               else numpy if len(parts) == 1 else getattr(numpy, parts[0]), parts[-1])


def test_the_kind_is_what_tessera_numpy_holds(rows, coverage):
    for name, row in rows.items():
        ours, theirs = _ours(name)
        if row["category"] == coverage.FALLBACK:
            assert ours is None, name
        elif row["category"] == coverage.NUMPY_OWN:
            assert ours is theirs, name
        else:
            assert ours is not None and ours is not theirs, name


def test_fallbacks_warn_and_natives_do_not(rows, coverage):
    import tessera
    import tessera.numpy as tnp

    with warnings.catch_warnings():
        warnings.simplefilter("error", tessera.FallbackWarning)
        tnp.array2string(tnp.arange(3))  # a native: no warning
    fallback = [n for n, r in rows.items() if r["category"] == coverage.FALLBACK and n.count(".") == 1]
    assert "numpy.asmatrix" in fallback
    assert getattr(tnp, "asmatrix").__wrapped__ is numpy.asmatrix  # served by the fallback's wrapper


def test_notes_name_existing_functions(rows, coverage):
    for key in coverage.NOTES:
        if key.endswith("."):
            assert any(n.startswith(key) for n in rows), key
        else:
            assert key in rows, key


@pytest.mark.parametrize("name", ["save", "load", "savez", "savez_compressed", "loadtxt", "savetxt", "genfromtxt",
                                  "fromfile", "frombuffer", "fromstring", "fromregex", "fromiter", "array2string",
                                  "array_repr", "array_str", "iscomplexobj", "isrealobj", "isfortran", "common_type",
                                  "min_scalar_type", "may_share_memory", "shares_memory", "frompyfunc"])
def test_io_and_metadata_functions_are_native(rows, coverage, name):
    assert rows[f"numpy.{name}"]["category"] in (coverage.NATIVE_CPP, coverage.COMPOSITION)


@pytest.mark.parametrize("name", ["base_repr", "binary_repr", "typename", "isscalar", "iterable", "isdtype",
                                  "mintypecode", "info", "show_runtime", "get_include", "getbufsize", "setbufsize",
                                  "geterrcall", "seterrcall", "get_printoptions", "set_printoptions", "printoptions"])
def test_numpys_own_functions_are_labelled_so(rows, coverage, name):
    assert rows[f"numpy.{name}"]["category"] == coverage.NUMPY_OWN


def test_native_cpp_and_compositions_are_told_apart(rows, coverage):
    assert rows["numpy.add"]["category"] == coverage.NATIVE_CPP
    assert rows["numpy.sum"]["category"] == coverage.NATIVE_CPP
    assert rows["numpy.linalg.svd"]["category"] == coverage.NATIVE_CPP  # a Python signature on _linalg.svd
    assert rows["numpy.median"]["category"] == coverage.COMPOSITION
    assert rows["numpy.random.Generator.normal"]["category"] == coverage.NATIVE_CPP
    assert "counter-based" in rows["numpy.random.Generator.normal"]["differs"]
    assert "datetime64" in rows["numpy.busday_count"]["differs"]
    assert rows["numpy.busday_count"]["category"] == coverage.FALLBACK
