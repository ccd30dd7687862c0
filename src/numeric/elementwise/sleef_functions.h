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

// Each function: (NumPy's name as in UnaryOp/BinaryOp, SLEEF's and libm's name, SLEEF's
// precision suffix: u10 is 1.0 ulp, u05 0.5 ulp).
#define TESSERA_SLEEF_UNARY(X)                                                                           \
  X(Exp, exp, u10) X(Exp2, exp2, u10) X(Expm1, expm1, u10) X(Log, log, u10) X(Log2, log2, u10)          \
  X(Log10, log10, u10) X(Log1p, log1p, u10) X(Sin, sin, u10) X(Cos, cos, u10) X(Tan, tan, u10)          \
  X(Arcsin, asin, u10) X(Arccos, acos, u10) X(Arctan, atan, u10) X(Sinh, sinh, u10) X(Cosh, cosh, u10) \
  X(Tanh, tanh, u10) X(Arcsinh, asinh, u10) X(Arccosh, acosh, u10) X(Arctanh, atanh, u10)               \
  X(Cbrt, cbrt, u10)
#define TESSERA_SLEEF_BINARY(X) X(Arctan2, atan2, u10) X(Hypot, hypot, u05) X(Power, pow, u10)

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"  // the 256/512-bit arguments are passed as the caller's target does
extern "C" {
#define TESSERA_DECLARE_SLEEF_PORTABLE_UNARY(OP, fn, u)                                  \
  double Sleef_##fn##d1_##u##purec(double);                                              \
  float Sleef_##fn##f1_##u##purec(float);
#define TESSERA_DECLARE_SLEEF_PORTABLE_BINARY(OP, fn, u)                                 \
  double Sleef_##fn##d1_##u##purec(double, double);                                      \
  float Sleef_##fn##f1_##u##purec(float, float);
TESSERA_SLEEF_UNARY(TESSERA_DECLARE_SLEEF_PORTABLE_UNARY)
TESSERA_SLEEF_BINARY(TESSERA_DECLARE_SLEEF_PORTABLE_BINARY)
#undef TESSERA_DECLARE_SLEEF_PORTABLE_UNARY
#undef TESSERA_DECLARE_SLEEF_PORTABLE_BINARY
#if TESSERA_SLEEF_X86
#define TESSERA_DECLARE_SLEEF_UNARY(OP, fn, u)                                           \
  __m128d Sleef_##fn##d2_##u##sse4(__m128d);                                             \
  __m128 Sleef_##fn##f4_##u##sse4(__m128);                                               \
  __m256d Sleef_##fn##d4_##u##avx2(__m256d);                                             \
  __m256 Sleef_##fn##f8_##u##avx2(__m256);                                               \
  __m512d Sleef_##fn##d8_##u##avx512f(__m512d);                                          \
  __m512 Sleef_##fn##f16_##u##avx512f(__m512);
#define TESSERA_DECLARE_SLEEF_BINARY(OP, fn, u)                                          \
  __m128d Sleef_##fn##d2_##u##sse4(__m128d, __m128d);                                    \
  __m128 Sleef_##fn##f4_##u##sse4(__m128, __m128);                                       \
  __m256d Sleef_##fn##d4_##u##avx2(__m256d, __m256d);                                    \
  __m256 Sleef_##fn##f8_##u##avx2(__m256, __m256);                                       \
  __m512d Sleef_##fn##d8_##u##avx512f(__m512d, __m512d);                                 \
  __m512 Sleef_##fn##f16_##u##avx512f(__m512, __m512);
TESSERA_SLEEF_UNARY(TESSERA_DECLARE_SLEEF_UNARY)
TESSERA_SLEEF_BINARY(TESSERA_DECLARE_SLEEF_BINARY)
#undef TESSERA_DECLARE_SLEEF_UNARY
#undef TESSERA_DECLARE_SLEEF_BINARY
#endif  // TESSERA_SLEEF_X86
}
#pragma GCC diagnostic pop
