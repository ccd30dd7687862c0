"""tessera.pandas.read_csv against pandas.read_csv: files of a few MB (many byte ranges in test
mode) give pandas' values, dtypes and index exactly, with int, float and bool columns read into
tessera arrays by one task point per range; strings, categories and booleans with missing
values come from pandas; options read natively and those that fall back to pandas (announced);
pandas' errors."""
import warnings

import numpy
import pandas
import pytest

import tessera
import tessera.pandas as tpd


def table(n=60_000, seed=5):
    rng = numpy.random.default_rng(seed)
    ints = rng.integers(-10**9, 10**9, n)
    return pandas.DataFrame({
        "id": pandas.Series([f"id{i:03d}" for i in rng.integers(1, 200, n)], dtype="str"),
        "i": ints,
        "v": rng.integers(1, 6, n),
        "f": numpy.round(rng.normal(size=n) * 100, 6),
        "r": rng.normal(size=n),  # 17 significant digits
        "b": rng.random(n) < 0.5,
        "na": numpy.where(rng.random(n) < 0.01, numpy.nan, ints % 1000),  # ints with missing values
        "bna": pandas.Series(numpy.where(rng.random(n) < 0.01, None, rng.random(n) < 0.5), dtype=object),
        "day": pandas.Series([f"2024-01-{d:02d}" for d in rng.integers(1, 29, n)], dtype="str"),
    })


@pytest.fixture(scope="module")
def csv_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("csv") / "t.csv"
    table().to_csv(path, index=False)
    return path


def same(got, want):
    assert isinstance(got, tpd.DataFrame)
    pandas.testing.assert_frame_equal(got.to_pandas(), want, check_exact=True)


def native(got, *names):
    """The columns `names` are tessera arrays (read by the task points), not host data."""
    for name in names:
        assert not got[name]._on_host, name


def quiet(fn, *args, **kwargs):
    """fn(...), failing on a FallbackWarning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", tessera.FallbackWarning)
        return fn(*args, **kwargs)


@pytest.mark.parametrize("kwargs", [
    {},
    {"usecols": ["i", "f", "b"]},
    {"usecols": ["day", "i"]},
    {"nrows": 12_345},
    {"nrows": 0},
    {"skiprows": 0, "header": 0},
    {"dtype": {"v": "int32", "f": "float32", "id": "category", "i": "float64"}},
    {"dtype": "float64", "usecols": ["i", "v", "f", "na"]},
    {"dtype": {"day": str}},
    {"na_values": ["id007", "2024-01-03", "x"]},
    {"engine": "pyarrow"},
    {"engine": "c", "usecols": ["r"]},
])
def test_read_csv_as_pandas(csv_file, kwargs):
    want = pandas.read_csv(csv_file, **{k: v for k, v in kwargs.items() if k != "engine"})
    got = quiet(tpd.read_csv, csv_file, **kwargs)
    same(got, want)
    numeric = [c for c in want.columns if want[c].dtype.kind in "iufb"]
    native(got, *numeric)


def test_read_csv_separators_names_and_header(tmp_path):
    df = table(20_000, seed=9)
    path = tmp_path / "t.tsv"
    df.to_csv(path, index=False, sep="\t")
    for kwargs in ({"sep": "\t"}, {"delimiter": "\t", "usecols": ["f", "v"]},
                   {"sep": "\t", "header": 0, "names": list("ABCDEFGHI")},
                   {"sep": "\t", "header": None, "skiprows": 1},
                   {"sep": "\t", "names": list("ABCDEFGHI"), "skiprows": 1}):
        got = quiet(tpd.read_csv, path, **kwargs)
        same(got, pandas.read_csv(path, **kwargs))
    got = tpd.read_csv(path, sep="\t", header=None, skiprows=1)
    native(got, 1, 3)


def test_read_csv_gzip(tmp_path):
    df = table(30_000, seed=2)
    path = tmp_path / "t.csv.gz"
    df.to_csv(path, index=False)
    same(quiet(tpd.read_csv, path), pandas.read_csv(path))
    plain = tmp_path / "t.data"
    df.to_csv(plain, index=False, compression="gzip")
    same(quiet(tpd.read_csv, plain, compression="gzip", usecols=["i", "r"]),
         pandas.read_csv(plain, compression="gzip", usecols=["i", "r"]))


@pytest.mark.parametrize("eol", ["\n", "\r\n"])
@pytest.mark.parametrize("last_eol", [True, False])
def test_read_csv_line_ends(tmp_path, eol, last_eol):
    rows = [f"{k},{k * 0.5},{'True' if k % 3 else 'False'},w{k % 7}" for k in range(40_000)]
    text = "a,b,c,d" + eol + eol.join(rows) + (eol if last_eol else "")
    path = tmp_path / "e.csv"
    path.write_bytes(text.encode())
    got = quiet(tpd.read_csv, path)
    same(got, pandas.read_csv(path))
    native(got, "a", "b", "c")


def test_read_csv_types_widened_by_later_rows(tmp_path):
    # The first MiB holds integers only; missing values, a float and text come at the end.
    n = 200_000
    lines = ["a,b,c,d,e"] + [f"{k},{k},{k},{k},{k % 2 == 0}" for k in range(n)] + ["1,,2.5,x,"]
    path = tmp_path / "w.csv"
    path.write_text("\n".join(lines) + "\n")
    got = quiet(tpd.read_csv, path)
    want = pandas.read_csv(path)
    same(got, want)
    assert list(want.dtypes) == [numpy.int64, numpy.float64, numpy.float64, object, object]
    native(got, "a", "b", "c")


def test_read_csv_quoted_line_ends_and_blank_lines(tmp_path):
    rows = [f'{k},"a ""quoted""\nfield {k}",{k * 0.25}' for k in range(20_000)]
    path = tmp_path / "q.csv"
    path.write_text("k,s,x\n" + "\n".join(rows) + "\n")
    same(quiet(tpd.read_csv, path), pandas.read_csv(path))
    path.write_text("k,x\n1,2\n\n3,4\n\n")
    same(quiet(tpd.read_csv, path), pandas.read_csv(path))


def test_read_csv_empty_and_header_only(tmp_path):
    path = tmp_path / "h.csv"
    path.write_text("a,b,c\n")
    same(quiet(tpd.read_csv, path), pandas.read_csv(path))
    path.write_text("a,b\n,\n,\n")
    same(quiet(tpd.read_csv, path), pandas.read_csv(path))  # all missing: float64 NaN


def test_read_csv_fallbacks(tmp_path, csv_file):
    for kwargs in ({"parse_dates": [0]}, {"index_col": 0}, {"usecols": [1, 2]},
                   {"converters": {"v": str}}, {"dtype_backend": "pyarrow"},
                   {"na_values": ["1", "id007"]}):
        with pytest.warns(tessera.FallbackWarning, match="read_csv"):
            tessera.pandas._fallback._warned.discard("read_csv")
            got = tpd.read_csv(csv_file, **kwargs)
        same(got, pandas.read_csv(csv_file, **kwargs))
    ragged = tmp_path / "r.csv"
    ragged.write_text("a,b,c\n1,2,3\n4,5\n")  # pandas fills the short row; Arrow refuses it
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tessera.FallbackWarning)
        same(tpd.read_csv(ragged), pandas.read_csv(ragged))


def test_read_csv_errors(tmp_path, csv_file):
    missing = tmp_path / "nope.csv"
    with pytest.raises(FileNotFoundError) as want:
        pandas.read_csv(missing)
    with pytest.raises(FileNotFoundError) as got:
        tpd.read_csv(missing)
    assert str(got.value) == str(want.value)
    with pytest.raises(ValueError) as want:
        pandas.read_csv(csv_file, usecols=["i", "zz"])
    with pytest.raises(ValueError) as got:
        tpd.read_csv(csv_file, usecols=["i", "zz"])
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("text", [
    "\ufeffa,b\n1,2\n3,4\n",  # a byte-order mark
    "a, b\n1, 2\n3, 4\n",  # spaces after the separator
    "a,b\n18446744073709551610,1\n5,2\n",  # beyond int64: pandas' uint64
    "a,b\n-9223372036854775809,1\n5,2\n",  # below int64: pandas' objects
    "a\ninf\n-inf\n1.5\n", "a\n+5\n-3\n", "a\n1e5\n2E-3\n", "a\n007\n010\n", "a\n1.\n.5\n",
    "a\n0x10\n1\n",  # hexadecimal: pandas' text
    'a,b\n"1","x"\n"2","y"\n', 'a,b\n"",1\nx,2\n',
    "a,b,\n1,2,\n",  # an unnamed column
    "a\n1\n2\n3",
    "a,b\nNA,1\n,2\n", "a\nTrue\nFALSE\ntrue\n", "a\n1\n0\n", "a\nnan\n1\n", "a,b\n1,  \n2,3\n",
])
def test_read_csv_spellings(tmp_path, text):
    """Spellings Arrow and pandas could read differently give pandas' frame (natively, or by
    pandas when a number is spelled in a way Arrow reads otherwise)."""
    path = tmp_path / "s.csv"
    path.write_text(text, encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tessera.FallbackWarning)
        got = tpd.read_csv(path)
    same(got, pandas.read_csv(path))
