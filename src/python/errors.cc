// Maps tessera's C++ errors onto the Python exceptions NumPy raises.
#include <cstring>
#include <string>
#include <typeinfo>
#include <vector>

#include <nanobind/stl/string.h>

#include "config/config.h"
#include "python/bindings.h"
#include "python/convert.h"
#include "tessera/errors.h"

namespace tessera::python {
namespace {

// NumPy's own exception for a ufunc casting failure (a UFuncTypeError) when `ufunc` names one
// of NumPy's ufuncs; a TypeError with the same message otherwise.
void set_casting_error(const UFuncCastingError& e) {
  try {
    // NumPy's public ufuncs, then those its functions wrap (np.clip: umath.clip; the FFTs:
    // pocketfft's fft, rfft_n_even, ...).
    nb::object ufunc = nb::getattr(numpy(), e.ufunc().c_str(), nb::none());
    for (const char* home : {"numpy._core.umath", "numpy.fft._pocketfft_umath"}) {
      if (nb::isinstance(ufunc, numpy().attr("ufunc"))) break;
      ufunc = nb::getattr(nb::module_::import_(home), e.ufunc().c_str(), nb::none());
    }
    if (!nb::isinstance(ufunc, numpy().attr("ufunc"))) {
      PyErr_SetString(PyExc_TypeError, e.what());
      return;
    }
    nb::object cls = nb::module_::import_("numpy._core._exceptions")
                         .attr(e.operand() < 0 ? "_UFuncOutputCastingError" : "_UFuncInputCastingError");
    nb::object exc = cls(ufunc, e.casting(), numpy().attr("dtype")(e.from()), numpy().attr("dtype")(e.to()),
                         e.operand() < 0 ? 0 : e.operand());
    PyErr_SetObject(cls.ptr(), exc.ptr());
  } catch (const nb::python_error&) {
    PyErr_SetString(PyExc_TypeError, e.what());
  }
}

// The error kinds (error_kinds.def), numbered in the list's order.
enum class ErrorKind {
#define TESSERA_ERROR_KIND(CLASS, ...) CLASS,
#include "tessera/error_kinds.def"
  kCount
};

// The Python class an error kind is raised as: its row's (module, name), but for
// OutOfMemoryError tessera's own MemoryError subclass. Looked up at the first error.
PyObject* python_class(ErrorKind kind, PyObject* out_of_memory) {
  static PyObject* classes[static_cast<int>(ErrorKind::kCount)] = {};
  PyObject*& cls = classes[static_cast<int>(kind)];
  if (!cls) {
    static const char* const where[][2] = {
#define TESSERA_ERROR_KIND(CLASS, CODE, MODULE, NAME, CONTEXT) {MODULE, NAME},
#include "tessera/error_kinds.def"
    };
    const auto& [module, name] = where[static_cast<int>(kind)];
    cls = kind == ErrorKind::OutOfMemoryError ? out_of_memory
                                              : nb::object(nb::module_::import_(module).attr(name)).release().ptr();
  }
  return cls;
}

}  // namespace

void bind_errors(nb::module_& m) {
  static nb::exception<OutOfMemoryError> oom(m, "OutOfMemoryError", PyExc_MemoryError);
  static nb::exception<ConfigError> config(m, "ConfigError", PyExc_ValueError);
  // The error kinds' rows, for Python task bodies: [(module, name)], most specific class first.
  m.def("_error_kinds", [] {
    nb::list kinds;
#define TESSERA_ERROR_KIND(CLASS, CODE, MODULE, NAME, CONTEXT) kinds.append(nb::make_tuple(MODULE, NAME));
#include "tessera/error_kinds.def"
    return kinds;
  });
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const UFuncCastingError& e) {
      set_casting_error(e);
      // One catch clause per error kind (the row closes the clause before it).
#define TESSERA_ERROR_KIND(CLASS, ...) \
  }                                    \
  catch (const CLASS& e) {             \
    PyErr_SetString(python_class(ErrorKind::CLASS, oom.ptr()), e.what());
#include "tessera/error_kinds.def"
    } catch (const std::domain_error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::bad_cast&) {
      // A conversion that should have been checked with a NumPy message at its source.
      PyErr_SetString(PyExc_TypeError, "an argument has a type or value this function does not accept");
    }
  });
}

}  // namespace tessera::python
