"""db-benchmark's questions as its DuckDB solution asks them (duckdb/groupby-duckdb.py,
duckdb/join-duckdb.py): each `query(con, *tables) -> (rows, chk)` creates the answer as the
table `ans` in the in-memory database `con` and sums it as the pandas solution's chk does.
The tables are loaded from CSV into in-memory tables (db-benchmark's string keys become
ENUMs there; here they stay VARCHAR)."""


def connect(duckdb):
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    return con


def load_groupby(con, path):
    con.execute(f"CREATE OR REPLACE TABLE x AS SELECT * FROM read_csv_auto('{path}')")
    return ("x",)


def _answer(con, select, *sums):
    con.execute(f"CREATE OR REPLACE TEMP TABLE ans AS {select}")
    rows = con.execute("SELECT count(*) FROM ans").fetchone()[0]
    chk = con.execute("SELECT " + ", ".join(f"sum({c})" for c in sums) + " FROM ans").fetchone()
    return rows, list(chk)


def groupby_q1(con, x):
    return _answer(con, "SELECT id1, sum(v1) AS v1 FROM x GROUP BY id1", "v1")


def groupby_q2(con, x):
    return _answer(con, "SELECT id1, id2, sum(v1) AS v1 FROM x GROUP BY id1, id2", "v1")


def groupby_q3(con, x):
    return _answer(con, "SELECT id3, sum(v1) AS v1, avg(v3) AS v3 FROM x GROUP BY id3", "v1", "v3")


def groupby_q4(con, x):
    return _answer(con, "SELECT id4, avg(v1) AS v1, avg(v2) AS v2, avg(v3) AS v3 FROM x GROUP BY id4",
                   "v1", "v2", "v3")


def groupby_q5(con, x):
    return _answer(con, "SELECT id6, sum(v1) AS v1, sum(v2) AS v2, sum(v3) AS v3 FROM x GROUP BY id6",
                   "v1", "v2", "v3")


def groupby_q6(con, x):
    return _answer(con, "SELECT id4, id5, quantile_cont(v3, 0.5) AS median_v3, stddev(v3) AS sd_v3 "
                        "FROM x GROUP BY id4, id5", "median_v3", "sd_v3")


def groupby_q7(con, x):
    return _answer(con, "SELECT id3, max(v1)-min(v2) AS range_v1_v2 FROM x GROUP BY id3", "range_v1_v2")


def groupby_q8(con, x):
    return _answer(con, "SELECT id6, unnest(max(v3, 2)) AS largest2_v3 FROM x WHERE v3 IS NOT NULL GROUP BY id6",
                   "largest2_v3")


def groupby_q9(con, x):
    # pandas' sum skips the NaN of groups whose v1 or v2 is constant; DuckDB's sum would be NaN.
    return _answer(con, "SELECT id2, id4, pow(corr(v1, v2), 2) AS r2 FROM x GROUP BY id2, id4",
                   "CASE WHEN isnan(r2) THEN NULL ELSE r2 END")


def groupby_q10(con, x):
    return _answer(con, "SELECT id1, id2, id3, id4, id5, id6, sum(v3) AS v3, count(*) AS count "
                        "FROM x GROUP BY id1, id2, id3, id4, id5, id6", "v3", "count")


def load_join(con, paths):
    for name in ("x", "small", "medium", "big"):
        con.execute(f"CREATE OR REPLACE TABLE {name} AS SELECT * FROM read_csv_auto('{paths[name]}')")
    return ("x", "small", "medium", "big")


def join_q1(con, x, small, medium, big):
    return _answer(con, "SELECT x.*, small.id4 AS small_id4, v2 FROM x JOIN small USING (id1)", "v1", "v2")


def join_q2(con, x, small, medium, big):
    return _answer(con, "SELECT x.*, medium.id1 AS medium_id1, medium.id4 AS medium_id4, medium.id5 AS medium_id5, "
                        "v2 FROM x JOIN medium USING (id2)", "v1", "v2")


def join_q3(con, x, small, medium, big):
    return _answer(con, "SELECT x.*, medium.id1 AS medium_id1, medium.id4 AS medium_id4, medium.id5 AS medium_id5, "
                        "v2 FROM x LEFT JOIN medium USING (id2)", "v1", "v2")


def join_q4(con, x, small, medium, big):
    return _answer(con, "SELECT x.*, medium.id1 AS medium_id1, medium.id2 AS medium_id2, medium.id4 AS medium_id4, "
                        "v2 FROM x JOIN medium USING (id5)", "v1", "v2")


def join_q5(con, x, small, medium, big):
    return _answer(con, "SELECT x.*, big.id1 AS big_id1, big.id2 AS big_id2, big.id4 AS big_id4, "
                        "big.id5 AS big_id5, big.id6 AS big_id6, v2 FROM x JOIN big USING (id3)", "v1", "v2")


def read_csv(con, path):
    return _answer(con, f"SELECT * FROM read_csv_auto('{path}')", "1", "v1", "v3")


def read_parquet(con, path):
    return _answer(con, f"SELECT * FROM read_parquet('{path}')", "1", "v1", "v3")


GROUPBY = {f"q{i}": globals()[f"groupby_q{i}"] for i in range(1, 11)}
JOIN = {f"q{i}": globals()[f"join_q{i}"] for i in range(1, 6)}
