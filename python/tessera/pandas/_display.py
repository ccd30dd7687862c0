"""What `repr` and notebooks show of a DataFrame or Series: pandas' own text and HTML, made
from only the rows shown. A long object shows its first and last rows (display.min_rows of
them, pandas' rule); those rows alone are fetched to this process, pandas formats them as it
would the whole object, and the size line names the whole object's length."""
import pandas


def _shown_rows(n):
    """How many rows pandas shows of `n` at the head and at the tail, or None for all of them."""
    max_rows = pandas.get_option("display.max_rows")
    if max_rows is None or max_rows == 0 or n <= max_rows:
        return None
    min_rows = pandas.get_option("display.min_rows")
    shown = min(min_rows, max_rows) if min_rows else max_rows
    return max(shown // 2, 1)


def _shown(obj, fmt, size_line):
    """fmt(pandas' object) for tessera.pandas' `obj`, made from the rows shown only: the size
    line (`size_line(rows)`, the text pandas ends it with) names the whole object's length."""
    n = len(obj)
    k = _shown_rows(n)
    if k is None:
        return fmt(obj.to_pandas())
    # k head rows and k + 1 tail rows: one more than the k + k pandas shows, so it truncates
    host = pandas.concat([obj.head(k).to_pandas(), obj.tail(k + 1).to_pandas()])
    with pandas.option_context("display.max_rows", 2 * k, "display.min_rows", 2 * k):
        text = fmt(host)
    old, new = size_line(2 * k + 1), size_line(n)
    at = text.rfind(old)
    return text if at < 0 else text[:at] + new + text[at + len(old):]


def frame_repr(df):
    return _shown(df, repr, lambda n: f"[{n} rows x")


def frame_html(df):
    return _shown(df, lambda h: h._repr_html_(), lambda n: f"<p>{n} rows \u00d7")


def series_repr(s):
    return _shown(s, repr, lambda n: f"Length: {n},")
