// Memory tools: ndarray.stencil_hint, offload_to with the StoreTarget memory kinds, the
// pools' reports, and tessera.timing's clock that waits for pending work.
#include <nanobind/stl/string.h>

#include <chrono>

#include "data/store.h"
#include "python/bindings.h"
#include "python/convert.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"
#include "tessera/runtime.h"

namespace tessera::python {

namespace {

using detail::MemoryKind;

// A memory kind from a StoreTarget or its name ("SYSMEM", "sysmem").
MemoryKind to_memory_kind(nb::handle target) {
  if (nb::isinstance<MemoryKind>(target)) return nb::cast<MemoryKind>(target);
  if (nb::isinstance<nb::str>(target)) {
    std::string name = nb::cast<std::string>(target);
    for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    for (MemoryKind k : {MemoryKind::Sysmem, MemoryKind::Numamem, MemoryKind::Fbmem, MemoryKind::Zcmem})
      if (name == detail::memory_kind_name(k)) return k;
    throw ValueError("offload_to: unknown memory kind '" + nb::cast<std::string>(target) +
                     "'; expected one of SYSMEM, NUMAMEM, FBMEM, ZCMEM (or a tessera.StoreTarget)");
  }
  throw TypeError(std::string("offload_to: target must be a tessera.StoreTarget or its name, not '") +
                  Py_TYPE(target.ptr())->tp_name + "'");
}

// Nanoseconds per unit of tessera.timing.time().
int64_t nanoseconds_per(const std::string& units) {
  if (units == "s") return 1'000'000'000;
  if (units == "ms") return 1'000'000;
  if (units == "us") return 1'000;
  if (units == "ns") return 1;
  throw ValueError("time: units must be one of 's', 'ms', 'us', 'ns', not '" + units + "'");
}

}  // namespace

void bind_memory(nb::module_& m, ArrayClass& cls) {
  nb::enum_<MemoryKind>(m, "StoreTarget", "The memory kinds an array can live in (offload_to's target).")
      .value("SYSMEM", MemoryKind::Sysmem, "system memory (host DRAM)")
      .value("NUMAMEM", MemoryKind::Numamem, "memory of one NUMA node")
      .value("FBMEM", MemoryKind::Fbmem, "GPU framebuffer memory")
      .value("ZCMEM", MemoryKind::Zcmem, "zero-copy (pinned host) memory for GPU transfers");

  cls.def(
      "stencil_hint",
      [](const ndarray& a, nb::handle low, nb::handle high) {
        a.store()->stencil_hint(to_shape(low), to_shape(high), detail::Runtime::provenance());
      },
      nb::arg("low_offsets").none(), nb::arg("high_offsets").none(),
      "Declares that stencils will read up to low_offsets[d] elements below and high_offsets[d] above\n"
      "this array along each dimension d. Its memory, halo included, is allocated now, so the\n"
      "slices and the whole array used afterwards share that one allocation.");

  m.def(
      "offload_to",
      [](nb::handle array, nb::handle target) {
        if (!is_array(array))
          throw TypeError(std::string("offload_to: expected a tessera array, not '") + Py_TYPE(array.ptr())->tp_name +
                          "'");
        const MemoryKind kind = to_memory_kind(target);
        const ndarray& a = nb::cast<const ndarray&>(array);
        nb::gil_scoped_release release;
        detail::offload_to(*a.store(), kind);
      },
      nb::arg("array"), nb::arg("target"),
      "Moves the array's only copy to memory `target` (a StoreTarget or its name); ValueError when\n"
      "this machine has no such memory.");

  m.def(
      "memory_report",
      [] {
        std::string report;
        for (const auto& pool : detail::Runtime::get().pools()) report += pool->live_report();
        return report;
      },
      "Every pool's use and its live allocations, one per line (what an out-of-memory error lists).");

  m.def(
      "_timing_time",
      [](const std::string& units) {
        const int64_t per = nanoseconds_per(units);
        {
          nb::gil_scoped_release release;
          tessera::fence();
        }
        const auto now = std::chrono::steady_clock::now().time_since_epoch();
        return std::chrono::duration_cast<std::chrono::nanoseconds>(now).count() / per;
      },
      nb::arg("units") = "us");
}

}  // namespace tessera::python
