// Python tasks (tessera.task): a decorated function becomes a registered tessera::Task whose
// body takes the interpreter lock, wraps each tile as a NumPy array without copying and calls
// the invoker that python/tessera/task.py made for it; a call maps onto tessera::launch.
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <deque>
#include <mutex>

#include "python/bindings.h"
#include "python/convert.h"
#include "runtime/runtime.h"
#include "tessera/task.h"

namespace tessera::python {
namespace {

// The tasks registered from Python, by the index _task_register returned.
std::mutex g_tasks_mu;
std::deque<Task> g_tasks;

// A NumPy array over `tile`'s memory: shape = extents, the tile's strides; read-only for an
// input. It owns nothing: it is valid while the body runs.
nb::object tile_array(const Tile& tile) {
  alignas(16) static char empty[16] = {};
  void* data = tile.data() ? tile.data() : empty;
  std::vector<size_t> shape(tile.extents().begin(), tile.extents().end());
  const int64_t* strides = tile.strides().empty() ? nullptr : tile.strides().data();
  if (tile.privilege() == Privilege::Read) {
    nb::ndarray<nb::numpy, nb::ro> a(data, shape.size(), shape.data(), nb::handle(), strides,
                                     dlpack_dtype(tile.dtype()));
    return nb::cast(a, nb::rv_policy::reference);
  }
  nb::ndarray<nb::numpy> a(data, shape.size(), shape.data(), nb::handle(), strides, dlpack_dtype(tile.dtype()));
  return nb::cast(a, nb::rv_policy::reference);
}

nb::tuple shape_tuple(const Shape& s) {
  nb::list l;
  for (int64_t v : s) l.append(v);
  return nb::tuple(l);
}

// A launch's scalar back as a Python value: a Python number for a Python scalar (weak), a
// NumPy scalar of its dtype otherwise.
nb::object scalar_object(const Scalar& s) {
  if (!s.is_weak()) return to_numpy_scalar(s, s.dtype());
  switch (s.kind()) {
    case DKind::Bool: return nb::bool_(s.as_bool());
    case DKind::Int: return nb::int_(s.as_int());
    case DKind::UInt: return nb::steal(PyLong_FromUnsignedLongLong(s.as_uint()));
    case DKind::Complex: {
      const std::complex<double> c = s.as_complex();
      return nb::steal(PyComplex_FromDoubles(c.real(), c.imag()));
    }
    default: return nb::float_(s.as_double());
  }
}

// Raises the body's error as the C++ type that carries `kind` to the program (and to the
// other ranks, window.cc): a standard Python exception keeps its type; others are RuntimeErrors.
[[noreturn]] void raise_as(const std::string& kind, const std::string& message) {
#define TESSERA_ERROR_KIND(CLASS, CODE, MODULE, NAME, CONTEXT) \
  if (kind == NAME) throw CLASS(message);
#include "tessera/error_kinds.def"
  throw Error(message);  // RuntimeError in Python
}

// Whether the runtime appends " [in operation 'name' issued at ...]" to this error on its way
// to the program: it does for its typed errors (scheduler.cc with_context, and TaskOp for a
// small launch run at once); the others say it in the body's message.
bool runtime_adds_context(const std::string& kind) {
#define TESSERA_ERROR_KIND(CLASS, CODE, MODULE, NAME, CONTEXT) \
  if (kind == NAME) return CONTEXT;
#include "tessera/error_kinds.def"
  return false;
}

// The body of a Python task: `invoke(views, scalars, point, points, lo, hi, shapes)` returns
// None, or (kind, message, site) when the function raised.
TaskFunction python_body(PyObject* invoke) {
  return [invoke](TaskContext& ctx) {
    std::string kind, message, site;
    {
      nb::gil_scoped_acquire gil;
      try {
        nb::list views, lo, hi, shapes;
        for (size_t i = 0; i < ctx.arrays(); ++i) {
          const Tile& t = ctx.array(i);
          views.append(tile_array(t));
          lo.append(shape_tuple(t.lo()));
          hi.append(shape_tuple(t.hi()));
          shapes.append(shape_tuple(t.array_shape()));
        }
        nb::list scalars;
        for (size_t i = 0; i < ctx.scalars(); ++i) scalars.append(scalar_object(ctx.scalar(i)));
        nb::object r = nb::handle(invoke)(views, scalars, ctx.point(), ctx.points(), lo, hi, shapes);
        if (r.is_none()) return;
        nb::tuple failure = nb::borrow<nb::tuple>(r);
        kind = nb::cast<std::string>(failure[0]);
        message = nb::cast<std::string>(failure[1]);
        site = nb::cast<std::string>(failure[2]);
      } catch (nb::python_error& e) {  // the invoker itself failed: a bug in tessera
        kind = "RuntimeError";
        message = "task '" + ctx.task_name() + "': " + e.what();
      }
    }
    if (!runtime_adds_context(kind)) message += " [in operation '" + ctx.task_name() + "' issued at " + site + "]";
    raise_as(kind, message);
  };
}

Reduction reduction_of(const std::string& op) {
  if (op == "+") return Reduction::sum();
  if (op == "*") return Reduction::prod();
  if (op == "min") return Reduction::min();
  if (op == "max") return Reduction::max();
  throw ValueError("unknown reduction operator '" + op + "' (expected '+', '*', 'min' or 'max')");
}

Shape shape_of(nb::handle h) {
  Shape s;
  for (nb::handle v : h) s.push_back(nb::cast<int64_t>(v));
  return s;
}

// A constraint from task.py's tuple: (kind, a, b, axes, low, high, ranges).
Constraint constraint_of(nb::handle h) {
  nb::tuple t = nb::borrow<nb::tuple>(h);
  const std::string kind = nb::cast<std::string>(t[0]);
  const int a = nb::cast<int>(t[1]), b = nb::cast<int>(t[2]);
  if (kind == "align") return align(a, b);
  if (kind == "broadcast") {
    std::vector<int> axes;
    for (nb::handle v : t[3]) axes.push_back(nb::cast<int>(v));
    return broadcast(a, axes);
  }
  if (kind == "bloat") return bloat(a, b, shape_of(t[4]), shape_of(t[5]));
  if (kind == "image") return image(a, b, nb::cast<bool>(t[6]));
  if (kind == "scale") return scale(a, b, shape_of(t[4]));
  if (kind == "min_extents") return min_extents(a, shape_of(t[4]));
  throw ValueError("unknown constraint '" + kind + "'");
}

}  // namespace

void bind_tasks(nb::module_& m) {
  m.def(
      "_task_register",
      [](const std::string& name, nb::object invoke) {
        // The invoker lives as long as the task registry: for the process (never released, so no
        // reference is dropped after the interpreter has gone).
        PyObject* fn = invoke.release().ptr();
        std::lock_guard lock(g_tasks_mu);
        g_tasks.emplace_back(name, python_body(fn));
        return static_cast<int>(g_tasks.size()) - 1;
      },
      "Registers a task whose body calls `invoke`; returns its index for _task_launch.");

  m.def(
      "_task_launch",
      [](int index, nb::list arrays, std::vector<std::string> privileges, nb::list scalars, nb::list constraints,
         std::string site) {
        const Task* task;
        {
          std::lock_guard lock(g_tasks_mu);
          task = &g_tasks.at(static_cast<size_t>(index));
        }
        std::vector<Argument> args;
        for (size_t i = 0; i < arrays.size(); ++i) {
          const ndarray& a = nb::cast<const ndarray&>(arrays[i]);
          const std::string& p = privileges[i];
          if (p == "in") args.push_back(in(a));
          else if (p == "out") args.push_back(out(a));
          else if (p == "inout") args.push_back(inout(a));
          else args.push_back(reduce(a, reduction_of(p)));
        }
        std::vector<Scalar> values;
        for (nb::handle s : scalars) values.push_back(to_scalar(s));
        std::vector<Constraint> cs;
        for (nb::handle c : constraints) cs.push_back(constraint_of(c));
        // The launching line is the operation's provenance; the wait for back-pressure and a
        // small launch run at once (whose body takes the lock itself) happen without the lock.
        struct Where {
          explicit Where(std::string w) { detail::Runtime::set_provenance(std::move(w)); }
          ~Where() { detail::Runtime::set_provenance({}); }
        } where(std::move(site));
        nb::gil_scoped_release release;
        launch(*task, std::move(args), std::move(values), std::move(cs));
      },
      "Launches a registered task over whole arrays (deferred).");
}

}  // namespace tessera::python
