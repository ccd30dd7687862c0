"""db-benchmark's questions as its Polars solution asks them (polars/groupby-polars.py,
polars/join-polars.py), each `query(pl, *tables) -> (ans, chk)` with chk the same sums, in the
same order, as the pandas solution's. The tables are read from CSV into memory (db-benchmark
spills them to Arrow IPC first) with the integer types db-benchmark asks for."""
import contextlib


def _string_cache(pl):
    """One cache of categorical strings for the tables that join on them (Polars 2 has one always)."""
    return pl.StringCache() if hasattr(pl, "StringCache") else contextlib.nullcontext()


def load_groupby(pl, path):
    x = (pl.read_csv(path, schema_overrides={"id4": pl.Int32, "id5": pl.Int32, "id6": pl.Int32, "v1": pl.Int32,
                                             "v2": pl.Int32, "v3": pl.Float64})
         .with_columns(pl.col(["id1", "id2", "id3"]).cast(pl.Categorical)))
    return (x.lazy(),)


def _sums(pl, ans, *columns):
    """The sums of `columns` (integers summed in Int64, as db-benchmark casts them)."""
    return list(ans.select([pl.col(c).cast(pl.Int64) if ans.schema[c].is_integer() else pl.col(c)
                            for c in columns]).sum().row(0))


def groupby_q1(pl, x):
    ans = x.group_by("id1").agg(pl.sum("v1").alias("v1_sum")).collect()
    return ans, _sums(pl, ans, "v1_sum")


def groupby_q2(pl, x):
    ans = x.group_by(["id1", "id2"]).agg(pl.sum("v1").alias("v1_sum")).collect()
    return ans, _sums(pl, ans, "v1_sum")


def groupby_q3(pl, x):
    ans = x.group_by("id3").agg([pl.sum("v1").alias("v1_sum"), pl.mean("v3").alias("v3_mean")]).collect()
    return ans, _sums(pl, ans, "v1_sum", "v3_mean")


def groupby_q4(pl, x):
    ans = x.group_by("id4").agg([pl.mean("v1").alias("v1_mean"), pl.mean("v2").alias("v2_mean"),
                                 pl.mean("v3").alias("v3_mean")]).collect()
    return ans, _sums(pl, ans, "v1_mean", "v2_mean", "v3_mean")


def groupby_q5(pl, x):
    ans = x.group_by("id6").agg([pl.sum("v1").alias("v1_sum"), pl.sum("v2").alias("v2_sum"),
                                 pl.sum("v3").alias("v3_sum")]).collect()
    return ans, _sums(pl, ans, "v1_sum", "v2_sum", "v3_sum")


def groupby_q6(pl, x):
    ans = x.group_by(["id4", "id5"]).agg([pl.median("v3").alias("v3_median"), pl.std("v3").alias("v3_std")]).collect()
    return ans, _sums(pl, ans, "v3_median", "v3_std")


def groupby_q7(pl, x):
    ans = x.group_by("id3").agg([(pl.max("v1") - pl.min("v2")).alias("range_v1_v2")]).collect()
    return ans, _sums(pl, ans, "range_v1_v2")


def groupby_q8(pl, x):
    ans = (x.drop_nulls("v3").group_by("id6").agg(pl.col("v3").top_k(2).alias("largest2_v3"))
           .explode("largest2_v3").collect())
    return ans, _sums(pl, ans, "largest2_v3")


def groupby_q9(pl, x):
    ans = x.group_by(["id2", "id4"]).agg((pl.corr("v1", "v2", method="pearson") ** 2).alias("r2")).collect()
    return ans, [ans["r2"].fill_nan(None).sum()]  # pandas' sum skips the NaN of constant groups


def groupby_q10(pl, x):
    ans = x.group_by(["id1", "id2", "id3", "id4", "id5", "id6"]).agg(
        [pl.sum("v3").alias("v3"), pl.len().alias("count")]).collect()
    return ans, _sums(pl, ans, "v3", "count")


def load_join(pl, paths):
    ints = {"id1": pl.Int32, "id2": pl.Int32, "id3": pl.Int32}
    tables = []
    for name, strings in (("x", ["id4", "id5", "id6"]), ("small", ["id4"]), ("medium", ["id4", "id5"]),
                          ("big", ["id4", "id5", "id6"])):
        # Categoricals of different tables join on their strings only under one string cache.
        with _string_cache(pl):
            t = pl.read_csv(paths[name])
            t = t.with_columns([pl.col(c).cast(ints[c]) for c in ints if c in t.columns]
                               + [pl.col(strings).cast(pl.Categorical)])
        tables.append(t.lazy())
    return tuple(tables)


def _join(pl, left, right, **options):
    with _string_cache(pl):
        ans = left.join(right, **options).collect()
    return ans, _sums(pl, ans, "v1", "v2")


def join_q1(pl, x, small, medium, big):
    return _join(pl, x, small, on="id1")


def join_q2(pl, x, small, medium, big):
    return _join(pl, x, medium, on="id2")


def join_q3(pl, x, small, medium, big):
    return _join(pl, x, medium, how="left", on="id2")


def join_q4(pl, x, small, medium, big):
    return _join(pl, x, medium, on="id5")


def join_q5(pl, x, small, medium, big):
    return _join(pl, x, big, on="id3")


def read_csv(pl, path):
    t = pl.read_csv(path)
    return t, [t.height, *_sums(pl, t, "v1", "v3")]


def read_parquet(pl, path):
    t = pl.read_parquet(path)
    return t, [t.height, *_sums(pl, t, "v1", "v3")]


GROUPBY = {f"q{i}": globals()[f"groupby_q{i}"] for i in range(1, 11)}
JOIN = {f"q{i}": globals()[f"join_q{i}"] for i in range(1, 6)}
