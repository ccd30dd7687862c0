"""Python tasks: a function over NumPy tiles, launched by tessera over whole arrays.

    from tessera import task, InputArray, OutputArray, align, broadcast

    @task(constraints=(align("y", "x"), broadcast("w")))
    def scaled_add(y: OutputArray, x: InputArray, w: InputArray, a: float) -> None:
        y[:] = a * x + w.sum()

    scaled_add(y, x, w, 2.0)      # tessera arrays: deferred, one point per tile, every rank

Each parameter's annotation says what it is: an array argument (InputArray, OutputArray,
InOutArray, ReductionArray["+" | "*" | "min" | "max"]), a number (float, int, complex, bool;
unannotated: passed as given), or the point's TaskContext. Constraints name array parameters.
In the body the arrays are NumPy arrays viewing the point's tiles without a copy (inputs
read-only); they are valid only while the body runs. docs/tasks.md describes the model.

Called with NumPy arrays only, the function runs once, on the whole arrays, on this thread
(so a body may call other tasks on its views); a body cannot launch tasks over tessera arrays.
"""

import importlib
import inspect
import numbers
import operator
import sys

import numpy

from . import _tessera

__all__ = ["task", "Task", "TaskContext", "InputArray", "OutputArray", "InOutArray", "ReductionArray",
           "align", "broadcast", "bloat", "image", "scale", "min_extents"]


# --- annotations -----------------------------------------------------------------------------

class InputArray:
    """A task parameter the task reads: a read-only NumPy view of the point's tile."""
    privilege = "in"


class OutputArray:
    """A task parameter the task writes (every element of its tile): a writable view."""
    privilege = "out"


class InOutArray:
    """A task parameter the task reads and writes in place: a writable view of its tile."""
    privilege = "inout"


class ReductionArray:
    """A task parameter each point adds into: ``ReductionArray["+"]`` (or "*", "min", "max").

    The body sees a private buffer over its tile that starts at the operator's identity
    (0, 1, the dtype's largest or smallest value); after the launch the buffers are folded
    into the array by one fixed pairwise tree over the points, after what the array held
    before (the same grouping on any number of cpus or ranks)."""
    privilege = None
    op = None
    _kinds = {}

    def __class_getitem__(cls, op):
        if op not in ("+", "*", "min", "max"):
            raise ValueError(f"ReductionArray[{op!r}]: the operator must be '+', '*', 'min' or 'max'")
        if op not in cls._kinds:
            cls._kinds[op] = type(f"ReductionArray[{op!r}]", (ReductionArray,),
                                  {"privilege": op, "op": op, "__module__": "tessera"})
        return cls._kinds[op]


class TaskContext:
    """What a body learns about its point: annotate one parameter with ``tessera.TaskContext``.

    ``point``/``points``: this point's index in the launch and how many there are;
    ``lo[name]``/``hi[name]``: the box [lo, hi) of the whole array's indices that array
    parameter `name`'s tile covers (its view's element ``i`` is the array's ``lo[name] + i``);
    ``shape[name]``: the whole array's shape. With ``bloat`` inside one array (its halo
    clipped at the array's edges) these say where the tile starts and whether it was clipped."""

    __slots__ = ("name", "point", "points", "lo", "hi", "shape")

    def __init__(self, name, point, points, lo, hi, shape):
        self.name, self.point, self.points = name, point, points
        self.lo, self.hi, self.shape = lo, hi, shape

    def __repr__(self):
        return f"TaskContext({self.name!r}, point={self.point}, points={self.points}, lo={self.lo}, hi={self.hi})"


_ARRAY_KINDS = (InputArray, OutputArray, InOutArray)
_SCALARS = (float, int, complex, bool)


# --- constraints -----------------------------------------------------------------------------

class Constraint:
    """A constraint on the partitions of a task's array parameters, naming them."""

    def __init__(self, kind, a, b=None, axes=(), low=(), high=(), ranges=False, text=""):
        self.kind, self.a, self.b = kind, a, b
        self.axes, self.low, self.high, self.ranges = tuple(axes), low, high, ranges
        self.text = text

    @property
    def names(self):
        return (self.a,) if self.b is None else (self.a, self.b)

    def __repr__(self):
        return self.text


def _ints(value, what):
    if isinstance(value, numbers.Integral):
        return int(value)
    try:
        return tuple(operator.index(v) for v in value)
    except TypeError:
        raise TypeError(f"{what} must be an int or a sequence of ints, not {value!r}") from None


def align(a, b):
    """`a` and `b` (of one shape) are cut into the same tiles."""
    return Constraint("align", a, b, text=f"align({a!r}, {b!r})")


def broadcast(a, axes=()):
    """`a` is not cut along `axes` (every axis when empty): each point sees it whole along them."""
    axes = _ints(axes, "broadcast axes")
    axes = (axes,) if isinstance(axes, int) else axes
    return Constraint("broadcast", a, axes=axes, text=f"broadcast({a!r}, {axes!r})")


def bloat(a, b, low, high):
    """`a`'s tile is `b`'s tile grown by `low` below and `high` above along each axis (ints
    apply to every axis). `a` framed (b's shape plus the halo): b's [lo, hi) comes with a's
    [lo, hi + low + high). `a` of b's shape: the grown tile is clipped at a's edges."""
    low, high = _ints(low, "bloat low"), _ints(high, "bloat high")
    return Constraint("bloat", a, b, low=low, high=high, text=f"bloat({a!r}, {b!r}, {low!r}, {high!r})")


def image(a, b, ranges=False):
    """`a`'s tile along its first axis is what the index values in `b`'s tile point at (with
    `ranges`, the [start, stop) pairs along b's last axis)."""
    return Constraint("image", a, b, ranges=bool(ranges), text=f"image({a!r}, {b!r}, ranges={bool(ranges)})")


def scale(a, b, factors):
    """`a`'s tile is `b`'s tile times `factors` (clipped to a's shape)."""
    factors = _ints(factors, "scale factors")
    return Constraint("scale", a, b, low=factors, text=f"scale({a!r}, {b!r}, {factors!r})")


def min_extents(a, extents):
    """`a`'s tiles span at least `extents[d]` along each axis d (or the whole axis)."""
    extents = _ints(extents, "min_extents extents")
    return Constraint("min_extents", a, low=extents, text=f"min_extents({a!r}, {extents!r})")


# --- call sites ------------------------------------------------------------------------------

# "file:line" of each place a task was launched from, by index: a launch passes the index as
# its last scalar, so that a body's error names the line (bounded by the program's lines).
_sites = []
_site_index = {}


def _site_id(where):
    i = _site_index.get(where)
    if i is None:
        i = _site_index[where] = len(_sites)
        _sites.append(where)
    return i


# Python exceptions the runtime carries with their type (to the program and to other ranks):
# tessera's error kinds (include/tessera/error_kinds.def), most specific first. Others reach
# the program as RuntimeErrors naming their type.
_CARRIED = [(getattr(importlib.import_module(module), name), name) for module, name in _tessera._error_kinds()]


def _failure(task, exc, site):
    """(kind, message, site) for an exception raised by `task`'s body."""
    kind = next((name for cls, name in _CARRIED if isinstance(exc, cls)), "RuntimeError")
    # The body's own line where it raised (else the innermost line: the body called something
    # that raised).
    tb, line = exc.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code is getattr(task.fn, "__code__", None) or tb.tb_next is None and line is None:
            line = f"{tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}"
        tb = tb.tb_next
    where = line
    what = type(exc).__name__
    text = f"{what}: {exc}" if str(exc) else what
    return kind, f"task '{task.name}' (defined at {task.defined_at}) raised {text} (at {where})", site


# --- tasks -----------------------------------------------------------------------------------

class Task:
    """A function decorated with :func:`task`. Calling it with tessera arrays launches it."""

    def __init__(self, fn, constraints, name):
        self.fn = fn
        self.name = name or fn.__name__
        code = getattr(fn, "__code__", None)
        self.defined_at = f"{code.co_filename}:{code.co_firstlineno}" if code else "<unknown>"
        self.__wrapped__ = fn
        self.__name__ = getattr(fn, "__name__", self.name)
        self.__qualname__ = getattr(fn, "__qualname__", self.name)
        self.__doc__ = fn.__doc__
        self.__module__ = getattr(fn, "__module__", None)
        self._read_signature()
        self._read_constraints(constraints)
        self._index = _tessera._task_register(self.name, self._invoke)

    def _error(self, cls, message):
        return cls(f"task '{self.name}' (defined at {self.defined_at}): {message}")

    def _read_signature(self):
        try:
            sig = inspect.signature(self.fn, eval_str=True)
        except (NameError, SyntaxError, TypeError, ValueError) as e:
            raise self._error(TypeError, f"cannot read its annotations: {e}") from None
        self.signature = sig
        self.arrays = []    # (name, privilege) in parameter order: the launch's arguments
        self.scalars = []   # (name, annotation or None)
        self.context = None
        for p in sig.parameters.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise self._error(TypeError, f"parameter '{p.name}': a task takes no *args or **kwargs")
            ann = p.annotation
            if isinstance(ann, type) and issubclass(ann, ReductionArray):
                if ann.op is None:
                    raise self._error(TypeError, f"parameter '{p.name}': say which reduction, "
                                                 "e.g. ReductionArray['+']")
                self.arrays.append((p.name, ann.privilege))
            elif isinstance(ann, type) and issubclass(ann, _ARRAY_KINDS):
                self.arrays.append((p.name, ann.privilege))
            elif ann is TaskContext:
                if self.context is not None:
                    raise self._error(TypeError, f"parameters '{self.context}' and '{p.name}' are both TaskContext")
                self.context = p.name
            elif ann is p.empty or ann in _SCALARS:
                self.scalars.append((p.name, None if ann is p.empty else ann))
            else:
                raise self._error(TypeError, f"parameter '{p.name}' is annotated {ann!r}; expected InputArray, "
                                             "OutputArray, InOutArray, ReductionArray[op], TaskContext, float, "
                                             "int, complex, bool or nothing")
            if p.default is not p.empty and (p.name in dict(self.arrays) or p.name == self.context):
                raise self._error(TypeError, f"parameter '{p.name}': only number parameters can have defaults")
        ret = sig.return_annotation
        if ret is not sig.empty and ret is not None and ret is not type(None):
            raise self._error(TypeError, f"a task returns nothing (annotate it -> None), not {ret!r}")
        # What a caller passes: every parameter but the TaskContext.
        self.call_signature = sig.replace(parameters=[p for p in sig.parameters.values() if p.name != self.context])

    def _read_constraints(self, constraints):
        if isinstance(constraints, Constraint):
            constraints = (constraints,)
        position = {name: i for i, (name, _) in enumerate(self.arrays)}
        scalars = {name for name, _ in self.scalars} | {self.context}
        self.constraints = []
        for c in constraints:
            if not isinstance(c, Constraint):
                raise self._error(TypeError, f"{c!r} is not a constraint (align, broadcast, bloat, image, "
                                             "scale or min_extents)")
            for name in c.names:
                if name in scalars:
                    raise self._error(ValueError, f"constraint {c} names '{name}', which is not an array parameter")
                if name not in position:
                    known = ", ".join(position) or "none"
                    raise self._error(ValueError, f"constraint {c} names '{name}', which is not a parameter "
                                                  f"(its array parameters: {known})")
            self.constraints.append(c)
        self._position = position

    def _constraint_tuples(self, values):
        """The constraints for the C++ launch, with ints spread over the arrays' dimensions."""
        out = []
        for c in self.constraints:
            a = self._position[c.a]
            b = -1 if c.b is None else self._position[c.b]
            ndim = values[c.b if c.b is not None else c.a].ndim

            def spread(v, ndim=ndim):
                return (v,) * ndim if isinstance(v, int) else v
            out.append((c.kind, a, b, c.axes, spread(c.low), spread(c.high), c.ranges))
        return out

    def _coerce(self, name, ann, value):
        """A number argument as its annotation says (a TypeError naming the parameter otherwise)."""
        try:
            if ann is bool:
                if not isinstance(value, (bool, numpy.bool_)):
                    raise TypeError
                return bool(value)
            if ann is int:
                value = operator.index(value)
            elif ann is float:
                if isinstance(value, (complex, numpy.complexfloating)) or not isinstance(value, numbers.Real):
                    raise TypeError
                value = float(value)
            elif ann is complex:
                if not isinstance(value, numbers.Complex):
                    raise TypeError
                value = complex(value)
            elif isinstance(value, (bool, numpy.bool_)) or isinstance(value, (numbers.Number, numpy.generic)):
                pass
            else:
                raise TypeError
        except TypeError:
            want = ann.__name__ if ann else "a number"
            raise self._error(TypeError, f"argument '{name}' must be {want}, not {type(value).__name__}") from None
        if isinstance(value, int) and not -2**63 <= value < 2**64:
            raise self._error(OverflowError, f"argument '{name}' = {value} does not fit 64 bits")
        return value

    def __call__(self, *args, **kwargs):
        try:
            bound = self.call_signature.bind(*args, **kwargs)
        except TypeError as e:
            raise self._error(TypeError, str(e)) from None
        bound.apply_defaults()
        values = bound.arguments
        scalars = [self._coerce(name, ann, values[name]) for name, ann in self.scalars]
        kinds = {}
        for name, _ in self.arrays:
            if name not in values:
                raise self._error(TypeError, f"missing array argument '{name}'")
            v = values[name]
            kinds[name] = "tessera" if isinstance(v, _tessera.ndarray) else "numpy" if isinstance(v, numpy.ndarray) else None
            if kinds[name] is None:
                raise self._error(TypeError, f"argument '{name}' must be a tessera array, not {type(v).__name__}")
        if self.arrays and all(k == "numpy" for k in kinds.values()):
            return self._run_whole(values, scalars)
        if any(k == "numpy" for k in kinds.values()):
            name = next(n for n, k in kinds.items() if k == "numpy")
            raise self._error(TypeError, f"argument '{name}' is a numpy.ndarray while others are tessera arrays; "
                                         "pass tessera arrays (tessera.numpy.asarray) or only NumPy arrays")
        frame = sys._getframe(1)
        site = f"{frame.f_code.co_filename}:{frame.f_lineno}"
        arrays = [values[name] for name, _ in self.arrays]
        privileges = [p for _, p in self.arrays]
        constraints = self._constraint_tuples(values)
        try:
            _tessera._task_launch(self._index, arrays, privileges, scalars + [_site_id(site)], constraints, site)
        except ValueError as e:  # the solver's check names arguments by position: name them
            message = str(e).replace(f"task '{self.name}': ", f"task '{self.name}' (defined at {self.defined_at}): ", 1)
            for c, (kind, a, b, *_) in zip(self.constraints, constraints):
                message = message.replace(f"constraint {kind}({a}, {b})" if b >= 0 else f"constraint {kind}({a})",
                                          f"constraint {c}")
            raise type(e)(message) from None

    def _run_whole(self, values, scalars):
        """The body once on whole NumPy arrays (inputs seen read-only), on this thread."""
        arrays = {}
        for name, privilege in self.arrays:
            a = values[name]
            if privilege == "in":
                a = a.view()
                a.flags.writeable = False
            arrays[name] = a
        lo = {name: (0,) * a.ndim for name, a in arrays.items()}
        shape = {name: a.shape for name, a in arrays.items()}
        context = TaskContext(self.name, 0, 1, lo, dict(shape), shape)
        self._call(arrays, dict(zip((n for n, _ in self.scalars), scalars)), context)

    def _call(self, arrays, scalars, context):
        args, kwargs = [], {}
        for p in self.signature.parameters.values():
            v = arrays[p.name] if p.name in arrays else context if p.name == self.context else scalars[p.name]
            if p.kind == p.KEYWORD_ONLY:
                kwargs[p.name] = v
            else:
                args.append(v)
        self.fn(*args, **kwargs)

    def _invoke(self, views, scalars, point, points, lo, hi, shapes):
        """One point's body (called by the runtime's worker with the interpreter lock held)."""
        site = "<unknown>"
        try:
            site = _sites[scalars[-1]]
            names = [name for name, _ in self.arrays]
            context = None
            if self.context is not None:
                context = TaskContext(self.name, point, points, dict(zip(names, lo)), dict(zip(names, hi)),
                                      dict(zip(names, shapes)))
            self._call(dict(zip(names, views)), dict(zip((n for n, _ in self.scalars), scalars)), context)
            return None
        except Exception as e:
            return _failure(self, e, site)

    def __repr__(self):
        return f"<tessera task '{self.name}' defined at {self.defined_at}>"


def task(fn=None, *, constraints=(), name=None):
    """Makes `fn` a task: ``@task`` or ``@task(constraints=(...), name=...)``.

    The task is named `name` (default: the function's name) in profiles and errors."""
    if fn is None:
        return lambda f: Task(f, constraints, name)
    if not callable(fn):
        raise TypeError(f"@task decorates a function, not {type(fn).__name__}")
    return Task(fn, constraints, name)
