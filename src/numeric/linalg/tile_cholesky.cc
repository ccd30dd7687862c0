// Cholesky by tiles: for each step k, potrf on tile (k, k); the tiles below it solved
// against it (trsm); then every tile column j > k of the trailing matrix updated by the
// panel (herk on its diagonal tile, one gemm on the tiles below). Upper factors are lower
// ones of the transposed view: the same tasks on column-major tiles.
#include <complex>

#include "numeric/linalg/tile_factorizations.h"
#include "numeric/linalg/tile_op.h"
#include "tessera/elementwise.h"
#include "tessera/errors.h"
#include "tessera/reduce.h"
#include "tessera/shape.h"

namespace tessera::detail {
namespace {

// Array 0: a tile to zero.
void zero_body(TaskContext& ctx) {
  with_factor_type(ctx.array(0).dtype(), [&](auto tag) { tile::zero(block_of<decltype(tag)>(ctx.array(0))); });
}

// Array 0: the diagonal tile, factored in place; array 1: its LAPACK info.
void potrf_body(TaskContext& ctx) {
  with_factor_type(ctx.array(0).dtype(),
                   [&](auto tag) { *ints(ctx.array(1)) = tile::potrf_lower(block_of<decltype(tag)>(ctx.array(0))); });
}

// Array 0: a tile below the diagonal, solved against array 1, the factored diagonal tile.
void trsm_body(TaskContext& ctx) {
  with_factor_type(ctx.array(0).dtype(), [&](auto tag) {
    using T = decltype(tag);
    tile::trsm_right_lower_conj(block_of<T>(ctx.array(1)), block_of<T>(ctx.array(0)));
  });
}

// Array 0: tile column j from its diagonal down; array 1: the panel's rows beside it. The
// column less the panel's rows times its row j.
void update_body(TaskContext& ctx) {
  with_factor_type(ctx.array(0).dtype(), [&](auto tag) {
    using T = decltype(tag);
    const Tile &c = ctx.array(0), &p = ctx.array(1);
    const int64_t h = c.extents()[0], w = c.extents()[1], kw = p.extents()[1];
    const tile::Block<T> row = block_of<T>(p, 0, w, 0, kw);
    tile::herk_lower_minus(row, block_of<T>(c, 0, w, 0, w));
    if (w < h) tile::gemm_minus_conj(block_of<T>(p, w, h, 0, kw), row, block_of<T>(c, w, h, 0, w));
  });
}

void launch_cholesky(const ndarray& v, const ndarray& info) {
  static const Task zero_task("linalg.tile_zero", &zero_body);
  static const Task potrf_task("linalg.cholesky_potrf", &potrf_body);
  static const Task trsm_task("linalg.cholesky_trsm", &trsm_body);
  static const Task update_task("linalg.cholesky_update", &update_body);
  const int64_t n = v.shape()[0], nt = tile_count(n);
  // The tiles right of the diagonal, which no step touches, are zero.
  std::vector<std::vector<Rect>> right;
  for (int64_t k = 0; k + 1 < nt; ++k) right.push_back({box(tile_lo(k), tile_hi(k, n), tile_hi(k, n), n)});
  launch_tiles(zero_task, "cholesky (triangle)", {out(v)}, std::move(right));
  for (int64_t k = 0; k < nt; ++k) {
    const int64_t k0 = tile_lo(k), k1 = tile_hi(k, n);
    launch_tiles(potrf_task, "cholesky (potrf)", {inout(v), out(info)}, {{box(k0, k1, k0, k1), range(k, k + 1)}});
    if (k + 1 == nt) break;
    std::vector<std::vector<Rect>> solve;
    for (int64_t i = k + 1; i < nt; ++i) solve.push_back({box(tile_lo(i), tile_hi(i, n), k0, k1), box(k0, k1, k0, k1)});
    launch_tiles(trsm_task, "cholesky (trsm)", {inout(v), in(v)}, std::move(solve));
    // Tile column j from its diagonal down, less the panel's rows times its row j. Column
    // k + 1, which the next step's potrf waits for, is the last point: workers take the
    // newest ready task first.
    std::vector<std::vector<Rect>> update;
    for (int64_t j = k + 2; j <= nt; ++j) {
      const int64_t c = j == nt ? k + 1 : j;
      update.push_back({box(tile_lo(c), n, tile_lo(c), tile_hi(c, n)), box(tile_lo(c), n, k0, k1)});
    }
    launch_tiles(update_task, "cholesky (update)", {inout(v), in(v)}, std::move(update));
  }
}

}  // namespace

bool cholesky_by_tiles(const ndarray& w, bool upper) {
  TESSERA_CHECK(w.ndim() == 2 && c_ordered(w), "tiled cholesky needs a C-ordered matrix");
  const int64_t nt = tile_count(w.shape()[0]);
  // The upper factor U (w = U^H U, from w's upper triangle) is, read through the transposed
  // view v = w^T, the lower factor L of v (v = L L^H from v's lower triangle, U = L^T).
  const ndarray v = upper ? transpose(w) : w;
  ndarray info = new_array({nt}, DType::Int32);
  launch_cholesky(v, info);
  return !any(binary("not_equal", info, 0)).item().as_bool();
}

}  // namespace tessera::detail
