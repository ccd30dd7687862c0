#include "numeric/sparse/cpu/csr_kernels.h"

#include <algorithm>
#include <climits>
#include <complex>
#include <type_traits>
#include <vector>

namespace tessera::detail {

Indexed::Indexed(const Tile& tile)
    : base_(static_cast<char*>(tile.data())),
      dtype_(tile.dtype()),
      shape_(tile.array_shape()),
      strides_(tile.strides()) {
  if (!base_) return;
  int64_t off = 0;
  for (int d = 0; d < tile.ndim(); ++d) off += tile.lo()[static_cast<size_t>(d)] * strides_[static_cast<size_t>(d)];
  base_ -= off * itemsize(dtype_);
}

namespace {

// A 1-D array's elements from index 0 with its stride.
template <class T>
struct Strided {
  T* p;
  int64_t s;
  T& operator[](int64_t i) const { return p[i * s]; }
};

template <class T>
Strided<T> strided(const Indexed& s) {
  return {reinterpret_cast<T*>(s.ptr(Shape(static_cast<size_t>(s.ndim()), 0))), s.strides()[0]};
}

// An accumulator for T: bool sums in a byte (any true value is true), as std::vector<bool>
// holds no addressable elements.
template <class T>
using Acc = std::conditional_t<std::is_same_v<T, bool>, unsigned char, T>;

// Calls f(I{}) with the index type of `t` (int32 or int64).
template <class F>
void visit_index(DType t, F&& f) {
  if (t == DType::Int32) f(int32_t{});
  else f(int64_t{});
}

// Row r of C = A @ B with a dense accumulator of B's columns: calls emit(col, value) for
// each column of the row in increasing order. `mark` and `acc` have ncols entries, unset.
template <class I, class T, class Emit>
void matmat_row(int64_t r, const Strided<const I>& ap, const Strided<const I>& ac, const Strided<const T>& av,
                const Strided<const I>& bp, const Strided<const I>& bc, const Strided<const T>& bv,
                std::vector<int64_t>& mark, std::vector<Acc<T>>& acc, std::vector<int64_t>& cols, Emit&& emit) {
  cols.clear();
  for (int64_t j = ap[r], e = ap[r + 1]; j < e; ++j) {
    const int64_t k = ac[j];
    const T a = av[j];
    for (int64_t q = bp[k], f = bp[k + 1]; q < f; ++q) {
      const int64_t c = bc[q];
      if (mark[static_cast<size_t>(c)] != r) {
        mark[static_cast<size_t>(c)] = r;
        acc[static_cast<size_t>(c)] = Acc<T>{};
        cols.push_back(c);
      }
      acc[static_cast<size_t>(c)] += a * bv[q];
    }
  }
  std::sort(cols.begin(), cols.end());
  for (int64_t c : cols) emit(c, static_cast<T>(acc[static_cast<size_t>(c)]));
}

// Calls row(r, emit-taking matmat_row) for each row r in [lo, hi) of C = A @ B, typed by the
// index and value dtypes of A.
template <class Row>
void matmat_rows(const CsrArrays& a, const CsrArrays& b, int64_t ncols, int64_t lo, int64_t hi, Row&& row) {
  if (hi <= lo) return;
  visit_index(a.indices.dtype(), [&](auto itag) {
    using I = decltype(itag);
    const auto ap = strided<const I>(a.indptr), ac = strided<const I>(a.indices);
    const auto bp = strided<const I>(b.indptr), bc = strided<const I>(b.indices);
    visit_dtype(a.data.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const auto av = strided<const T>(a.data), bv = strided<const T>(b.data);
      std::vector<int64_t> mark(static_cast<size_t>(ncols), -1), cols;
      std::vector<Acc<T>> acc(static_cast<size_t>(ncols));
      for (int64_t r = lo; r < hi; ++r)
        row(r, T{}, [&](auto&& emit) { matmat_row(r, ap, ac, av, bp, bc, bv, mark, acc, cols, emit); });
    });
  });
}

}  // namespace

void csr_matvec_rows(const Indexed& y, const CsrArrays& a, const Indexed& x, int64_t lo, int64_t hi) {
  if (hi <= lo) return;
  visit_index(a.indices.dtype(), [&](auto itag) {
    using I = decltype(itag);
    const Strided<const I> ptr = strided<const I>(a.indptr), col = strided<const I>(a.indices);
    visit_dtype(y.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const Strided<const T> val = strided<const T>(a.data);
      if (y.ndim() == 1) {
        const Strided<T> out = strided<T>(y);
        const Strided<const T> in = strided<const T>(x);
        if (col.s == 1 && val.s == 1 && in.s == 1) {
          for (int64_t r = lo; r < hi; ++r) {
            T acc{};
            for (int64_t j = ptr[r], e = ptr[r + 1]; j < e; ++j) acc += val.p[j] * in.p[col.p[j]];
            out[r] = acc;
          }
        } else {
          for (int64_t r = lo; r < hi; ++r) {
            T acc{};
            for (int64_t j = ptr[r], e = ptr[r + 1]; j < e; ++j) acc += val[j] * in[col[j]];
            out[r] = acc;
          }
        }
        return;
      }
      const int64_t k = y.shape()[1], ys0 = y.strides()[0], ys1 = y.strides()[1];
      const int64_t xs0 = x.strides()[0], xs1 = x.strides()[1];
      T* out = reinterpret_cast<T*>(y.ptr({0, 0}));
      const T* in = reinterpret_cast<const T*>(x.ptr({0, 0}));
      std::vector<Acc<T>> acc(static_cast<size_t>(k));
      for (int64_t r = lo; r < hi; ++r) {
        std::fill(acc.begin(), acc.end(), Acc<T>{});
        for (int64_t j = ptr[r], e = ptr[r + 1]; j < e; ++j) {
          const T v = val[j];
          const T* row = in + static_cast<int64_t>(col[j]) * xs0;
          for (int64_t c = 0; c < k; ++c) acc[static_cast<size_t>(c)] += v * row[c * xs1];
        }
        for (int64_t c = 0; c < k; ++c) out[r * ys0 + c * ys1] = static_cast<T>(acc[static_cast<size_t>(c)]);
      }
    });
  });
}

void csr_column_ranges_blocks(const Indexed& out, const Indexed& indptr, const Indexed& indices, int64_t block,
                              int64_t lo, int64_t hi) {
  const int64_t rows = indptr.shape()[0] - 1;
  visit_index(indices.dtype(), [&](auto itag) {
    using I = decltype(itag);
    const Strided<const I> ptr = strided<const I>(indptr), col = strided<const I>(indices);
    for (int64_t b = lo; b < hi; ++b) {
      const int64_t r0 = std::min(rows, b * block), r1 = std::min(rows, r0 + block);
      int64_t mn = INT64_MAX, mx = INT64_MIN;
      for (int64_t j = ptr[r0], e = ptr[r1]; j < e; ++j) {
        const int64_t c = col[j];
        mn = std::min(mn, c);
        mx = std::max(mx, c);
      }
      int64_t* pair = reinterpret_cast<int64_t*>(out.ptr({b, 0}));
      const int64_t s1 = out.strides()[1];
      pair[0] = mn <= mx ? mn : 0;
      pair[s1] = mn <= mx ? mx + 1 : 0;
    }
  });
}

void csr_todense_rows(const Indexed& out, const CsrArrays& a, int64_t lo, int64_t hi) {
  if (hi <= lo) return;
  visit_index(a.indices.dtype(), [&](auto itag) {
    using I = decltype(itag);
    const Strided<const I> ptr = strided<const I>(a.indptr), col = strided<const I>(a.indices);
    visit_dtype(out.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const Strided<const T> val = strided<const T>(a.data);
      const int64_t n = out.shape()[1], s0 = out.strides()[0], s1 = out.strides()[1];
      T* base = reinterpret_cast<T*>(out.ptr({0, 0}));
      for (int64_t r = lo; r < hi; ++r) {
        T* row = base + r * s0;
        for (int64_t c = 0; c < n; ++c) row[c * s1] = T{};
        for (int64_t j = ptr[r], e = ptr[r + 1]; j < e; ++j) row[static_cast<int64_t>(col[j]) * s1] += val[j];
      }
    });
  });
}

void segment_sum_rows(const Indexed& out, const Indexed& indptr, const Indexed& data, int64_t lo, int64_t hi) {
  if (hi <= lo) return;
  visit_index(indptr.dtype(), [&](auto itag) {
    using I = decltype(itag);
    const Strided<const I> ptr = strided<const I>(indptr);
    visit_dtype(out.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const Strided<T> sums = strided<T>(out);
      const Strided<const T> val = strided<const T>(data);
      for (int64_t r = lo; r < hi; ++r) {
        T acc{};
        for (int64_t j = ptr[r], e = ptr[r + 1]; j < e; ++j) acc += val[j];
        sums[r] = acc;
      }
    });
  });
}

void take_range(const Indexed& out, const Indexed& idx, const Indexed& src, int64_t lo, int64_t hi) {
  visit_index(idx.dtype(), [&](auto itag) {
    using I = decltype(itag);
    const Strided<const I> at = strided<const I>(idx);
    visit_dtype(out.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const Strided<T> to = strided<T>(out);
      const Strided<const T> from = strided<const T>(src);
      for (int64_t i = lo; i < hi; ++i) to[i] = from[at[i]];
    });
  });
}

void csr_matmat_count_rows(const Indexed& counts, const CsrArrays& a, const CsrArrays& b, int64_t ncols, int64_t lo,
                           int64_t hi) {
  const Strided<int64_t> count = strided<int64_t>(counts);
  matmat_rows(a, b, ncols, lo, hi, [&](int64_t r, auto tag, auto&& walk) {
    using T = decltype(tag);
    int64_t n = 0;
    walk([&](int64_t, T) { ++n; });
    count[r] = n;
  });
}

void csr_matmat_fill_rows(const Indexed& pairs, const Indexed& c_indices, const Indexed& c_data, const CsrArrays& a,
                          const CsrArrays& b, int64_t ncols, int64_t lo, int64_t hi) {
  const Strided<int64_t> ci = strided<int64_t>(c_indices);
  matmat_rows(a, b, ncols, lo, hi, [&](int64_t r, auto tag, auto&& walk) {
    using T = decltype(tag);
    const Strided<T> cv = strided<T>(c_data);
    int64_t at = *reinterpret_cast<const int64_t*>(pairs.ptr({r, 0}));
    walk([&](int64_t c, T v) {
      ci[at] = c;
      cv[at] = v;
      ++at;
    });
  });
}

}  // namespace tessera::detail
