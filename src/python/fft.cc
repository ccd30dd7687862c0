// `_fft`: numpy.fft's transforms, frequencies and shifts, re-exported by tessera.numpy.fft.
// Arguments are read as NumPy 2 reads them, including its deprecation warnings for `s`.
#include <nanobind/stl/string.h>

#include "python/bindings.h"
#include "python/convert.h"
#include "tessera/fft.h"

namespace tessera::python {
namespace {

std::optional<int64_t> to_length(nb::handle n) {
  if (n.is_none()) return std::nullopt;
  return to_int64(n);
}

// NumPy formats whatever it was given into its "Invalid norm value" message.
std::string to_norm(nb::handle norm) {
  if (norm.is_none()) return "backward";
  return nb::cast<std::string>(nb::str(norm));
}

void deprecated(const char* message) {
  if (PyErr_WarnEx(PyExc_DeprecationWarning, message, 1) < 0) throw nb::python_error();
}

std::optional<std::vector<int64_t>> to_axes(nb::handle axes) {
  if (axes.is_none()) return std::nullopt;
  std::vector<int64_t> r;
  for (nb::handle h : axes) r.push_back(to_int64(h));
  return r;
}

// `s` of the transforms over several axes, with NumPy 2's deprecation warnings.
std::optional<FftLengths> to_lengths(nb::handle s, nb::handle axes) {
  if (s.is_none()) return std::nullopt;
  FftLengths r;
  bool absent = false;
  for (nb::handle h : s) {
    absent = absent || h.is_none();
    r.push_back(h.is_none() ? std::nullopt : std::optional<int64_t>(to_int64(h)));
  }
  if (axes.is_none())
    deprecated(
        "`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0). In a future version of "
        "NumPy, this will raise an error and `s[i]` will correspond to the size along the transformed axis "
        "specified by `axes[i]`. To retain current behaviour, pass a sequence [0, ..., k-1] to `axes` for an "
        "array of dimension k.");
  if (absent)
    deprecated(
        "Passing an array containing `None` values to `s` is deprecated in NumPy 2.0 and will raise an error "
        "in a future version of NumPy. To use the default behaviour of the corresponding 1-D transform, pass "
        "the value matching the default for its `n` parameter. To use the default behaviour for every axis, "
        "the `s` argument can be omitted.");
  return r;
}

int64_t to_count(nb::handle n) {
  if (!PyLong_Check(n.ptr()) && !nb::isinstance(n, numpy().attr("integer"))) throw ValueError("n should be an integer");
  return to_int64(n);
}

void check_device(nb::handle device) {
  if (device.is_none()) return;
  const std::string name = nb::cast<std::string>(nb::str(device));
  if (!PyUnicode_Check(device.ptr()) || name != "cpu")
    throw ValueError("Device not understood. Only \"cpu\" is allowed, but received: " + name);
}

using OneAxis = ndarray (*)(const ndarray&, std::optional<int64_t>, int64_t, std::string_view, const ndarray*);
using SeveralAxes = ndarray (*)(const ndarray&, const std::optional<FftLengths>&,
                                const std::optional<std::vector<int64_t>>&, std::string_view, const ndarray*);

void def_one_axis(nb::module_& m, const char* name, OneAxis f) {
  m.def(
      name,
      [f](nb::handle a, nb::handle n, nb::handle axis, nb::handle norm, nb::handle out) {
        ndarray holder;
        const ndarray* o = out_arg(out, holder);
        return out_result(out, f(to_array(a), to_length(n), to_int64(axis), to_norm(norm), o));
      },
      nb::arg("a"), nb::arg("n") = nb::none(), nb::arg("axis") = -1, nb::arg("norm") = nb::none(),
      nb::arg("out") = nb::none());
}

// `keeps_out`: NumPy's ifft2 and irfft2 accept `out=` and ignore it; so do these.
void def_several_axes(nb::module_& m, const char* name, SeveralAxes f, nb::object default_axes, bool keeps_out = true) {
  m.def(
      name,
      [f, keeps_out](nb::handle a, nb::handle s, nb::handle axes, nb::handle norm, nb::handle out) {
        const ndarray x = to_array(a);
        const auto lengths = to_lengths(s, axes);
        const auto ax = to_axes(axes);
        ndarray holder;
        const ndarray* o = keeps_out ? out_arg(out, holder) : nullptr;
        return out_result(keeps_out ? out : nb::none(), f(x, lengths, ax, to_norm(norm), o));
      },
      nb::arg("a"), nb::arg("s") = nb::none(), nb::arg("axes").none() = default_axes, nb::arg("norm") = nb::none(),
      nb::arg("out") = nb::none());
}

// fftfreq / rfftfreq (n, d, device): `device` is accepted as NumPy does ("cpu" or None).
void def_frequencies(nb::module_& m, const char* name, ndarray (*f)(int64_t, const Operand&)) {
  m.def(
      name,
      [f](nb::handle n, nb::handle d, nb::handle device) {
        const int64_t count = to_count(n);
        const Operand step = to_operand(d);
        check_device(device);
        return f(count, step);
      },
      nb::arg("n"), nb::arg("d") = 1.0, nb::arg("device") = nb::none());
}

std::optional<std::vector<int64_t>> to_shift_axes(nb::handle axes) {
  if (!axes.is_none() && (PyLong_Check(axes.ptr()) || nb::isinstance(axes, numpy().attr("integer"))))
    return std::vector<int64_t>{to_int64(axes)};
  return to_axes(axes);
}

}  // namespace

void bind_fft(nb::module_& m) {
  nb::module_ f = m.def_submodule("_fft", "Native functions of tessera.numpy.fft");
  def_one_axis(f, "fft", &tessera::fft);
  def_one_axis(f, "ifft", &tessera::ifft);
  def_one_axis(f, "rfft", &tessera::rfft);
  def_one_axis(f, "irfft", &tessera::irfft);
  def_one_axis(f, "ihfft", &tessera::ihfft);
  // NumPy's hfft accepts `out=` and ignores it.
  f.def(
      "hfft",
      [](nb::handle a, nb::handle n, nb::handle axis, nb::handle norm, nb::handle out) {
        return wrap(tessera::hfft(to_array(a), to_length(n), to_int64(axis), to_norm(norm)));
      },
      nb::arg("a"), nb::arg("n") = nb::none(), nb::arg("axis") = -1, nb::arg("norm") = nb::none(),
      nb::arg("out") = nb::none());

  const nb::object last_two = nb::make_tuple(-2, -1);
  def_several_axes(f, "fftn", &tessera::fftn, nb::none());
  def_several_axes(f, "ifftn", &tessera::ifftn, nb::none());
  def_several_axes(f, "rfftn", &tessera::rfftn, nb::none());
  def_several_axes(f, "irfftn", &tessera::irfftn, nb::none());
  def_several_axes(f, "fft2", &tessera::fftn, last_two);
  def_several_axes(f, "ifft2", &tessera::ifftn, last_two, false);
  def_several_axes(f, "rfft2", &tessera::rfftn, last_two);
  def_several_axes(f, "irfft2", &tessera::irfftn, last_two, false);

  def_frequencies(f, "fftfreq", &tessera::fftfreq);
  def_frequencies(f, "rfftfreq", &tessera::rfftfreq);
  f.def(
      "fftshift", [](nb::handle x, nb::handle axes) { return tessera::fftshift(to_array(x), to_shift_axes(axes)); },
      nb::arg("x"), nb::arg("axes") = nb::none());
  f.def(
      "ifftshift", [](nb::handle x, nb::handle axes) { return tessera::ifftshift(to_array(x), to_shift_axes(axes)); },
      nb::arg("x"), nb::arg("axes") = nb::none());
}

}  // namespace tessera::python
