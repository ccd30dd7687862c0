// Cholesky by tiles: for each step k, potrf on tile (k, k); the tiles below it solved
// against it (trsm); then every tile column j > k of the trailing matrix updated by the
// panel (herk on its diagonal tile, one gemm on the tiles below). Upper factors are lower
// ones of the transposed view: the same tasks on column-major tiles.
#include <complex>
#include <memory>

#include "numeric/linalg/tile_factorizations.h"
#include "numeric/linalg/tile_op.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"
#include "tessera/elementwise.h"
#include "tessera/reduce.h"

namespace tessera::detail {
namespace {

using Box = std::vector<Rect>;

template <class T>
void issue_cholesky(const StorePtr& v, const StorePtr& info) {
  const int64_t n = v->shape()[0], nt = tile_count(n);
  Runtime& rt = Runtime::get();
  // The tiles right of the diagonal, which no step touches, are zero.
  std::vector<Box> right;
  for (int64_t k = 0; k + 1 < nt; ++k) right.push_back({TileOp::box(tile_lo(k), tile_hi(k, n), tile_hi(k, n), n)});
  rt.submit(std::make_shared<TileOp>("cholesky (triangle)", std::vector<TileArg>{{v, false, true}}, std::move(right),
                                     [v, n](int k) {
                                       tile::zero(block_of<T>(*v, tile_lo(k), tile_hi(k, n), tile_hi(k, n), n));
                                     }));
  for (int64_t k = 0; k < nt; ++k) {
    const int64_t k0 = tile_lo(k), k1 = tile_hi(k, n);
    rt.submit(std::make_shared<TileOp>(
        "cholesky (potrf)", std::vector<TileArg>{{v, true, true}, {info, false, true}},
        std::vector<Box>{{TileOp::box(k0, k1, k0, k1), Rect({k}, {k + 1})}},
        [v, info, k, k0, k1](int) { *int_at(*info, k) = tile::potrf_lower(block_of<T>(*v, k0, k1, k0, k1)); }));
    if (k + 1 == nt) break;
    std::vector<Box> solve;
    for (int64_t i = k + 1; i < nt; ++i)
      solve.push_back({TileOp::box(tile_lo(i), tile_hi(i, n), k0, k1), TileOp::box(k0, k1, k0, k1)});
    rt.submit(std::make_shared<TileOp>(
        "cholesky (trsm)", std::vector<TileArg>{{v, true, true}, {v, true, false}}, std::move(solve),
        [v, k, k0, k1, n](int p) {
          const int64_t i = k + 1 + p;
          const tile::Block<T> below = block_of<T>(*v, tile_lo(i), tile_hi(i, n), k0, k1);
          tile::trsm_right_lower_conj(block_of<T>(*v, k0, k1, k0, k1), below);
        }));
    // Tile column j from its diagonal down, less the panel's rows times its row j. Column
    // k + 1, which the next step's potrf waits for, is the last point: workers take the
    // newest ready task first.
    std::vector<Box> update;
    std::vector<int64_t> column;
    for (int64_t j = k + 2; j <= nt; ++j) {
      const int64_t c = j == nt ? k + 1 : j;
      column.push_back(c);
      update.push_back({TileOp::box(tile_lo(c), n, tile_lo(c), tile_hi(c, n)), TileOp::box(tile_lo(c), n, k0, k1)});
    }
    rt.submit(std::make_shared<TileOp>(
        "cholesky (update)", std::vector<TileArg>{{v, true, true}, {v, true, false}}, std::move(update),
        [v, column, k0, k1, n](int p) {
          const int64_t j = column[static_cast<size_t>(p)], j0 = tile_lo(j), j1 = tile_hi(j, n);
          const tile::Block<T> row = block_of<T>(*v, j0, j1, k0, k1);
          tile::herk_lower_minus(row, block_of<T>(*v, j0, j1, j0, j1));
          if (j1 < n) tile::gemm_minus_conj(block_of<T>(*v, j1, n, k0, k1), row, block_of<T>(*v, j1, n, j0, j1));
        }));
  }
}

}  // namespace

bool cholesky_by_tiles(const StorePtr& w, bool upper) {
  TESSERA_CHECK(w->ndim() == 2 && w->is_c_contiguous(), "tiled cholesky needs a C-ordered matrix");
  const int64_t nt = tile_count(w->shape()[0]);
  // The upper factor U (w = U^H U, from w's upper triangle) is, read through the transposed
  // view v = w^T, the lower factor L of v (v = L L^H from v's lower triangle, U = L^T).
  const StorePtr v = upper ? w->transpose({1, 0}) : w;
  StorePtr info = new_store(DType::Int32, {nt}, Runtime::provenance());
  if (w->dtype() == DType::Complex128) issue_cholesky<std::complex<double>>(v, info);
  else issue_cholesky<double>(v, info);
  return !any(binary("not_equal", ndarray(info), 0)).item().as_bool();
}

}  // namespace tessera::detail
