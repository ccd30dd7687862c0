// Every function and method the extension binds is called through one wrapper, which holds
// the program lock for the call (so Python threads issue operations one call at a time, as
// NumPy's calls are atomic under the interpreter lock; runtime/program_lock.h) and gives a
// call that no overload accepts a NumPy-style TypeError instead of nanobind's message.
#include <cstring>
#include <string>
#include <vector>

#include <nanobind/stl/string.h>

#include <structmember.h>  // after Python.h (through bindings.h)
#include "python/bindings.h"
#include "runtime/program_lock.h"

namespace tessera::python {
namespace {

// Calls `func` holding the program lock.
PyObject* call_locked(PyObject* func, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  detail::ProgramScope program;
  return PyObject_Vectorcall(func, args, static_cast<size_t>(nargs), kwnames);
}

// The parameter list of the nanobind signature whose '(' is at `i` in `message`, without
// annotations: "f(x: ndarray, axis: int | None = None) -> ..." gives "x, axis=None".
std::string parameter_list(const std::string& message, size_t i) {
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
    if (depth == 0 && c == ',') {
      flush();
      continue;
    }
    if (depth == 0 && c == ':' && !in_default) {
      in_annotation = true;
      continue;
    }
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

// A wrapped function: a callable that forwards to `func` through `call`, and a method
// descriptor, so `a.f(x)` and Python's operator slots (`a + b`) call it with `self` first, as
// they call nanobind's own methods, without making a bound method object per call. Its
// attributes (__name__, __doc__) are the wrapped function's, which is `_tessera_function`;
// a function of one signature has a `__text_signature__`, so inspect.signature and help()
// see its parameters.
struct Wrapped {
  PyObject_HEAD PyObject* func;
  PyObject* text_signature;
  vectorcallfunc vectorcall;
  PyObject* (*call)(PyObject*, PyObject* const*, Py_ssize_t, PyObject*);
};

PyObject* wrapped_vectorcall(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  auto* w = reinterpret_cast<Wrapped*>(self);
  return w->call(w->func, args, PyVectorcall_NARGS(nargsf), kwnames);
}

PyObject* wrapped_get(PyObject* self, PyObject* obj, PyObject*) {
  if (!obj) return Py_NewRef(self);
  return PyMethod_New(self, obj);
}

PyObject* wrapped_getattr(PyObject* self, PyObject* name) {
  PyObject* r = PyObject_GetAttr(reinterpret_cast<Wrapped*>(self)->func, name);
  if (r || !PyErr_ExceptionMatches(PyExc_AttributeError)) return r;
  PyErr_Clear();
  return PyObject_GenericGetAttr(self, name);
}

void wrapped_dealloc(PyObject* self) {
  Py_XDECREF(reinterpret_cast<Wrapped*>(self)->func);
  Py_XDECREF(reinterpret_cast<Wrapped*>(self)->text_signature);
  PyObject_Free(self);
}

PyTypeObject* wrapped_type() {
  static PyTypeObject* type = [] {
    static PyType_Slot slots[] = {{Py_tp_call, reinterpret_cast<void*>(&PyVectorcall_Call)},
                                  {Py_tp_descr_get, reinterpret_cast<void*>(&wrapped_get)},
                                  {Py_tp_getattro, reinterpret_cast<void*>(&wrapped_getattr)},
                                  {Py_tp_dealloc, reinterpret_cast<void*>(&wrapped_dealloc)},
                                  {0, nullptr}};
    static PyMemberDef members[] = {
        {"__vectorcalloffset__", T_PYSSIZET, offsetof(Wrapped, vectorcall), READONLY, nullptr},
        {"_tessera_function", T_OBJECT, offsetof(Wrapped, func), READONLY, nullptr},
        {"__text_signature__", T_OBJECT, offsetof(Wrapped, text_signature), READONLY, nullptr},
        {nullptr, 0, 0, 0, nullptr}};
    static PyType_Slot with_members[] = {slots[0],    slots[1], slots[2], slots[3], {Py_tp_members, members},
                                         {0, nullptr}};
    static PyType_Spec spec = {"tessera.call", sizeof(Wrapped), 0,
                               Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
                               with_members};
    return reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&spec));
  }();
  return type;
}

// `func` called through `call` (call_with_clear_errors, or call_locked for special methods,
// whose TypeErrors Python itself may act on).
nb::object wrapper(nb::handle func, PyObject* (*call)(PyObject*, PyObject* const*, Py_ssize_t, PyObject*)) {
  PyTypeObject* type = wrapped_type();
  if (!type) throw nb::python_error();
  auto* w = PyObject_New(Wrapped, type);
  if (!w) throw nb::python_error();
  w->func = Py_NewRef(func.ptr());
  w->text_signature = nullptr;  // None when read
  const std::string name = nb::cast<std::string>(func.attr("__name__"));
  nb::object doc = nb::getattr(func, "__doc__", nb::none());
  const std::string text = doc.is_none() ? std::string() : nb::cast<std::string>(doc);
  nb::object overloads = nb::getattr(func, "__nb_signature__", nb::none());
  if (!overloads.is_none() && nb::len(overloads) == 1 && text.rfind(name + "(", 0) == 0)
    w->text_signature = PyUnicode_FromString(("(" + parameter_list(text, name.size()) + ")").c_str());
  w->vectorcall = &wrapped_vectorcall;
  w->call = call;
  return nb::steal(reinterpret_cast<PyObject*>(w));
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
