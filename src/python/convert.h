// Conversions between Python objects and tessera values: operands (arrays and
// NEP 50 weak Python scalars), dtypes, and NumPy arrays in and out.
#pragma once

#include <nanobind/nanobind.h>

#include "tessera/ndarray.h"
#include "tessera/shape.h"

namespace tessera::python {
namespace nb = nanobind;

/// The numpy module (imported once).
nb::module_& numpy();
/// A DType from anything numpy.dtype() accepts (None gives `dflt`).
DType to_dtype(nb::handle obj);
std::optional<DType> to_dtype_opt(nb::handle obj);
/// numpy.dtype for a DType.
nb::object from_dtype(DType t);
/// True for Python or NumPy numbers (bool, int, float, complex, numpy scalars).
bool is_scalar(nb::handle obj);
/// A NumPy scalar (numpy.generic): strong, it keeps its dtype.
bool is_numpy_scalar(nb::handle obj);
/// A Python scalar as a weak Scalar, a NumPy scalar as a strong one.
Scalar to_scalar(nb::handle obj);
/// An element-wise operand: a tessera array, a scalar, or anything numpy.asarray accepts.
Operand to_operand(nb::handle obj);
/// A str or bytes read as a number of `target` as NumPy reads it ('1.5' -> 1.5; 'x' -> NumPy's
/// ValueError, "could not convert string to float: 'x'").
nb::object parse_string(nb::handle text, DType target);
/// A value stored into an array of dtype `target` (setitem, fill): None is nan (False for
/// bool), strings are parsed into `target`, as NumPy does. A number (a list of numbers)
/// stored into an integer dtype is converted as int() does (NaN, infinities and values out
/// of range raise); a NumPy scalar only when `basic` (a basic index or fill) and `target` is
/// signed: otherwise NumPy casts it.
Operand to_value(nb::handle value, DType target, bool basic = true);
/// An array for `obj` (copied from host data unless it already is a tessera array).
ndarray to_array(nb::handle obj, std::optional<DType> dtype = std::nullopt);
/// A NumPy array holding a copy of `a`'s values (waits for pending work).
nb::object to_numpy(const ndarray& a);
/// A NumPy scalar for `s` of dtype `t`.
nb::object to_numpy_scalar(const Scalar& s, DType t);
/// Whether `obj` is a tessera ndarray.
bool is_array(nb::handle obj);
/// Whether `obj` is a NumPy ndarray (or a subclass: memmap, matrix).
bool is_numpy_array(nb::handle obj);
/// The array an `out=` argument names (an array or a 1-tuple holding one), or null for None;
/// `*obj` receives its Python object, which ufuncs return as NumPy does. A NumPy `out` is
/// computed into a tessera copy of it (`holder`), which out_result() writes back.
const ndarray* out_arg(nb::handle out, ndarray& holder, nb::object* obj = nullptr);
/// What a function given `out` returns: `r` itself for no `out`, else the `out` object (an
/// array or the array in a 1-tuple) — a NumPy one after `r`'s values are written into it.
nb::object out_result(nb::handle out, ndarray r);
/// An `order=` argument: 'C', 'F', 'A' or 'K' in either case (None is 'C'); NumPy's TypeError
/// for a non-str, ValueError for another letter.
Order order_arg(nb::handle h);
/// A `casting=` argument: a str (the C++ side checks the rule), or `dflt` for None.
std::string casting_arg(nb::handle casting, const char* dflt = "same_kind");
/// An integer argument as Python's operator.index sees it: TypeError for a non-integer,
/// OverflowError beyond int64 ("Python int too large to convert to C long").
int64_t to_int64(nb::handle obj);
/// Shape from an int or a sequence of ints.
Shape to_shape(nb::handle obj);
/// A `device=` argument (the array API's): None or "cpu", where tessera arrays live; anything
/// else is a ValueError, as in NumPy.
void check_device(nb::handle device);
/// A `like=` argument (NEP 35): None or an object with `__array_function__`, else a TypeError as
/// in NumPy. tessera.numpy's functions make tessera arrays whatever `like` is.
void check_like(nb::handle like);
/// A `copy=` argument of NumPy 2: None (copy only when needed), else its truth value.
std::optional<bool> copy_flag(nb::handle copy);

}  // namespace tessera::python
