// The CSR kernels (csr_matvec with and without column ranges, csr_column_ranges,
// csr_todense, segment_sum, csr_matmat) on matrices the input describes, valid by
// construction as the Python constructors leave them (indptr from 0, non-decreasing, ending
// at nnz; every column index in [0, ncols); columns unsorted and repeated within a row, as
// SciPy's non-canonical matrices may be; empty rows and matrices; int32 or int64 indices),
// checked against the sums of the definition. Values are small whole numbers, so every sum
// is exact whatever its order. The runtime runs in test mode (tiny tiles, several points).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "tessera/creation.h"
#include "tessera/runtime.h"
#include "tessera/sparse.h"

namespace {

using tessera::DType;
using tessera::ndarray;

// Whole numbers in [lo, hi] from the input's bytes, two at a time (lo once they run out).
class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  int64_t take(int64_t lo, int64_t hi) {
    uint32_t v = 0;
    for (int i = 0; i < 2 && at_ < size_; ++i) v = v << 8 | data_[at_++];
    return lo + static_cast<int64_t>(v % static_cast<uint32_t>(hi - lo + 1));
  }

 private:
  const uint8_t* data_;
  size_t size_, at_ = 0;
};

struct Matrix {
  int64_t rows = 0, cols = 0;
  std::vector<int64_t> indptr{0}, indices;
  std::vector<double> data;
};

Matrix read_matrix(Bytes& in, int64_t rows, int64_t cols) {
  Matrix m;
  m.rows = rows;
  m.cols = cols;
  for (int64_t r = 0; r < rows; ++r) {
    const int n = cols > 0 ? in.take(0, 6) : 0;
    for (int k = 0; k < n; ++k) {
      m.indices.push_back(in.take(0, cols - 1));
      m.data.push_back(in.take(-4, 4));
    }
    m.indptr.push_back(static_cast<int64_t>(m.indices.size()));
  }
  return m;
}

ndarray index_array(const std::vector<int64_t>& v, DType t) {
  if (t == DType::Int64) return tessera::from_host(v.data(), {static_cast<int64_t>(v.size())}, t);
  std::vector<int32_t> narrow(v.begin(), v.end());
  return tessera::from_host(narrow.data(), {static_cast<int64_t>(v.size())}, t);
}

ndarray doubles(const std::vector<double>& v, const tessera::Shape& shape) {
  return tessera::from_host(v.data(), shape, DType::Float64);
}

std::vector<double> dense(const Matrix& m) {
  std::vector<double> d(static_cast<size_t>(m.rows * m.cols), 0.0);
  for (int64_t r = 0; r < m.rows; ++r)
    for (int64_t j = m.indptr[r]; j < m.indptr[r + 1]; ++j) d[r * m.cols + m.indices[j]] += m.data[j];
  return d;
}

void expect(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "csr_fuzz: %s differs from the definition\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("TESSERA_TEST", "1", 1);
  setenv("TESSERA_CONFIG", "--cpus=2", 1);
  tessera::start();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  Bytes in(bytes, size);
  const DType it = in.take(0, 1) ? DType::Int32 : DType::Int64;
  const int64_t rows = in.take(0, 40);
  const int64_t cols = in.take(0, 40);
  const int64_t k = in.take(1, 3);
  const int64_t block = in.take(1, 9);
  const int64_t cols_b = in.take(0, 12);
  const Matrix a = read_matrix(in, rows, cols);
  const Matrix b = read_matrix(in, cols, cols_b);
  std::vector<double> x(static_cast<size_t>(cols * k));
  for (double& v : x) v = in.take(-3, 3);

  const ndarray ip = index_array(a.indptr, it), ix = index_array(a.indices, it);
  const ndarray av = doubles(a.data, {static_cast<int64_t>(a.data.size())});
  const std::vector<double> ad = dense(a);

  // y = A @ x for a vector and for a (cols, k) matrix.
  const ndarray x1 = doubles(std::vector<double>(x.begin(), x.begin() + cols), {cols});
  std::vector<double> y1(static_cast<size_t>(rows), 0.0), yk(static_cast<size_t>(rows * k), 0.0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      y1[r] += ad[r * cols + c] * x[c];
      for (int64_t q = 0; q < k; ++q) yk[r * k + q] += ad[r * cols + c] * x[c * k + q];
    }
  expect(tessera::csr_matvec(ip, ix, av, x1).to_vector<double>() == y1, "csr_matvec");
  expect(tessera::csr_matvec(ip, ix, av, doubles(x, {cols, k})).to_vector<double>() == yk, "csr_matvec (2-D x)");

  // Each block's column range, then the product that moves only those entries of x.
  const ndarray ranges = tessera::csr_column_ranges(ip, ix, block);
  std::vector<int64_t> want_ranges;
  for (int64_t r0 = 0; r0 < rows; r0 += block) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int64_t j = a.indptr[r0]; j < a.indptr[std::min(rows, r0 + block)]; ++j) {
      lo = std::min(lo, a.indices[j]);
      hi = std::max(hi, a.indices[j] + 1);
    }
    want_ranges.push_back(lo <= hi ? lo : 0);
    want_ranges.push_back(lo <= hi ? hi : 0);
  }
  expect(ranges.to_vector<int64_t>() == want_ranges, "csr_column_ranges");
  expect(tessera::csr_matvec(ip, ix, av, x1, ranges, block).to_vector<double>() == y1, "csr_matvec by blocks");

  expect(tessera::csr_todense(ip, ix, av, cols).to_vector<double>() == ad, "csr_todense");

  std::vector<double> sums(static_cast<size_t>(rows), 0.0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = a.indptr[r]; j < a.indptr[r + 1]; ++j) sums[r] += a.data[j];
  expect(tessera::segment_sum(ip, av).to_vector<double>() == sums, "segment_sum");

  // C = A @ B: its rows' columns sorted and distinct, its dense form the dense product.
  const std::vector<ndarray> c = tessera::csr_matmat(ip, ix, av, index_array(b.indptr, it), index_array(b.indices, it),
                                                     doubles(b.data, {static_cast<int64_t>(b.data.size())}), cols_b);
  Matrix cm;
  cm.rows = rows;
  cm.cols = cols_b;
  cm.indptr = c[0].to_vector<int64_t>();
  cm.indices = c[1].to_vector<int64_t>();
  cm.data = c[2].to_vector<double>();
  expect(static_cast<int64_t>(cm.indptr.size()) == rows + 1 && cm.indptr[0] == 0 &&
             cm.indptr.back() == static_cast<int64_t>(cm.indices.size()),
         "csr_matmat's indptr");
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = cm.indptr[r]; j < cm.indptr[r + 1]; ++j)
      expect(cm.indices[j] >= 0 && cm.indices[j] < cols_b && (j == cm.indptr[r] || cm.indices[j - 1] < cm.indices[j]),
             "csr_matmat's indices");
  const std::vector<double> bd = dense(b);
  std::vector<double> want(static_cast<size_t>(rows * cols_b), 0.0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t q = 0; q < cols; ++q)
      for (int64_t col = 0; col < cols_b; ++col) want[r * cols_b + col] += ad[r * cols + q] * bd[q * cols_b + col];
  expect(dense(cm) == want, "csr_matmat");
  return 0;
}
