#include "numeric/linalg/matmul_op.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "numeric/linalg/cpu/blas.h"
#include "numeric/linalg/linalg_common.h"
#include "numeric/linalg/cpu/matvec_kernels.h"
#include "tessera/errors.h"

namespace tessera::detail {

namespace {

constexpr int64_t kGridBlocks = 16;
// Matrices of a matrix-vector product larger than this are read in alternating directions.
constexpr int64_t kLargeMatrixBytes = 16 << 20;
// The products of large matrices by vectors so far.
std::atomic<uint64_t> g_large_matvecs{0};

// The block length that cuts `extent` into `parts` near-equal blocks of at most `cap`.
int64_t grid_step(int64_t extent, int64_t cap, int64_t parts) {
  return std::max<int64_t>(1, std::min(cap, (extent + parts - 1) / parts));
}

// c[:, 0] = a · b[:, 0] in matvec_kernels.h's order.
void matvec(DType t, const MatrixRef& a, const MatrixRef& b, const MatrixRef& c) {
  thread_local std::vector<char> gathered;
  const char* x = contiguous_vector(t, b.ptr, b.rs, a.cols, gathered);
  const int64_t ys = c.rows == 1 ? 1 : c.rs;
  if (a.cols == 1 || a.cs == 1) matvec_rows(t, c.ptr, ys, a.ptr, a.rows == 1 ? a.cols : a.rs, x, a.rows, a.cols);
  else matvec_columns(t, c.ptr, ys, a.ptr, a.cs, x, a.rows, a.cols);
}

}  // namespace

MatmulOp::MatmulOp(StorePtr c, StorePtr a, StorePtr b) {
  name = "matmul";
  const int nd = c->ndim();
  TESSERA_CHECK(nd >= 2 && a->ndim() == nd && b->ndim() == nd, "matmul operands of unequal rank");
  TESSERA_CHECK(a->dtype() == c->dtype() && b->dtype() == c->dtype(), "matmul operands of unequal dtype");
  m_ = c->shape()[nd - 2];
  n_ = c->shape()[nd - 1];
  k_ = a->shape()[nd - 1];
  // About 16 blocks in all (a batch of 16 matrices or more is not cut further): row bands of at
  // most 256 rows, on which BLAS is as fast as on whole matrices, cut into columns only when there
  // are too few bands (e.g. for a row vector times a matrix).
  const int64_t batch = volume(Shape(c->shape().begin(), c->shape().end() - 2));
  const int64_t parts = (kGridBlocks + batch - 1) / std::max<int64_t>(1, batch);
  block_rows_ = grid_step(m_, 256, std::max<int64_t>(1, parts));
  const int64_t bands = std::max<int64_t>(1, (m_ + block_rows_ - 1) / block_rows_);
  block_cols_ = grid_step(n_, INT64_MAX, std::max<int64_t>(1, (parts + bands - 1) / bands));
  // The launch: the grid of blocks (batch..., rows, columns, 1). C is (batch..., M, N) with
  // a unit K axis; A (batch..., M, K) gains an N axis; B (batch..., K, N) is transposed to
  // (batch..., N, K) and gains an M axis; each follows the grid scaled by the block, whole in K.
  Shape grid(c->shape().begin(), c->shape().end() - 2);
  grid.push_back((m_ + block_rows_ - 1) / block_rows_);
  grid.push_back((n_ + block_cols_ - 1) / block_cols_);
  grid.push_back(1);
  Shape factors(static_cast<size_t>(nd + 1), 1);
  factors[nd - 2] = block_rows_;
  factors[nd - 1] = block_cols_;
  std::vector<int> swap(static_cast<size_t>(nd));
  for (int d = 0; d < nd; ++d) swap[d] = d;
  std::swap(swap[nd - 2], swap[nd - 1]);
  const int g = add_space(grid);
  c_arg_ = add(c, false, true, ArgView(c->shape()).promote(nd, 1));
  const int ia = add(a, true, false, ArgView(a->shape()).promote(nd - 1, n_));
  const int ib = add(b, true, false, ArgView(b->shape()).transpose(swap).promote(nd - 2, m_));
  for (int i : {c_arg_, ia, ib}) constraints.push_back(scale(i, g, factors));
  constraints.push_back(broadcast(ia, {nd}));
  constraints.push_back(broadcast(ib, {nd}));
  weight = block_rows_ * block_cols_ * std::max<int64_t>(1, k_);
  // Matrix-vector products of float32 and float64 sum in matvec_kernels.h's order, the
  // same whichever way the matrix is read (a symmetric matrix may be read half).
  matvec_ = n_ == 1 && m_ >= 2 && k_ >= 1 && matvec_dtype(c->dtype());
  // An iterative solver multiplies the same large matrix by a vector again and again. Each
  // product reads it whole from memory, except for what the last one left in the caches: its
  // last rows. Every other product reads the rows backwards, starting with those. Each block is
  // still one call, so the values are the same in either direction.
  if (n_ == 1 && batch == 1 && m_ * k_ * itemsize(c->dtype()) > kLargeMatrixBytes)
    backwards_ = g_large_matvecs.fetch_add(1, std::memory_order_relaxed) % 2 == 1;
}

bool MatmulOp::usable_operand(const Store& s) {
  if (!is_blas_dtype(s.dtype()) || s.size() == 0) return true;  // an empty operand is never read
  const int nd = s.ndim();
  return blas_layout(s.shape()[nd - 2], s.shape()[nd - 1], s.strides()[nd - 2], s.strides()[nd - 1]).has_value();
}

bool MatmulOp::usable_output(const Store& s) {
  if (!is_blas_dtype(s.dtype())) return true;
  const int nd = s.ndim();
  const int64_t m = s.shape()[nd - 2], n = s.shape()[nd - 1], rs = s.strides()[nd - 2], cs = s.strides()[nd - 1];
  // gemv writes a row or a column with a positive increment; gemm needs rows ldc >= n apart.
  if (n == 1) return m == 1 || rs >= 1;
  if (m == 1) return cs >= 1;
  return cs == 1 && rs >= n;
}

void MatmulOp::execute(const Point& point) {
  const Rect& tile = point.rects[c_arg_];  // (batch..., rows, columns, [0, 1)) of C
  const Store& c = *args[c_arg_].store;
  const Store& a = *args[c_arg_ + 1].store;
  const Store& b = *args[c_arg_ + 2].store;
  require_computed(*this, "matmul");
  const int nd = c.ndim();
  const int nb = nd - 2;
  const DType t = c.dtype();
  const int64_t sz = itemsize(t);
  const int64_t r0 = tile.lo[nd - 2], r1 = tile.hi[nd - 2], c0 = tile.lo[nd - 1], c1 = tile.hi[nd - 1];
  Shape idx(tile.lo.begin(), tile.lo.begin() + nb);
  while (true) {
    int64_t oa = 0, ob = 0, oc = 0;
    for (int d = 0; d < nb; ++d) {
      oa += idx[d] * a.strides()[d];
      ob += idx[d] * b.strides()[d];
      oc += idx[d] * c.strides()[d];
    }
    oa += r0 * a.strides()[nd - 2];
    ob += c0 * b.strides()[nd - 1];
    oc += r0 * c.strides()[nd - 2] + c0 * c.strides()[nd - 1];
    const int64_t ars = a.strides()[nd - 2], acs = a.strides()[nd - 1];
    const int64_t brs = b.strides()[nd - 2], bcs = b.strides()[nd - 1];
    const int64_t crs = c.strides()[nd - 2], ccs = c.strides()[nd - 1];
    // One BLAS call per block of the grid (the tile's bounds lie on it).
    const int64_t blocks = (r1 - r0 + block_rows_ - 1) / block_rows_;
    for (int64_t i = 0; i < blocks; ++i) {
      const int64_t r = r0 + (backwards_ ? blocks - 1 - i : i) * block_rows_;
      const int64_t rows = std::min(block_rows_, r1 - r);
      for (int64_t q = c0; q < c1; q += block_cols_) {
        const int64_t cols = std::min(block_cols_, c1 - q);
        MatrixRef ma{a.base_ptr() + (oa + (r - r0) * ars) * sz, rows, k_, ars, acs};
        MatrixRef mb{b.base_ptr() + (ob + (q - c0) * bcs) * sz, k_, cols, brs, bcs};
        MatrixRef mc{c.base_ptr() + (oc + (r - r0) * crs + (q - c0) * ccs) * sz, rows, cols, crs, ccs};
        if (matvec_) matvec(t, ma, mb, mc);
        else matmul_block(t, ma, mb, mc);
      }
    }
    int d = nb - 1;
    while (d >= 0 && ++idx[d] == tile.hi[d]) {
      idx[d] = tile.lo[d];
      --d;
    }
    if (d < 0) break;
  }
}

}  // namespace tessera::detail
