// Processor kinds: what a task variant is written for and what a worker runs. Every build
// knows every kind; which processors a run has depends on the machine and the build.
#pragma once

#include <cstdint>

namespace tessera {

/// The kinds of processor a task can have a variant for: a cpu worker (one thread), a
/// thread team (omp) and a GPU. A launch runs, on each processor, the variant of its kind.
enum class ProcessorKind : uint8_t { CPU, OMP, GPU };
/// How many processor kinds there are (the size of a table indexed by kind).
inline constexpr int kProcessorKinds = 3;
/// "cpu", "omp" or "gpu".
const char* processor_kind_name(ProcessorKind kind);

}  // namespace tessera
