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


def _format(obj, fmt):
    n = len(obj)
    k = _shown_rows(n)
    if k is None:
        return fmt(obj.to_pandas())
    # k head rows and k + 1 tail rows: one more than the k + k pandas shows, so it truncates
    host = pandas.concat([obj.head(k).to_pandas(), obj.tail(k + 1).to_pandas()])
    with pandas.option_context("display.max_rows", 2 * k, "display.min_rows", 2 * k):
        text = fmt(host)
    return text, 2 * k + 1, n


def frame_repr(df):
    out = _format(df, repr)
    if isinstance(out, str):
        return out
    text, fake, n = out
    return _replace_last(text, f"[{fake} rows x", f"[{n} rows x")


def frame_html(df):
    out = _format(df, lambda h: h._repr_html_())
    if out is None or isinstance(out, str):
        return out
    text, fake, n = out
    return _replace_last(text, f"<p>{fake} rows \u00d7", f"<p>{n} rows \u00d7")


def series_repr(s):
    out = _format(s, repr)
    if isinstance(out, str):
        return out
    text, fake, n = out
    return _replace_last(text, f"Length: {fake},", f"Length: {n},")


def _replace_last(text, old, new):
    at = text.rfind(old)
    if at < 0:
        return text
    return text[:at] + new + text[at + len(old):]
