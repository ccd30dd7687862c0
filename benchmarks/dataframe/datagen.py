"""db-benchmark's data, generated with NumPy: the groupby table of `_data/groupby-datagen.R`
and the join tables of `_data/join-datagen.R` (no missing values, rows in random order).

The tables have the R scripts' columns, types, value ranges and key structure; their values
come from NumPy's generator (seeded, so every run and every rank draws the same tables), not
from R's. In memory they are pyarrow Tables; `groupby_files` and `join_files` write them once
per size as CSV (as R's fwrite: no quotes) and Parquet to a cache directory,
$TESSERA_DBBENCH_DATA or /tmp/tessera-dbbench.

    python benchmarks/dataframe/datagen.py --rows 1e7 [--k 100] [--task groupby|join|both]
"""
import os
from pathlib import Path

import numpy
import pyarrow
import pyarrow.compute as pc
import pyarrow.csv
import pyarrow.parquet

SEED = 108  # the R scripts' set.seed(108)


def cache_dir():
    """Where the files go: $TESSERA_DBBENCH_DATA, else /tmp/tessera-dbbench."""
    return Path(os.environ.get("TESSERA_DBBENCH_DATA") or "/tmp/tessera-dbbench")


def pretty_sci(n):
    """db-benchmark's size in file names: 10000000 -> '1e7', 20000 -> '2e4', 1234 -> '1234'."""
    n = int(n)
    digits = str(n)
    if n > 0 and digits.rstrip("0") in "123456789" and len(digits.rstrip("0")) == 1:
        return f"{digits[0]}e{len(digits) - 1}"
    return digits


def _labels(prefix, values, width=0):
    """Arrow strings prefix + the integer values, zero-padded to `width` digits (R's
    sprintf("id%03d") for width 3, sprintf("id%.0f") for width 0), built in Arrow's C++."""
    digits = pc.cast(pyarrow.array(values, type=pyarrow.int64()), pyarrow.string())
    if width:
        digits = pc.utf8_lpad(digits, width=width, padding="0")
    return pc.binary_join_element_wise(prefix, digits, "")


def _coded(rng, labels, n):
    """n labels drawn uniformly with replacement (R's sample(labels, n, TRUE))."""
    return pc.take(labels, pyarrow.array(rng.integers(0, len(labels), n)))


def _rounded_uniform(rng, n):
    """round(runif(n, max=100), 6): uniform on [0, 100] with six decimals, each value the double
    nearest its decimal (an integer count of millionths divided by 1e6)."""
    return numpy.rint(rng.random(n) * 1e8) / 1e6


# --- groupby ---------------------------------------------------------------------------------

def groupby_table(n, k, seed=SEED):
    """The groupby table G1_<n>_<k>_0_0: id1, id2 strings 'id001'..'id<k>' (k groups each), id3
    strings 'id0000000001'.. (n/k groups), id4, id5 integers 1..k, id6 integers 1..n/k, v1
    integers 1..5, v2 integers 1..15, v3 floats in [0, 100] with six decimals."""
    n, k = int(n), int(k)
    groups = max(n // k, 1)
    rng = numpy.random.default_rng(seed)
    small = _labels("id", numpy.arange(1, k + 1), width=3)
    large = _labels("id", numpy.arange(1, groups + 1), width=10)
    return pyarrow.table({
        "id1": _coded(rng, small, n),
        "id2": _coded(rng, small, n),
        "id3": _coded(rng, large, n),
        "id4": rng.integers(1, k + 1, n),
        "id5": rng.integers(1, k + 1, n),
        "id6": rng.integers(1, groups + 1, n),
        "v1": rng.integers(1, 6, n),
        "v2": rng.integers(1, 16, n),
        "v3": _rounded_uniform(rng, n),
    })


def groupby_name(n, k):
    return f"G1_{pretty_sci(n)}_{pretty_sci(k)}_0_0"


# --- join ------------------------------------------------------------------------------------

def join_sizes(n):
    """Rows of the (small, medium, big) right tables: n/1e6, n/1e3 and n as in join-datagen.R
    (which needs n >= 1e7); below that small and medium keep at least 10 rows, so that a tenth
    of their keys still match nothing."""
    n = int(n)
    return max(n // 10**6, 10), max(n // 10**3, 10), n


def _split_keys(rng, n):
    """split_xlr: a random permutation of 1..1.1n cut into the keys both sides hold (x, 0.9n),
    the keys only the left table holds (l, 0.1n) and those only the right tables hold (r)."""
    common = n * 9 // 10
    only = n - common
    key = rng.permutation(numpy.arange(1, n + only + 1))
    return key[:common], key[common:n], key[n:]


def _sample_all(rng, keys, size):
    """sample_all: `size` draws from `keys` that hold every key at least once, shuffled."""
    assert len(keys) <= size
    drawn = numpy.concatenate([keys, rng.choice(keys, size - len(keys), replace=True)])
    return rng.permutation(drawn)


def join_tables(n, seed=SEED):
    """The join tables of join-datagen.R: {"x": the n-row left table J1_<n>_NA_0_0, "small",
    "medium", "big": the right tables}. Integer keys id1, id2, id3 have n/1e6, n/1e3 and n
    values; id4, id5, id6 are the same keys as strings 'id<key>'. Nine tenths of each key's values
    are in both sides; the left table alone holds the other tenth of its values, and each right
    table its own tenth, which match nothing. x: id1..id6, v1; small: id1, id4, v2; medium:
    id1, id2, id4, id5, v2; big: id1..id6, v2 (v1, v2 floats in [0, 100], six decimals)."""
    n = int(n)
    sizes = dict(zip(("small", "medium", "big"), join_sizes(n)))
    rng = numpy.random.default_rng(seed)
    keys = [_split_keys(rng, m) for m in (sizes["small"], sizes["medium"], n)]
    left = [numpy.concatenate([x, l]) for x, l, _r in keys]
    right = [numpy.concatenate([x, r]) for x, _l, r in keys]
    # Each key's strings, indexed by the key (1..1.1m): formatted once, taken for every table.
    names = [_labels("id", numpy.arange(len(x) + len(l) + len(r) + 1)) for x, l, r in keys]

    def table(ids, value_name):
        cols = {f"id{i + 1}": ids[i] for i in range(len(ids))}
        named = {f"id{i + 4}": pc.take(names[i], pyarrow.array(ids[i])) for i in range(len(ids))}
        return pyarrow.table({**cols, **named, value_name: _rounded_uniform(rng, len(ids[0]))})

    tables = {"x": table([_sample_all(rng, keys_, n) for keys_ in left], "v1")}
    for name, depth in (("small", 1), ("medium", 2), ("big", 3)):
        m = sizes[name]
        tables[name] = table([_sample_all(rng, right[i], m) for i in range(depth)], "v2")
    return tables


def join_names(n):
    """{"x": "J1_<n>_NA_0_0", "small": "J1_<n>_<n/1e6>_0_0", ...} (db-benchmark's join_to_tbls)."""
    x = f"J1_{pretty_sci(n)}_NA_0_0"
    return {"x": x, **{name: x.replace("NA", pretty_sci(m))
                       for name, m in zip(("small", "medium", "big"), join_sizes(n))}}


# --- files -----------------------------------------------------------------------------------

def write_table(table, stem, directory=None):
    """Write `table` as <stem>.csv and <stem>.parquet in `directory` (the cache by default),
    unless both are there; return (csv path, parquet path). Each file is written beside
    its final name and renamed into place, so a reader never sees half a file."""
    directory = Path(directory) if directory is not None else cache_dir()
    directory.mkdir(parents=True, exist_ok=True)
    csv, parquet = directory / f"{stem}.csv", directory / f"{stem}.parquet"
    for path, write in ((csv, _write_csv), (parquet, pyarrow.parquet.write_table)):
        if not path.exists():
            partial = path.with_name(f".{path.name}.{os.getpid()}")
            write(table, str(partial))
            os.replace(partial, path)
    return csv, parquet


def _write_csv(table, path):
    with open(path, "wb") as f:  # fwrite's header: names without quotes
        f.write((",".join(table.schema.names) + "\n").encode())
        pyarrow.csv.write_csv(table, f, pyarrow.csv.WriteOptions(include_header=False, quoting_style="none"))


def _have(directory, stems):
    return all((directory / f"{s}.{ext}").exists() for s in stems for ext in ("csv", "parquet"))


def groupby_files(n, k=100, directory=None):
    """(csv path, parquet path) of the groupby table, generated and written on first use."""
    directory = Path(directory) if directory is not None else cache_dir()
    stem = groupby_name(n, k)
    if _have(directory, [stem]):
        return directory / f"{stem}.csv", directory / f"{stem}.parquet"
    return write_table(groupby_table(n, k), stem, directory)


def join_files(n, directory=None):
    """{"x" | "small" | "medium" | "big": csv path} of the join tables, written on first use
    (with their Parquet files)."""
    directory = Path(directory) if directory is not None else cache_dir()
    names = join_names(n)
    if not _have(directory, names.values()):
        for name, table in join_tables(n).items():
            write_table(table, names[name], directory)
    return {name: directory / f"{stem}.csv" for name, stem in names.items()}


def main():
    import argparse
    import time

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=float, default=1e7, help="rows of the groupby and left join table")
    parser.add_argument("--k", type=float, default=100, help="groups of the groupby table's id1, id2, id4, id5")
    parser.add_argument("--task", choices=("groupby", "join", "both"), default="both")
    args = parser.parse_args()
    start = time.perf_counter()
    if args.task in ("groupby", "both"):
        print(*groupby_files(int(args.rows), int(args.k)))
    if args.task in ("join", "both"):
        print(*join_files(int(args.rows)).values())
    print(f"{time.perf_counter() - start:.1f} s, in {cache_dir()}")


if __name__ == "__main__":
    main()
