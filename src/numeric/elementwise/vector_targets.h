// The instruction sets the vector loops are compiled for; included before Highway.
// Highway compiles vector_loops.cc and vector_math.cc once per target and picks the best
// one the CPU supports at run time (at most the one --simd caps it at:
// config/instruction_sets.h, which names the same sets). Its default x86 set is EMU128
// (portable code for the x86-64 baseline; SCALAR with GCC before 12.3), SSSE3, SSE4, AVX2
// and AVX3 (AVX-512 F/BW/DQ/VL); SSSE3 is dropped: it gains little over the baseline and
// costs a compile pass of each file.
#pragma once

#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS HWY_SSSE3
#endif
