// The SLEEF vector functions the vector math loops call, one per function, precision
// and instruction set. sleef.h declares the 256- and 512-bit ones only when the file is
// compiled for AVX or AVX-512, but Highway compiles one file for several instruction
// sets (each function for its own), so they are declared here, as libsleef exports them.
#pragma once

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TESSERA_SLEEF_X86 1
#else
#define TESSERA_SLEEF_X86 0
#endif

// The functions are those of the ufunc table's `sleef` rows (ufuncs.def: the operation,
// SLEEF's and libm's name, SLEEF's precision suffix: u10 is 1.0 ulp, u05 0.5 ulp).

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"  // the 256/512-bit arguments are passed as the caller's target does
extern "C" {
#define TESSERA_SLEEF_UNARY_ROW(OP, fn, u)  \
  double Sleef_##fn##d1_##u##purec(double); \
  float Sleef_##fn##f1_##u##purec(float);
#define TESSERA_SLEEF_BINARY_ROW(OP, fn, u)         \
  double Sleef_##fn##d1_##u##purec(double, double); \
  float Sleef_##fn##f1_##u##purec(float, float);
#include "numeric/elementwise/sleef_rows-inl.h"
#if TESSERA_SLEEF_X86
#define TESSERA_SLEEF_UNARY_ROW(OP, fn, u)      \
  __m128d Sleef_##fn##d2_##u##sse4(__m128d);    \
  __m128 Sleef_##fn##f4_##u##sse4(__m128);      \
  __m256d Sleef_##fn##d4_##u##avx2(__m256d);    \
  __m256 Sleef_##fn##f8_##u##avx2(__m256);      \
  __m512d Sleef_##fn##d8_##u##avx512f(__m512d); \
  __m512 Sleef_##fn##f16_##u##avx512f(__m512);
#define TESSERA_SLEEF_BINARY_ROW(OP, fn, u)              \
  __m128d Sleef_##fn##d2_##u##sse4(__m128d, __m128d);    \
  __m128 Sleef_##fn##f4_##u##sse4(__m128, __m128);       \
  __m256d Sleef_##fn##d4_##u##avx2(__m256d, __m256d);    \
  __m256 Sleef_##fn##f8_##u##avx2(__m256, __m256);       \
  __m512d Sleef_##fn##d8_##u##avx512f(__m512d, __m512d); \
  __m512 Sleef_##fn##f16_##u##avx512f(__m512, __m512);
#include "numeric/elementwise/sleef_rows-inl.h"
#endif  // TESSERA_SLEEF_X86
}
#pragma GCC diagnostic pop
