#include "task/combine.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "data/store.h"
#include "data/strided_rows.h"
#include "tessera/errors.h"

namespace tessera::detail {
namespace {

// Bytes of one output row combined at a time: the tree's levels of such rows stay in L1/L2.
constexpr int64_t kRowBytes = 8192;

struct Scratch {
  std::vector<char> values, stack, target;
  std::vector<int64_t> indices, index_stack;
};

Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

template <class T>
T* room(std::vector<T>& v, int64_t n) {
  if (v.size() < static_cast<size_t>(n)) v.resize(static_cast<size_t>(n));
  return v.data();
}

// The recursion of combine_pieces: level L keeps the high half it is joining in stack row L.
struct Tree {
  const Combiner& c;
  const char* pieces;
  int64_t piece_bytes;
  const int64_t* indices;
  int64_t index_stride;
  int64_t w;
  char* stack;
  int64_t* index_stack;

  void run(char* out, int64_t* out_idx, int64_t first, int64_t n, int level) const {
    const int64_t bytes = w * c.itemsize;
    if (n == 1) {
      std::memcpy(out, pieces + first * piece_bytes, static_cast<size_t>(bytes));
      if (out_idx) std::memcpy(out_idx, indices + first * index_stride, static_cast<size_t>(w) * sizeof(int64_t));
      return;
    }
    const int64_t half = n / 2;
    run(out, out_idx, first, half, level);
    char* high = stack + level * bytes;
    int64_t* high_idx = out_idx ? index_stack + level * w : nullptr;
    run(high, high_idx, first + half, n - half, level + 1);
    if (!c.better) {
      c.fold(out, high, w);
      return;
    }
    const int64_t isz = c.itemsize;
    for (int64_t i = 0; i < w; ++i)
      if (c.better(high + i * isz, out + i * isz)) {
        std::memcpy(out + i * isz, high + i * isz, static_cast<size_t>(isz));
        out_idx[i] = high_idx[i];
      }
  }
};

}  // namespace

void combine_pieces(const Combiner& c, char* out, int64_t* out_indices, const char* pieces, int64_t piece_bytes,
                    const int64_t* indices, int64_t index_stride, int64_t n, int64_t w) {
  TESSERA_CHECK(n >= 1 && (c.fold || c.better), "a combine of no pieces, or without an operator");
  const int levels = std::bit_width(static_cast<uint64_t>(n));
  Scratch& s = scratch();
  char* stack = room(s.stack, levels * w * c.itemsize);
  int64_t* index_stack = c.better ? room(s.index_stack, levels * w) : nullptr;
  Tree{c, pieces, piece_bytes, indices, index_stride, w, stack, index_stack}.run(out, out_indices, 0, n, 0);
}

CombineOp::CombineOp(StorePtr out, StorePtr partials, StorePtr indices, Combiner combiner,
                     std::shared_ptr<const std::atomic<int>> pieces)
    : c_(std::move(combiner)), pieces_(std::move(pieces)) {
  TESSERA_CHECK(partials->ndim() == out->ndim() + 1 && !(c_.better && !indices) && !(c_.better && c_.into),
                "combine of mismatched partials");
  const int nd = out->ndim();
  const int64_t rows = partials->shape()[0];
  // The launch follows the output seen with the pieces as a last axis; the partials (pieces
  // moved last) are aligned with it and whole along that axis: a point combines every piece
  // of its outputs.
  std::vector<int> pieces_last;
  for (int d = 1; d <= nd; ++d) pieces_last.push_back(d);
  pieces_last.push_back(0);
  const Shape out_shape = out->shape();
  const int t = add(std::move(out), c_.into, true, ArgView(out_shape).promote(nd, rows));
  const Shape part_shape = partials->shape();
  partials_arg_ = add_aligned(t, std::move(partials), true, false, ArgView(part_shape).transpose(pieces_last));
  if (indices) indices_arg_ = add_aligned(t, std::move(indices), true, false, args[partials_arg_].view);
  constraints.push_back(broadcast(partials_arg_, {nd}));
}

void CombineOp::execute(const Point& point) {
  const Store& out = *args[0].store;
  const Store& parts = *args[partials_arg_].store;
  const int nd = out.ndim();
  const int64_t n = pieces_ ? pieces_->load(std::memory_order_acquire) : parts.shape()[0];
  if (n == 0) {
    TESSERA_CHECK(c_.into, "a combine of no pieces");
    return;  // the target keeps its values
  }
  for (const OpArg& a : args)
    if (a.read && !a.store->storage()->allocated())
      throw ValueError("operation '" + name + "' reads an array that was never computed (an earlier error stopped it)");
  const Rect& r = point.rects[0];  // (outputs..., pieces)
  Shape lo(r.lo.begin(), r.lo.begin() + nd), ext(static_cast<size_t>(nd));
  for (int d = 0; d < nd; ++d) {
    ext[d] = r.hi[d] - r.lo[d];
    if (ext[d] <= 0) return;
  }
  const int64_t isz = c_.itemsize, osz = itemsize(out.dtype());
  const Shape& ps = parts.strides();
  const Shape part_strides(ps.begin() + 1, ps.end());
  const int64_t piece_bytes = ps[0] * isz;
  const int64_t* indices = nullptr;
  if (indices_arg_ >= 0) {
    const Store& ix = *args[indices_arg_].store;
    TESSERA_CHECK(ix.strides() == ps, "argmax positions laid out unlike their values");
    indices = reinterpret_cast<const int64_t*>(ix.base_ptr());
  }
  int64_t part0 = 0, out0 = 0;
  for (int d = 0; d < nd; ++d) {
    part0 += lo[d] * part_strides[d];
    out0 += lo[d] * out.strides()[d];
  }
  // Rows of outputs are combined many at a time when the partials' rows are contiguous.
  const int64_t ostep = nd == 0 ? 0 : out.strides()[nd - 1];
  const bool contiguous = nd == 0 || part_strides[nd - 1] == 1;
  const int64_t width = contiguous ? std::max<int64_t>(16, kRowBytes / isz) : 1;
  Scratch& s = scratch();
  char* values = room(s.values, width * isz);
  int64_t* value_idx = indices ? room(s.indices, width) : nullptr;
  char* target = c_.into ? room(s.target, width * isz) : nullptr;
  StridedRows rows(ext, {out.strides().data(), part_strides.data()});
  const int64_t length = rows.length(), pstep = nd == 0 ? 0 : part_strides[nd - 1];
  rows.for_each([&](const int64_t*, const int64_t* off) {
    for (int64_t c0 = 0; c0 < length; c0 += width) {
      const int64_t w = std::min(width, length - c0), at = part0 + off[1] + c0 * pstep;
      combine_pieces(c_, values, value_idx, parts.base_ptr() + at * isz, piece_bytes, indices ? indices + at : nullptr,
                     ps[0], n, w);
      char* dst = out.base_ptr() + (out0 + off[0] + c0 * ostep) * osz;
      if (c_.into) {  // the target first: target (op) tree
        for (int64_t i = 0; i < w; ++i) std::memcpy(target + i * isz, dst + i * ostep * osz, static_cast<size_t>(isz));
        c_.fold(target, values, w);
        for (int64_t i = 0; i < w; ++i) std::memcpy(dst + i * ostep * osz, target + i * isz, static_cast<size_t>(isz));
      } else if (c_.finish) {
        c_.finish(dst, ostep, values, value_idx, w);
      } else {
        for (int64_t i = 0; i < w; ++i) std::memcpy(dst + i * ostep * osz, values + i * isz, static_cast<size_t>(isz));
      }
    }
  });
}

}  // namespace tessera::detail
