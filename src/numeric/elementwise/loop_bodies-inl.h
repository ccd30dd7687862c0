// The loop bodies of the element-wise functions over one block: out[i] = f(a[i * sa], ...)
// with operand strides 0 (a broadcast scalar) or 1. Included once by each scalar loop
// file, and by vector_loops.cc once inside each of Highway's target namespaces, so the
// compiler vectorises the same body for every instruction set. Each stride pattern has
// its own loop so that each one vectorises.
//
// No include guard: this file is meant to be included more than once per translation unit.

template <class Op, class T>
void unary_run(void* out, const void* a, int64_t sa, int64_t n) {
  using O = typename Op::template Out<T>;
  O* o = static_cast<O*>(out);
  const T* x = static_cast<const T*>(a);
  if (sa == 1) {
    for (int64_t i = 0; i < n; ++i) o[i] = Op::f(x[i]);
  } else {
    const O v = Op::f(x[0]);
    for (int64_t i = 0; i < n; ++i) o[i] = v;
  }
}

template <class Op, class T>
void binary_run(void* out, const void* pa, int64_t sa, const void* pb, int64_t sb, int64_t n) {
  using O = typename Op::template Out<T>;
  O* o = static_cast<O*>(out);
  const T* a = static_cast<const T*>(pa);
  const T* b = static_cast<const T*>(pb);
  if (sa == 1 && sb == 1) {
    for (int64_t i = 0; i < n; ++i) o[i] = Op::f(a[i], b[i]);
  } else if (sa == 1) {
    const T bv = b[0];
    for (int64_t i = 0; i < n; ++i) o[i] = Op::f(a[i], bv);
  } else if (sb == 1) {
    const T av = a[0];
    for (int64_t i = 0; i < n; ++i) o[i] = Op::f(av, b[i]);
  } else {
    const O v = Op::f(a[0], b[0]);
    for (int64_t i = 0; i < n; ++i) o[i] = v;
  }
}

template <class T>
void where_run(void* out, const void* pc, int64_t sc, const void* pa, int64_t sa, const void* pb, int64_t sb,
               int64_t n) {
  T* o = static_cast<T*>(out);
  // The condition read as bytes, and both values loaded whatever it is: a select of
  // loaded values vectorises; a load under a condition (or of a C++ bool) does not.
  const uint8_t* c = static_cast<const uint8_t*>(pc);
  const T* a = static_cast<const T*>(pa);
  const T* b = static_cast<const T*>(pb);
  if (sc == 1 && sa == 1 && sb == 1) {
    for (int64_t i = 0; i < n; ++i) {
      const T x = a[i], y = b[i];
      o[i] = c[i] != 0 ? x : y;
    }
  } else {
    for (int64_t i = 0; i < n; ++i) o[i] = c[i * sc] != 0 ? a[i * sa] : b[i * sb];
  }
}

template <class D, class S>
void cast_run(void* out, const void* in, int64_t stride, int64_t n) {
  D* o = static_cast<D*>(out);
  const S* s = static_cast<const S*>(in);
  if (stride == 1) {
    for (int64_t i = 0; i < n; ++i) o[i] = convert<D>(s[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) o[i] = convert<D>(s[i * stride]);
  }
}
