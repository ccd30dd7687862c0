// CSR operations cut by row blocks (their kernels, what a point computes on its memory, are
// in cpu/csr_kernels.h). Every one states the same constraints: the
// output's rows are the key; indptr, seen with the output's shape plus one row, is bloated by
// one (rows [lo, hi) read offsets [lo, hi + 1)); indices and data follow the image of those
// offsets (sorted: the block's first and last offsets bound it); a gathered source follows
// the image of its indices, and SpMV's x is read whole or, given the matrix's per-block column
// ranges, follows their image. Each row is computed
// by one point in order of its stored values, so no result depends on the tiling.
#include "tessera/sparse.h"

#include <algorithm>
#include <complex>
#include <type_traits>
#include <vector>

#include "numeric/sparse/cpu/csr_kernels.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"
#include "tessera/creation.h"
#include "tessera/elementwise.h"
#include "tessera/errors.h"
#include "tessera/index.h"
#include "tessera/reduce.h"
#include "tessera/shape.h"

namespace tessera {
namespace detail {
namespace {

// Arguments 1..3 of a row-block kernel: indptr (bloated by one over argument 0's rows, seen
// with argument 0's shape along its other axes), then indices and data (the image of indptr).
void add_csr(Operation& op, const StorePtr& indptr, const StorePtr& indices, const StorePtr& data) {
  // A copy: with a view, the shape lives in args[0], which op.add below may move.
  const Shape out = op.args[0].shape();
  ArgView view({indptr->shape()[0]});
  for (size_t d = 1; d < out.size(); ++d) view.promote(static_cast<int>(d), out[d]);
  const int p = op.add(indptr, true, false, view);
  Shape low(out.size(), 0), high(out.size(), 0);
  high[0] = 1;
  op.constraints.push_back(bloat(p, 0, low, high));
  const int i = op.add(indices, true, false);
  op.constraints.push_back(image(i, p, false, true));
  const int v = op.add_aligned(i, data, true, false);
  (void)v;
  if (out.size() > 1) op.constraints.push_back(broadcast(0, {1}));
}

int64_t per_row(const Store& indices, int64_t rows) { return std::max<int64_t>(1, indices.size() / std::max<int64_t>(1, rows)); }

// y = A @ x: arg 0 y (rows, or rows × k), 1 indptr, 2 indices, 3 data, 4 x (the image of
// the columns, whole along its second axis). Values and x share y's dtype.
class CsrMatvecOp final : public Operation {
 public:
  // Without `ranges` x is read whole. With them (a 1-D x; csr_column_ranges of the matrix
  // for blocks of `block` rows), the launch is cut by blocks of rows: y's rows are the
  // blocks' rows (seen as rows × 1, `scale`d by the block), and x follows the image of the
  // blocks' [start, stop) column ranges, so the analysis reads two values per block, never
  // the column indices themselves.
  CsrMatvecOp(StorePtr y, StorePtr indptr, StorePtr indices, StorePtr data, StorePtr x, StorePtr ranges = nullptr,
              int64_t block = 0) {
    name = "csr_matvec";
    const int64_t rows = y->shape()[0];
    if (ranges) {
      ArgView rows_view({rows});
      rows_view.promote(1, 1);
      add(std::move(y), false, true, rows_view);
    } else {
      add(std::move(y), false, true);
    }
    add_csr(*this, indptr, indices, data);
    const int xi = add(std::move(x), true, false);
    weight = per_row(*args[2].store, rows);
    if (!ranges) {
      constraints.push_back(broadcast(xi));
      return;
    }
    const int r = add(std::move(ranges), true, false);
    constraints.push_back(broadcast(r, {1}));
    constraints.push_back(scale(0, r, {block, 1}));
    constraints.push_back(image(xi, r, true));
    weight *= block;
  }
  void execute(const Point& point) override {
    if (point.rects[0].empty()) return;
    csr_matvec_rows(*args[0].store, {*args[1].store, *args[2].store, *args[3].store}, *args[4].store, point.rects[0].lo[0], point.rects[0].hi[0]);
  }
};

// The [start, stop) range of the column indices of each block of `block` rows ((0, 0) for
// a block with no stored value): arg 0 out (blocks × 2, whole pairs), 1 indptr and 2 indices
// (whole: computed once per matrix).
class CsrColumnRangesOp final : public Operation {
 public:
  CsrColumnRangesOp(StorePtr out, StorePtr indptr, StorePtr indices, int64_t block) : block_(block) {
    name = "csr_column_ranges";
    const int64_t rows = indptr->shape()[0] - 1;
    add(std::move(out), false, true);
    constraints.push_back(broadcast(0, {1}));
    constraints.push_back(broadcast(add(std::move(indptr), true, false)));
    constraints.push_back(broadcast(add(std::move(indices), true, false)));
    weight = per_row(*args[2].store, rows) * block;
  }
  void execute(const Point& point) override {
    csr_column_ranges_blocks(*args[0].store, *args[1].store, *args[2].store, block_, point.rects[0].lo[0], point.rects[0].hi[0]);
  }

 private:
  int64_t block_;
};

// The dense rows of A: arg 0 out (rows × ncols, whole rows), 1 indptr, 2 indices, 3 data.
class CsrTodenseOp final : public Operation {
 public:
  CsrTodenseOp(StorePtr out, StorePtr indptr, StorePtr indices, StorePtr data) {
    name = "csr_todense";
    add(std::move(out), false, true);
    add_csr(*this, indptr, indices, data);
  }
  void execute(const Point& point) override {
    csr_todense_rows(*args[0].store, {*args[1].store, *args[2].store, *args[3].store}, point.rects[0].lo[0], point.rects[0].hi[0]);
  }
};

// out[r] = sum of data[indptr[r]:indptr[r + 1]]: arg 0 out, 1 indptr (bloated), 2 data.
class SegmentSumOp final : public Operation {
 public:
  SegmentSumOp(StorePtr out, StorePtr indptr, StorePtr data) {
    name = "segment_sum";
    add(std::move(out), false, true);
    const int p = add(std::move(indptr), true, false);
    constraints.push_back(bloat(p, 0, {0}, {1}));
    const int v = add(std::move(data), true, false);
    constraints.push_back(image(v, p, false, true));
    weight = per_row(*args[2].store, args[0].store->shape()[0]);
  }
  void execute(const Point& point) override {
    segment_sum_rows(*args[0].store, *args[1].store, *args[2].store, point.rects[0].lo[0], point.rects[0].hi[0]);
  }
};

// out[i] = src[idx[i]]: arg 0 out, 1 idx (aligned), 2 src (the image of idx).
class TakeOp final : public Operation {
 public:
  TakeOp(StorePtr out, StorePtr idx, StorePtr src) {
    name = "take";
    add(std::move(out), false, true);
    add_aligned(0, std::move(idx), true, false);
    const int s = add(std::move(src), true, false);
    constraints.push_back(image(s, 1));
  }
  void execute(const Point& point) override {
    take_range(*args[0].store, *args[1].store, *args[2].store, point.rects[0].lo[0], point.rects[0].hi[0]);
  }
};

// The first pass of C = A @ B (count) or the second (fill): arg 0 counts (rows) or the
// space of C's rows (rows × 2, whole along the pairs), 1-3 A, 4-6 B (whole), then for the
// fill C's [start, stop) row pairs (arg 7, aligned with the space) and C's indices and data
// (the image of those pairs).
class CsrMatmatOp final : public Operation {
 public:
  CsrMatmatOp(StorePtr first, const std::vector<StorePtr>& a, const std::vector<StorePtr>& b, int64_t ncols,
              StorePtr c_pairs, StorePtr c_indices, StorePtr c_data)
      : ncols_(ncols) {
    fill_ = static_cast<bool>(c_pairs);
    name = fill_ ? "csr_matmat (fill)" : "csr_matmat (count)";
    if (fill_) add_space({first->shape()[0], 2});  // C's rows, seen with the pairs' shape
    else add(std::move(first), false, true);
    add_csr(*this, a[0], a[1], a[2]);
    for (const StorePtr& s : b) {
      const int i = add(s, true, false);
      constraints.push_back(broadcast(i));
    }
    if (fill_) {
      const int p = add_aligned(0, std::move(c_pairs), true, false);
      const int ci = add(std::move(c_indices), false, true);
      constraints.push_back(image(ci, p, true));
      add_aligned(ci, std::move(c_data), false, true);
      // With several ranks an image is only known from values every rank holds, and a
      // written image that is not known would be whole on every point: one point fills C.
      if (Runtime::get().ranks() > 1) constraints.push_back(broadcast(0));
    }
    weight = per_row(*a[1], a[0]->shape()[0] - 1);
  }
  void execute(const Point& point) override {
    const CsrArrays a{*args[1].store, *args[2].store, *args[3].store}, b{*args[4].store, *args[5].store, *args[6].store};
    const int64_t lo = point.rects[0].lo[0], hi = point.rects[0].hi[0];
    if (fill_) csr_matmat_fill_rows(*args[7].store, *args[8].store, *args[9].store, a, b, ncols_, lo, hi);
    else csr_matmat_count_rows(*args[0].store, a, b, ncols_, lo, hi);
  }

 private:
  int64_t ncols_;
  bool fill_ = false;
};

// indptr and indices of one integer type (int32 or int64) and data of `t`.
struct Csr {
  StorePtr indptr, indices, data;
};

Csr prepare(const ndarray& indptr, const ndarray& indices, const ndarray& data, DType t) {
  if (indptr.ndim() != 1 || indices.ndim() != 1 || data.ndim() != 1)
    throw ValueError("indptr, indices and data must be 1-D");
  if (indices.size() != data.size()) throw ValueError("indices and data must have the same size");
  const DType it = indptr.dtype() == DType::Int32 && indices.dtype() == DType::Int32 ? DType::Int32 : DType::Int64;
  auto as = [](const ndarray& a, DType d) { return (a.dtype() == d ? a : astype(a, d)).store(); };
  return {as(indptr, it), as(indices, it), as(data, t)};
}

}  // namespace
}  // namespace detail

using detail::Runtime;

ndarray csr_column_ranges(const ndarray& indptr, const ndarray& indices, int64_t block) {
  if (indptr.ndim() != 1 || indices.ndim() != 1 || indptr.size() < 1) throw ValueError("indptr and indices must be 1-D");
  if (block < 1) throw ValueError("block must be positive");
  const detail::Csr a = detail::prepare(indptr, indices, indices, indices.dtype());
  const int64_t rows = indptr.size() - 1, blocks = (rows + block - 1) / block;
  if (blocks == 0) return zeros({0, 2}, DType::Int64);
  ndarray out(detail::new_store(DType::Int64, {blocks, 2}, Runtime::provenance()));
  Runtime::get().submit(std::make_shared<detail::CsrColumnRangesOp>(out.store(), a.indptr, a.indices, block));
  // Every rank holds the ranges whole (they are small), so each can derive the products'
  // images from them.
  return Runtime::get().ranks() > 1 ? copy(out) : out;
}

ndarray csr_matvec(const ndarray& indptr, const ndarray& indices, const ndarray& data, const ndarray& x) {
  return csr_matvec(indptr, indices, data, x, ndarray(), 0);
}

ndarray csr_matvec(const ndarray& indptr, const ndarray& indices, const ndarray& data, const ndarray& x,
                   const ndarray& ranges, int64_t block) {
  if (x.ndim() != 1 && x.ndim() != 2) throw ValueError("x must be 1-D or 2-D");
  const DType t = promote_types(data.dtype(), x.dtype());
  const detail::Csr a = detail::prepare(indptr, indices, data, t);
  const int64_t rows = indptr.size() - 1;
  Shape shape{rows};
  if (x.ndim() == 2) shape.push_back(x.shape()[1]);
  ndarray y(detail::new_store(t, shape, Runtime::provenance()));
  if (y.size() == 0) return y;
  if (a.data->size() == 0 || x.shape()[0] == 0) return zeros(shape, t);
  const ndarray xs = x.dtype() == t ? x : astype(x, t);
  const int64_t blocks = block > 0 ? (rows + block - 1) / block : 0;
  const bool by_blocks = x.ndim() == 1 && ranges.store() && ranges.ndim() == 2 && ranges.shape()[0] == blocks &&
                         ranges.shape()[1] == 2 && ranges.dtype() == DType::Int64;
  Runtime::get().submit(std::make_shared<detail::CsrMatvecOp>(y.store(), a.indptr, a.indices, a.data, xs.store(),
                                                              by_blocks ? ranges.store() : nullptr, block));
  return y;
}

ndarray csr_todense(const ndarray& indptr, const ndarray& indices, const ndarray& data, int64_t ncols) {
  const detail::Csr a = detail::prepare(indptr, indices, data, data.dtype());
  const Shape shape{indptr.size() - 1, ncols};
  if (a.data->size() == 0 || detail::volume(shape) == 0) return zeros(shape, data.dtype());
  ndarray out(detail::new_store(data.dtype(), shape, Runtime::provenance()));
  Runtime::get().submit(std::make_shared<detail::CsrTodenseOp>(out.store(), a.indptr, a.indices, a.data));
  return out;
}

ndarray segment_sum(const ndarray& indptr, const ndarray& data) {
  const Shape shape{indptr.size() - 1};
  if (data.size() == 0 || shape[0] == 0) return zeros(shape, data.dtype());
  const ndarray p = indptr.dtype() == DType::Int32 || indptr.dtype() == DType::Int64 ? indptr : astype(indptr, DType::Int64);
  ndarray out(detail::new_store(data.dtype(), shape, Runtime::provenance()));
  Runtime::get().submit(std::make_shared<detail::SegmentSumOp>(out.store(), p.store(), data.store()));
  return out;
}

ndarray take1d(const ndarray& src, const ndarray& idx) {
  if (src.ndim() != 1 || idx.ndim() != 1) throw ValueError("take1d needs 1-D arrays");
  ndarray out(detail::new_store(src.dtype(), idx.shape(), Runtime::provenance()));
  if (idx.size() == 0) return out;
  if (src.size() == 0) throw IndexError("cannot take from an empty array");
  const ndarray i = idx.dtype() == DType::Int32 || idx.dtype() == DType::Int64 ? idx : astype(idx, DType::Int64);
  Runtime::get().submit(std::make_shared<detail::TakeOp>(out.store(), i.store(), src.store()));
  return out;
}

std::vector<ndarray> csr_matmat(const ndarray& a_indptr, const ndarray& a_indices, const ndarray& a_data,
                                const ndarray& b_indptr, const ndarray& b_indices, const ndarray& b_data,
                                int64_t ncols) {
  const DType t = promote_types(a_data.dtype(), b_data.dtype());
  detail::Csr a = detail::prepare(a_indptr, a_indices, a_data, t);
  detail::Csr b = detail::prepare(b_indptr, b_indices, b_data, t);
  if (a.indices->dtype() != b.indices->dtype()) {
    a = detail::prepare(astype(a_indptr, DType::Int64), astype(a_indices, DType::Int64), a_data, t);
    b = detail::prepare(astype(b_indptr, DType::Int64), astype(b_indices, DType::Int64), b_data, t);
  }
  const int64_t rows = a_indptr.size() - 1;
  const std::string where = Runtime::provenance();
  ndarray indptr = zeros({rows + 1}, DType::Int64);
  if (rows == 0 || ncols == 0 || a.data->size() == 0 || b.data->size() == 0)
    return {indptr, zeros({0}, DType::Int64), zeros({0}, t)};
  ndarray counts(detail::new_store(DType::Int64, {rows}, where));
  Runtime& rt = Runtime::get();
  const std::vector<detail::StorePtr> as{a.indptr, a.indices, a.data}, bs{b.indptr, b.indices, b.data};
  rt.submit(std::make_shared<detail::CsrMatmatOp>(counts.store(), as, bs, ncols, nullptr, nullptr, nullptr));
  indptr = concatenate({zeros({1}, DType::Int64), cumsum(counts)}, 0);
  const int64_t nnz = indptr.item(rows).as_int();
  ndarray indices(detail::new_store(DType::Int64, {nnz}, where));
  ndarray data(detail::new_store(t, {nnz}, where));
  if (nnz == 0) return {indptr, indices, data};
  const ndarray pairs = stack({view(indptr, {Slice{0, rows, std::nullopt}}), view(indptr, {Slice{1, rows + 1, std::nullopt}})}, 1);
  rt.submit(std::make_shared<detail::CsrMatmatOp>(counts.store(), as, bs, ncols, pairs.store(), indices.store(),
                                                   data.store()));
  return {indptr, indices, data};
}

}  // namespace tessera
