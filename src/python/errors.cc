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
    nb::object ufunc = nb::getattr(numpy(), e.ufunc().c_str(), nb::none());
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

// The parameter list of the nanobind signature whose '(' is at `i` in `text`, without
// annotations: "f(x: ndarray, axis: int | None = None) -> ..." gives "x, axis=None".
std::string parameter_list(const std::string& text, size_t i) {
  const std::string& message = text;
  std::string out, current;
  int depth = 0;
  bool in_default = false, in_annotation = false;
  auto flush = [&] {
    if (!current.empty()) out += (out.empty() ? "" : ", ") + current;
    current.clear();
    in_default = in_annotation = false;
  };
  for (++i; i < message.size(); ++i) {
    const char c = message[i];
    if (depth == 0 && c == ')') break;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (depth == 0 && c == ',') { flush(); continue; }
    if (depth == 0 && c == ':' && !in_default) { in_annotation = true; continue; }
    if (depth == 0 && c == '=' && !in_default) {
      while (!current.empty() && current.back() == ' ') current.pop_back();
      current += '=';
      in_default = true;
      in_annotation = false;
      continue;
    }
    if (in_annotation) continue;
    if (c == ' ' && (current.empty() || current.back() == '=')) continue;
    current += c;
  }
  flush();
  return out;
}

// The parameter list of nanobind's first signature in an error `message`.
std::string parameters(const std::string& message) {
  const size_t start = message.find("1. ");
  if (start == std::string::npos) return {};
  const size_t i = message.find('(', start);
  return i == std::string::npos ? std::string() : parameter_list(message, i);
}

// Calls the wrapped function; a call that no overload accepts gets a NumPy-style TypeError
// ("f() got arguments of unsupported types (str); its parameters are (shape, dtype=None)")
// instead of nanobind's message, which names C++ and binding types.
PyObject* call_with_clear_errors(PyObject* func, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  PyObject* r = PyObject_Vectorcall(func, args, static_cast<size_t>(nargs), kwnames);
  if (r || !PyErr_ExceptionMatches(PyExc_TypeError)) return r;
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  PyObject* str = value ? PyObject_Str(value) : nullptr;
  const char* text = str ? PyUnicode_AsUTF8(str) : nullptr;
  const std::string message = text ? text : "";
  Py_XDECREF(str);
  if (!text || message.find("incompatible function arguments") == std::string::npos) {
    if (!text) PyErr_Clear();
    PyErr_Restore(type, value, tb);
    return nullptr;
  }
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
  std::string name = message.substr(0, message.find("()"));
  std::string got;
  auto type_name = [](PyObject* o) {
    return nb::isinstance<ndarray>(nb::handle(o)) ? std::string("ndarray") : std::string(Py_TYPE(o)->tp_name);
  };
  for (Py_ssize_t k = 0; k < nargs; ++k) got += (got.empty() ? "" : ", ") + type_name(args[k]);
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; ++k)
    got += (got.empty() ? "" : ", ") + std::string(PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k))) + "=" +
           type_name(args[nargs + k]);
  std::string what = name + "() got " + (got.empty() ? "no arguments" : "arguments of unsupported types (" + got + ")");
  const std::string params = parameters(message);
  what += "; its parameters are (" + params + ")";
  PyErr_SetString(PyExc_TypeError, what.c_str());
  return nullptr;
}

bool is_nanobind_function(nb::handle h) {
  const char* t = Py_TYPE(h.ptr())->tp_name;
  return std::strcmp(t, "nanobind.nb_func") == 0 || std::strcmp(t, "nanobind.nb_method") == 0;
}

// A function object that calls `func` through call_with_clear_errors, keeping its name and doc.
nb::object clear_error_wrapper(nb::handle func) {
  const std::string name = nb::cast<std::string>(func.attr("__name__"));
  nb::object doc = nb::getattr(func, "__doc__", nb::none());
  std::string text = doc.is_none() ? std::string() : nb::cast<std::string>(doc);
  // A function of one signature gets a doc that starts "name(parameters)\n--\n\n": Python
  // reads it as the __text_signature__, so inspect.signature and help() see the parameters;
  // __doc__ is what follows, nanobind's doc unchanged.
  nb::object overloads = nb::getattr(func, "__nb_signature__", nb::none());
  if (!overloads.is_none() && nb::len(overloads) == 1 && text.rfind(name + "(", 0) == 0)
    text = name + "(" + parameter_list(text, name.size()) + ")\n--\n\n" + text;
  // Lives as long as the function object does: the module's lifetime.
  auto* def = new PyMethodDef{strdup(name.c_str()), reinterpret_cast<PyCFunction>(
                                  reinterpret_cast<void (*)()>(&call_with_clear_errors)),
                              METH_FASTCALL | METH_KEYWORDS, text.empty() ? nullptr : strdup(text.c_str())};
  return nb::steal(PyCFunction_NewEx(def, func.ptr(), nullptr));
}

void wrap_functions(nb::handle scope, bool methods) {
  // A class's __dict__ is a read-only proxy of tp_dict.
  nb::dict attrs = methods ? nb::borrow<nb::dict>(reinterpret_cast<PyTypeObject*>(scope.ptr())->tp_dict)
                           : nb::borrow<nb::dict>(scope.attr("__dict__"));
  std::vector<std::pair<nb::object, nb::object>> replace;
  for (auto [key, value] : attrs) {
    const std::string name = nb::cast<std::string>(key);
    if (name.rfind("__", 0) == 0 || !is_nanobind_function(value)) continue;
    nb::object w = clear_error_wrapper(value);
    // A method must bind `self` when looked up on an instance.
    if (methods) w = nb::steal(PyInstanceMethod_New(w.ptr()));
    replace.emplace_back(nb::borrow(key), std::move(w));
  }
  for (auto& [key, w] : replace) nb::setattr(scope, key, w);
}

}  // namespace

void clear_argument_errors(nb::module_& m) {
  auto ours = [](nb::handle h) {
    return PyType_Check(h.ptr()) && nb::cast<std::string>(h.attr("__module__")).rfind("tessera", 0) == 0;
  };
  try {
    // The module, its native submodules, and the classes bound in either.
    std::vector<nb::handle> modules{m};
    for (auto [key, value] : nb::borrow<nb::dict>(m.attr("__dict__")))
      if (PyModule_Check(value.ptr())) modules.push_back(value);
    for (nb::handle mod : modules) {
      wrap_functions(mod, false);
      for (auto [key, value] : nb::borrow<nb::dict>(mod.attr("__dict__")))
        if (ours(value)) wrap_functions(value, true);
    }
  } catch (nb::python_error& e) {
    e.discard_as_unraisable("tessera: wrapping the extension's functions");
  }
}

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
