"""Writes docs/pandas-coverage.md: how tessera.pandas runs each public pandas method, from the code.

    python scripts/pandas_coverage.py            # regenerate docs/pandas-coverage.md
    python scripts/pandas_coverage.py --check    # exit 1 if the committed file is stale

A method is "native" when tessera.pandas defines it (its own code, on tessera arrays and tasks;
for some arguments it may still hand the call to pandas, announced as a fallback), "pandas" when
pandas runs it on a copy on this process (tessera.FallbackWarning; TESSERA_CONFIG=--fallback=).
`make build` runs this script.
"""
import argparse
import inspect
import os
import pathlib
import sys

os.environ.setdefault("TESSERA_CONFIG", "--cpus=1 --auto-config=0")

import pandas  # noqa: E402
from pandas.core.groupby import DataFrameGroupBy  # noqa: E402

import tessera.pandas as tpd  # noqa: E402
from tessera.pandas import _groupby  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[1]
TARGET = REPO / "docs" / "pandas-coverage.md"


def _public(cls):
    return sorted(n for n in dir(cls) if not n.startswith("_"))


def _native_names(cls):
    """The names tessera.pandas' class defines itself (or inherits from its own bases)."""
    names = set()
    for klass in inspect.getmro(cls):
        if klass.__module__.startswith("tessera.pandas"):
            names.update(klass.__dict__)
    return names


def sections():
    """(title, [(name, native)]) per object."""
    module_native = set(tpd.__all__)
    functions = [n for n in _public(pandas) if callable(getattr(pandas, n)) and not isinstance(getattr(pandas, n), type)
                 and not inspect.ismodule(getattr(pandas, n)) and n not in tpd._PANDAS_OWN]
    out = [("pandas (functions)", [(n, n in module_native) for n in functions])]
    for title, ours, theirs in (("DataFrame", tpd.DataFrame, pandas.DataFrame), ("Series", tpd.Series, pandas.Series),
                                ("DataFrameGroupBy", _groupby.DataFrameGroupBy, DataFrameGroupBy)):
        native = _native_names(ours)
        out.append((title, [(n, n in native) for n in _public(theirs)]))
    return out


def render():
    lines = ["# tessera.pandas API coverage", "",
             "Generated from the code by `scripts/pandas_coverage.py` (`make build` runs it; do not edit by hand).",
             f"Every public method of pandas {pandas.__version__}'s `DataFrame`, `Series` and `DataFrameGroupBy`, and "
             "every public function of `pandas` that touches data (its options are pandas' own):", "",
             "- **native**: tessera.pandas' own, on tessera arrays and tasks (for some arguments it still hands the "
             "call to pandas, announced as a fallback: see docs/pandas.md);",
             "- **pandas**: pandas runs it on a copy on this process, announced by a `tessera.FallbackWarning` "
             "(`TESSERA_CONFIG=--fallback=warn|silent|error`); its result comes back as tessera.pandas objects.", "",
             "| object | native | pandas | total |", "|---|---:|---:|---:|"]
    secs = sections()
    for title, rows in secs:
        n = sum(1 for _, native in rows if native)
        lines.append(f"| `{title}` | {n} | {len(rows) - n} | {len(rows)} |")
    for title, rows in secs:
        lines += ["", f"## `{title}`", "", "native: " + ", ".join(f"`{n}`" for n, native in rows if native), "",
                  "pandas: " + ", ".join(f"`{n}`" for n, native in rows if not native)]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/pandas-coverage.md is stale")
    parser.add_argument("--target", type=pathlib.Path, default=TARGET, help="the file to write or check")
    args = parser.parse_args()
    text = render()
    if args.check:
        if not args.target.exists() or args.target.read_text() != text:
            sys.exit(f"{args.target} is stale: regenerate it with `make build` (or python scripts/pandas_coverage.py)")
    else:
        args.target.write_text(text)


if __name__ == "__main__":
    main()
