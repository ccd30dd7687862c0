// Executing reductions: the input walked block by block (reduced axes inner) or as
// rows of a vector (a kept axis inner, e.g. summing a C-ordered matrix over axis 0).
#include "numeric/reduce/reduce_op.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "data/strided_rows.h"
#include "numeric/elementwise/expression.h"
#include "partition/tiling.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"
#include "task/combine.h"
#include "tessera/errors.h"

namespace tessera::detail {
namespace {

constexpr int kMaxDims = 64;
// Outputs that reduce at most this many elements are computed many at a time (rows of a vector).
constexpr int64_t kFewElements = 16;

// Scratch of one worker: a block of values, its mask bytes and the offsets of its rows.
struct Scratch {
  std::vector<unsigned char> values, mask;
  std::vector<char> produced;  // an absorbed producer's block before the cast to accumulation values
  std::vector<int64_t> in_offs, mask_offs;
  std::vector<unsigned char> out_values;
  std::vector<int64_t> out_indices;
};

Scratch& scratch() {
  thread_local Scratch s;
  if (s.values.empty()) {
    s.values.resize(kReduceBlock * 16);
    s.mask.resize(kReduceBlock);
    s.in_offs.resize(kReduceBlock);
    s.mask_offs.resize(kReduceBlock);
  }
  return s;
}

// Columns per rows call: 8 KiB rows keep the 8 accumulator rows of a block in L2 while the
// input streams in long runs.
int64_t row_width(DType acc) { return std::max<int64_t>(16, 8192 / itemsize(acc)); }

void check_computed(const Operation& op) {
  for (const OpArg& a : op.args)
    if (a.read && !a.store->storage()->allocated())
      throw ValueError("operation '" + op.name +
                       "' reads an array that was never computed (an earlier error stopped it)");
}

int64_t dot(const int64_t* idx, const Shape& strides) {
  int64_t off = 0;
  for (size_t d = 0; d < strides.size(); ++d) off += idx[d] * strides[d];
  return off;
}

ReduceFinish make_finish(const ReduceRequest& q, const ReduceKernels& kernels) {
  ReduceFinish f;
  f.kernels = kernels;
  f.arg = is_arg_reduction(q.kind);
  f.to_out = cast_loop(f.arg ? DType::Int64 : q.acc, q.out->dtype());
  if (q.initial) {
    f.has_initial = true;
    q.initial->to_bytes(q.acc, f.initial);
  }
  return f;
}

std::string op_name(ReduceKind kind) {
  switch (kind) {
    case ReduceKind::Sum: return "sum";
    case ReduceKind::Prod: return "prod";
    case ReduceKind::Max: return "max";
    case ReduceKind::Min: return "min";
    case ReduceKind::Any: return "any";
    case ReduceKind::All: return "all";
    case ReduceKind::ArgMax: return "argmax";
    case ReduceKind::ArgMin: return "argmin";
  }
  return "reduce";
}

}  // namespace

void ReduceFinish::operator()(char* dst, const void* value, int64_t index) const {
  if (arg) {
    to_out(dst, &index, 0, 1);
  } else if (has_initial) {
    alignas(16) unsigned char t[16];
    kernels.combine(t, initial, value);
    to_out(dst, t, 0, 1);
  } else {
    to_out(dst, value, 0, 1);
  }
}

ReduceLayout plan_reduction(const ReduceRequest& q) {
  const Store& in = *q.input;
  const Store* mask = q.where.get();
  ReduceLayout L;
  struct Dim {
    int64_t ext, in, mask;
    int axis;
  };
  std::vector<Dim> red;
  for (int d = 0; d < in.ndim(); ++d) {
    const int64_t ms = mask ? mask->strides()[d] : 0;
    if (!q.reduced[d]) {
      L.kept.push_back(d);
      L.out_shape.push_back(in.shape()[d]);
      L.in_kept.push_back(in.strides()[d]);
      L.mask_kept.push_back(ms);
    } else if (in.shape()[d] != 1) {
      TESSERA_CHECK(in.shape()[d] > 0, "empty reductions are resolved before issuing");
      red.push_back({in.shape()[d], in.strides()[d], ms, d});
    }
  }
  // The reduction order: memory order (largest stride first) for the folds, so a transposed
  // input streams; C order for argmax/argmin, whose positions are the C-order flat index.
  if (!is_arg_reduction(q.kind))
    std::stable_sort(red.begin(), red.end(),
                     [](const Dim& a, const Dim& b) { return std::llabs(a.in) > std::llabs(b.in); });
  for (const Dim& d : red) L.red_axes.push_back(d.axis);
  for (const Dim& d : red) {
    if (!L.red_ext.empty() && L.red_in.back() == d.in * d.ext && L.red_mask.back() == d.mask * d.ext) {
      L.red_ext.back() *= d.ext;
      L.red_in.back() = d.in;
      L.red_mask.back() = d.mask;
    } else {
      L.red_ext.push_back(d.ext);
      L.red_in.push_back(d.in);
      L.red_mask.push_back(d.mask);
    }
  }
  const bool reducing = !L.red_ext.empty();
  if (!reducing) {
    L.red_ext = {1};
    L.red_in = {0};
    L.red_mask = {0};
  }
  TESSERA_CHECK(L.red_ext.size() <= kMaxDims && L.out_shape.size() <= kMaxDims, "too many dimensions");
  L.length = volume(L.red_ext);
  L.blocks = reduce_blocks(L.length);
  // Rows of a vector when a kept axis is closer together in memory than the reduced elements,
  // or when each output reduces so few elements that per-output work would dominate. Both
  // walks reduce in the same order, so the choice never changes a result.
  const int64_t inner = reducing && L.length > kFewElements ? std::llabs(L.red_in.back()) : INT64_MAX;
  for (int a = 0; a < static_cast<int>(L.kept.size()); ++a) {
    if (L.out_shape[a] <= 1 || std::llabs(L.in_kept[a]) >= inner) continue;
    if (L.vec_axis < 0 || std::llabs(L.in_kept[a]) < std::llabs(L.in_kept[L.vec_axis])) L.vec_axis = a;
  }
  return L;
}

ReduceOp::ReduceOp(const ReduceRequest& q, ReduceLayout layout, StorePtr values, StorePtr indices, bool partial)
    : kind_(q.kind), layout_(std::move(layout)), acc_(q.acc), partial_(partial) {
  name = op_name(q.kind);
  kernels_ = reduce_kernels(q.kind, q.acc);
  finish_ = make_finish(q, kernels_);
  const DType in_t = q.input->dtype();
  load_ = q.nonzero ? nonzero_loop(in_t, q.acc) : cast_loop(in_t, q.acc);
  direct_ = !q.nonzero && !q.where && in_t == q.acc;
  nonzero_ = q.nonzero;
  if (q.where) {
    // Masked-out elements read as the identity, or as `initial` for max/min (which need one).
    if (q.kind == ReduceKind::Max || q.kind == ReduceKind::Min) q.initial->to_bytes(q.acc, fill_);
    else reduce_identity(q.kind, q.acc, fill_);
  }
  // The launch follows the results: `values` (outputs × blocks, or outputs alone seen with a
  // unit blocks axis). The input is seen as (kept axes..., the reduced elements in reduction
  // order) and follows the blocks scaled by the block length; a mask follows the input.
  const int nk = static_cast<int>(layout_.kept.size());
  std::vector<int> perm;
  perm.reserve(static_cast<size_t>(q.input->ndim()));
  perm.assign(layout_.kept.begin(), layout_.kept.end());
  perm.insert(perm.end(), layout_.red_axes.begin(), layout_.red_axes.end());
  for (int d = 0; d < q.input->ndim(); ++d)
    if (q.reduced[d] && std::find(perm.begin(), perm.end(), d) == perm.end()) perm.push_back(d);
  const int folded = static_cast<int>(perm.size()) - nk;
  ArgView elements(q.input->shape());
  elements.transpose(perm).fold(nk, folded);
  args.reserve(4);  // input, mask, values, indices: no regrowth
  constraints.reserve(3);
  // The view is copied only when a second argument needs it too.
  const int input = add(q.input, true, false, q.where ? elements : std::move(elements));
  if (q.where) mask_arg_ = add_aligned(input, q.where, true, false, std::move(elements));
  // Partials are laid out [blocks][outputs...] (the combine's pieces first), seen blocks last.
  ArgView blocks(values->shape());
  if (partial) {
    std::vector<int> blocks_last;
    for (int a = 1; a <= nk; ++a) blocks_last.push_back(a);
    blocks_last.push_back(0);
    blocks.transpose(blocks_last);
  } else {
    blocks.promote(nk, 1);
  }
  values_arg_ = add(values, false, true, indices ? blocks : std::move(blocks));
  if (indices) indices_arg_ = add_aligned(values_arg_, indices, false, true, std::move(blocks));
  Shape factors(static_cast<size_t>(nk + 1), 1);
  factors[nk] = kReduceBlock;
  constraints.push_back(scale(input, values_arg_, std::move(factors)));
  weight = std::min(layout_.length, kReduceBlock);
}

// The walks of a block (here and in load_block) start at the block's first element, inside the
// reduced box, and run in its inner loops: a counter of their own, not StridedRows' whole boxes.
void ReduceOp::block_offsets(int64_t block, int64_t n, int64_t* in_offs, int64_t* mask_offs) const {
  const Shape& ext = layout_.red_ext;
  const int nr = static_cast<int>(ext.size());
  int64_t idx[kMaxDims];
  int64_t rem = block * kReduceBlock;
  for (int d = nr - 1; d >= 0; --d) {
    idx[d] = rem % ext[d];
    rem /= ext[d];
  }
  int64_t off = dot(idx, layout_.red_in), moff = dot(idx, layout_.red_mask);
  for (int64_t i = 0; i < n; ++i) {
    in_offs[i] = off;
    mask_offs[i] = moff;
    int d = nr - 1;
    off += layout_.red_in[d];
    moff += layout_.red_mask[d];
    while (d > 0 && ++idx[d] == ext[d]) {
      off -= ext[d] * layout_.red_in[d];
      moff -= ext[d] * layout_.red_mask[d];
      idx[d--] = 0;
      off += layout_.red_in[d];
      moff += layout_.red_mask[d];
    }
  }
}

bool ReduceOp::absorb_producer(const OperationPtr& producer, int arg, int output, bool keep) {
  auto prod = std::dynamic_pointer_cast<ElementwiseOp>(producer);
  if (!prod || arg != 0 || producer_ || mask_arg_ >= 0 || nonzero_ || layout_.vec_axis >= 0) return false;
  if (!keep && (prod->num_outputs() != 1 || output != 0)) return false;
  // The elements of each block are a contiguous run of the (whole, C-ordered) input.
  const Store& temp = *args[0].store;
  if (!temp.is_whole() || layout_.red_ext.size() != 1 || layout_.red_in[0] != 1) return false;
  if (keep) {
    // Each block evaluates its run of every output in place of the producer's tiles: outputs
    // laid out like the input, no producer whose tiles depend on each other, and no input
    // that is another view of an output (a block would read what another one wrote).
    if (prod->in_place() || !temp.is_c_contiguous()) return false;
    for (int o = 0; o < prod->num_outputs(); ++o) {
      const Store& out = *prod->output(o);
      if (!out.is_whole() || !out.is_c_contiguous() || out.shape() != temp.shape()) return false;
      for (int k = 1; k <= prod->num_inputs(); ++k) {
        const Store& in = *prod->args[k].store;
        if (in.storage() == out.storage() && !in.same_view(out)) return false;
      }
    }
  }
  args[0].read = false;  // a temporary only shapes the launch now; a kept output is written
  args[0].write = keep;
  for (int k = 1; k <= prod->num_inputs(); ++k) add_aligned(0, prod->args[k].store, true, false, args[0].view);
  if (keep) {
    made_.emplace_back(0, prod->output_arg(output));
    for (int o = 0; o < prod->num_outputs(); ++o)
      if (o != output)
        made_.emplace_back(add_aligned(0, prod->output(o), false, true, args[0].view), prod->output_arg(o));
  }
  prod->prepare();  // it runs only inside this operation's points
  producer_ = std::move(prod);
  return true;
}

Operation::Origin ReduceOp::origin(int arg) const {
  for (const auto& [mine, theirs] : made_)
    if (mine == arg) return producer_->origin(theirs);
  return Operation::origin(arg);
}

namespace {
// Evaluates elements [f0, f0 + n) of the absorbed producer's domain (C order) into `out` (null:
// into the producer's outputs), as few boxes as the domain's shape allows.
void evaluate_run(const ElementwiseOp& prod, const Shape& domain, int64_t f0, int64_t n, char* out) {
  const int nd = static_cast<int>(domain.size());
  const int isz = itemsize(prod.output()->dtype());
  if (nd == 0) {
    prod.evaluate(Rect(Shape{}, Shape{}), out);
    return;
  }
  Rect box{Shape(nd), Shape(nd)};
  Shape idx(nd);
  while (n > 0) {
    int64_t rem = f0;
    for (int d = nd - 1; d >= 0; --d) {
      idx[d] = rem % domain[d];
      rem /= domain[d];
    }
    int k = nd - 1;
    int64_t inner = 1;
    while (k > 0 && idx[k] == 0 && inner * domain[k] <= n) inner *= domain[k--];
    const int64_t count = std::min(n / inner, domain[k] - idx[k]);
    for (int d = 0; d < nd; ++d) {
      box.lo[d] = d < k ? idx[d] : d == k ? idx[k] : 0;
      box.hi[d] = d < k ? idx[d] + 1 : d == k ? idx[k] + count : domain[d];
    }
    prod.evaluate(box, out);
    if (out) out += count * inner * isz;
    f0 += count * inner;
    n -= count * inner;
  }
}
}  // namespace

const char* ReduceOp::load_block(int64_t in_off, int64_t mask_off, int64_t block, int64_t n, char* buf,
                                 char* mask_buf) const {
  if (producer_ && !made_.empty()) {  // written where the producer would, then read below
    evaluate_run(*producer_, args[0].store->shape(), in_off + block * kReduceBlock, n, nullptr);
  } else if (producer_) {
    const int64_t f0 = in_off + block * kReduceBlock;
    if (direct_) {
      evaluate_run(*producer_, args[0].store->shape(), f0, n, buf);
      return buf;
    }
    std::vector<char>& values = scratch().produced;
    values.resize(static_cast<size_t>(n * itemsize(args[0].store->dtype())));
    evaluate_run(*producer_, args[0].store->shape(), f0, n, values.data());
    load_(buf, values.data(), 1, n);
    return buf;
  }
  const Shape& ext = layout_.red_ext;
  const int nr = static_cast<int>(ext.size());
  const int isz = itemsize(args[0].store->dtype()), asz = itemsize(acc_);
  const char* in = args[0].store->base_ptr();
  int64_t idx[kMaxDims];
  int64_t rem = block * kReduceBlock;
  for (int d = nr - 1; d >= 0; --d) {
    idx[d] = rem % ext[d];
    rem /= ext[d];
  }
  const int64_t last = ext[nr - 1], step = layout_.red_in[nr - 1];
  if (direct_ && step == 1 && idx[nr - 1] + n <= last) return in + (in_off + dot(idx, layout_.red_in)) * isz;
  const char* mask = mask_arg_ >= 0 ? args[mask_arg_].store->base_ptr() : nullptr;
  const int64_t mstep = layout_.red_mask[nr - 1];
  for (int64_t pos = 0; pos < n;) {
    const int64_t run = std::min(last - idx[nr - 1], n - pos);
    load_(buf + pos * asz, in + (in_off + dot(idx, layout_.red_in)) * isz, step, run);
    if (mask) {
      const char* m = mask + mask_off + dot(idx, layout_.red_mask);
      for (int64_t t = 0; t < run; ++t) mask_buf[pos + t] = m[t * mstep];
    }
    pos += run;
    idx[nr - 1] += run;
    for (int d = nr - 1; d > 0 && idx[d] == ext[d]; --d) {
      idx[d] = 0;
      ++idx[d - 1];
    }
  }
  if (mask)
    for (int64_t i = 0; i < n; ++i)
      if (!mask_buf[i]) std::memcpy(buf + i * asz, fill_, asz);
  return buf;
}

void ReduceOp::emit(const int64_t* out_idx, int64_t block, const void* value, int64_t index) const {
  const Store& v = *args[values_arg_].store;
  const int nk = static_cast<int>(layout_.out_shape.size());
  int64_t off = 0;
  if (!partial_) {
    for (int a = 0; a < nk; ++a) off += out_idx[a] * v.strides()[a];
    finish_(v.base_ptr() + off * itemsize(v.dtype()), value, index);
    return;
  }
  off = block * v.strides()[0];
  for (int a = 0; a < nk; ++a) off += out_idx[a] * v.strides()[a + 1];
  std::memcpy(v.base_ptr() + off * itemsize(acc_), value, itemsize(acc_));
  if (indices_arg_ >= 0) {
    const Store& ix = *args[indices_arg_].store;
    reinterpret_cast<int64_t*>(ix.base_ptr())[off] = index + block * kReduceBlock;
  }
}

void ReduceOp::run_blocks(const Shape& lo, const Shape& hi, int64_t b0, int64_t b1) const {
  Scratch& s = scratch();
  const bool arg = is_arg_reduction(kind_);
  const int nk = static_cast<int>(lo.size());
  Shape ext(static_cast<size_t>(nk));
  for (int a = 0; a < nk; ++a) ext[a] = hi[a] - lo[a];
  const int64_t in0 = dot(lo.data(), layout_.in_kept), mask0 = dot(lo.data(), layout_.mask_kept);
  const int64_t in_step = nk ? layout_.in_kept[nk - 1] : 0, mask_step = nk ? layout_.mask_kept[nk - 1] : 0;
  int64_t j[kMaxDims];
  alignas(16) unsigned char value[16];
  StridedRows(ext, {layout_.in_kept.data(), layout_.mask_kept.data()})
      .for_each([&](const int64_t* pos, const int64_t* off) {
        for (int a = 0; a + 1 < nk; ++a) j[a] = lo[a] + pos[a];
        for (int64_t c = 0; c < (nk ? ext[nk - 1] : 1); ++c) {
          if (nk) j[nk - 1] = lo[nk - 1] + c;
          const int64_t in_off = in0 + off[0] + c * in_step, mask_off = mask0 + off[1] + c * mask_step;
          for (int64_t b = b0; b < b1; ++b) {
            const int64_t n = std::min(kReduceBlock, layout_.length - b * kReduceBlock);
            const char* v = load_block(in_off, mask_off, b, n, reinterpret_cast<char*>(s.values.data()),
                                       reinterpret_cast<char*>(s.mask.data()));
            int64_t index = 0;
            if (arg) kernels_.arg_block(value, &index, v, n);
            else kernels_.block(value, v, n);
            emit(j, b, value, index);
          }
        }
      });
}

void ReduceOp::run_rows(const Shape& lo, const Shape& hi, int64_t b0, int64_t b1) const {
  Scratch& s = scratch();
  const bool arg = is_arg_reduction(kind_);
  const int va = layout_.vec_axis;
  const int64_t width = row_width(acc_), asz = itemsize(acc_);
  if (s.out_values.size() < static_cast<size_t>(width * asz)) {
    s.out_values.resize(width * asz);
    s.out_indices.resize(width);
  }
  const Store& in = *args[0].store;
  RowSource src;
  src.isize = itemsize(in.dtype());
  src.col_stride = layout_.in_kept[va];
  src.load = direct_ && src.col_stride == 1 ? nullptr : load_;
  src.offsets = s.in_offs.data();
  if (mask_arg_ >= 0) {
    src.mask_offsets = s.mask_offs.data();
    src.mask_col_stride = layout_.mask_kept[va];
    src.fill = fill_;
  }
  // The kept axes other than the vector's, walked as rows of one element; the vector's axis
  // is cut into rows of `width` below.
  const int nk = static_cast<int>(lo.size());
  std::vector<int> others;
  Shape ext;
  for (int a = 0; a < nk; ++a)
    if (a != va) {
      others.push_back(a);
      ext.push_back(hi[a] - lo[a]);
    }
  ext.push_back(1);
  const StridedRows outer(ext, std::vector<const int64_t*>{});
  int64_t j[kMaxDims];
  for (int64_t b = b0; b < b1; ++b) {
    const int64_t n = std::min(kReduceBlock, layout_.length - b * kReduceBlock);
    block_offsets(b, n, s.in_offs.data(), s.mask_offs.data());
    outer.for_each([&](const int64_t* pos, const int64_t*) {
      for (size_t k = 0; k < others.size(); ++k) j[others[k]] = lo[others[k]] + pos[k];
      for (int64_t c0 = lo[va]; c0 < hi[va]; c0 += width) {
        const int64_t w = std::min(width, hi[va] - c0);
        j[va] = c0;
        src.base = in.base_ptr() + dot(j, layout_.in_kept) * src.isize;
        if (mask_arg_ >= 0) src.mask = args[mask_arg_].store->base_ptr() + dot(j, layout_.mask_kept);
        if (arg) kernels_.arg_rows(s.out_values.data(), s.out_indices.data(), src, n, w);
        else kernels_.rows(s.out_values.data(), src, n, w);
        for (int64_t c = 0; c < w; ++c) {
          j[va] = c0 + c;
          emit(j, b, s.out_values.data() + c * asz, s.out_indices[c]);
        }
      }
    });
  }
}

void ReduceOp::execute(const Point& point) {
  const Rect& tile = point.rects[0];  // (kept outputs..., the reduced elements [e0, e1))
  check_computed(*this);
  const int nk = static_cast<int>(layout_.out_shape.size());
  const Shape lo(tile.lo.begin(), tile.lo.begin() + nk), hi(tile.hi.begin(), tile.hi.begin() + nk);
  const int64_t b0 = tile.lo[nk] / kReduceBlock, b1 = (tile.hi[nk] + kReduceBlock - 1) / kReduceBlock;
  if (layout_.vec_axis < 0) run_blocks(lo, hi, b0, b1);
  else run_rows(lo, hi, b0, b1);
}

namespace {

// The combine of a ReduceOp's partials: the reduction's operator, then its finish (initial=,
// the cast to the output's dtype) per output; argmax/argmin keep the first best block.
Combiner reduce_combiner(const ReduceRequest& q) {
  Combiner c;
  c.itemsize = itemsize(q.acc);
  const ReduceFinish finish = make_finish(q, reduce_kernels(q.kind, q.acc));
  if (finish.arg) {
    c.better = finish.kernels.arg_better;
  } else {
    c.fold = [combine = finish.kernels.combine, isz = c.itemsize](void* acc, const void* x, int64_t n) {
      char* a = static_cast<char*>(acc);
      const char* b = static_cast<const char*>(x);
      for (int64_t i = 0; i < n; ++i) combine(a + i * isz, a + i * isz, b + i * isz);
    };
  }
  c.finish = [finish, isz = c.itemsize, osz = itemsize(q.out->dtype())](char* dst, int64_t stride, const char* values,
                                                                        const int64_t* indices, int64_t n) {
    for (int64_t i = 0; i < n; ++i) finish(dst + i * stride * osz, values + i * isz, indices ? indices[i] : 0);
  };
  return c;
}

}  // namespace

void issue_reduction(const ReduceRequest& q) {
  ReduceLayout layout = plan_reduction(q);
  Runtime& rt = Runtime::get();
  if (layout.blocks <= 1) {  // one operation: it takes the layout
    rt.submit(std::make_shared<ReduceOp>(q, std::move(layout), q.out, nullptr, false));
    return;
  }
  Shape partial_shape = layout.out_shape;
  partial_shape.insert(partial_shape.begin(), layout.blocks);
  StorePtr values = new_store(q.acc, partial_shape, Runtime::provenance());
  StorePtr indices = is_arg_reduction(q.kind) ? new_store(DType::Int64, partial_shape, Runtime::provenance()) : nullptr;
  rt.submit(std::make_shared<ReduceOp>(q, layout, values, indices, true));
  auto combine = std::make_shared<CombineOp>(q.out, values, indices, reduce_combiner(q));
  combine->name = op_name(q.kind) + " (combine)";
  rt.submit(std::move(combine));
}

}  // namespace tessera::detail
