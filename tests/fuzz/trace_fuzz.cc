// The profile reader (read_trace, what tessera-prof opens) on any bytes: it gives a trace or
// throws std::runtime_error naming the line at fault, never crashes or hangs; a trace it
// reads is written back (write_trace) and read again as the same trace.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>

#include "profile/trace.h"

namespace {

std::string written(const tessera::detail::Trace& t) {
  std::ostringstream out;
  tessera::detail::write_trace(out, t);
  return out.str();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessera::detail;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  Trace trace;
  try {
    trace = read_trace(in, "fuzz.prof");
  } catch (const std::runtime_error&) {
    return 0;
  }
  const std::string text = written(trace);
  std::istringstream again(text);
  try {
    if (written(read_trace(again, "again.prof")) != text) {
      std::fprintf(stderr, "trace_fuzz: a trace read back differs from the one written\n");
      std::abort();
    }
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "trace_fuzz: a written trace does not read back: %s\n", e.what());
    std::abort();
  }
  return 0;
}
