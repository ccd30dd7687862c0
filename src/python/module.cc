// The `_tessera` extension module: runtime control and the list of families.
#include <nanobind/stl/string.h>

#include "config/config.h"
#include "python/bindings.h"
#include "python/convert.h"
#include "runtime/runtime.h"
#include "tessera/runtime.h"

namespace nb = nanobind;
using namespace tessera;
using namespace tessera::python;

NB_MODULE(_tessera, m) {
  m.doc() = "tessera: NumPy programs in parallel on every core and across machines";
  // Arrays held by module globals are still alive when the interpreter exits; that is not a leak.
  nb::set_leak_warnings(false);
  bind_errors(m);
  m.def("start", [] {
    detail::Runtime::start();
    return nb::none();
  }, "Starts the runtime from TESSERA_CONFIG (raises ConfigError for a bad configuration).");
  m.def("finish", [] {
    nb::gil_scoped_release release;
    tessera::finish();
  }, "Waits for all pending work and stops the runtime.");
  m.def("fence", [] {
    nb::gil_scoped_release release;
    tessera::fence();
  }, "Blocks until every issued operation has run.");
  m.def("config_help", [] { return config_help(); });
  m.def("show_config", [] { return describe_config(detail::Runtime::get().config()); });
  m.def("num_workers", [] { return detail::Runtime::get().config().cpus; });
  m.def("memory_usage", [] {
    auto& pool = detail::Runtime::get().sysmem();
    return nb::make_tuple(pool.used(), pool.peak(), pool.capacity());
  }, "(used, peak, capacity) bytes of the SYSMEM pool.");
  m.def("_set_provenance", [](std::string where) { detail::Runtime::set_provenance(std::move(where)); });

  ArrayClass cls(m, "ndarray");
  bind_array(m, cls);
  bind_elementwise(m, cls);
  bind_creation(m);
  bind_index(m, cls);
  bind_reduce(m, cls);
  bind_shape(m, cls);
  bind_linalg(m, cls);
  bind_random(m);
}
