// Maps tessera's C++ errors onto the Python exceptions NumPy raises.
#include "config/config.h"
#include "python/bindings.h"
#include "python/convert.h"
#include "tessera/errors.h"

namespace tessera::python {

void bind_errors(nb::module_& m) {
  static nb::exception<OutOfMemoryError> oom(m, "OutOfMemoryError", PyExc_MemoryError);
  static nb::exception<ConfigError> config(m, "ConfigError", PyExc_ValueError);
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const ValueError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
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
    }
  });
}

}  // namespace tessera::python
