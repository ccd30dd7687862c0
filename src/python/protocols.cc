// Buffer exchange with other array libraries: DLPack export (__dlpack__,
// __dlpack_device__) and import (from_dlpack). NumPy's dispatch protocols
// (__array_ufunc__, __array_function__) are in python/tessera/numpy/_protocols.py.
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include "data/store.h"
#include "python/bindings.h"
#include "python/convert.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"
#include "tessera/elementwise.h"

namespace tessera::python {
namespace {

// The DLPack capsule of `a`'s memory, without a copy: the exported tensor holds a handle to the
// array, which keeps its storage alive. With several ranks the whole array is gathered here first
// (every rank exports; the ranks run the same program, so each must call this too).
nb::object export_capsule(const ndarray& a, nb::handle max_version) {
  {
    nb::gil_scoped_release release;
    detail::Runtime::get().acquire(a.store());
  }
  const detail::Store& s = *a.store();
  static char empty_data = 0;
  void* data = &empty_data;
  if (a.size() > 0) {
    if (!s.storage()->allocated()) {
      if (s.storage()->failed()) throw nb::buffer_error("array was never computed (an earlier error stopped it)");
      // An array no operation has written yet (np.empty): its memory exists from now on.
      s.storage()->allocate("__dlpack__");
    }
    data = s.base_ptr();
    s.storage()->pin();  // the exported address must stay the array's memory
  }
  std::vector<size_t> shape(a.shape().begin(), a.shape().end());
  std::vector<int64_t> strides(s.strides().begin(), s.strides().end());
  nb::object owner = nb::cast(a);
  nb::ndarray<nb::array_api> view(data, shape.size(), shape.data(), owner, strides.data(), dlpack_dtype(a.dtype()),
                                  nb::device::cpu::value, 0);
  return nb::cast(view).attr("__dlpack__")(nb::arg("max_version") = max_version);
}

// Drops the reference that kept an adopted buffer alive. The last holder of a storage may be a
// worker thread without the GIL: the reference is then dropped by the interpreter's thread.
int drop_reference(void* obj) {
  Py_DECREF(static_cast<PyObject*>(obj));
  return 0;
}

void release_buffer(void* obj) {
  if (!Py_IsInitialized()) return;  // the interpreter is gone, and the buffer with it
  if (PyGILState_Check()) {
    Py_DECREF(static_cast<PyObject*>(obj));
    return;
  }
  Py_AddPendingCall(&drop_reference, obj);  // needs no GIL; on failure the buffer stays (a leak, not a crash)
}

}  // namespace

std::optional<ndarray> adopt_numpy(nb::handle host) {
  nb::object flags = host.attr("flags");
  if (!nb::cast<bool>(flags.attr("c_contiguous")) || !nb::cast<bool>(flags.attr("aligned")) ||
      !nb::cast<bool>(host.attr("dtype").attr("isnative")))
    return std::nullopt;
  const DType t = to_dtype(host.attr("dtype"));
  Shape shape;
  for (nb::handle h : nb::tuple(host.attr("shape"))) shape.push_back(nb::cast<int64_t>(h));
  nb::object iface = host.attr("__array_interface__");
  auto* data = reinterpret_cast<char*>(nb::cast<uintptr_t>(nb::tuple(iface["data"])[0]));
  ndarray a(detail::new_store(t, shape, detail::Runtime::provenance()));
  PyObject* keep = host.ptr();
  Py_INCREF(keep);
  a.store()->storage()->adopt(data, std::shared_ptr<void>(keep, &release_buffer));
  if (!nb::cast<bool>(flags.attr("writeable"))) a.store()->lock_read_only();
  return a;
}

void bind_protocols(nb::module_& m, ArrayClass& cls) {
  cls.def(
      "__dlpack__",
      [](nb::handle self, nb::handle stream, nb::handle max_version, nb::handle dl_device, nb::handle copy_arg) {
        if (!stream.is_none() && !(PyLong_Check(stream.ptr()) && nb::cast<int64_t>(stream) == -1))
          throw nb::buffer_error("tessera arrays live in host memory: __dlpack__ takes stream=None");
        if (!dl_device.is_none()) {
          nb::tuple d = nb::borrow<nb::tuple>(dl_device);
          if (d.size() != 2 || nb::cast<int>(d[0]) != 1 || nb::cast<int>(d[1]) != 0)
            throw nb::buffer_error(("tessera arrays live in host memory (DLPack device (1, 0)); cannot export to " +
                                    nb::cast<std::string>(nb::repr(dl_device)))
                                       .c_str());
        }
        const ndarray& a = nb::cast<const ndarray&>(self);
        if (!copy_arg.is_none() && PyObject_IsTrue(copy_arg.ptr()) == 1) return export_capsule(copy(a), max_version);
        return export_capsule(a, max_version);
      },
      nb::kw_only(), nb::arg("stream") = nb::none(), nb::arg("max_version") = nb::none(),
      nb::arg("dl_device") = nb::none(), nb::arg("copy") = nb::none(),
      "A DLPack capsule of the array's memory (no copy unless copy=True). Waits for pending work; the "
      "consumer's view stays valid until the next tessera operation that writes this array. With several "
      "ranks every rank gathers the whole array and exports its own copy: writes through the view must be "
      "made alike on every rank (as they are when every rank runs the same program).");
  cls.def(
      "__dlpack_device__", [](const ndarray&) { return nb::make_tuple(1, 0); },
      "(1, 0): tessera arrays live in host memory (DLPack's kDLCPU).");

  m.def(
      "from_dlpack",
      [](nb::handle x, nb::handle device, nb::handle copy_arg) -> nb::object {
        const std::optional<bool> cp = copy_flag(copy_arg);
        const bool must_copy = cp && *cp, no_copy = cp && !*cp;
        if (is_array(x)) return must_copy ? wrap(copy(nb::cast<const ndarray&>(x))) : nb::borrow(x);
        nb::object host =
            is_numpy_array(x) ? nb::borrow(x) : numpy().attr("from_dlpack")(x, nb::arg("device") = device);
        if (must_copy) return wrap(to_array(host));
        if (std::optional<ndarray> a = adopt_numpy(host)) return wrap(std::move(*a));
        if (no_copy)
          throw nb::buffer_error(
              "tessera.numpy.from_dlpack: the buffer is not C-contiguous and aligned, so tessera "
              "cannot use it in place (copy=False); pass copy=None to copy it");
        return wrap(to_array(host));
      },
      nb::arg("x"), nb::kw_only(), nb::arg("device") = nb::none(), nb::arg("copy") = nb::none(),
      "An array over the memory of `x`, any object with __dlpack__ (NumPy, PyTorch, ...), without a copy when "
      "the buffer is C-contiguous and aligned (else a copy; copy=True always copies, copy=False refuses to). "
      "The buffer is not charged to tessera's memory pool. As with any shared buffer, changes made through "
      "`x` while tessera operations on the array are pending race with them: call tessera.fence() first. A "
      "read-only buffer gives a read-only array; a tessera array is returned as it is.");
}

nb::dlpack::dtype dlpack_dtype(DType t) {
  using Code = nb::dlpack::dtype_code;
  Code code = Code::Float;
  if (t == DType::Bool) code = Code::Bool;
  else if (is_complex(t)) code = Code::Complex;
  else if (is_integer(t)) code = dtype_kind(t) == DKind::UInt ? Code::UInt : Code::Int;
  return nb::dlpack::dtype{static_cast<uint8_t>(code), static_cast<uint8_t>(itemsize(t) * 8), 1};
}

}  // namespace tessera::python
