"""Writes docs/api-coverage.md: how tessera runs each public NumPy function, from the code.

    python scripts/api_coverage.py            # regenerate docs/api-coverage.md
    python scripts/api_coverage.py --check    # exit 1 if the committed file is stale
    python scripts/api_coverage.py --stdout   # print the table

The classification is python/tessera/numpy/_coverage.py; `make build` runs this script.
"""
import argparse
import collections
import os
import pathlib
import sys

os.environ.setdefault("TESSERA_CONFIG", "--cpus=1 --auto-config=0")

import numpy  # noqa: E402

from tessera.numpy import _coverage  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[1]
TARGET = REPO / "docs" / "api-coverage.md"
SECTIONS = (("numpy", "numpy."), ("numpy.linalg", "numpy.linalg."), ("numpy.fft", "numpy.fft."),
            ("numpy.random", "numpy.random."), ("numpy.random.Generator", "numpy.random.Generator."))
NATIVE = {_coverage.NATIVE_CPP: "yes", _coverage.COMPOSITION: "yes", _coverage.NUMPY_OWN: "- (no array data)",
          _coverage.FALLBACK: "no"}
MEANING = {
    _coverage.NATIVE_CPP: "defined in the compiled `tessera._tessera` (C++ operations in tessera's runtime)",
    _coverage.COMPOSITION: "a Python function of `tessera.numpy` built on tessera operations",
    _coverage.NUMPY_OWN: "NumPy's function re-exported unchanged: it touches no array data",
    _coverage.FALLBACK: "runs in NumPy on copies of the arrays (`TESSERA_CONFIG=--fallback=` warn, silent or error)",
}


def section_of(name):
    """The section a qualified name belongs to: the longest matching prefix whose rest has no dot."""
    for title, prefix in reversed(SECTIONS):
        if name.startswith(prefix) and "." not in name[len(prefix):]:
            return title
    raise ValueError(name)


def render():
    rows = _coverage.rows()
    by_section = collections.defaultdict(list)
    for row in rows:
        by_section[section_of(row["name"])].append(row)
    lines = ["# NumPy API coverage", "",
             "Generated from the code by `scripts/api_coverage.py` (`make build` runs it; do not edit by hand).",
             f"Functions of NumPy {numpy.__version__}: every public callable of `numpy` that is not a type, and those of",
             "`numpy.linalg`, `numpy.fft`, `numpy.random` and the methods of `numpy.random.Generator`.",
             "The kind is read off tessera's objects (`python/tessera/numpy/_coverage.py`); what cannot be read",
             "off them (what runs as one task, where values differ) comes from its table `NOTES`.", "",
             "| kind | meaning |", "|---|---|"]
    lines += [f"| {kind} | {MEANING[kind]} |" for kind in _coverage.CATEGORIES]
    lines += ["", "| module | " + " | ".join(_coverage.CATEGORIES) + " | total |",
              "|---|" + "---:|" * (len(_coverage.CATEGORIES) + 1)]
    totals = collections.Counter()
    for title, _ in SECTIONS:
        counts = collections.Counter(r["category"] for r in by_section[title])
        totals.update(counts)
        lines.append(f"| `{title}` | " + " | ".join(str(counts[k]) for k in _coverage.CATEGORIES)
                     + f" | {len(by_section[title])} |")
    lines.append("| all | " + " | ".join(f"**{totals[k]}**" for k in _coverage.CATEGORIES) + f" | **{len(rows)}** |")
    for title, prefix in SECTIONS:
        lines += ["", f"## `{title}`", "", "| function | kind | native | parallel | several ranks | differences from NumPy |",
                  "|---|---|---|---|---|---|"]
        for r in by_section[title]:
            name = r["name"][len(prefix):]
            lines.append(f"| `{name}` | {r['category']} | {NATIVE[r['category']]} | {r['parallel']} | {r['ranks']} "
                         f"| {r['differs']} |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/api-coverage.md is stale")
    parser.add_argument("--stdout", action="store_true", help="print instead of writing")
    parser.add_argument("--target", type=pathlib.Path, default=TARGET, help="the file to write or check")
    args = parser.parse_args()
    target = args.target
    text = render()
    if args.stdout:
        sys.stdout.write(text)
    elif args.check:
        if not target.exists() or target.read_text() != text:
            sys.exit(f"{target} is stale: it does not say what the code does now; regenerate it with "
                     "`make build` (or python scripts/api_coverage.py)")
    else:
        target.write_text(text)


if __name__ == "__main__":
    main()
