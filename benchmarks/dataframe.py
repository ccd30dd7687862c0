"""DuckDB Labs' db-benchmark (groupby q1-q10, join q1-q5) under pandas and tessera.pandas, one table.

    python benchmarks/dataframe.py [--rows 1e6] [--k 100] [--tasks groupby,join,read,many]
                                   [--only q1,q3] [--repeat 2] [--backends pandas,tessera,polars,duckdb]
                                   [--json PATH]

The data are db-benchmark's tables made by benchmarks/dataframe/datagen.py (the groupby table
G1_<rows>_<k>_0_0 and the join tables J1_<rows>_*), written once per size as CSV and Parquet
to $TESSERA_DBBENCH_DATA (default /tmp/tessera-dbbench). Each backend loads them as
db-benchmark's solution for it does, then asks each question --repeat times (2 by default),
the backends alternating in one process, and the table takes each backend's best time. A
question's time is its statement and its check (db-benchmark's chk: the sums of the answer's
columns), which also makes tessera finish the work it issued. "read" times pd.read_csv
(engine='pyarrow', as the groupby solution loads) and pd.read_parquet of the groupby table.
"many" (not db-benchmark's; pandas and tessera only) asks drop_duplicates and groupby questions
with about as many distinct rows or groups as rows, or a tenth of them (queries.MANY), of the
groupby table with an integer key k of about rows / 10 values.

tessera.pandas runs with its default configuration ($TESSERA_CONFIG is honoured): what it does
not do natively runs in pandas (a fallback): the fallback column says whether a question needed
one, and the notes name the functions. The answer column says whether tessera's answer has pandas' row count and
chk (integers exactly, floats to a relative 1e-9). Polars and DuckDB join in when they can be
imported (they are not requirements of this repository); their answers are checked the same way.
"""
import argparse
import datetime
import gc
import json
import math
import os
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy

from dataframe import datagen, queries

RTOL = 1e-9
BACKENDS = ("pandas", "tessera", "polars", "duckdb")


class Unavailable(Exception):
    """The backend cannot be imported here."""


class PandasLike:
    """pandas or tessera.pandas, asked the pandas solution's questions (queries.py)."""

    def __init__(self, name):
        self.name = name
        try:
            if name == "tessera":
                import tessera.pandas as pd
            else:
                import pandas as pd
        except ImportError as e:
            raise Unavailable(str(e)) from e
        self.pd = pd
        self.version = pd.__version__ if name == "pandas" else _tessera_version()

    def load_groupby(self, path):
        return (queries.load_groupby(self.pd, path),)

    def load_join(self, paths):
        return queries.load_join(self.pd, paths)

    def load_many(self, path):
        return (queries.load_many(self.pd, path),)

    def ask(self, task, q, tables):
        functions = {"groupby": queries.GROUPBY, "join": queries.JOIN, "many": queries.MANY}[task]
        ans, chk = functions[q][1](self.pd, *tables)
        return ans.shape[0], chk

    def read(self, kind, path):
        t = self.pd.read_csv(path, engine='pyarrow') if kind == "csv" else self.pd.read_parquet(path)
        return t.shape[0], [len(t), t['v1'].sum(), t['v3'].sum()]


class Polars:
    def __init__(self):
        try:
            import polars as pl
        except ImportError as e:
            raise Unavailable(str(e)) from e
        from dataframe import polars_queries
        self.name, self.pl, self.q, self.version = "polars", pl, polars_queries, pl.__version__

    def load_groupby(self, path):
        return self.q.load_groupby(self.pl, path)

    def load_join(self, paths):
        return self.q.load_join(self.pl, paths)

    def ask(self, task, q, tables):
        ans, chk = (self.q.GROUPBY if task == "groupby" else self.q.JOIN)[q](self.pl, *tables)
        return ans.height, chk

    def read(self, kind, path):
        t, chk = (self.q.read_csv if kind == "csv" else self.q.read_parquet)(self.pl, path)
        return t.height, chk


class DuckDB:
    def __init__(self):
        try:
            import duckdb
        except ImportError as e:
            raise Unavailable(str(e)) from e
        from dataframe import duckdb_queries
        self.name, self.q, self.version = "duckdb", duckdb_queries, duckdb.__version__
        self.con = duckdb_queries.connect(duckdb)

    def load_groupby(self, path):
        return self.q.load_groupby(self.con, path)

    def load_join(self, paths):
        return self.q.load_join(self.con, paths)

    def ask(self, task, q, tables):
        return (self.q.GROUPBY if task == "groupby" else self.q.JOIN)[q](self.con, *tables)

    def read(self, kind, path):
        return (self.q.read_csv if kind == "csv" else self.q.read_parquet)(self.con, path)


def _tessera_version():
    import tessera
    return getattr(tessera, "__version__", "dev")


def make_backend(name):
    if name in ("pandas", "tessera"):
        return PandasLike(name)
    return Polars() if name == "polars" else DuckDB()


class Fallbacks:
    """The functions tessera ran in pandas (or NumPy) inside the block: the names of its
    FallbackWarnings. tessera warns once per function and process; the block first forgets
    which functions have warned, so that every question names all of its own."""

    def __enter__(self):
        for module in ("tessera.pandas._fallback", "tessera.numpy._fallback"):
            warned = getattr(sys.modules.get(module), "_warned", None)
            if isinstance(warned, set):
                warned.clear()
        self._catch = warnings.catch_warnings(record=True)
        self.seen = self._catch.__enter__()
        warnings.simplefilter("always")
        return self

    def __exit__(self, *exc):
        self._catch.__exit__(*exc)
        self.names = sorted({_fallback_name(w.message) for w in self.seen if type(w.message).__name__ == "FallbackWarning"})
        return False


def _fallback_name(message):
    text = str(message)
    return text.split(" ", 1)[0] if text.startswith("tessera.") else text[:80]


def scalar(value):
    """A chk value as a Python int or float (tessera, NumPy and Arrow scalars alike)."""
    if hasattr(value, "as_py"):
        value = value.as_py()
    value = numpy.asarray(value).item()
    return value if value is not None else math.nan


def agree(want, got):
    """Whether two (rows, chk) answers agree: rows and integer sums exactly, floats to RTOL."""
    (rows_a, chk_a), (rows_b, chk_b) = want, got
    if rows_a != rows_b or len(chk_a) != len(chk_b):
        return False
    for a, b in zip(map(scalar, chk_a), map(scalar, chk_b)):
        if isinstance(a, int) and isinstance(b, int):
            if a != b:
                return False
        elif not (math.isclose(a, b, rel_tol=RTOL) or (math.isnan(a) and math.isnan(b))):
            return False
    return True


def error_text(e):
    lines = str(e).strip().splitlines()
    return f"{type(e).__name__}: {lines[0][:200] if lines else ''}"


def time_questions(task, names, backends, tables, repeat, results):
    """Ask each question of `task` of every backend `repeat` times, alternating; record into
    results[(task, q)][backend] {"times", "rows", "chk", "fallbacks"} or {"failed"}."""
    for q in names:
        entry = results.setdefault((task, q), {})
        for _ in range(repeat):
            for b in backends:
                report = entry.setdefault(b.name, {"times": []})
                if "failed" in report:
                    continue
                if isinstance(tables.get(b.name), Exception):
                    report["failed"] = f"loading the {task} tables: {error_text(tables[b.name])}"
                    continue
                gc.collect()
                failed = None
                with Fallbacks() as fb:
                    start = time.perf_counter()
                    try:
                        if task == "read":
                            rows, chk = b.read(q, tables[b.name][q])
                        else:
                            rows, chk = b.ask(task, q, tables[b.name])
                    except Exception as e:  # the table reports it, the notes say what it was
                        failed = error_text(e)
                    elapsed = time.perf_counter() - start
                report.setdefault("fallbacks", [])
                report["fallbacks"] += [n for n in fb.names if n not in report["fallbacks"]]
                if failed:
                    report["failed"] = failed
                    continue
                report["times"].append(elapsed)
                report["rows"], report["chk"] = rows, [scalar(v) for v in chk]
        pandas = entry.get("pandas")
        for name, report in entry.items():
            if name != "pandas" and pandas and "chk" in pandas and "chk" in report:
                report["agrees"] = agree((pandas["rows"], pandas["chk"]), (report["rows"], report["chk"]))


def load_all(task, backends, paths):
    """{backend: tables or the exception loading raised}, {backend: seconds} and {backend:
    the functions that fell back to pandas while loading}."""
    tables, seconds, fallbacks = {}, {}, {}
    for b in backends:
        gc.collect()
        start = time.perf_counter()
        with Fallbacks() as fb:
            try:
                load = {"groupby": b.load_groupby, "join": b.load_join}.get(task) or b.load_many
                tables[b.name] = load(paths)
            except Exception as e:
                tables[b.name] = e
        seconds[b.name] = time.perf_counter() - start
        fallbacks[b.name] = fb.names
    return tables, seconds, fallbacks


def best(report):
    return min(report["times"]) if report and report.get("times") and "failed" not in report else None


def cell(report):
    if report is None:
        return "-"
    if "failed" in report:
        return "failed"
    t = best(report)
    text = f"{t:.3f}"
    return text + ("" if report.get("agrees", True) else " (DIFFER)")


QUESTIONS = {"groupby": {q: text for q, (text, _f) in queries.GROUPBY.items()},
             "join": {q: text for q, (text, _f) in queries.JOIN.items()},
             "many": {q: text for q, (text, _f) in queries.MANY.items()},
             "read": {"csv": "pd.read_csv(engine='pyarrow')", "parquet": "pd.read_parquet"}}


def print_table(results, names):
    others = [n for n in names if n not in ("pandas", "tessera")]
    header = ("question", "pandas s", "tessera s", "pandas/tessera", "answer", "fallback",
              *(f"{n} s" for n in others))
    rows = []
    ratios = []
    for (task, q), entry in results.items():
        p, t = entry.get("pandas"), entry.get("tessera")
        ratio = "-"
        if best(p) and best(t):
            ratios.append(best(p) / best(t))
            ratio = f"{ratios[-1]:.2f}"
        answer = "-" if not t or "agrees" not in t else "OK" if t["agrees"] else "DIFFER"
        if t and "failed" in t:
            answer = "failed"
        ran = "-" if not t or "fallbacks" not in t else "yes" if t["fallbacks"] else "none"
        rows.append((f"{task} {q} {QUESTIONS[task][q]}", cell(p), cell(t), ratio, answer, ran,
                     *(cell(entry.get(n)) for n in others)))
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, tuple("-" * w for w in widths), *rows]:
        cells = [row[0].ljust(widths[0])] + [text.rjust(w) for text, w in zip(row[1:], widths[1:])]
        print("  ".join(cells).rstrip())
    if ratios:
        gm = math.exp(sum(map(math.log, ratios)) / len(ratios))
        print(f"geometric mean of pandas/tessera over {len(ratios)} questions: {gm:.2f}")


def print_notes(results, loads, unavailable):
    for name, why in unavailable.items():
        print(f"{name} unavailable: {why}")
    for task, (tables, seconds, fallbacks) in loads.items():
        print(f"{task} tables loaded in " + ", ".join(
            f"{n} {s:.2f} s" + (f" (failed: {error_text(tables[n])})" if n in tables else "") for n, s in seconds.items()))
        for name, names in fallbacks.items():
            if names:
                print(f"{task} loading on {name}: fell back to pandas for {', '.join(names)}")
    for (task, q), entry in results.items():
        for name, report in entry.items():
            if "failed" in report and not report["failed"].startswith("loading"):  # said above
                print(f"{task} {q} on {name} failed: {report['failed']}")
            elif report.get("agrees") is False:
                want = entry["pandas"]
                print(f"{task} {q} on {name}: rows {report['rows']} chk {report['chk']}; "
                      f"pandas rows {want['rows']} chk {want['chk']}")
            if report.get("fallbacks"):
                print(f"{task} {q} on {name}: fell back to pandas for {', '.join(report['fallbacks'])}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=float, default=1e6, help="rows of the groupby table and of the join's x (default 1e6)")
    parser.add_argument("--k", type=float, default=100, help="groups of the groupby table's id1, id2, id4, id5 (default 100)")
    parser.add_argument("--tasks", default="groupby,join,read", help="comma-separated, from groupby,join,read,many")
    parser.add_argument("--only", help="comma-separated questions (q1,q3; csv,parquet for read)")
    parser.add_argument("--repeat", type=int, default=2, metavar="N", help="runs per question and backend (default 2)")
    parser.add_argument("--backends", default=",".join(BACKENDS),
                        help="comma-separated, from pandas,tessera,polars,duckdb (default all that import)")
    parser.add_argument("--json", metavar="PATH", help="also write every figure to PATH as JSON")
    args = parser.parse_args()
    rows, k = int(args.rows), int(args.k)
    tasks = [t for t in ("groupby", "join", "read", "many") if t in args.tasks.split(",")]
    only = set(args.only.split(",")) if args.only else None
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    backends, unavailable = [], {}
    for name in [b for b in BACKENDS if b in args.backends.split(",")]:
        try:
            backends.append(make_backend(name))
        except Unavailable as e:
            unavailable[name] = e
    if not backends or backends[0].name != "pandas":
        parser.error("pandas must be among the backends: the answers are checked against it")

    start = time.perf_counter()
    groupby_csv, groupby_parquet = datagen.groupby_files(rows, k) if {"groupby", "read", "many"} & set(tasks) else (None, None)
    join_csv = datagen.join_files(rows) if "join" in tasks else None
    print(f"db-benchmark data in {datagen.cache_dir()} (ready in {time.perf_counter() - start:.1f} s): "
          + ", ".join(([f"groupby {datagen.groupby_name(rows, k)}"] if groupby_csv else [])
                      + ([f"join {', '.join(datagen.join_names(rows).values())}"] if join_csv else [])))
    print(f"{os.cpu_count()} CPUs; " + ", ".join(f"{b.name} {b.version}" for b in backends)
          + f"; TESSERA_CONFIG={os.environ.get('TESSERA_CONFIG', '')!r}")

    results, loads = {}, {}
    for task in tasks:
        names = [q for q in QUESTIONS[task] if only is None or q in only]
        if not names:
            continue
        on = backends if task != "many" else [b for b in backends if isinstance(b, PandasLike)]
        if task == "read":
            tables = {b.name: {"csv": groupby_csv, "parquet": groupby_parquet} for b in on}
        else:
            tables, seconds, fallbacks = load_all(task, on, join_csv if task == "join" else groupby_csv)
            # What the notes need, without the tables: the next task's must not share memory with them.
            loads[task] = ({n: t for n, t in tables.items() if isinstance(t, Exception)}, seconds, fallbacks)
        time_questions(task, names, on, tables, args.repeat, results)
        del tables
        gc.collect()
    print()
    print_table(results, [b.name for b in backends])
    print(f"times: the best of {args.repeat} run{'s' if args.repeat != 1 else ''} of each backend, alternating; "
          f"answer: tessera's rows and chk against pandas' (floats to a relative {RTOL})")
    print("fallback: whether tessera.pandas ran some of the question's functions in pandas "
          "(a FallbackWarning; they are named below)")
    print()
    print_notes(results, loads, unavailable)
    if args.json:
        document = {
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "host": platform.node(), "python": sys.version.split()[0], "rows": rows, "k": k,
            "repeat": args.repeat, "tessera_config": os.environ.get("TESSERA_CONFIG", ""),
            "versions": {b.name: b.version for b in backends},
            "unavailable": {n: str(e) for n, e in unavailable.items()},
            "load_seconds": {task: seconds for task, (_t, seconds, _f) in loads.items()},
            "load_fallbacks": {task: fallbacks for task, (_t, _s, fallbacks) in loads.items()},
            "questions": {f"{task} {q}": entry for (task, q), entry in results.items()},
        }
        Path(args.json).write_text(json.dumps(document, indent=1, default=str) + "\n")
        print(f"figures written to {args.json}")


if __name__ == "__main__":
    main()
