// The time each operation took, summed over its point tasks on every rank and keyed by
// name and provenance, so one line of the user's program is one entry.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profile/trace.h"

namespace tessera::detail {

struct OpTotal {
  std::string name, provenance;
  int64_t time = 0;        // summed task durations
  int64_t tasks = 0;       // point tasks and inline runs
  int64_t tiny = 0;        // of which shorter than the tiny-task threshold
  int64_t issued = 0;      // operations (ids) with this name and provenance
  int64_t bytes = 0;       // read and written by the point tasks (inline runs not counted)
  int64_t bytes_time = 0;  // the time of the tasks that counted bytes
};

/// Tasks shorter than this cost about as much to schedule as to run.
constexpr int64_t kTinyTaskNs = 50'000;

/// Totals over every trace, longest first.
std::vector<OpTotal> op_totals(const std::vector<Trace>& traces);

}  // namespace tessera::detail
