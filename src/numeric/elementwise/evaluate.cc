// ElementwiseOp's evaluation: block by block in cache over a tile, into the output store or
// into a consumer's buffer.
#include "numeric/elementwise/expression.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>

#include "numeric/elementwise/blocks.h"
#include "numeric/elementwise/vector_loops.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"
#include "tessera/errors.h"

namespace tessera::detail {

void ElementwiseOp::launched(const Launch& launch) {
  prepare();
  launched_in_place(launch);
}

void ElementwiseOp::execute(const Point& point) {
  if (in_place_) execute_in_place(point);
  else evaluate(point.tile, nullptr);
}

Operation::Origin ElementwiseOp::origin(int arg) const {
  for (const Extra& x : extras_)
    if (x.arg == arg) return {x.name, x.provenance};
  return {name, provenance};
}

// One unary or binary loop over operands that are each one run of the tile's elements (or a
// broadcast scalar), in their own dtype, into an output that is one run too: the tiny
// operations of a loop, which the block machinery below would cost more than the loop.
bool ElementwiseOp::evaluate_one_loop(const Rect& tile, char* out) const {
  const int nn = static_cast<int>(nodes_.size());
  if (nn > 3 || has_index_ || !extras_.empty()) return false;
  const ExprNode& root = nodes_[static_cast<size_t>(nn - 1)];
  if (root.kind != NodeKind::Binary && root.kind != NodeKind::Unary) return false;
  if (root.dtype != args[0].store->dtype()) return false;
  const int64_t n = tile.volume();
  if (n == 0) return false;
  const int nd = static_cast<int>(domain().size());
  // Stride in elements of `store` through the tile in C order: 1 (one run), 0 (a scalar
  // broadcast), or -1 (neither).
  auto run = [&](const Store& store) -> int64_t {
    const Shape& st = store.strides();
    bool zero = true, dense = true;
    int64_t expect = 1;
    for (int d = nd - 1; d >= 0; --d) {
      const int64_t e = tile.hi[d] - tile.lo[d];
      if (e == 1) continue;
      zero = zero && st[d] == 0;
      dense = dense && st[d] == expect;
      expect *= e;
    }
    return dense ? 1 : zero ? 0 : -1;
  };
  const void* ptr[2] = {nullptr, nullptr};
  int64_t stride[2] = {0, 0};
  const int operands = root.kind == NodeKind::Binary ? 2 : 1;
  for (int o = 0; o < operands; ++o) {
    const ExprNode& e = nodes_[static_cast<size_t>(o == 0 ? root.a : root.b)];
    if (e.kind == NodeKind::Const) {
      ptr[o] = e.value;
      continue;
    }
    if (e.kind != NodeKind::Input) return false;
    const Store& in = *args[static_cast<size_t>(1 + e.input)].store;
    if (in.dtype() != e.dtype || (stride[o] = run(in)) < 0) return false;
    ptr[o] = in.ptr(tile.lo);
  }
  // Loops fill n elements from scalar operands only where the block machinery calls them so
  // (it computes a broadcast value once and stores it n times).
  if (stride[0] == 0 && stride[1] == 0 && n > 1) return false;
  char* dst = out;
  if (!dst) {
    const Store& o = *args[0].store;
    if (run(o) != 1 && n > 1) return false;
    dst = o.ptr(tile.lo);
  }
  if (root.kind == NodeKind::Binary) root.binary(dst, ptr[0], stride[0], ptr[1], stride[1], n);
  else root.unary(dst, ptr[0], stride[0], n);
  return true;
}

void ElementwiseOp::evaluate(const Rect& tile, char* out, const Redirect* redirect) const {
  const int nd = static_cast<int>(domain().size());
  const int nargs = static_cast<int>(args.size());
  for (int k = 1; k <= inputs_; ++k)
    if (!args[k].store->storage()->allocated())
      throw ValueError("operation '" + name + "' reads an array that was never computed (an earlier error stopped it)");
  if (!redirect && evaluate_one_loop(tile, out)) return;

  // Per-dim extents and per-argument strides (elements) of the tile, collapsing dims that
  // are contiguous for every argument so the inner loop is as long as possible. The vectors
  // live per thread so a small operation allocates nothing here.
  struct Workspace {
    std::vector<int64_t> ext, idx, pitch, node_stride;
    std::vector<std::vector<int64_t>> str;
    std::vector<int> axis_of, size, direct;
    std::vector<char*> base, row;
    std::vector<const void*> rp;
    std::vector<char> scratch;
    std::vector<ChainStep> steps;
    Shape out_strides;
  };
  thread_local Workspace ws;
  auto& ext = ws.ext;
  auto& str = ws.str;
  auto& axis_of = ws.axis_of;  // domain axis of each kept dim (only meaningful without collapsing)
  ext.clear();
  axis_of.clear();
  if (str.size() < static_cast<size_t>(nargs)) str.resize(nargs);
  for (int k = 0; k < nargs; ++k) str[k].clear();
  // The output's strides: its store's, or the dense buffer's.
  Shape& out_strides = ws.out_strides;
  out_strides.assign(nd, 0);
  int64_t step = 1;
  for (int d = nd - 1; d >= 0; --d) {
    out_strides[d] = out ? step : args[0].store->strides()[d];
    step *= tile.hi[d] - tile.lo[d];
  }
  auto stride = [&](int k, int d) { return k == 0 ? out_strides[d] : args[k].store->strides()[d]; };
  for (int d = 0; d < nd; ++d) {
    const int64_t e = tile.hi[d] - tile.lo[d];
    if (e == 1 && !has_index_) continue;
    bool merge = !ext.empty() && !has_index_;
    for (int k = 0; k < nargs && merge; ++k) merge = str[k].back() == stride(k, d) * e;
    if (merge) {
      ext.back() *= e;
      for (int k = 0; k < nargs; ++k) str[k].back() = stride(k, d);
    } else {
      ext.push_back(e);
      axis_of.push_back(d);
      for (int k = 0; k < nargs; ++k) str[k].push_back(stride(k, d));
    }
  }
  if (ext.empty()) {
    ext.push_back(1);
    axis_of.push_back(-1);
    for (int k = 0; k < nargs; ++k) str[k].push_back(0);
  }
  // Rows shorter than a block, as in a stencil over a few hundred columns, would each pay
  // the walk over the nodes. When every input that varies along them has the same row
  // stride and unit steps, the last two dims are read as one span that runs through the few
  // elements between rows too: those are inside each input's storage (between two of its
  // elements) and their results are dropped, since the outputs are written row by row. A
  // task may read them while another writes them; no result depends on what it reads there.
  int kd = static_cast<int>(ext.size());
  int64_t span_rows = 0, span_inner = 0, span_pitch = 0;  // span_rows > 0: span mode
  auto& out_pitch = ws.pitch;                             // per argument: its stride between the span's rows (outputs)
  if (kd >= 2 && !has_index_ && ext[kd - 1] < kBlock) {
    const int64_t inner = ext[kd - 1];
    int64_t pitch = 0;  // none yet
    bool ok = true;
    for (int k = 1; k <= inputs_ && ok; ++k) {
      const int64_t c = str[k][kd - 1], r = str[k][kd - 2];
      if (c == 0 && r == 0) continue;
      if (c != 1 || r <= 0 || (pitch != 0 && r != pitch)) ok = false;
      else pitch = r;
    }
    if (ok && pitch >= inner && (pitch - inner) * 8 <= inner) {
      span_rows = ext[kd - 2];
      span_inner = inner;
      span_pitch = pitch;
      out_pitch.assign(nargs, 0);
      for (int k = 0; k < nargs; ++k) {
        const bool varies = k == 0 || k > inputs_ || str[k][kd - 1] != 0;
        out_pitch[k] = str[k][kd - 2];
        str[k][kd - 2] = varies ? str[k][kd - 1] : 0;
        str[k].pop_back();
      }
      ext[kd - 2] = (span_rows - 1) * pitch + inner;
      ext.pop_back();
      axis_of.pop_back();
      --kd;
    }
  }
  auto& base = ws.base;
  auto& size = ws.size;
  base.resize(nargs);
  size.resize(nargs);
  for (int k = 0; k < nargs; ++k) {
    size[k] = itemsize(args[k].store->dtype());
    base[k] = k == 0 && out ? out : args[k].store->ptr(tile.lo);
    if (redirect && args[k].store->storage().get() == redirect->storage && !(k == 0 && out)) {
      const char* moved = k == 0 ? redirect->out : redirect->in;
      // The same byte offset from element 0, in the memory the caller named (as integers:
      // element 0 of a buffer that holds a band of rows lies before it).
      if (moved)
        base[k] = reinterpret_cast<char*>(reinterpret_cast<uintptr_t>(moved) + (base[k] - redirect->storage->data()));
    }
  }

  const int nn = static_cast<int>(nodes_.size());
  // Node i's block buffer; buf(nn) is the scratch block of stores through a stride.
  const bool shared = slot_.size() == nodes_.size();
  const int slots = shared ? slots_ : nn;
  auto& scratch = ws.scratch;
  const size_t need = static_cast<size_t>(slots + 1) * kBlock * 16;
  if (scratch.size() < need) scratch.resize(need);
  auto buf = [&](int i) {
    const int slot = i == nn ? slots : shared ? slot_[static_cast<size_t>(i)] : i;
    return slot < 0 ? nullptr : scratch.data() + static_cast<size_t>(slot) * kBlock * 16;
  };
  auto& rp = ws.rp;
  auto& rs = ws.node_stride;
  rp.assign(nn, nullptr);
  rs.assign(nn, 0);
  const DType out_t = args[0].store->dtype();
  const bool planned = chain_at_.size() == nodes_.size();
  auto& steps = ws.steps;

  // Converts n elements from `src` (stride 0 or 1, of dtype `from`) into argument `k` at
  // `dst`, whose elements are `s` apart.
  auto put = [&](int k, char* dst, int64_t s, DType from, const void* src, int64_t src_stride, int64_t n) {
    const CastLoop cast = cast_loop(from, args[k].store->dtype());
    if (s == 1) {
      cast(dst, src, src_stride, n);
    } else {
      char* tmp = buf(nn);
      cast(tmp, src, src_stride, n);
      scatter(dst, s, tmp, n, size[k]);
    }
  };
  // Converts node `node`'s block of n elements into argument `k` at (row, j0); in span mode
  // only the elements of the span's rows, not those between them.
  auto store = [&](int k, int node, const std::vector<char*>& at, int64_t j0, int64_t n) {
    const int64_t s = str[k][kd - 1];
    const DType from = nodes_[node].dtype;
    if (span_rows == 0) return put(k, at[k] + j0 * s * size[k], s, from, rp[node], rs[node], n);
    const int64_t step = rs[node] * itemsize(from);
    for (int64_t j = j0; j < j0 + n;) {
      const int64_t r = j / span_pitch, c = j - r * span_pitch;
      if (c >= span_inner) {
        j = (r + 1) * span_pitch;
        continue;
      }
      const int64_t m = std::min(span_inner - c, j0 + n - j);
      put(k, at[k] + (r * out_pitch[k] + c * s) * size[k], s, from,
          static_cast<const char*>(rp[node]) + (j - j0) * step, rs[node], m);
      j += m;
    }
  };
  // An extra output's node computes its blocks straight into the output where it is one run
  // of its dtype (the copy from a block buffer would be a pass of its own). Outputs never
  // alias the inputs, so writing one before the last node is computed changes no value read.
  auto& direct = ws.direct;  // per node: the argument its blocks are computed into, or -1
  direct.assign(nn, -1);
  if (span_rows == 0)
    for (const Extra& x : extras_) {
      const ExprNode& e = nodes_[x.node];
      // (never a node inside a chain: plan_chains counts an output as two reads)
      if (x.node != nn - 1 && e.kind != NodeKind::Input && e.kind != NodeKind::Const && str[x.arg][kd - 1] == 1 &&
          e.dtype == args[x.arg].store->dtype())
        direct[x.node] = x.arg;
    }
  auto& idx = ws.idx;
  idx.assign(kd, 0);
  const int64_t inner = ext[kd - 1];
  auto& row = ws.row;
  row.resize(nargs);
  while (true) {
    for (int k = 0; k < nargs; ++k) {
      int64_t off = 0;
      for (int d = 0; d < kd - 1; ++d) off += idx[d] * str[k][d];
      row[k] = base[k] + off * size[k];
    }
    for (int64_t j0 = 0; j0 < inner; j0 += kBlock) {
      const int64_t n = std::min(kBlock, inner - j0);
      const int64_t out_s = str[0][kd - 1];
      char* out_ptr = row[0] + j0 * out_s * size[0];
      for (int i = 0; i < nn; ++i) {
        // The other outputs are stored before the result is computed: the result may be
        // written where an input is read (the same view), and they never are.
        if (i == nn - 1)
          for (const Extra& x : extras_)
            if (x.node < i && !(direct[x.node] == x.arg && rs[x.node] != 0)) store(x.arg, x.node, row, j0, n);
        const ExprNode& e = nodes_[i];
        const int chain = planned ? chain_at_[static_cast<size_t>(i)] : -1;
        if (chain == kInChain) continue;  // its chain computes it in registers
        char* b = (i == nn - 1 && out_s == 1 && span_rows == 0 && e.dtype == out_t &&
                   (e.kind == NodeKind::Unary || e.kind == NodeKind::Binary || e.kind == NodeKind::Where))
                      ? out_ptr
                  : direct[i] >= 0 ? row[direct[i]] + j0 * size[direct[i]]
                                   : buf(i);
        if (chain >= 0) {
          const Chain& ch = chains_[static_cast<size_t>(chain)];
          int64_t s = rs[ch.start];
          steps.resize(static_cast<size_t>(ch.count));
          for (int k = 0; k < ch.count; ++k) {
            const PlannedStep& p = chain_steps_[static_cast<size_t>(ch.first + k)];
            if (p.operand < 0) {
              steps[static_cast<size_t>(k)] = {p.op, nullptr, 0, p.f};
              continue;
            }
            steps[static_cast<size_t>(k)] = {p.op, rp[p.operand], rs[p.operand]};
            s |= rs[p.operand];
            if (p.cond >= 0) {
              steps[static_cast<size_t>(k)].cond = static_cast<const uint8_t*>(rp[p.cond]);
              steps[static_cast<size_t>(k)].cond_stride = rs[p.cond];
              s |= rs[p.cond];
            }
          }
          ch.loop(b, rp[ch.start], rs[ch.start], steps.data(), ch.count, s ? n : 1);
          rp[i] = b;
          rs[i] = s;
          continue;
        }
        switch (e.kind) {
          case NodeKind::Input: {
            const int k = 1 + e.input;
            const int64_t s = str[k][kd - 1];
            const char* src = row[k] + j0 * s * size[k];
            const DType st = args[k].store->dtype();
            if (s == 1 && st == e.dtype) {
              rp[i] = src;
              rs[i] = 1;
            } else if (s == 0) {
              cast_loop(st, e.dtype)(b, src, 0, 1);
              rp[i] = b;
              rs[i] = 0;
            } else {
              cast_loop(st, e.dtype)(b, src, s, n);
              rp[i] = b;
              rs[i] = 1;
            }
            break;
          }
          case NodeKind::Const:
            rp[i] = e.value;
            rs[i] = 0;
            break;
          case NodeKind::Index: {
            int64_t* o = reinterpret_cast<int64_t*>(b);
            int p = -1;
            for (int d = 0; d < kd; ++d)
              if (axis_of[d] == e.axis) p = d;
            if (p == kd - 1) {
              for (int64_t t = 0; t < n; ++t) o[t] = tile.lo[e.axis] + j0 + t;
              rs[i] = 1;
            } else {
              o[0] = p < 0 ? tile.lo[e.axis] : tile.lo[e.axis] + idx[p];
              rs[i] = 0;
            }
            rp[i] = b;
            break;
          }
          case NodeKind::Cast:
            cast_loop(nodes_[e.a].dtype, e.dtype)(b, rp[e.a], rs[e.a], rs[e.a] ? n : 1);
            rp[i] = b;
            rs[i] = rs[e.a];
            break;
          case NodeKind::Unary:
            e.unary(b, rp[e.a], rs[e.a], rs[e.a] ? n : 1);
            rp[i] = b;
            rs[i] = rs[e.a];
            break;
          case NodeKind::Binary: {
            const int64_t s = rs[e.a] | rs[e.b];
            e.binary(b, rp[e.a], rs[e.a], rp[e.b], rs[e.b], s ? n : 1);
            rp[i] = b;
            rs[i] = s;
            break;
          }
          case NodeKind::Where: {
            const int64_t s = rs[e.a] | rs[e.b] | rs[e.c];
            e.where(b, rp[e.c], rs[e.c], rp[e.a], rs[e.a], rp[e.b], rs[e.b], s ? n : 1);
            rp[i] = b;
            rs[i] = s;
            break;
          }
        }
      }
      for (const Extra& x : extras_)
        if (x.node == nn - 1) store(x.arg, x.node, row, j0, n);
      if (rp[nn - 1] == out_ptr && rs[nn - 1] != 0 && (span_rows == 0 || out_pitch[0] == span_pitch)) continue;
      store(0, nn - 1, row, j0, n);
    }
    int d = kd - 2;
    while (d >= 0 && ++idx[d] == ext[d]) idx[d--] = 0;
    if (d < 0) break;
  }
}

}  // namespace tessera::detail
