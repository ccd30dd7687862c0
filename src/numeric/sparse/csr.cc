// CSR tasks launched over row blocks (their kernels, what a point computes on its memory, are
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
#include "tessera/creation.h"
#include "tessera/elementwise.h"
#include "tessera/errors.h"
#include "tessera/index.h"
#include "tessera/reduce.h"
#include "tessera/runtime.h"
#include "tessera/shape.h"
#include "tessera/task.h"

namespace tessera {
namespace detail {
namespace {

// The arguments and constraints of a launch, built up in order (constraints name arguments
// by position).
struct Args {
  std::vector<Argument> args;
  std::vector<Constraint> constraints;

  int add(Argument a) {
    args.push_back(std::move(a));
    return static_cast<int>(args.size()) - 1;
  }
  int add_aligned(int with, Argument a) {
    const int i = add(std::move(a));
    constraints.push_back(align(i, with));
    return i;
  }
};

// indptr and indices of one integer type (int32 or int64) and data of `t`.
struct Csr {
  ndarray indptr, indices, data;
};

// Arguments 1..3 of a row-block kernel: indptr (bloated by one over argument 0's rows, seen
// with argument 0's view shape `out` along its other axes), then indices and data (the
// image of indptr).
void add_csr(Args& l, const Shape& out, const Csr& a) {
  ArgView view({a.indptr.shape()[0]});
  for (size_t d = 1; d < out.size(); ++d) view.promote(static_cast<int>(d), out[d]);
  const int p = l.add(viewed(in(a.indptr), view));
  Shape low(out.size(), 0), high(out.size(), 0);
  high[0] = 1;
  l.constraints.push_back(bloat(p, 0, low, high));
  const int i = l.add(in(a.indices));
  l.constraints.push_back(image(i, p, false, true));
  l.add_aligned(i, in(a.data));
  if (out.size() > 1) l.constraints.push_back(broadcast(0, {1}));
}

int64_t per_row(const ndarray& indices, int64_t rows) {
  return std::max<int64_t>(1, indices.size() / std::max<int64_t>(1, rows));
}

// Rows [lo, hi) of a point: argument 0's tile along its first axis.
int64_t row_lo(const TaskContext& ctx) { return ctx.array(0).lo()[0]; }
int64_t row_hi(const TaskContext& ctx) { return ctx.array(0).hi()[0]; }

// y = A @ x: arg 0 y (rows, or rows × k), 1 indptr, 2 indices, 3 data, 4 x (the image of
// the columns, whole along its second axis). Values and x share y's dtype.
//
// Without `ranges` x is read whole. With them (a 1-D x; csr_column_ranges of the matrix for
// blocks of `block` rows), the launch is cut by blocks of rows: y's rows are the blocks'
// rows (seen as rows × 1, `scale`d by the block), and x follows the image of the blocks'
// [start, stop) column ranges, so the analysis reads two values per block, never the column
// indices themselves.
void launch_matvec(const ndarray& y, const Csr& a, const ndarray& x, const ndarray* ranges, int64_t block) {
  static const Task matvec("sparse.csr_matvec", [](TaskContext& ctx) {
    if (ctx.array(0).size() == 0) return;
    const Indexed y(ctx.array(0)), p(ctx.array(1)), i(ctx.array(2)), v(ctx.array(3)), x(ctx.array(4));
    csr_matvec_rows(y, {p, i, v}, x, row_lo(ctx), row_hi(ctx));
  });
  const int64_t rows = y.shape()[0];
  Args l;
  if (ranges) {
    ArgView rows_view({rows});
    rows_view.promote(1, 1);
    l.add(viewed(out(y), rows_view));
  } else {
    l.add(out(y));
  }
  add_csr(l, ranges ? Shape{rows, 1} : y.shape(), a);
  const int xi = l.add(in(x));
  int64_t weight = per_row(a.indices, rows);
  if (!ranges) {
    l.constraints.push_back(broadcast(xi));
  } else {
    const int r = l.add(in(*ranges));
    l.constraints.push_back(broadcast(r, {1}));
    l.constraints.push_back(scale(0, r, {block, 1}));
    l.constraints.push_back(image(xi, r, true));
    weight *= block;
  }
  launch(matvec, std::move(l.args), {}, std::move(l.constraints), {.name = "csr_matvec", .weight = weight});
}

// The [start, stop) range of the column indices of each block of `block` rows ((0, 0) for
// a block with no stored value): arg 0 out (blocks × 2, whole pairs), 1 indptr and 2 indices
// (whole: computed once per matrix).
void launch_column_ranges(const ndarray& out_ranges, const Csr& a, int64_t block) {
  static const Task ranges("sparse.csr_column_ranges", [](TaskContext& ctx) {
    const Indexed out(ctx.array(0)), p(ctx.array(1)), i(ctx.array(2));
    csr_column_ranges_blocks(out, p, i, ctx.scalar(0).as_int(), row_lo(ctx), row_hi(ctx));
  });
  const int64_t rows = a.indptr.shape()[0] - 1;
  launch(ranges, {out(out_ranges), in(a.indptr), in(a.indices)}, {block},
         {broadcast(0, {1}), broadcast(1), broadcast(2)},
         {.name = "csr_column_ranges", .weight = per_row(a.indices, rows) * block});
}

// The dense rows of A: arg 0 out (rows × ncols, whole rows), 1 indptr, 2 indices, 3 data.
void launch_todense(const ndarray& dense, const Csr& a) {
  static const Task todense("sparse.csr_todense", [](TaskContext& ctx) {
    const Indexed out(ctx.array(0)), p(ctx.array(1)), i(ctx.array(2)), v(ctx.array(3));
    csr_todense_rows(out, {p, i, v}, row_lo(ctx), row_hi(ctx));
  });
  Args l;
  l.add(out(dense));
  add_csr(l, dense.shape(), a);
  launch(todense, std::move(l.args), {}, std::move(l.constraints), {.name = "csr_todense"});
}

// out[r] = sum of data[indptr[r]:indptr[r + 1]]: arg 0 out, 1 indptr (bloated), 2 data.
void launch_segment_sum(const ndarray& sums, const ndarray& indptr, const ndarray& data) {
  static const Task segment_sum("sparse.segment_sum", [](TaskContext& ctx) {
    const Indexed out(ctx.array(0)), p(ctx.array(1)), v(ctx.array(2));
    segment_sum_rows(out, p, v, row_lo(ctx), row_hi(ctx));
  });
  launch(segment_sum, {out(sums), in(indptr), in(data)}, {}, {bloat(1, 0, {0}, {1}), image(2, 1, false, true)},
         {.name = "segment_sum", .weight = per_row(data, sums.shape()[0])});
}

// out[i] = src[idx[i]]: arg 0 out, 1 idx (aligned), 2 src (the image of idx).
void launch_take(const ndarray& taken, const ndarray& idx, const ndarray& src) {
  static const Task take("sparse.take", [](TaskContext& ctx) {
    const Indexed out(ctx.array(0)), i(ctx.array(1)), from(ctx.array(2));
    take_range(out, i, from, row_lo(ctx), row_hi(ctx));
  });
  launch(take, {out(taken), in(idx), in(src)}, {}, {align(1, 0), image(2, 1)}, {.name = "take"});
}

// The first pass of C = A @ B (count) or the second (fill): arg 0 counts (rows) or the
// space of C's rows (rows × 2, whole along the pairs), 1-3 A, 4-6 B (whole), then for the
// fill C's [start, stop) row pairs (arg 7, aligned with the space) and C's indices and data
// (the image of those pairs).
struct MatmatPass {
  int64_t ncols;
  bool fill;
};

void launch_matmat(const ndarray& first, const Csr& a, const Csr& b, int64_t ncols, const ndarray* c_pairs,
                   const ndarray* c_indices, const ndarray* c_data) {
  static const Task matmat("sparse.csr_matmat", [](TaskContext& ctx) {
    const MatmatPass& pass = ctx.payload<MatmatPass>();
    const Indexed ap(ctx.array(1)), ai(ctx.array(2)), av(ctx.array(3));
    const Indexed bp(ctx.array(4)), bi(ctx.array(5)), bv(ctx.array(6));
    const CsrArrays ca{ap, ai, av}, cb{bp, bi, bv};
    const int64_t lo = row_lo(ctx), hi = row_hi(ctx);
    if (!pass.fill) return csr_matmat_count_rows(Indexed(ctx.array(0)), ca, cb, pass.ncols, lo, hi);
    if (hi <= lo) return;
    csr_matmat_fill_rows(Indexed(ctx.array(7)), Indexed(ctx.array(8)), Indexed(ctx.array(9)), ca, cb, pass.ncols, lo,
                         hi);
  });
  const bool fill = c_pairs != nullptr;
  const int64_t rows = first.shape()[0];
  Args l;
  if (fill) l.add(space({rows, 2}));  // C's rows, seen with the pairs' shape
  else l.add(out(first));
  add_csr(l, fill ? Shape{rows, 2} : first.shape(), a);
  for (const ndarray& s : {b.indptr, b.indices, b.data}) {
    const int i = l.add(in(s));
    l.constraints.push_back(broadcast(i));
  }
  if (fill) {
    const int p = l.add_aligned(0, in(*c_pairs));
    const int ci = l.add(out(*c_indices));
    l.constraints.push_back(image(ci, p, true));
    l.add_aligned(ci, out(*c_data));
    // With several ranks an image is only known from values every rank holds, and a
    // written image that is not known would be whole on every point: one point fills C.
    if (ranks() > 1) l.constraints.push_back(broadcast(0));
  }
  launch(matmat, std::move(l.args), {}, std::move(l.constraints),
         {.name = fill ? "csr_matmat (fill)" : "csr_matmat (count)",
          .weight = per_row(a.indices, a.indptr.shape()[0] - 1),
          .payload = Payload::of(MatmatPass{ncols, fill})});
}

Csr prepare(const ndarray& indptr, const ndarray& indices, const ndarray& data, DType t) {
  if (indptr.ndim() != 1 || indices.ndim() != 1 || data.ndim() != 1)
    throw ValueError("indptr, indices and data must be 1-D");
  if (indices.size() != data.size()) throw ValueError("indices and data must have the same size");
  const DType it = indptr.dtype() == DType::Int32 && indices.dtype() == DType::Int32 ? DType::Int32 : DType::Int64;
  auto as = [](const ndarray& a, DType d) { return a.dtype() == d ? a : astype(a, d); };
  return {as(indptr, it), as(indices, it), as(data, t)};
}

}  // namespace
}  // namespace detail

ndarray csr_column_ranges(const ndarray& indptr, const ndarray& indices, int64_t block) {
  if (indptr.ndim() != 1 || indices.ndim() != 1 || indptr.size() < 1)
    throw ValueError("indptr and indices must be 1-D");
  if (block < 1) throw ValueError("block must be positive");
  const detail::Csr a = detail::prepare(indptr, indices, indices, indices.dtype());
  const int64_t rows = indptr.size() - 1, blocks = (rows + block - 1) / block;
  if (blocks == 0) return zeros({0, 2}, DType::Int64);
  ndarray out = new_array({blocks, 2}, DType::Int64);
  detail::launch_column_ranges(out, a, block);
  // Every rank holds the ranges whole (they are small), so each can derive the products'
  // images from them.
  return ranks() > 1 ? copy(out) : out;
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
  ndarray y = new_array(shape, t);
  if (y.size() == 0) return y;
  if (a.data.size() == 0 || x.shape()[0] == 0) return zeros(shape, t);
  const ndarray xs = x.dtype() == t ? x : astype(x, t);
  const int64_t blocks = block > 0 ? (rows + block - 1) / block : 0;
  const bool by_blocks = x.ndim() == 1 && ranges.valid() && ranges.ndim() == 2 && ranges.shape()[0] == blocks &&
                         ranges.shape()[1] == 2 && ranges.dtype() == DType::Int64;
  detail::launch_matvec(y, a, xs, by_blocks ? &ranges : nullptr, block);
  return y;
}

ndarray csr_todense(const ndarray& indptr, const ndarray& indices, const ndarray& data, int64_t ncols) {
  const detail::Csr a = detail::prepare(indptr, indices, data, data.dtype());
  const Shape shape{indptr.size() - 1, ncols};
  if (a.data.size() == 0 || shape[0] * shape[1] == 0) return zeros(shape, data.dtype());
  ndarray out = new_array(shape, data.dtype());
  detail::launch_todense(out, a);
  return out;
}

ndarray segment_sum(const ndarray& indptr, const ndarray& data) {
  const Shape shape{indptr.size() - 1};
  if (data.size() == 0 || shape[0] == 0) return zeros(shape, data.dtype());
  const ndarray p =
      indptr.dtype() == DType::Int32 || indptr.dtype() == DType::Int64 ? indptr : astype(indptr, DType::Int64);
  ndarray out = new_array(shape, data.dtype());
  detail::launch_segment_sum(out, p, data);
  return out;
}

ndarray take1d(const ndarray& src, const ndarray& idx) {
  if (src.ndim() != 1 || idx.ndim() != 1) throw ValueError("take1d needs 1-D arrays");
  ndarray out = new_array(idx.shape(), src.dtype());
  if (idx.size() == 0) return out;
  if (src.size() == 0) throw IndexError("cannot take from an empty array");
  const ndarray i = idx.dtype() == DType::Int32 || idx.dtype() == DType::Int64 ? idx : astype(idx, DType::Int64);
  detail::launch_take(out, i, src);
  return out;
}

std::vector<ndarray> csr_matmat(const ndarray& a_indptr, const ndarray& a_indices, const ndarray& a_data,
                                const ndarray& b_indptr, const ndarray& b_indices, const ndarray& b_data,
                                int64_t ncols) {
  const DType t = promote_types(a_data.dtype(), b_data.dtype());
  detail::Csr a = detail::prepare(a_indptr, a_indices, a_data, t);
  detail::Csr b = detail::prepare(b_indptr, b_indices, b_data, t);
  if (a.indices.dtype() != b.indices.dtype()) {
    a = detail::prepare(astype(a_indptr, DType::Int64), astype(a_indices, DType::Int64), a_data, t);
    b = detail::prepare(astype(b_indptr, DType::Int64), astype(b_indices, DType::Int64), b_data, t);
  }
  const int64_t rows = a_indptr.size() - 1;
  ndarray indptr = zeros({rows + 1}, DType::Int64);
  if (rows == 0 || ncols == 0 || a.data.size() == 0 || b.data.size() == 0)
    return {indptr, zeros({0}, DType::Int64), zeros({0}, t)};
  ndarray counts = new_array({rows}, DType::Int64);
  detail::launch_matmat(counts, a, b, ncols, nullptr, nullptr, nullptr);
  indptr = concatenate({zeros({1}, DType::Int64), cumsum(counts)}, 0);
  const int64_t nnz = indptr.item(rows).as_int();
  ndarray indices = new_array({nnz}, DType::Int64);
  ndarray data = new_array({nnz}, t);
  if (nnz == 0) return {indptr, indices, data};
  const ndarray pairs =
      stack({view(indptr, {Slice{0, rows, std::nullopt}}), view(indptr, {Slice{1, rows + 1, std::nullopt}})}, 1);
  detail::launch_matmat(counts, a, b, ncols, &pairs, &indices, &data);
  return {indptr, indices, data};
}

}  // namespace tessera
