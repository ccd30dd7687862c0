// Solve by tiles: LU with partial pivoting of a's rows, by panels one tile wide. For each
// step k, getrf on the panel (the tile column k from its diagonal down, one task: the
// pivot search runs down the whole column); then every tile column j > k right of it
// takes the panel's row swaps, its U tile (trsm with the panel's unit lower tile) and the
// update of the rows below (one gemm). The swaps of later panels reach the columns of L
// left of them at the end, and the right-hand sides are solved by blocks of columns.
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

Rect range(int64_t lo, int64_t hi) { return Rect({lo}, {hi}); }

// `a` is the matrix column-major (a view of the C-ordered a^T); pivots[i] is the row of its
// panel (1-based, LAPACK's) swapped with row i; info[k] is getrf's for panel k.
template <class T>
void issue_lu(const StorePtr& a, const StorePtr& pivots, const StorePtr& info) {
  const int64_t n = a->shape()[0], nt = tile_count(n);
  Runtime& rt = Runtime::get();
  for (int64_t k = 0; k < nt; ++k) {
    const int64_t k0 = tile_lo(k), k1 = tile_hi(k, n);
    rt.submit(std::make_shared<TileOp>(
        "solve (panel)", std::vector<TileArg>{{a, true, true}, {pivots, false, true}, {info, false, true}},
        std::vector<Box>{{TileOp::box(k0, n, k0, k1), range(k0, k1), range(k, k + 1)}},
        [a, pivots, info, k, k0, k1, n](int) {
          *int_at(*info, k) = tile::getrf(block_of<T>(*a, k0, n, k0, k1), int_at(*pivots, k0));
        }));
    if (k + 1 == nt) break;
    // Column k + 1, which the next panel waits for, is the last point: workers take the
    // newest ready task first.
    std::vector<Box> update;
    std::vector<int64_t> column;
    for (int64_t j = k + 2; j <= nt; ++j) {
      const int64_t c = j == nt ? k + 1 : j;
      column.push_back(c);
      update.push_back({TileOp::box(k0, n, tile_lo(c), tile_hi(c, n)), TileOp::box(k0, n, k0, k1), range(k0, k1)});
    }
    rt.submit(std::make_shared<TileOp>(
        "solve (update)", std::vector<TileArg>{{a, true, true}, {a, true, false}, {pivots, true, false}},
        std::move(update), [a, pivots, column, k0, k1, n](int p) {
          const int64_t j = column[static_cast<size_t>(p)], j0 = tile_lo(j), j1 = tile_hi(j, n);
          tile::laswp(block_of<T>(*a, k0, n, j0, j1), int_at(*pivots, k0), static_cast<int>(k1 - k0));
          const tile::Block<T> u = block_of<T>(*a, k0, k1, j0, j1);
          tile::trsm_left_unit_lower(block_of<T>(*a, k0, k1, k0, k1), u);
          if (k1 < n) tile::gemm_minus(block_of<T>(*a, k1, n, k0, k1), u, block_of<T>(*a, k1, n, j0, j1));
        }));
  }
  // The swaps of the panels right of each tile column of L, in order.
  std::vector<Box> left;
  for (int64_t j = 0; j + 1 < nt; ++j) {
    const int64_t j1 = tile_hi(j, n);
    left.push_back({TileOp::box(j1, n, tile_lo(j), j1), range(j1, n)});
  }
  rt.submit(std::make_shared<TileOp>("solve (swaps)", std::vector<TileArg>{{a, true, true}, {pivots, true, false}},
                                     std::move(left), [a, pivots, nt, n](int j) {
                                       for (int64_t k = j + 1; k < nt; ++k) {
                                         const int64_t k0 = tile_lo(k), k1 = tile_hi(k, n);
                                         tile::laswp(block_of<T>(*a, k0, n, tile_lo(j), tile_hi(j, n)),
                                                     int_at(*pivots, k0), static_cast<int>(k1 - k0));
                                       }
                                     }));
}

// at := a^T, by tile columns of a (rows of at): the first panel waits only for its own.
template <class T>
void issue_transpose(const StorePtr& a, const StorePtr& at) {
  const int64_t n = a->shape()[0], nt = tile_count(n);
  std::vector<Box> columns;
  for (int64_t j = 0; j < nt; ++j)
    columns.push_back({TileOp::box(tile_lo(j), tile_hi(j, n), 0, n), TileOp::box(0, n, tile_lo(j), tile_hi(j, n))});
  Runtime::get().submit(std::make_shared<TileOp>(
      "solve (transpose)", std::vector<TileArg>{{at, false, true}, {a, true, false}}, std::move(columns),
      [a, at, n](int j) {
        const int64_t j0 = tile_lo(j), j1 = tile_hi(j, n);
        tile::transpose(block_of<T>(*a, 0, n, j0, j1), block_of<T>(*at, j0, j1, 0, n));
      }));
}

// x := a^-1 x for the factors of issue_lu, by blocks of columns of x (row-major).
template <class T>
void issue_lu_solve(const StorePtr& a, const StorePtr& pivots, const StorePtr& x) {
  const int64_t n = a->shape()[0], k = x->shape()[1];
  std::vector<Box> blocks;
  for (int64_t c0 = 0; c0 < k; c0 += kFactorTile)
    blocks.push_back({TileOp::box(0, n, c0, std::min(k, c0 + kFactorTile)), TileOp::box(0, n, 0, n), range(0, n)});
  Runtime::get().submit(std::make_shared<TileOp>(
      "solve (triangular)", std::vector<TileArg>{{x, true, true}, {a, true, false}, {pivots, true, false}},
      std::move(blocks), [a, pivots, x, n, k](int p) {
        const int64_t c0 = p * kFactorTile, c1 = std::min(k, c0 + kFactorTile);
        const int64_t ld = std::max<int64_t>(1, x->strides()[0]);
        T* base = reinterpret_cast<T*>(x->base_ptr()) + c0;
        for (int64_t i = 0; i < n; ++i) {
          const int64_t r = tile_lo(i / kFactorTile) + *int_at(*pivots, i) - 1;
          if (r != i) std::swap_ranges(base + i * ld, base + i * ld + (c1 - c0), base + r * ld);
        }
        const tile::Block<T> rhs{base, static_cast<int>(n), static_cast<int>(c1 - c0), static_cast<int>(ld), true};
        tile::lu_solve(block_of<T>(*a, 0, n, 0, n), rhs);
      }));
}

}  // namespace

bool solve_by_tiles(const StorePtr& a, const StorePtr& x) {
  TESSERA_CHECK(a->ndim() == 2 && (a->strides()[0] == 1 || a->strides()[1] == 1) && x->ndim() == 2 &&
                    x->is_c_contiguous() && x->dtype() == a->dtype(),
                "tiled solve needs a row- or column-major matrix and C-ordered right-hand sides of its dtype");
  const int64_t n = a->shape()[0];
  // The factors, column-major: the C-ordered a^T seen transposed.
  StorePtr at = new_store(a->dtype(), {n, n}, Runtime::provenance());
  const StorePtr f = at->transpose({1, 0});
  StorePtr pivots = new_store(DType::Int32, {n}, Runtime::provenance());
  StorePtr info = new_store(DType::Int32, {tile_count(n)}, Runtime::provenance());
  if (a->dtype() == DType::Complex128) {
    issue_transpose<std::complex<double>>(a, at);
    issue_lu<std::complex<double>>(f, pivots, info);
    issue_lu_solve<std::complex<double>>(f, pivots, x);
  } else {
    issue_transpose<double>(a, at);
    issue_lu<double>(f, pivots, info);
    issue_lu_solve<double>(f, pivots, x);
  }
  return !any(binary("not_equal", ndarray(info), 0)).item().as_bool();
}

}  // namespace tessera::detail
