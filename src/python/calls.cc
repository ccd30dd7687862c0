// Every function and method the extension binds is called through one wrapper, which holds
// the program lock for the call (so Python threads issue operations one call at a time, as
// NumPy's calls are atomic under the interpreter lock; runtime/program_lock.h) and gives a
// call that no overload accepts a NumPy-style TypeError instead of nanobind's message.
#include <cstring>
#include <string>
#include <vector>

#include <nanobind/stl/string.h>

#include "python/bindings.h"
#include "runtime/program_lock.h"

namespace tessera::python {
namespace {

// Calls `func` holding the program lock.
PyObject* call_locked(PyObject* func, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  detail::ProgramScope program;
  return PyObject_Vectorcall(func, args, static_cast<size_t>(nargs), kwnames);
}

// The parameter list of nanobind's first signature in `message`, without annotations:
// "f(x: ndarray, axis: int | None = None) -> ..." gives "x, axis=None".
std::string parameters(const std::string& message) {
  const size_t start = message.find("1. ");
  if (start == std::string::npos) return {};
  size_t i = message.find('(', start);
  if (i == std::string::npos) return {};
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

// Calls the wrapped function; a call that no overload accepts gets a NumPy-style TypeError
// ("f() got arguments of unsupported types (str); its parameters are (shape, dtype=None)")
// instead of nanobind's message, which names C++ and binding types.
PyObject* call_with_clear_errors(PyObject* func, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  PyObject* r = call_locked(func, args, nargs, kwnames);
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

// A function object that calls `func` through `call` (call_with_clear_errors, or call_locked
// for special methods, whose TypeErrors Python itself may act on), keeping its name and doc.
nb::object wrapper(nb::handle func, PyObject* (*call)(PyObject*, PyObject* const*, Py_ssize_t, PyObject*)) {
  const std::string name = nb::cast<std::string>(func.attr("__name__"));
  nb::object doc = nb::getattr(func, "__doc__", nb::none());
  // Lives as long as the function object does: the module's lifetime.
  auto* def = new PyMethodDef{strdup(name.c_str()), reinterpret_cast<PyCFunction>(
                                  reinterpret_cast<void (*)()>(call)),
                              METH_FASTCALL | METH_KEYWORDS,
                              doc.is_none() ? nullptr : strdup(nb::cast<std::string>(doc).c_str())};
  return nb::steal(PyCFunction_NewEx(def, func.ptr(), nullptr));
}

void wrap_functions(nb::handle scope, bool methods) {
  // A class's __dict__ is a read-only proxy of tp_dict.
  nb::dict attrs = methods ? nb::borrow<nb::dict>(reinterpret_cast<PyTypeObject*>(scope.ptr())->tp_dict)
                           : nb::borrow<nb::dict>(scope.attr("__dict__"));
  std::vector<std::pair<nb::object, nb::object>> replace;
  for (auto [key, value] : attrs) {
    const std::string name = nb::cast<std::string>(key);
    if (!is_nanobind_function(value) || name == "__init__" || name == "__new__") continue;
    const bool special = name.rfind("__", 0) == 0;
    if (special && !methods) continue;
    nb::object w = wrapper(value, special ? &call_locked : &call_with_clear_errors);
    // A method must bind `self` when looked up on an instance.
    if (methods) w = nb::steal(PyInstanceMethod_New(w.ptr()));
    replace.emplace_back(nb::borrow(key), std::move(w));
  }
  for (auto& [key, w] : replace) nb::setattr(scope, key, w);
}

}  // namespace

void wrap_calls(nb::module_& m) {
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


}  // namespace tessera::python
