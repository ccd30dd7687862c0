"""Files and buffers: tessera reads what NumPy writes and NumPy reads what tessera writes, in
NumPy's formats (.npy, .npz, text, raw binary, pickles), with NumPy's values, dtypes, shapes
and errors; what tessera reads is a tessera array."""

import io
import pathlib
import pickle

import numpy
import pytest

from parity import ALL_DTYPES, SELFCHECK, assert_same, check, public_exception_type, sample, tnp

pytestmark = pytest.mark.usefixtures("no_fallback")

@pytest.fixture
def shared(tmp_path):
    """A folder every rank sees (rank 0's tmp_path): a file tessera writes by its path is written
    by rank 0 alone. Files NumPy writes go to each rank's own tmp_path."""
    if SELFCHECK:
        return tmp_path
    from tessera import _tessera

    return pathlib.Path(_tessera._exchange(str(tmp_path).encode())[0].decode())


SHAPES = [(), (0,), (7,), (3, 4), (2, 0, 3), (2, 3, 4)]


def _case(dtype, shape):
    return sample(dtype, shape, seed=len(shape) + 1)


def _is_tessera(a):
    return isinstance(a, tnp.ndarray)


def _same(actual, expected):
    assert _is_tessera(actual), type(actual)
    assert_same(numpy.asarray(actual), expected)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_npy_written_by_numpy_is_read_by_tessera(tmp_path, dtype, shape):
    expected = _case(dtype, shape)
    numpy.save(tmp_path / "a.npy", expected)
    _same(tnp.load(tmp_path / "a.npy"), expected)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_npy_written_by_tessera_is_read_by_numpy(tmp_path, shared, dtype, shape):
    expected = _case(dtype, shape)
    tnp.save(shared / "a.npy", tnp.asarray(expected))
    assert_same(numpy.load(shared / "a.npy"), expected)
    # byte for byte NumPy's file
    numpy.save(tmp_path / "b.npy", expected)
    assert (shared / "a.npy").read_bytes() == (tmp_path / "b.npy").read_bytes()


@pytest.mark.parametrize("view", [lambda a: a[::2, 1:], lambda a: a.T, lambda a: a[:, ::-1], lambda a: a[1]],
                         ids=["strided", "transposed", "reversed", "row"])
def test_views_are_written_as_their_values(shared, view):
    base = numpy.arange(24, dtype=numpy.float32).reshape(4, 6)
    tnp.save(shared / "v.npy", view(tnp.asarray(base)))
    assert_same(numpy.load(shared / "v.npy"), view(base))
    buffer = io.BytesIO()  # a file object, as NumPy takes
    tnp.save(buffer, view(tnp.asarray(base)))
    buffer.seek(0)
    assert_same(numpy.load(buffer), view(base))


def test_save_adds_npy_suffix_and_takes_python_values(shared):
    tnp.save(str(shared / "plain"), [[1, 2], [3, 4]])
    assert_same(numpy.load(shared / "plain.npy"), numpy.array([[1, 2], [3, 4]]))


@pytest.mark.parametrize("writer", ["savez", "savez_compressed"])
def test_npz_round_trips_both_ways(tmp_path, shared, writer):
    a, b = _case("float64", (3, 4)), _case("int16", (5,))
    c = _case("complex64", ())
    getattr(numpy, writer)(tmp_path / "n.npz", a, b, c=c)
    with tnp.load(tmp_path / "n.npz") as f:
        assert sorted(f.files) == ["arr_0", "arr_1", "c"] and "c" in f and len(f) == 3
        _same(f["arr_0"], a)
        _same(f["arr_1"], b)
        _same(f["c"], c)
        assert sorted(dict(f.items())) == ["arr_0", "arr_1", "c"]
    getattr(tnp, writer)(shared / "t.npz", tnp.asarray(a), tnp.asarray(b)[::2], c=tnp.asarray(c))
    with numpy.load(shared / "t.npz") as f:
        assert_same(f["arr_0"], a)
        assert_same(f["arr_1"], b[::2])
        assert_same(f["c"], c)


def test_load_missing_key_and_file_raise_as_numpy(tmp_path):
    numpy.savez(tmp_path / "n.npz", x=numpy.arange(3))
    with tnp.load(tmp_path / "n.npz") as f, numpy.load(tmp_path / "n.npz") as g:
        with pytest.raises(KeyError):
            g["y"]
        with pytest.raises(KeyError):
            f["y"]
    for xp in (numpy, tnp):
        with pytest.raises(FileNotFoundError):
            xp.load(tmp_path / "missing.npy")


def test_object_arrays_need_allow_pickle(tmp_path):
    numpy.save(tmp_path / "o.npy", numpy.array([1, "a", None], dtype=object))
    check(lambda xp: xp.load(tmp_path / "o.npy"))  # both raise ValueError
    loaded = tnp.load(tmp_path / "o.npy", allow_pickle=True)
    assert loaded.dtype == object and list(loaded) == [1, "a", None]  # NumPy's own: tessera has no object dtype


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64", "uint8", "bool"])
def test_text_round_trips_both_ways(tmp_path, shared, dtype):
    expected = _case(dtype, (4, 3))
    numpy.savetxt(tmp_path / "n.txt", expected, fmt="%d" if dtype != "float32" and dtype != "float64" else "%.18e")
    _same(tnp.loadtxt(tmp_path / "n.txt", dtype=dtype), numpy.loadtxt(tmp_path / "n.txt", dtype=dtype))
    tnp.savetxt(shared / "t.txt", tnp.asarray(expected)[:, ::-1], delimiter=",")
    numpy.savetxt(tmp_path / "e.txt", expected[:, ::-1], delimiter=",")
    assert (shared / "t.txt").read_text() == (tmp_path / "e.txt").read_text()


def test_loadtxt_options_and_errors():
    text = "# a comment\n1,2,3\n4,5,6\n7,8,9\n"
    for kwargs in ({"delimiter": ","}, {"delimiter": ",", "usecols": (0, 2)}, {"delimiter": ",", "skiprows": 2},
                   {"delimiter": ",", "unpack": True}, {"delimiter": ",", "ndmin": 2}, {"delimiter": ",", "skiprows": 1, "max_rows": 1},
                   {"delimiter": ",", "dtype": "complex128"}):
        check(lambda xp: xp.loadtxt(io.StringIO(text), **kwargs))
    check(lambda xp: xp.loadtxt(io.StringIO("1 2\n3 x\n")))  # ValueError
    check(lambda xp: xp.loadtxt(io.StringIO("1 2\n3\n")))  # ValueError


def test_genfromtxt_fills_missing_values():
    text = "1,2,\n4,,6\n7,8,9\n"
    check(lambda xp: xp.genfromtxt(io.StringIO(text), delimiter=","))
    check(lambda xp: xp.genfromtxt(io.StringIO(text), delimiter=",", filling_values=-1))
    check(lambda xp: xp.genfromtxt(io.StringIO(text), delimiter=",", dtype=int, filling_values=0, skip_header=1))
    masked = tnp.genfromtxt(io.StringIO(text), delimiter=",", usemask=True)
    assert isinstance(masked, numpy.ma.MaskedArray)  # NumPy's own: tessera has no masked arrays


def test_structured_results_stay_numpys():
    text = "a 1\nb 2\n"
    got = tnp.genfromtxt(io.StringIO(text), dtype=None, encoding="utf-8")
    expected = numpy.genfromtxt(io.StringIO(text), dtype=None, encoding="utf-8")
    assert type(got) is numpy.ndarray and got.dtype == expected.dtype and got.tolist() == expected.tolist()


def test_fromregex_reads_matches(tmp_path):
    (tmp_path / "r.txt").write_text("x=1 y=2.5\nx=3 y=4.5\n")
    check(lambda xp: xp.fromregex(tmp_path / "r.txt", r"x=(\d+)", [("x", numpy.int32)])["x"].copy()
          if xp is numpy else xp.asarray(xp.fromregex(tmp_path / "r.txt", r"x=(\d+)", [("x", numpy.int32)])["x"]))
    got = tnp.fromregex(tmp_path / "r.txt", r"x=(\d+) y=([\d.]+)", [("x", "i8"), ("y", "f8")])
    expected = numpy.fromregex(tmp_path / "r.txt", r"x=(\d+) y=([\d.]+)", [("x", "i8"), ("y", "f8")])
    assert type(got) is numpy.ndarray and got.dtype == expected.dtype and got.tolist() == expected.tolist()


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_binary_files_round_trip(tmp_path, shared, dtype):
    expected = _case(dtype, (3, 5))
    expected.tofile(tmp_path / "n.bin")
    _same(tnp.fromfile(tmp_path / "n.bin", dtype=dtype), expected.reshape(-1))
    _same(tnp.fromfile(tmp_path / "n.bin", dtype=dtype, count=4, offset=expected.itemsize),
          expected.reshape(-1)[1:5])
    tnp.asarray(expected)[:, 1::2].tofile(shared / "t.bin")
    assert_same(numpy.fromfile(shared / "t.bin", dtype=dtype), expected[:, 1::2].reshape(-1))
    assert tnp.asarray(expected).T.tobytes() == expected.T.tobytes()
    assert tnp.asarray(expected).tobytes("F") == expected.tobytes("F")


def test_text_files_with_sep(tmp_path, shared):
    expected = numpy.arange(6, dtype=numpy.float64) / 4
    tnp.asarray(expected).tofile(shared / "t.txt", sep=",", format="%.3f")
    expected.tofile(tmp_path / "n.txt", sep=",", format="%.3f")
    assert (shared / "t.txt").read_text() == (tmp_path / "n.txt").read_text()
    check(lambda xp: xp.fromfile(tmp_path / "n.txt", sep=","))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_frombuffer_and_fromiter(dtype):
    values = _case(dtype, (6,))
    check(lambda xp: xp.frombuffer(values.tobytes(), dtype=dtype))
    check(lambda xp: xp.frombuffer(bytearray(values.tobytes()), dtype=dtype, count=2, offset=values.itemsize))
    check(lambda xp: xp.frombuffer(b"", dtype=dtype))
    check(lambda xp: xp.fromiter(iter(values.tolist()), dtype=dtype))
    check(lambda xp: xp.fromiter((v for v in values.tolist()), dtype=dtype, count=3))


def test_buffer_errors_match_numpy():
    check(lambda xp: xp.frombuffer(b"abc", dtype=numpy.int16))  # ValueError: not a multiple
    check(lambda xp: xp.frombuffer(b"abcd", dtype=numpy.int16, count=5))  # ValueError
    check(lambda xp: xp.fromiter([1, 2], dtype=numpy.int64, count=5))  # ValueError: too short
    check(lambda xp: xp.fromstring("1 2 3", sep=" ", dtype=numpy.int32))
    check(lambda xp: xp.fromstring("1.5, 2, 3", sep=","))


@pytest.mark.skipif(SELFCHECK, reason="NumPy's frombuffer is a view of the buffer; tessera's a copy (documented)")
def test_frombuffer_copies():
    data = bytearray(numpy.arange(4, dtype=numpy.int32).tobytes())
    a = tnp.frombuffer(data, dtype=numpy.int32)
    data[:4] = numpy.int32(9).tobytes()
    assert numpy.asarray(a).tolist() == [0, 1, 2, 3]  # not a view of the buffer (documented difference)


def test_frombuffer_is_read_only_when_the_buffer_is():
    for xp in (numpy, tnp):
        assert not xp.frombuffer(b"abcd", dtype=numpy.uint8).flags.writeable
        assert xp.frombuffer(bytearray(b"abcd"), dtype=numpy.uint8).flags.writeable
        with pytest.raises(ValueError):
            xp.frombuffer(b"abcd", dtype=numpy.uint8)[0] = 1


def test_frombuffer_of_a_tessera_array():
    a = tnp.arange(5, dtype=numpy.int16)
    _same(tnp.frombuffer(a, dtype=numpy.int16), numpy.arange(5, dtype=numpy.int16))


@pytest.mark.parametrize("shape", [(), (0,), (3, 4)], ids=str)
def test_dump_and_dumps_pickle(tmp_path, shared, shape):
    expected = _case("float32", shape)
    a = tnp.asarray(expected)
    _same(pickle.loads(a.dumps()), expected)
    a.dump(shared / "p.pkl")
    _same(numpy.load(shared / "p.pkl", allow_pickle=True), expected)
    with open(tmp_path / "q.pkl", "wb") as f:
        a.dump(f)
    with open(tmp_path / "q.pkl", "rb") as f:
        _same(pickle.load(f), expected)


def test_mmap_read_modes_give_tessera_arrays_over_the_file(tmp_path):
    values = numpy.arange(12.0).reshape(3, 4)
    numpy.save(tmp_path / "m.npy", values)
    numpy.save(tmp_path / "f.npy", numpy.asfortranarray(values))  # not C-ordered: copied
    for mode in ("r", "readonly", "c"):
        m = tnp.load(tmp_path / "m.npy", mmap_mode=mode)
        assert isinstance(m, tnp.ndarray) and m.dtype == values.dtype
        _same(m, values)
        _same(tnp.load(tmp_path / "f.npy", mmap_mode=mode), values)
        _same(m.sum(axis=0), values.sum(axis=0))
    with pytest.raises(ValueError):
        tnp.load(tmp_path / "m.npy", mmap_mode="r")[0, 0] = 1.0  # read-only, as NumPy's memmap
    c = tnp.load(tmp_path / "m.npy", mmap_mode="c")
    c[0, 0] = 100.0  # copy-on-write: the array changes, the file does not
    assert float(c[0, 0]) == 100.0 and numpy.load(tmp_path / "m.npy")[0, 0] == 0.0
    with pytest.raises(ValueError):
        tnp.load(tmp_path / "m.npy", mmap_mode="rw")


@pytest.mark.fallback  # checks a fallback on purpose
def test_mmap_write_modes_give_numpys_memmap(tmp_path):
    import warnings

    import tessera

    numpy.save(tmp_path / "m.npy", numpy.arange(4.0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tessera.FallbackWarning)  # documented: r+ runs through the fallback
        m = tnp.load(tmp_path / "m.npy", mmap_mode="r+")
    assert isinstance(m, numpy.memmap) and m.tolist() == [0.0, 1.0, 2.0, 3.0]
    m[1] = 9.0
    m.flush()
    assert numpy.load(tmp_path / "m.npy").tolist() == [0.0, 9.0, 2.0, 3.0]


def test_exception_types_are_public():
    with pytest.raises(ValueError) as info:
        tnp.loadtxt(io.StringIO("1 x\n"))
    assert public_exception_type(info.value) is ValueError


@pytest.mark.skipif(SELFCHECK, reason="checks how tessera's ranks share a file")
@pytest.mark.parametrize("writer", ["save", "savez", "savetxt", "tofile", "dump"])
def test_a_named_file_is_readable_at_once_on_every_rank(shared, writer):
    path = f"{shared}/{writer}.out"
    for i in range(4):
        expected = numpy.arange(300.0) + i
        a = tnp.asarray(expected)
        if writer in ("tofile", "dump"):
            getattr(a, writer)(path)
        else:
            getattr(tnp, writer)(path, a)
        read = {"save": lambda: numpy.load(path + ".npy"), "savez": lambda: numpy.load(path + ".npz")["arr_0"],
                "savetxt": lambda: numpy.loadtxt(path), "tofile": lambda: numpy.fromfile(path),
                "dump": lambda: numpy.load(path, allow_pickle=True)}[writer]
        assert_same(numpy.asarray(read()), expected)


@pytest.mark.skipif(SELFCHECK, reason="checks how tessera's ranks share a file")
def test_a_failed_write_raises_on_every_rank(shared):
    with pytest.raises(FileNotFoundError):
        tnp.save(f"{shared}/missing/a.npy", tnp.arange(3))
