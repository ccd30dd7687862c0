// The `_tessera` extension module: runtime control and the list of families.
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <cstring>

#include "comm/comm.h"
#include "comm/rank_setup.h"
#include "config/config.h"
#include "config/instruction_sets.h"
#include "python/bindings.h"
#include "python/convert.h"
#include "runtime/runtime.h"
#include "tessera/runtime.h"

namespace nb = nanobind;
using namespace tessera;
using namespace tessera::python;

namespace {

std::string g_package_dir;  // frames from files under it are tessera's own

// The innermost Python frame outside the tessera package: the user's `file:line`.
std::string python_provenance() {
  if (!PyGILState_Check()) return {};
  PyFrameObject* frame = PyEval_GetFrame();
  if (frame) Py_INCREF(frame);
  std::string where;
  while (frame) {
    PyCodeObject* code = PyFrame_GetCode(frame);
    const char* file = PyUnicode_AsUTF8(code->co_filename);
    const bool ours =
        file && !g_package_dir.empty() && std::strncmp(file, g_package_dir.c_str(), g_package_dir.size()) == 0;
    if (file && !ours) where = std::string(file) + ":" + std::to_string(PyFrame_GetLineNumber(frame));
    Py_DECREF(code);
    PyFrameObject* back = PyFrame_GetBack(frame);
    Py_DECREF(frame);
    frame = back;
    if (!where.empty()) break;
  }
  if (frame) Py_DECREF(frame);
  return where;
}

// The program thread lets go of the interpreter lock while it waits inside the runtime (a
// fence, back-pressure, reclaiming memory): a worker running a Python task's body needs it.
void* release_lock() { return PyGILState_Check() ? static_cast<void*>(PyEval_SaveThread()) : nullptr; }
void restore_lock(void* state) {
  if (state) PyEval_RestoreThread(static_cast<PyThreadState*>(state));
}

}  // namespace

NB_MODULE(_tessera, m) {
  m.doc() = "tessera: NumPy programs in parallel on every core and across machines";
  // Arrays held by module globals are still alive when the interpreter exits; that is not a leak.
  nb::set_leak_warnings(false);
  {
    std::string file = nb::cast<std::string>(m.attr("__file__"));
    g_package_dir = file.substr(0, file.rfind('/') + 1);
  }
  detail::Runtime::set_provenance_source(&python_provenance);
  detail::Runtime::set_wait_hooks(&release_lock, &restore_lock);
  bind_errors(m);
  m.def(
      "start",
      [] {
        detail::Runtime::start();
        return nb::none();
      },
      "Starts the runtime from TESSERA_CONFIG (raises ConfigError for a bad configuration).");
  m.def(
      "finish",
      [] {
        nb::gil_scoped_release release;
        tessera::finish();
      },
      "Waits for all pending work and stops the runtime.");
  m.def(
      "fence",
      [] {
        nb::gil_scoped_release release;
        tessera::fence();
      },
      "Blocks until every issued operation has run.");
  m.def("config_help", [] { return config_help(); });
  m.def("show_config", [] { return describe_config(detail::Runtime::get().config()); });
  m.def("num_workers", [] { return detail::Runtime::get().config().cpus; });
  m.def(
      "_simd", [] { return detail::Runtime::get().config().simd; },
      "The instruction set the vector loops run on (--simd, resolved).");
  m.def(
      "_instruction_sets", [] { return supported_instruction_sets(); },
      "The --simd instruction sets this CPU runs, widest first.");
  m.def(
      "_fallback_mode", [] { return detail::Runtime::get().config().fallback; },
      "The --fallback flag: warn, silent or error.");
  m.def(
      "memory_usage",
      [] {
        auto& pool = detail::Runtime::get().sysmem();
        return nb::make_tuple(pool.used(), pool.peak(), pool.capacity());
      },
      "(used, peak, capacity) bytes of the SYSMEM pool.");
  m.def(
      "_rank",
      [] {
        detail::Runtime::get();
        return detail::this_rank();
      },
      "This process's rank in the run.");
  m.def(
      "_rank_count",
      [] {
        detail::Runtime::get();
        return detail::rank_count();
      },
      "How many ranks the run has.");
  m.def(
      "_write_to_terminal", [](std::string_view text) { detail::write_to_terminal(text); },
      "Writes to the terminal's stderr even from a rank whose output is silenced.");
  m.def(
      "_abort_run", [](int code, std::string_view message) { detail::abort_run(code, message); },
      "Ends every rank of the run after writing `message` to the terminal.");
  m.def(
      "_comm_stats",
      [] {
        detail::ChannelStats s = detail::channel_stats();
        nb::dict d;
        d["bytes_sent"] = s.bytes_sent;
        d["messages_sent"] = s.messages_sent;
        d["bytes_received"] = s.bytes_received;
        d["messages_received"] = s.messages_received;
        return d;
      },
      "What this rank has sent to and received from other ranks.");
  m.def(
      "_exchange",
      [](nb::bytes bytes) {
        // A collective at a sync point: every rank's pending work has run first.
        const std::string mine(bytes.c_str(), bytes.size());
        std::vector<std::string> all;
        {
          nb::gil_scoped_release release;
          tessera::fence();
          all = detail::Runtime::get().exchange(mine);
        }
        nb::list out;
        for (const std::string& s : all) out.append(nb::bytes(s.data(), s.size()));
        return out;
      },
      "Every rank's bytes `mine`, in rank order; every rank calls it at the same point of the program.");
  m.def("_set_provenance", [](std::string where) { detail::Runtime::set_provenance(std::move(where)); });

  ArrayClass cls(m, "ndarray");
  bind_array(m, cls);
  bind_elementwise(m, cls);
  bind_creation(m);
  bind_index(m, cls);
  bind_reduce(m, cls);
  bind_shape(m, cls);
  bind_linalg(m, cls);
  bind_fft(m);
  bind_random(m);
  bind_memory(m, cls);
  bind_view(m, cls);
  bind_protocols(m, cls);
  bind_tasks(m);
  bind_sort(m, cls);
  bind_sparse(m);
  bind_dataframe(m);
  wrap_calls(m);  // last: it wraps every function bound above
}
