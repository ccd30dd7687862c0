// The instruction sets tessera's vector loops run on (Google Highway's x86 targets, named as
// --simd names them): which ones this CPU has, which one a --simd cap picks, and restricting
// Highway's run-time dispatch to it for the whole process.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tessera {

/// The --simd values, widest first: "avx3" (AVX-512 F/BW/DQ/VL), "avx2" (AVX2 with FMA),
/// "sse4" (SSE4.2) and "scalar" (Highway's portable code: its SCALAR target, or EMU128 when
/// the compiler builds that) — the sets the vector loops are compiled for
/// (numeric/elementwise/vector_targets.h).
std::vector<std::string> known_instruction_sets();

/// The instruction sets of known_instruction_sets() this CPU runs, widest first (always at
/// least "scalar"), as the CPU reports them, whatever restrict_instruction_sets did since.
std::vector<std::string> supported_instruction_sets();

/// Highway's name of the target that instruction set `set` is ("AVX3" for "avx3", "SCALAR"
/// or "EMU128" for "scalar"): what the vector loops report they run on.
const char* highway_target_name(std::string_view set);

/// The set --simd=`cap` runs on with `supported` (widest first): the widest supported one
/// that is not wider than `cap`; "best" is no cap. resolve_simd("avx3", {"avx2", "sse4",
/// "scalar"}) == "avx2".
std::string resolve_simd(std::string_view cap, const std::vector<std::string>& supported);

/// Makes Highway's dynamic dispatch (the vector loops, matrix-vector kernels and sort)
/// choose `set`, one of supported_instruction_sets(), or the best one for "best". Loops
/// looked up before (the table of casts, filled at the first cast) keep theirs: the runtime
/// calls it when it starts, before any operation.
void restrict_instruction_sets(std::string_view set);

}  // namespace tessera
