// `_random`: the Generator class, default_rng and NumPy's legacy module functions
// (seed, rand, randn, random, randint, ...) over one global Generator. Re-exported
// by tessera.numpy.random, which falls back to numpy.random for the rest.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>

#include <optional>

#include "comm/comm.h"
#include "python/bindings.h"
#include "python/convert.h"
#include "tessera/elementwise.h"
#include "tessera/random.h"

namespace tessera::python {
namespace {

// A non-negative Python int (any size) as 64-bit words, least significant first.
void append_words(nb::handle v, std::vector<uint64_t>& words) {
  nb::object n = nb::int_(v);
  if (n < nb::int_(0)) throw ValueError("expected non-negative integer");
  const nb::object mask = nb::int_(0xFFFFFFFFFFFFFFFFull), shift = nb::int_(64);
  do {
    words.push_back(nb::cast<uint64_t>(n & mask));
    n = n >> shift;
  } while (n > nb::int_(0));
}

std::string seed_error(nb::handle seed) {
  return "SeedSequence expects int or sequence of ints for entropy not " + nb::cast<std::string>(nb::repr(seed));
}

std::vector<uint64_t> seed_words(nb::handle seed) {
  std::vector<uint64_t> words;
  if (PyLong_Check(seed.ptr()) || (nb::hasattr(seed, "__index__") && !nb::hasattr(seed, "__len__"))) {
    append_words(seed, words);
    return words;
  }
  if (nb::hasattr(seed, "generate_state")) {  // a numpy.random.SeedSequence
    for (nb::handle w : seed.attr("generate_state")(4, numpy().attr("uint64")).attr("tolist")())
      words.push_back(nb::cast<uint64_t>(w));
    return words;
  }
  if (!PySequence_Check(seed.ptr()) && !nb::hasattr(seed, "__array__")) throw TypeError(seed_error(seed));
  nb::object arr = numpy().attr("asarray")(seed);
  const std::string kind = nb::cast<std::string>(arr.attr("dtype").attr("kind"));
  if (kind != "i" && kind != "u") throw TypeError(seed_error(seed));
  for (nb::handle w : arr.attr("ravel")().attr("tolist")()) append_words(w, words);
  words.push_back(words.size());  // the length too: [1] and [1, 0] differ
  return words;
}

Generator make_generator(nb::handle seed) {
  return seed.is_none() ? Generator::from_entropy() : Generator(seed_words(seed));
}

// The process's generator behind numpy.random's legacy functions.
Generator& legacy() {
  static Generator g = Generator::from_entropy();
  return g;
}

// NumPy's legacy generator drives the numpy.random functions that fall back (shuffle, choice,
// ...). Seeded from the OS it would draw differently on every rank and the ranks' arrays would
// part ways: with several ranks it is seeded from the run's shared entropy instead, and each
// reseeding without a seed advances a count that is the same on every rank.
void seed_numpy_alike() {
  static uint64_t reseeds = 0;
  const uint64_t e = detail::run_entropy();
  nb::list words;
  for (uint64_t w : {e & 0xffffffffu, e >> 32, reseeds++ & 0xffffffffu}) words.append(nb::int_(w));
  numpy().attr("random").attr("seed")(words);
}

std::optional<Shape> to_size(nb::handle size) {
  if (size.is_none()) return std::nullopt;
  return to_shape(size);
}

// *args of rand/randn: no arguments is a single value.
std::optional<Shape> dims_of(nb::args args) {
  if (args.size() == 0) return std::nullopt;
  Shape s;
  for (nb::handle h : args) s.push_back(to_int64(h));
  return s;
}

double as_double(nb::handle h) { return nb::cast<double>(nb::float_(h)); }

nb::object into_out(ndarray r, nb::handle out) {
  if (out.is_none()) return wrap(std::move(r));
  assign(nb::cast<const ndarray&>(out), r);
  return nb::borrow(out);
}

// size=None returns a Python float, as NumPy does.
nb::object draw_float(Generator& g, bool normal, nb::handle size, DType dtype, nb::handle out = nb::none()) {
  std::optional<Shape> shape = to_size(size);
  if (!out.is_none()) {
    if (!is_array(out)) throw TypeError("out must be a tessera array");
    const ndarray& o = nb::cast<const ndarray&>(out);
    if (shape && *shape != o.shape()) throw ValueError("size must match out.shape when used together");
    if (o.dtype() != dtype) throw TypeError("Supplied output array has the wrong type");
    shape = o.shape();
  }
  if (!shape) return nb::float_((normal ? g.standard_normal(dtype) : g.random(dtype)).as_double());
  return into_out(normal ? g.standard_normal(*shape, dtype) : g.random(*shape, dtype), out);
}

Shape params_shape(const Operand& a, const Operand& b) {
  return broadcast_shapes({a.is_array() ? a.array().shape() : Shape{}, b.is_array() ? b.array().shape() : Shape{}});
}

nb::object draw_uniform(Generator& g, nb::handle low, nb::handle high, nb::handle size,
                        Generator::Bounds bounds = Generator::Bounds::Ordered) {
  std::optional<Shape> shape = to_size(size);
  if (!shape && is_scalar(low) && is_scalar(high))
    return nb::float_(g.uniform(as_double(low), as_double(high), bounds).as_double());
  const Operand lo = to_operand(low), hi = to_operand(high);
  return wrap(g.uniform(lo, hi, shape ? *shape : params_shape(lo, hi), bounds));
}

nb::object draw_normal(Generator& g, nb::handle loc, nb::handle scale, nb::handle size) {
  std::optional<Shape> shape = to_size(size);
  if (!shape && is_scalar(loc) && is_scalar(scale))
    return nb::float_(g.normal(as_double(loc), as_double(scale)).as_double());
  const Operand l = to_operand(loc), s = to_operand(scale);
  const Shape sh = shape ? *shape : params_shape(l, s);
  ndarray r;
  {
    nb::gil_scoped_release release;  // an array scale is checked on its values
    r = g.normal(l, s, sh);
  }
  return wrap(std::move(r));
}

// A NumPy generator seeded from `g`'s next draw: reproducible, and independent of later draws.
nb::object numpy_generator(Generator& g) {
  auto [key, draw] = g.take_draw();
  return numpy().attr("random").attr("default_rng")(nb::make_tuple(key, draw));
}

// `method` of a NumPy generator seeded from `g`, through tessera's fallback (which converts
// arguments and results and names the method in a RuntimeWarning once).
nb::object fallback(Generator& g, const std::string& method) {
  nb::object fallback_attribute = nb::module_::import_("tessera.numpy._fallback").attr("fallback_attribute");
  return fallback_attribute(method, numpy_generator(g), "numpy.random.Generator");
}

// One bound means [0, low): NumPy then says "high <= 0" for an empty range.
nb::object draw_integers(Generator& g, nb::handle low, nb::handle high, nb::handle size, DType dtype, bool endpoint,
                         bool python_scalar) {
  if (!is_scalar(low) || !(high.is_none() || is_scalar(high))) {  // array bounds, checked element by element
    const Operand first = to_operand(low);
    const Operand lo = high.is_none() ? Operand(Scalar(int64_t{0})) : first;
    const Operand hi = high.is_none() ? first : to_operand(high);
    const std::optional<Shape> shape = to_size(size);
    const Shape sh = shape ? *shape : params_shape(lo, hi);
    ndarray r;
    {
      nb::gil_scoped_release release;
      r = g.integers(lo, hi, sh, dtype, endpoint);
    }
    if (!shape && sh.empty()) return to_numpy_scalar(r.item(), dtype);  // 0-d bounds: a NumPy scalar
    return wrap(std::move(r));
  }
  Scalar lo = to_scalar(low), hi;
  if (high.is_none()) {
    hi = lo;
    lo = Scalar(int64_t{0});
    if (!endpoint && hi.as_double() <= 0) throw ValueError("high <= 0");
  } else {
    hi = to_scalar(high);
  }
  if (std::optional<Shape> shape = to_size(size)) return wrap(g.integers(lo, hi, *shape, dtype, endpoint));
  const Scalar v = g.integers(lo, hi, dtype, endpoint);
  if (!python_scalar) return to_numpy_scalar(v, dtype);
  if (dtype == DType::Bool) return nb::bool_(v.as_bool());
  return dtype == DType::UInt64 ? nb::object(nb::int_(v.as_uint())) : nb::object(nb::int_(v.as_int()));
}

// A draw of NumPy's method `law` with `params`: a Python float or int when size is None and
// every parameter is a scalar (or 0-d), else an array of `size` or of the parameters' shape.
nb::object draw_law(Generator& g, const std::string& name, nb::sequence params, nb::handle size, nb::handle dtype,
                    nb::handle out) {
  const Law law = law_named(name);
  const DType t = dtype.is_none() ? DType::Float64 : to_dtype(dtype);
  std::optional<Shape> shape = to_size(size);
  std::vector<Operand> ops;
  bool all_scalar = true;
  for (nb::handle h : params) {
    ops.push_back(to_operand(h));
    if (ops.back().is_array() && ops.back().array().ndim() > 0) all_scalar = false;
  }
  if (!out.is_none()) {
    if (!is_array(out)) throw TypeError("out must be a tessera array");
    const ndarray& o = nb::cast<const ndarray&>(out);
    if (shape && *shape != o.shape()) throw ValueError("size must match out.shape when used together");
    if (o.dtype() != t) throw TypeError("Supplied output array has the wrong type");
    shape = o.shape();
  }
  if (!shape && all_scalar) {
    std::vector<double> ps;
    for (const Operand& o : ops) ps.push_back(o.is_array() ? o.array().item().as_double() : o.scalar().as_double());
    Scalar v;
    {
      nb::gil_scoped_release release;
      v = g.draw(law, ps, t);
    }
    if (law_is_discrete(law)) return nb::int_(v.as_int());
    return nb::float_(v.as_double());
  }
  if (!shape) {
    std::vector<Shape> shapes;
    for (const Operand& o : ops) shapes.push_back(o.is_array() ? o.array().shape() : Shape{});
    shape = broadcast_shapes(shapes);
  }
  ndarray r;
  {
    nb::gil_scoped_release release;  // array parameters are checked on their values
    r = g.draw(law, ops, *shape, t);
  }
  return into_out(std::move(r), out);
}

// `int` and `bool` as a legacy dtype give Python scalars for single values.
bool builtin_type(nb::handle dtype) {
  return dtype.is(reinterpret_cast<PyObject*>(&PyLong_Type)) || dtype.is(reinterpret_cast<PyObject*>(&PyBool_Type));
}

}  // namespace

void bind_random(nb::module_& m) {
  nb::module_ r = m.def_submodule("_random", "Native functions of tessera.numpy.random");
  nb::object f64 = numpy().attr("float64"), i64 = numpy().attr("int64");
  nb::object py_int = nb::borrow(reinterpret_cast<PyObject*>(&PyLong_Type));

  nb::class_<Generator>(r, "Generator", "NumPy's Generator on a counter-based Philox-4x32-10 stream")
      .def(
          "__init__", [](Generator* self, nb::handle seed) { new (self) Generator(make_generator(seed)); },
          nb::arg("seed") = nb::none())
      .def(
          "random",
          [](Generator& g, nb::handle size, nb::handle dtype, nb::handle out) {
            return draw_float(g, false, size, to_dtype(dtype), out);
          },
          nb::arg("size") = nb::none(), nb::arg("dtype") = f64, nb::arg("out") = nb::none())
      .def(
          "standard_normal",
          [](Generator& g, nb::handle size, nb::handle dtype, nb::handle out) {
            return draw_float(g, true, size, to_dtype(dtype), out);
          },
          nb::arg("size") = nb::none(), nb::arg("dtype") = f64, nb::arg("out") = nb::none())
      .def(
          "uniform",
          [](Generator& g, nb::handle low, nb::handle high, nb::handle size) {
            return draw_uniform(g, low, high, size);
          },
          nb::arg("low") = 0.0, nb::arg("high") = 1.0, nb::arg("size") = nb::none())
      .def("normal", &draw_normal, nb::arg("loc") = 0.0, nb::arg("scale") = 1.0, nb::arg("size") = nb::none())
      .def(
          "integers",
          [](Generator& g, nb::handle low, nb::handle high, nb::handle size, nb::handle dtype, bool endpoint) {
            return draw_integers(g, low, high, size, to_dtype(dtype), endpoint, false);
          },
          nb::arg("low"), nb::arg("high") = nb::none(), nb::arg("size") = nb::none(), nb::arg("dtype") = i64,
          nb::arg("endpoint") = false)
      .def("_draw", &draw_law, nb::arg("law"), nb::arg("params"), nb::arg("size") = nb::none(),
           nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none(),
           "A draw of NumPy's distribution `law` (tessera::Law) with `params`")
      .def(
          "_take_draw", [](Generator& g) { return g.take_draw(); },
          "The stream's key and next draw number, consuming the draw")
      .def("__repr__", [](const Generator&) { return "Generator(Philox4x32)"; })
      // Methods tessera does not implement run in NumPy, on a generator seeded from this stream.
      .def("__getattr__", [](Generator& g, const std::string& name) -> nb::object {
        nb::object np_random = numpy().attr("random");
        if (name.rfind("_", 0) == 0 || !nb::hasattr(np_random.attr("Generator"), name.c_str()))
          throw nb::attribute_error(("'Generator' object has no attribute '" + name + "'").c_str());
        return fallback(g, name);
      });

  r.def(
      "default_rng",
      [](nb::handle seed) -> nb::object {
        if (nb::isinstance<Generator>(seed)) return nb::borrow(seed);
        return nb::cast(make_generator(seed));
      },
      nb::arg("seed") = nb::none());

  // Legacy functions. `seed` seeds NumPy's legacy state as well, so that functions falling back
  // to numpy.random are reproducible too.
  r.def(
      "seed",
      [](nb::handle seed) {
        if (seed.is_none() && detail::rank_count() > 1) seed_numpy_alike();
        else numpy().attr("random").attr("seed")(seed);
        legacy() = make_generator(seed);
      },
      nb::arg("seed") = nb::none());
  r.def("_seed_numpy_alike", &seed_numpy_alike,
        "With several ranks, seeds NumPy's legacy generator (behind the numpy.random functions that fall "
        "back) alike on every rank, from the run's shared entropy.");
  r.def(
      "_legacy_generator", []() { return &legacy(); }, nb::rv_policy::reference,
      "The generator behind the legacy module functions");
  r.def("rand", [](nb::args args) {
    std::optional<Shape> s = dims_of(args);
    return s ? wrap(legacy().random(*s)) : nb::object(nb::float_(legacy().random().as_double()));
  });
  r.def("randn", [](nb::args args) {
    std::optional<Shape> s = dims_of(args);
    return s ? wrap(legacy().standard_normal(*s)) : nb::object(nb::float_(legacy().standard_normal().as_double()));
  });
  for (const char* name : {"random", "random_sample", "ranf", "sample"})
    r.def(
        name, [](nb::handle size) { return draw_float(legacy(), false, size, DType::Float64); },
        nb::arg("size") = nb::none());
  r.def(
      "standard_normal", [](nb::handle size) { return draw_float(legacy(), true, size, DType::Float64); },
      nb::arg("size") = nb::none());
  r.def(
      "uniform",
      [](nb::handle low, nb::handle high, nb::handle size) {
        return draw_uniform(legacy(), low, high, size, Generator::Bounds::Legacy);
      },
      nb::arg("low") = 0.0, nb::arg("high") = 1.0, nb::arg("size") = nb::none());
  r.def(
      "normal",
      [](nb::handle loc, nb::handle scale, nb::handle size) { return draw_normal(legacy(), loc, scale, size); },
      nb::arg("loc") = 0.0, nb::arg("scale") = 1.0, nb::arg("size") = nb::none());
  r.def(
      "randint",
      [](nb::handle low, nb::handle high, nb::handle size, nb::handle dtype) {
        return draw_integers(legacy(), low, high, size, to_dtype(dtype), false, builtin_type(dtype));
      },
      nb::arg("low"), nb::arg("high") = nb::none(), nb::arg("size") = nb::none(), nb::arg("dtype") = py_int);
}

}  // namespace tessera::python
