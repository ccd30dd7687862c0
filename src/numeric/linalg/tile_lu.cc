// Solve by tiles: LU with partial pivoting of a's rows, by panels one tile wide. For each
// step k, getrf on the panel (the tile column k from its diagonal down, one task: the
// pivot search runs down the whole column); then every tile column j > k right of it
// takes the panel's row swaps, its U tile (trsm with the panel's unit lower tile) and the
// update of the rows below (one gemm). The swaps of later panels reach the columns of L
// left of them at the end, and the right-hand sides are solved by blocks of columns.
#include <algorithm>
#include <complex>

#include "numeric/linalg/tile_factorizations.h"
#include "numeric/linalg/tile_op.h"
#include "tessera/elementwise.h"
#include "tessera/errors.h"
#include "tessera/reduce.h"
#include "tessera/shape.h"

namespace tessera::detail {
namespace {

// The matrix is column-major (a view of the C-ordered a^T); pivots[i] is the row of its
// panel (1-based, LAPACK's) swapped with row i; info[k] is getrf's for panel k.

// Array 0: the panel (tile column k from its diagonal down), factored in place; array 1: its
// pivots; array 2: its info.
void panel_body(TaskContext& ctx) {
  with_factor_type(ctx.array(0).dtype(), [&](auto tag) {
    *ints(ctx.array(2)) = tile::getrf(block_of<decltype(tag)>(ctx.array(0)), ints(ctx.array(1)));
  });
}

// Array 0: tile column j from the panel's first row down; array 1: the factored panel beside
// it; array 2: the panel's pivots.
void lu_update_body(TaskContext& ctx) {
  with_factor_type(ctx.array(0).dtype(), [&](auto tag) {
    using T = decltype(tag);
    const Tile &c = ctx.array(0), &p = ctx.array(1);
    const int64_t h = c.extents()[0], w = c.extents()[1], kw = p.extents()[1];
    tile::laswp(block_of<T>(c), ints(ctx.array(2)), static_cast<int>(kw));
    const tile::Block<T> u = block_of<T>(c, 0, kw, 0, w);
    tile::trsm_left_unit_lower(block_of<T>(p, 0, kw, 0, kw), u);
    if (kw < h) tile::gemm_minus(block_of<T>(p, kw, h, 0, kw), u, block_of<T>(c, kw, h, 0, w));
  });
}

// Array 0: tile column j of L below its diagonal tile; array 1: the pivots of those rows. The
// swaps of every later panel, in order.
void swaps_body(TaskContext& ctx) {
  with_factor_type(ctx.array(0).dtype(), [&](auto tag) {
    using T = decltype(tag);
    const Tile& a = ctx.array(0);
    const int64_t r0 = a.lo()[0], n = a.array_shape()[0], w = a.extents()[1];
    for (int64_t k0 = r0; k0 < n; k0 += kFactorTile) {
      const int64_t k1 = std::min(n, k0 + kFactorTile);
      tile::laswp(block_of<T>(a, k0 - r0, n - r0, 0, w), ints(ctx.array(1)) + (k0 - r0), static_cast<int>(k1 - k0));
    }
  });
}

// Array 0 := the transpose of array 1 (a tile column of a, a tile row of a^T).
void transpose_body(TaskContext& ctx) {
  with_factor_type(ctx.array(0).dtype(), [&](auto tag) {
    using T = decltype(tag);
    tile::transpose(block_of<T>(ctx.array(1)), block_of<T>(ctx.array(0)));
  });
}

// Array 0: a block of columns of the right-hand sides (row-major), solved in place with the
// factors (array 1, whole) and pivots (array 2, whole).
void lu_solve_body(TaskContext& ctx) {
  with_factor_type(ctx.array(0).dtype(), [&](auto tag) {
    using T = decltype(tag);
    const Tile& x = ctx.array(0);
    const int64_t n = x.extents()[0], cols = x.extents()[1];
    const int64_t ld = std::max<int64_t>(1, x.strides()[0]);
    const int32_t* pivots = ints(ctx.array(2));
    T* base = static_cast<T*>(x.data());
    for (int64_t i = 0; i < n; ++i) {
      const int64_t r = tile_lo(i / kFactorTile) + pivots[i] - 1;
      if (r != i) std::swap_ranges(base + i * ld, base + i * ld + cols, base + r * ld);
    }
    const tile::Block<T> rhs{base, static_cast<int>(n), static_cast<int>(cols), static_cast<int>(ld), true};
    tile::lu_solve(block_of<T>(ctx.array(1)), rhs);
  });
}

void launch_lu(const ndarray& a, const ndarray& pivots, const ndarray& info) {
  static const Task panel_task("linalg.lu_panel", &panel_body);
  static const Task update_task("linalg.lu_update", &lu_update_body);
  static const Task swaps_task("linalg.lu_swaps", &swaps_body);
  const int64_t n = a.shape()[0], nt = tile_count(n);
  for (int64_t k = 0; k < nt; ++k) {
    const int64_t k0 = tile_lo(k), k1 = tile_hi(k, n);
    launch_tiles(panel_task, "solve (panel)", {inout(a), out(pivots), out(info)},
                 {{box(k0, n, k0, k1), range(k0, k1), range(k, k + 1)}});
    if (k + 1 == nt) break;
    // Column k + 1, which the next panel waits for, is the last point: workers take the
    // newest ready task first.
    std::vector<std::vector<Rect>> update;
    for (int64_t j = k + 2; j <= nt; ++j) {
      const int64_t c = j == nt ? k + 1 : j;
      update.push_back({box(k0, n, tile_lo(c), tile_hi(c, n)), box(k0, n, k0, k1), range(k0, k1)});
    }
    launch_tiles(update_task, "solve (update)", {inout(a), in(a), in(pivots)}, std::move(update));
  }
  // The swaps of the panels right of each tile column of L, in order.
  std::vector<std::vector<Rect>> left;
  for (int64_t j = 0; j + 1 < nt; ++j) {
    const int64_t j1 = tile_hi(j, n);
    left.push_back({box(j1, n, tile_lo(j), j1), range(j1, n)});
  }
  launch_tiles(swaps_task, "solve (swaps)", {inout(a), in(pivots)}, std::move(left));
}

// at := a^T, by tile columns of a (rows of at): the first panel waits only for its own.
void launch_transpose(const ndarray& a, const ndarray& at) {
  static const Task task("linalg.lu_transpose", &transpose_body);
  const int64_t n = a.shape()[0], nt = tile_count(n);
  std::vector<std::vector<Rect>> columns;
  for (int64_t j = 0; j < nt; ++j)
    columns.push_back({box(tile_lo(j), tile_hi(j, n), 0, n), box(0, n, tile_lo(j), tile_hi(j, n))});
  launch_tiles(task, "solve (transpose)", {out(at), in(a)}, std::move(columns));
}

// x := a^-1 x for the factors of launch_lu, by blocks of columns of x (row-major).
void launch_lu_solve(const ndarray& a, const ndarray& pivots, const ndarray& x) {
  static const Task task("linalg.lu_solve", &lu_solve_body);
  const int64_t n = a.shape()[0], k = x.shape()[1];
  std::vector<std::vector<Rect>> blocks;
  for (int64_t c0 = 0; c0 < k; c0 += kFactorTile)
    blocks.push_back({box(0, n, c0, std::min(k, c0 + kFactorTile)), box(0, n, 0, n), range(0, n)});
  launch_tiles(task, "solve (triangular)", {inout(x), in(a), in(pivots)}, std::move(blocks));
}

}  // namespace

bool solve_by_tiles(const ndarray& a, const ndarray& x) {
  const Shape as = a.strides_bytes();
  TESSERA_CHECK(a.ndim() == 2 && (as[0] == a.itemsize() || as[1] == a.itemsize()) && x.ndim() == 2 && c_ordered(x) &&
                    x.dtype() == a.dtype(),
                "tiled solve needs a row- or column-major matrix and C-ordered right-hand sides of its dtype");
  const int64_t n = a.shape()[0];
  // The factors, column-major: the C-ordered a^T seen transposed.
  ndarray at = new_array({n, n}, a.dtype());
  const ndarray f = transpose(at);
  ndarray pivots = new_array({n}, DType::Int32);
  ndarray info = new_array({tile_count(n)}, DType::Int32);
  launch_transpose(a, at);
  launch_lu(f, pivots, info);
  launch_lu_solve(f, pivots, x);
  return !any(binary("not_equal", info, 0)).item().as_bool();
}

}  // namespace tessera::detail
