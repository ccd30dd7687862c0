#include "numeric/linalg/matmul_op.h"

#include <algorithm>
#include <cstdint>

#include "numeric/linalg/blas.h"
#include "partition/tiling.h"
#include "tessera/errors.h"

namespace tessera::detail {

namespace {

constexpr int64_t kGridBlocks = 16;

// The block length that cuts `extent` into `parts` near-equal blocks of at most `cap`.
int64_t grid_step(int64_t extent, int64_t cap, int64_t parts) {
  return std::max<int64_t>(1, std::min(cap, (extent + parts - 1) / parts));
}

}  // namespace

MatmulOp::MatmulOp(StorePtr c, StorePtr a, StorePtr b) {
  name = "matmul";
  // The iteration space (batch..., M, N, K): its volume is the work, which the runtime weighs
  // (e.g. to run tiny products inline). Tiles always span the whole of K.
  domain = c->shape();
  domain.push_back(a->shape().back());
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
  args.push_back(OpArg{std::move(c), false, true, Projection::Custom});
  args.push_back(OpArg{std::move(a), true, false, Projection::Custom});
  args.push_back(OpArg{std::move(b), true, false, Projection::Custom});
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

std::vector<Rect> MatmulOp::tiles(int pieces, int64_t min_chunk) const {
  // Tile the grid of blocks, then map back to elements. A block costs about
  // rows * cols * K multiply-adds: keep at least `min_chunk` of them per tile.
  const int nd = static_cast<int>(domain.size()) - 1;  // C's rank
  Shape grid(domain.begin(), domain.end() - 1);
  grid[nd - 2] = (m_ + block_rows_ - 1) / block_rows_;
  grid[nd - 1] = (n_ + block_cols_ - 1) / block_cols_;
  const int64_t block_work = block_rows_ * block_cols_ * std::max<int64_t>(1, k_);
  std::vector<Rect> tiles = tile_domain(grid, pieces, std::max<int64_t>(1, min_chunk / block_work));
  for (Rect& t : tiles) {
    t.lo[nd - 2] *= block_rows_;
    t.hi[nd - 2] = std::min(m_, t.hi[nd - 2] * block_rows_);
    t.lo[nd - 1] *= block_cols_;
    t.hi[nd - 1] = std::min(n_, t.hi[nd - 1] * block_cols_);
    t.lo.push_back(0);
    t.hi.push_back(k_);
  }
  return tiles;
}

Rect MatmulOp::arg_rect(int i, const Rect& tile) const {
  const int nd = static_cast<int>(domain.size()) - 1;  // C's rank
  Rect r(Shape(tile.lo.begin(), tile.lo.end() - 1), Shape(tile.hi.begin(), tile.hi.end() - 1));
  if (i == 1) {  // A: the tile's rows, every column
    r.lo[nd - 1] = 0;
    r.hi[nd - 1] = k_;
  } else if (i == 2) {  // B: every row, the tile's columns
    r.lo[nd - 2] = 0;
    r.hi[nd - 2] = k_;
  }
  return r;
}

void MatmulOp::execute(const Rect& tile) {
  const Store& c = *args[0].store;
  const Store& a = *args[1].store;
  const Store& b = *args[2].store;
  for (const OpArg& x : args)
    if (x.store->size() > 0 && !x.store->storage()->allocated())
      throw ValueError("operation 'matmul' reads an array that was never computed (an earlier error stopped it)");
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
    for (int64_t r = r0; r < r1; r += block_rows_) {
      const int64_t rows = std::min(block_rows_, r1 - r);
      for (int64_t q = c0; q < c1; q += block_cols_) {
        const int64_t cols = std::min(block_cols_, c1 - q);
        MatrixRef ma{a.base_ptr() + (oa + (r - r0) * ars) * sz, rows, k_, ars, acs};
        MatrixRef mb{b.base_ptr() + (ob + (q - c0) * bcs) * sz, k_, cols, brs, bcs};
        MatrixRef mc{c.base_ptr() + (oc + (r - r0) * crs + (q - c0) * ccs) * sz, rows, cols, crs, ccs};
        matmul_block(t, ma, mb, mc);
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
