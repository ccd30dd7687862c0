// Maps tessera's C++ errors onto the Python exceptions NumPy raises.
#include <cstring>
#include <typeinfo>
#include <string>
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

}  // namespace

void bind_errors(nb::module_& m) {
  static nb::exception<OutOfMemoryError> oom(m, "OutOfMemoryError", PyExc_MemoryError);
  static nb::exception<ConfigError> config(m, "ConfigError", PyExc_ValueError);
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const ValueError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const UFuncCastingError& e) {
      set_casting_error(e);
    } catch (const TypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const IndexError& e) {
      PyErr_SetString(PyExc_IndexError, e.what());
    } catch (const OverflowError& e) {
      PyErr_SetString(PyExc_OverflowError, e.what());
    } catch (const ZeroDivisionError& e) {
      PyErr_SetString(PyExc_ZeroDivisionError, e.what());
    } catch (const NotImplementedError& e) {
      PyErr_SetString(PyExc_NotImplementedError, e.what());
    } catch (const AxisError& e) {
      nb::object cls = numpy().attr("exceptions").attr("AxisError");
      PyErr_SetObject(cls.ptr(), nb::str(e.what()).ptr());
    } catch (const LinAlgError& e) {
      nb::object cls = numpy().attr("linalg").attr("LinAlgError");
      PyErr_SetObject(cls.ptr(), nb::str(e.what()).ptr());
    } catch (const std::domain_error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::bad_cast&) {
      // A conversion that should have been checked with a NumPy message at its source.
      PyErr_SetString(PyExc_TypeError, "an argument has a type or value this function does not accept");
    }
  });
}

}  // namespace tessera::python
