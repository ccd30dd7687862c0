// The families of the extension module; each binds its part of the API.
// module.cc lists them all.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include "tessera/ndarray.h"

namespace tessera::python {
namespace nb = nanobind;
using ArrayClass = nb::class_<ndarray>;

void bind_errors(nb::module_& m);
/// Wraps the module's functions and methods (bound by then: call it last): each call holds
/// the program lock, and a call no overload accepts gets a NumPy-style message instead of
/// nanobind's.
void wrap_calls(nb::module_& m);
void bind_array(nb::module_& m, ArrayClass& cls);
void bind_elementwise(nb::module_& m, ArrayClass& cls);
void bind_creation(nb::module_& m);
void bind_index(nb::module_& m, ArrayClass& cls);
void bind_reduce(nb::module_& m, ArrayClass& cls);
void bind_shape(nb::module_& m, ArrayClass& cls);
void bind_linalg(nb::module_& m, ArrayClass& cls);
void bind_fft(nb::module_& m);
void bind_random(nb::module_& m);
void bind_memory(nb::module_& m, ArrayClass& cls);
void bind_view(nb::module_& m, ArrayClass& cls);
void bind_protocols(nb::module_& m, ArrayClass& cls);
void bind_tasks(nb::module_& m);
void bind_sort(nb::module_& m, ArrayClass& cls);
void bind_sparse(nb::module_& m);
void bind_dataframe(nb::module_& m);

/// The DLPack dtype of tessera dtype `t` (exporting arrays, and NumPy views of task tiles).
nb::dlpack::dtype dlpack_dtype(DType t);

/// A tessera array over the memory of NumPy array `host`, without a copy (asarray and
/// from_dlpack with copy=False), or nullopt when `host` is not C-contiguous, aligned and of
/// native byte order. A read-only `host` gives a read-only array.
std::optional<ndarray> adopt_numpy(nb::handle host);

/// Converts an operation's result for Python: arrays stay tessera arrays.
nb::object wrap(ndarray a);

}  // namespace tessera::python
