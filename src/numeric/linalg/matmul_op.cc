#include "numeric/linalg/matmul_op.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "data/strided_rows.h"
#include "numeric/linalg/cpu/blas.h"
#include "numeric/linalg/cpu/matvec_kernels.h"
#include "tessera/errors.h"
#include "tessera/task.h"

namespace tessera::detail {

namespace {

constexpr int64_t kGridBlocks = 16;
// Matrices of a matrix-vector product larger than this are read in alternating directions.
constexpr int64_t kLargeMatrixBytes = 16 << 20;
// The products of large matrices by vectors so far.
std::atomic<uint64_t> g_large_matvecs{0};

// What every point of one product knows beyond its tiles.
struct MatmulSpec {
  int64_t block_rows, block_cols;  // the grid of C's blocks
  int64_t k;
  bool matvec;     // a float matrix times a vector: matvec_kernels.h's order
  bool backwards;  // a tile computes its row blocks last to first
};

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

// The element `off` elements from a tile's first (null for an empty tile: K = 0).
char* element(const Tile& t, int64_t off) {
  return t.data() == nullptr ? nullptr : static_cast<char*>(t.data()) + off * itemsize(t.dtype());
}

// Arrays: 0 the grid, 1 C, 2 A, 3 B (their tiles: the rows and columns of C's block range,
// every index of the batch range).
void matmul_body(TaskContext& ctx) {
  const MatmulSpec& spec = ctx.payload<MatmulSpec>();
  const Tile &c = ctx.array(1), &a = ctx.array(2), &b = ctx.array(3);
  if (c.size() == 0) return;
  const int nd = c.ndim(), nb = nd - 2;
  const DType t = c.dtype();
  const int64_t r0 = c.lo()[nd - 2], r1 = c.hi()[nd - 2], c0 = c.lo()[nd - 1], c1 = c.hi()[nd - 1];
  const int64_t ars = a.strides()[nd - 2], acs = a.strides()[nd - 1];
  const int64_t brs = b.strides()[nd - 2], bcs = b.strides()[nd - 1];
  const int64_t crs = c.strides()[nd - 2], ccs = c.strides()[nd - 1];
  const int64_t k = spec.k, br = spec.block_rows, bc = spec.block_cols;
  // Every index of the tile's batch axes (a unit row axis last: one "row" per matrix).
  Shape batch(c.extents().begin(), c.extents().begin() + nb);
  batch.push_back(1);
  Shape as(a.strides().begin(), a.strides().begin() + nb), bs(b.strides().begin(), b.strides().begin() + nb),
      cs(c.strides().begin(), c.strides().begin() + nb);
  for (Shape* s : {&as, &bs, &cs}) s->push_back(0);
  StridedRows matrices(batch, {as.data(), bs.data(), cs.data()});
  // One call per block of the grid (the tile's bounds lie on it).
  const int64_t blocks = (r1 - r0 + br - 1) / br;
  matrices.for_each([&](const int64_t*, const int64_t* off) {
    for (int64_t i = 0; i < blocks; ++i) {
      const int64_t r = (spec.backwards ? blocks - 1 - i : i) * br;  // from r0
      const int64_t rows = std::min(br, r1 - r0 - r);
      for (int64_t q = 0; q < c1 - c0; q += bc) {
        const int64_t cols = std::min(bc, c1 - c0 - q);
        MatrixRef ma{element(a, off[0] + r * ars), rows, k, ars, acs};
        MatrixRef mb{element(b, off[1] + q * bcs), k, cols, brs, bcs};
        MatrixRef mc{element(c, off[2] + r * crs + q * ccs), rows, cols, crs, ccs};
        if (spec.matvec) matvec(t, ma, mb, mc);
        else matmul_block(t, ma, mb, mc);
      }
    }
  });
}

// The strides of `s` in elements.
Shape element_strides(const ndarray& s) {
  Shape st = s.strides_bytes();
  for (int64_t& x : st) x /= s.itemsize();
  return st;
}

}  // namespace

void launch_matmul(const ndarray& c, const ndarray& a, const ndarray& b) {
  static const Task task("linalg.matmul", &matmul_body);
  const int nd = c.ndim();
  TESSERA_CHECK(nd >= 2 && a.ndim() == nd && b.ndim() == nd, "matmul operands of unequal rank");
  TESSERA_CHECK(a.dtype() == c.dtype() && b.dtype() == c.dtype(), "matmul operands of unequal dtype");
  const Shape& cshape = c.shape();
  MatmulSpec spec{};
  const int64_t m = cshape[nd - 2], n = cshape[nd - 1], k = a.shape()[nd - 1];
  spec.k = k;
  // About 16 blocks in all (a batch of 16 matrices or more is not cut further): row bands of at
  // most 256 rows, on which BLAS is as fast as on whole matrices, cut into columns only when there
  // are too few bands (e.g. for a row vector times a matrix).
  int64_t batch = 1;
  for (int d = 0; d < nd - 2; ++d) batch *= cshape[d];
  const int64_t parts = (kGridBlocks + batch - 1) / std::max<int64_t>(1, batch);
  spec.block_rows = grid_step(m, 256, std::max<int64_t>(1, parts));
  const int64_t bands = std::max<int64_t>(1, (m + spec.block_rows - 1) / spec.block_rows);
  spec.block_cols = grid_step(n, INT64_MAX, std::max<int64_t>(1, (parts + bands - 1) / bands));
  // The launch: the grid of blocks (batch..., rows, columns, 1). C is (batch..., M, N) with
  // a unit K axis; A (batch..., M, K) gains an N axis; B (batch..., K, N) is transposed to
  // (batch..., N, K) and gains an M axis; each follows the grid scaled by the block, whole in K.
  Shape grid(cshape.begin(), cshape.end() - 2);
  grid.push_back((m + spec.block_rows - 1) / spec.block_rows);
  grid.push_back((n + spec.block_cols - 1) / spec.block_cols);
  grid.push_back(1);
  Shape factors(static_cast<size_t>(nd + 1), 1);
  factors[nd - 2] = spec.block_rows;
  factors[nd - 1] = spec.block_cols;
  std::vector<int> swap(static_cast<size_t>(nd));
  for (int d = 0; d < nd; ++d) swap[d] = d;
  std::swap(swap[nd - 2], swap[nd - 1]);
  // Matrix-vector products of float32 and float64 sum in matvec_kernels.h's order, the
  // same whichever way the matrix is read (a symmetric matrix may be read half).
  spec.matvec = n == 1 && m >= 2 && k >= 1 && matvec_dtype(c.dtype());
  // An iterative solver multiplies the same large matrix by a vector again and again. Each
  // product reads it whole from memory, except for what the last one left in the caches: its
  // last rows. Every other product reads the rows backwards, starting with those. Each block is
  // still one call, so the values are the same in either direction.
  spec.backwards = false;
  if (n == 1 && batch == 1 && m * k * itemsize(c.dtype()) > kLargeMatrixBytes)
    spec.backwards = g_large_matvecs.fetch_add(1, std::memory_order_relaxed) % 2 == 1;
  const int64_t weight = spec.block_rows * spec.block_cols * std::max<int64_t>(1, k);
  launch(task,
         {space(grid), viewed(out(c), ArgView(cshape).promote(nd, 1)),
          viewed(in(a), ArgView(a.shape()).promote(nd - 1, n)),
          viewed(in(b), ArgView(b.shape()).transpose(swap).promote(nd - 2, m))},
         {}, {scale(1, 0, factors), scale(2, 0, factors), scale(3, 0, factors), broadcast(2, {nd}), broadcast(3, {nd})},
         {.name = "matmul", .weight = weight, .payload = Payload::of(spec)});
}

bool matmul_usable_operand(const ndarray& s) {
  if (!is_blas_dtype(s.dtype()) || s.size() == 0) return true;  // an empty operand is never read
  const int nd = s.ndim();
  const Shape st = element_strides(s);
  return blas_layout(s.shape()[nd - 2], s.shape()[nd - 1], st[nd - 2], st[nd - 1]).has_value();
}

bool matmul_usable_output(const ndarray& s) {
  if (!is_blas_dtype(s.dtype())) return true;
  const int nd = s.ndim();
  const Shape st = element_strides(s);
  const int64_t m = s.shape()[nd - 2], n = s.shape()[nd - 1], rs = st[nd - 2], cs = st[nd - 1];
  // gemv writes a row or a column with a positive increment; gemm needs rows ldc >= n apart.
  if (n == 1) return m == 1 || rs >= 1;
  if (m == 1) return cs >= 1;
  return cs == 1 && rs >= n;
}

}  // namespace tessera::detail
