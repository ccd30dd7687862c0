"""db-benchmark's questions under tessera.pandas give pandas' answers: groupby q1-q10 and join
q1-q5 exactly as its pandas solution asks them (benchmarks/dataframe/queries.py), on small
tables made by benchmarks/dataframe/datagen.py, written as CSV and loaded as that solution
loads them (pyarrow's reader, categorical string keys; pyarrow-backed columns for the join).
Each answer is compared whole with pandas' (values, dtypes, labels, column names, row order),
and so are its row count and db-benchmark's chk (the sums it logs as its check)."""
import sys
import warnings
from pathlib import Path

import numpy
import pandas
import pytest

import tessera
import tessera.pandas as tpd

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from dataframe import datagen, queries  # noqa: E402

N = 20_000
RTOL = 1e-12

# groupby q8 is db-benchmark's statement, `reset_index(inplace=True)` included, which pandas 3.1
# deprecates.
pytestmark = pytest.mark.filterwarnings("ignore:The inplace keyword in DataFrame.reset_index is deprecated")


@pytest.fixture(scope="module")
def groupby_paths(tmp_path_factory):
    """{K: CSV of the groupby table with N rows}: K=100 (many small groups: 200 of id3 and
    id6, up to 10,000 of two keys) and K=10 (few large ones)."""
    directory = tmp_path_factory.mktemp("dbbench")
    return {k: datagen.write_table(datagen.groupby_table(N, k), datagen.groupby_name(N, k), directory)[0]
            for k in (100, 10)}


@pytest.fixture(scope="module")
def join_paths(tmp_path_factory):
    directory = tmp_path_factory.mktemp("dbbench_join")
    names = datagen.join_names(N)
    return {name: datagen.write_table(table, names[name], directory)[0]
            for name, table in datagen.join_tables(N).items()}


def loaded(load, path):
    """(pandas' tables, tessera.pandas' tables), each loaded by `load`."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tessera.FallbackWarning)
        return load(pandas, path), load(tpd, path)


@pytest.fixture(scope="module")
def groupby_tables(groupby_paths):
    return {k: tuple((t,) for t in loaded(queries.load_groupby, path)) for k, path in groupby_paths.items()}


@pytest.fixture(scope="module")
def join_tables(join_paths):
    return loaded(queries.load_join, join_paths)


def host(frame):
    return frame.to_pandas() if isinstance(frame, (tpd.DataFrame, tpd.Series)) else frame


def same_frame(got, want):
    """assert_frame_equal, the float columns to a relative RTOL and the others exactly (column
    by column: pandas' inexact comparison of a categorical boxes every value)."""
    assert isinstance(got, (tpd.DataFrame, pandas.DataFrame)), type(got)
    got = host(got)
    pandas.testing.assert_index_equal(got.columns, want.columns)
    pandas.testing.assert_index_equal(got.index, want.index, exact="equiv")
    for i in range(want.shape[1]):
        g, w = got.iloc[:, i], want.iloc[:, i]
        if pandas.api.types.is_float_dtype(w.dtype):
            pandas.testing.assert_series_equal(g, w, check_exact=False, rtol=RTOL, atol=0)
        else:
            pandas.testing.assert_series_equal(g, w, check_exact=True)


def same_answer(got, want):
    (ans, chk), (want_ans, want_chk) = got, want
    assert ans.shape == want_ans.shape
    same_frame(ans, want_ans)
    assert len(chk) == len(want_chk)
    for value, expected in zip(chk, want_chk):  # pandas' scalar types too (np.int64, np.float64)
        assert type(value) is type(expected), (type(value), type(expected))
        if isinstance(expected, (numpy.integer, int)):
            assert value == expected
        else:
            assert numpy.isclose(value, expected, rtol=RTOL, atol=0, equal_nan=True), (value, expected)


def ask(function, tables):
    """`function`'s answer from pandas and from tessera.pandas (a fallback to pandas is allowed:
    these tests say whether the answer is pandas', whatever ran it)."""
    want_tables, got_tables = tables
    want = function(pandas, *want_tables)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tessera.FallbackWarning)
        got = function(tpd, *got_tables)
    return got, want


@pytest.mark.parametrize("k", [100, 10])
@pytest.mark.parametrize("q", list(queries.GROUPBY))
def test_groupby_question(groupby_tables, q, k):
    same_answer(*ask(queries.GROUPBY[q][1], groupby_tables[k]))


@pytest.mark.parametrize("q", list(queries.JOIN))
def test_join_question(join_tables, q):
    same_answer(*ask(queries.JOIN[q][1], join_tables))


def test_loading_gives_pandas_frames(groupby_tables, join_tables):
    """The tables as the solutions load them: the same columns, dtypes and values."""
    for want, got in [*((p[0], t[0]) for p, t in groupby_tables.values()), *zip(*join_tables)]:
        same_frame(got, want)


def test_tables_have_db_benchmarks_structure():
    """The generators' key structure: groupby id1..id6 with K, K, N/K, K, K, N/K values and
    v1..v3 in their ranges; join keys that match in nine tenths and miss in a tenth."""
    g = datagen.groupby_table(N, 100).to_pandas()
    assert list(g.columns) == ["id1", "id2", "id3", "id4", "id5", "id6", "v1", "v2", "v3"]
    assert [g[c].nunique() for c in g.columns[:6]] == [100, 100, 200, 100, 100, 200]
    assert g["id1"].min() == "id001" and g["id3"].max() == "id0000000200"
    assert (g["v1"].min(), g["v1"].max(), g["v2"].min(), g["v2"].max()) == (1, 5, 1, 15)
    assert g["v3"].between(0, 100).all() and (numpy.round(g["v3"] * 1e6) / 1e6 == g["v3"]).all()
    t = {name: table.to_pandas() for name, table in datagen.join_tables(N).items()}
    small, medium, big = datagen.join_sizes(N)
    assert [len(t[n]) for n in ("x", "small", "medium", "big")] == [N, small, medium, big]
    assert list(t["x"].columns) == ["id1", "id2", "id3", "id4", "id5", "id6", "v1"]
    assert list(t["small"].columns) == ["id1", "id4", "v2"]
    assert list(t["medium"].columns) == ["id1", "id2", "id4", "id5", "v2"]
    assert (t["x"]["id4"] == "id" + t["x"]["id1"].astype(str)).all()
    for key, right, distinct in (("id1", "small", small), ("id2", "medium", medium), ("id3", "big", big)):
        left, other = set(t["x"][key]), set(t[right][key])
        assert len(left) == len(other) == distinct  # every key of each side appears
        assert len(left & other) == distinct * 9 // 10  # the rest match nothing
    assert t["small"]["id1"].is_unique and t["medium"]["id2"].is_unique and t["big"]["id3"].is_unique


def test_generation_is_deterministic():
    assert datagen.groupby_table(1000, 10).equals(datagen.groupby_table(1000, 10))
    a, b = datagen.join_tables(1000), datagen.join_tables(1000)
    assert all(a[n].equals(b[n]) for n in a)


def test_benchmark_script_runs(tmp_path, monkeypatch, capsys):
    """benchmarks/dataframe.py end to end at a small size: a row for every question, the answer
    of each checked against pandas' (whatever it says: the tests above judge the answers)."""
    import importlib.util
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "dataframe.py"
    spec = importlib.util.spec_from_file_location("dataframe_benchmark", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    monkeypatch.setenv("TESSERA_DBBENCH_DATA", str(tmp_path))
    monkeypatch.setattr(sys, "argv", ["dataframe.py", "--rows", "2e4", "--k", "10", "--repeat", "1",
                                      "--backends", "pandas,tessera", "--json", str(tmp_path / "figures.json")])
    script.main()
    out = capsys.readouterr().out
    assert "question" in out and "pandas/tessera" in out
    for task, questions in (("groupby", queries.GROUPBY), ("join", queries.JOIN)):
        for q, (text, _f) in questions.items():
            line = next(line for line in out.splitlines() if line.startswith(f"{task} {q} {text}"))
            answer, fallback = line.split()[-2:]
            assert answer in ("OK", "DIFFER", "failed") and fallback in ("none", "yes", "-"), line
    assert sum(line.startswith("read ") for line in out.splitlines()) == 2
    assert (tmp_path / "G1_2e4_1e1_0_0.parquet").exists() and (tmp_path / "J1_2e4_NA_0_0.csv").exists()
    assert (tmp_path / "figures.json").exists()
