"""DataFrame.eval and DataFrame.query: an expression of column names, numbers and `@` names of
the caller's numbers, with arithmetic (+ - * / // % **), comparisons (chained ones too), `&`,
`|`, `~`, `and`, `or`, `not`, evaluated as tessera array operations on the columns (one fused
pass where the operations fuse); query keeps the rows where it is true, by the boolean selection
every frame has.

The expression is read as pandas reads it: Python's tokens with `&` and `|` taken as `and` and
`or` (so `a > 1 & b < 2` is `(a > 1) & (b < 2)`), then Python's parser (`ast`) — nothing is
run by Python's eval. Names that are not numeric columns held in tessera arrays (the index,
string columns), other constants and syntax (strings, `in`, calls, attributes, backticks),
several statements, and arguments other than the defaults run pandas' eval or query, announced
as a fallback, with the caller's `@` names handed to pandas."""
import ast
import io
import operator
import sys
import tokenize

import numpy
from pandas.api.extensions import no_default

import tessera.numpy as tnp

from . import _fallback
from ._series import Series

_LOCAL = "__tessera_local_"


class _NotNative(Exception):
    """The expression needs pandas' own eval."""


def _tokens(expr):
    """`expr` in Python's syntax as pandas reads it, and the names it takes from the caller (`@x`)."""
    out, local = [], []
    at = False
    try:
        for tok in tokenize.generate_tokens(io.StringIO(expr).readline):
            kind, text = tok.type, tok.string
            if kind == tokenize.ERRORTOKEN and text.strip():
                raise _NotNative  # backticks and the like
            if at:
                if kind != tokenize.NAME:
                    raise _NotNative
                local.append(text)
                out.append((tokenize.NAME, _LOCAL + text))
                at = False
                continue
            if kind == tokenize.OP and text == "@":
                at = True
                continue
            if kind == tokenize.OP and text in ("&", "|"):
                out.append((tokenize.NAME, "and" if text == "&" else "or"))
                continue
            out.append((kind, text))
    except (tokenize.TokenError, IndentationError):
        raise _NotNative from None
    return tokenize.untokenize(out), local


def _caller_names(names, local_dict, global_dict, frame):
    scope = {}
    for name in names:
        for d in (local_dict, global_dict, frame.f_locals if frame else None, frame.f_globals if frame else None):
            if d is not None and name in d:
                scope[name] = d[name]
                break
    return scope


_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}
_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
            ast.Gt: operator.gt, ast.GtE: operator.ge}
_NUMBER = (bool, int, float, numpy.bool_, numpy.integer, numpy.floating)


class _Evaluator:
    def __init__(self, frame, scope):
        self.frame = frame
        self.scope = scope

    def __call__(self, node):
        method = getattr(self, "visit_" + type(node).__name__, None)
        if method is None:
            raise _NotNative
        return method(node)

    def visit_Expression(self, node):
        return self(node.body)

    def visit_Name(self, node):
        name = node.id
        if name.startswith(_LOCAL):
            value = self.scope.get(name[len(_LOCAL):], _NotNative)
            if isinstance(value, _NUMBER):
                return value
            raise _NotNative  # arrays, Series, names not found: pandas' own
        columns = self.frame._columns
        if name in columns:
            s = columns[name]
            if s._on_host or s.dtype.kind not in "biuf":
                raise _NotNative
            return s
        raise _NotNative  # the index, or no such name: pandas' own answer

    def visit_Constant(self, node):
        if isinstance(node.value, _NUMBER):
            return node.value
        raise _NotNative

    def visit_UnaryOp(self, node):
        v = self(node.operand)
        op = type(node.op)
        if op is ast.USub:
            return -v
        if op is ast.UAdd:
            return +v
        if op in (ast.Invert, ast.Not):
            if isinstance(v, Series):
                return ~v
            return (not v) if op is ast.Not or isinstance(v, (bool, numpy.bool_)) else ~v
        raise _NotNative

    def visit_BinOp(self, node):
        op = _BINARY.get(type(node.op))
        if op is None:
            raise _NotNative
        return _apply(op, self(node.left), self(node.right))

    def visit_BoolOp(self, node):
        op = operator.and_ if isinstance(node.op, ast.And) else operator.or_
        values = [self(v) for v in node.values]
        out = values[0]
        for v in values[1:]:
            out = _apply(op, out, v)
        return out

    def visit_Compare(self, node):
        left = self(node.left)
        out = None
        for op_node, right_node in zip(node.ops, node.comparators):
            op = _COMPARE.get(type(op_node))
            if op is None:
                raise _NotNative
            right = self(right_node)
            term = _apply(op, left, right)
            out = term if out is None else _apply(operator.and_, out, term)
            left = right
        return out


def _apply(op, a, b):
    if not isinstance(a, Series) and not isinstance(b, Series):
        try:
            return op(a, b)  # numbers with numbers: Python's arithmetic, as pandas' python engine does it
        except ArithmeticError:
            raise _NotNative from None
    return op(a, b)


def _evaluate(frame, expr, scope):
    """(target or None, value): the value a Series computed natively; _NotNative otherwise."""
    if not isinstance(expr, str):
        raise _NotNative
    text, _ = _tokens(expr)
    try:
        tree = ast.parse(text.strip(), mode="exec")
    except SyntaxError:
        raise _NotNative from None
    if len(tree.body) != 1:
        raise _NotNative
    stmt = tree.body[0]
    target = None
    if isinstance(stmt, ast.Assign):
        if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name) or \
                stmt.targets[0].id.startswith(_LOCAL):
            raise _NotNative
        target = stmt.targets[0].id
        node = stmt.value
    elif isinstance(stmt, ast.Expr):
        node = stmt.value
    else:
        raise _NotNative
    value = _Evaluator(frame, scope)(node)
    if not isinstance(value, Series):
        raise _NotNative
    if any(value is s for s in frame._columns.values()):  # a column itself: a copy
        value = Series._wrap(tnp.array(value._data, copy=True), value._index, value._name)
    return target, value


def _scope_of(expr, local_dict, global_dict, depth):
    """The caller's `@` names (from local_dict/global_dict when given, else the calling frame)."""
    try:
        _, names = _tokens(expr) if isinstance(expr, str) else ("", [])
    except _NotNative:
        names = []
    frame = sys._getframe(depth + 1) if local_dict is None or global_dict is None else None
    return _caller_names(names, local_dict, global_dict, frame)


def query(frame, expr, parser, engine, local_dict, global_dict, resolvers, level, inplace):
    if not isinstance(expr, str):
        raise ValueError(f"expr must be a string to be evaluated, {type(expr)} given")
    scope = _scope_of(expr, local_dict, global_dict, 2 + level)
    if parser == "pandas" and engine in (None, "python", "numexpr") and resolvers is None and inplace is no_default:
        try:
            target, mask = _evaluate(frame, expr, scope)
            if target is None and mask.dtype == numpy.bool_:
                return frame[mask]
        except _NotNative:
            pass
    kwargs = dict(parser=parser, engine=engine, local_dict=scope if local_dict is None else local_dict,
                  global_dict=global_dict, resolvers=resolvers)
    if inplace is not no_default:
        kwargs["inplace"] = inplace
    return _fallback.call(frame, "DataFrame.query", frame.to_pandas(), "query", (expr,), kwargs)


def eval(frame, expr, inplace, kwargs):  # noqa: A001 (pandas' name)
    level = kwargs.get("level", 0)
    scope = _scope_of(expr, kwargs.get("local_dict"), kwargs.get("global_dict"), 2 + level)
    plain = all(kwargs.get(k) in (None, "pandas", "python", "numexpr", 0) for k in kwargs) and \
        kwargs.get("parser", "pandas") == "pandas" and "resolvers" not in kwargs and "target" not in kwargs
    if plain and inplace is no_default:
        try:
            target, value = _evaluate(frame, expr, scope)
            if target is None:
                return value
            out = frame.copy(deep=False)
            out[target] = value
            return out
        except _NotNative:
            pass
    kwargs = {k: v for k, v in kwargs.items() if k != "level"}
    if kwargs.get("local_dict") is None:
        kwargs["local_dict"] = scope
    if inplace is not no_default:
        kwargs["inplace"] = inplace
    return _fallback.call(frame, "DataFrame.eval", frame.to_pandas(), "eval", (expr,), kwargs)
