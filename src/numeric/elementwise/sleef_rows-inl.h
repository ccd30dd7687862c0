// The rows of the ufunc table (ufuncs.def) whose vector loop is SLEEF's: for each one,
// TESSERA_SLEEF_UNARY_ROW(Op, fn, u) or TESSERA_SLEEF_BINARY_ROW(Op, fn, u), as the
// includer defines them (an undefined one adds nothing); both are undefined afterwards.
//
// No include guard: this file is meant to be included more than once per translation unit.
#ifndef TESSERA_SLEEF_UNARY_ROW
#define TESSERA_SLEEF_UNARY_ROW(OP, fn, u)
#endif
#ifndef TESSERA_SLEEF_BINARY_ROW
#define TESSERA_SLEEF_BINARY_ROW(OP, fn, u)
#endif
#define TESSERA_SLEEF_PICK_sleef(ROW, OP, fn, u) ROW(OP, fn, u)
#define TESSERA_SLEEF_PICK_simd(ROW, OP, A, B)
#define TESSERA_SLEEF_PICK_none(ROW, OP, A, B)
#define TESSERA_UNARY_UFUNC(OP, NAME, ALIASES, LOOPS, VECTOR, V1, V2, ...) \
  TESSERA_SLEEF_PICK_##VECTOR(TESSERA_SLEEF_UNARY_ROW, OP, V1, V2)
#define TESSERA_BINARY_UFUNC(OP, NAME, ALIASES, LOOPS, VECTOR, V1, V2, ...) \
  TESSERA_SLEEF_PICK_##VECTOR(TESSERA_SLEEF_BINARY_ROW, OP, V1, V2)
#include "numeric/elementwise/ufuncs.def"
#undef TESSERA_SLEEF_PICK_sleef
#undef TESSERA_SLEEF_PICK_simd
#undef TESSERA_SLEEF_PICK_none
#undef TESSERA_SLEEF_UNARY_ROW
#undef TESSERA_SLEEF_BINARY_ROW
