// Block-wise evaluation of element-wise expressions and their construction.
#include "numeric/elementwise/expression.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>

#include "comm/residency.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"
#include "runtime/transfer.h"
#include "numeric/elementwise/vector_loops.h"
#include "tessera/errors.h"

namespace tessera::detail {
namespace {
constexpr int64_t kBlock = 1024;
constexpr int kOwnBuffers = 8;  // expressions of up to this many nodes give each its buffer

// Copies n elements of `size` bytes from contiguous `src` to `dst` with a stride in elements.
void scatter(char* dst, int64_t stride, const char* src, int64_t n, int size) {
  switch (size) {
    case 1: for (int64_t i = 0; i < n; ++i) dst[i * stride] = src[i]; break;
    case 2: for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * stride * 2, src + i * 2, 2); break;
    case 4: for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * stride * 4, src + i * 4, 4); break;
    case 8: for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * stride * 8, src + i * 8, 8); break;
    default: for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * stride * size, src + i * size, size); break;
  }
}

// The emptied vectors of the last small element-wise operation a thread destroyed, with their
// capacity: the next one made on the thread takes them instead of allocating its own.
struct SpareVectors {
  std::vector<OpArg> args;
  std::vector<Constraint> constraints;
  std::vector<ExprNode> nodes;
  bool held = false;
  ~SpareVectors();
};
thread_local SpareVectors t_spare;
thread_local bool t_spare_gone = false;  // the thread is ending: t_spare is no more
SpareVectors::~SpareVectors() { t_spare_gone = true; }
// Vectors that grew past this (a long fused chain) are not kept.
constexpr size_t kSpareCapacity = 8;
}  // namespace

ElementwiseOp::ElementwiseOp(std::string op_name, StorePtr out) {
  name = std::move(op_name);
  if (!t_spare_gone && t_spare.held) {
    args.swap(t_spare.args);
    constraints.swap(t_spare.constraints);
    nodes_.swap(t_spare.nodes);
    t_spare.held = false;
  } else {
    // The common operation has one or two inputs: no regrowth on the small-operation path.
    args.reserve(4);
    constraints.reserve(3);
    nodes_.reserve(4);
  }
  add(std::move(out), false, true);
}

ElementwiseOp::~ElementwiseOp() {
  if (t_spare_gone || t_spare.held || args.capacity() > kSpareCapacity || constraints.capacity() > kSpareCapacity ||
      nodes_.capacity() > kSpareCapacity)
    return;
  args.clear();  // the stores go now, not when the next operation takes the vectors
  constraints.clear();
  nodes_.clear();
  args.swap(t_spare.args);
  constraints.swap(t_spare.constraints);
  nodes_.swap(t_spare.nodes);
  t_spare.held = true;
}

void ElementwiseOp::align_inputs() {
  constraints.clear();
  for (int k = 1; k < static_cast<int>(args.size()); ++k) constraints.push_back(align(k, 0));
}

int ElementwiseOp::push(ExprNode n) {
  nodes_.push_back(n);
  weigh();
  return static_cast<int>(nodes_.size()) - 1;
}

// The work per element is about one vector loop per computing node: a long fused expression
// is worth cutting into tiles at fewer elements than a single add.
void ElementwiseOp::weigh() {
  weight = 0;
  for (const ExprNode& e : nodes_)
    weight += e.kind == NodeKind::Unary || e.kind == NodeKind::Binary || e.kind == NodeKind::Where;
  weight = std::max<int64_t>(1, weight);
}

int ElementwiseOp::add_input(StorePtr input) {
  TESSERA_CHECK(input->shape() == domain(), "element-wise input not broadcast to the domain");
  TESSERA_CHECK(extras_.empty(), "inputs are added before the operation is merged");
  add_aligned(0, std::move(input), true, false);
  return inputs_++;
}

int ElementwiseOp::input_node(int input, DType as) {
  ExprNode n{NodeKind::Input, as};
  n.input = input;
  return push(n);
}

int ElementwiseOp::const_node(const Scalar& value, DType as) {
  ExprNode n{NodeKind::Const, as};
  value.to_bytes(as, n.value);
  return push(n);
}

int ElementwiseOp::index_node(int axis) {
  ExprNode n{NodeKind::Index, DType::Int64};
  n.axis = axis;
  has_index_ = true;
  return push(n);
}

int ElementwiseOp::cast_node(int a, DType to) {
  if (nodes_[a].dtype == to) return a;
  ExprNode n{NodeKind::Cast, to};
  n.a = a;
  return push(n);
}

int ElementwiseOp::unary_node(UnaryOp op, DType compute, int a) {
  a = cast_node(a, compute);
  ExprNode n{NodeKind::Unary, compute};
  n.a = a;
  n.unary_op = op;
  n.unary = unary_loop(op, compute, &n.dtype);
  TESSERA_CHECK(n.unary, std::string("no loop for ") + unary_name(op));
  return push(n);
}

int ElementwiseOp::binary_node(BinaryOp op, DType compute, int a, int b) {
  a = cast_node(a, compute);
  b = cast_node(b, compute);
  ExprNode n{NodeKind::Binary, compute};
  n.a = a;
  n.b = b;
  n.binary = binary_loop(op, compute, &n.dtype);
  n.binary_op = op;
  TESSERA_CHECK(n.binary, std::string("no loop for ") + binary_name(op));
  return push(n);
}

int ElementwiseOp::where_node(int cond, int a, int b) {
  ExprNode n{NodeKind::Where, nodes_[a].dtype};
  n.a = a;
  n.b = b;
  n.c = cond;
  n.where = where_loop(n.dtype);
  return push(n);
}

namespace {
bool floating(DType t) { return t == DType::Float32 || t == DType::Float64; }
}  // namespace

void ElementwiseOp::prepare() {
  plan_chains();
  plan_buffers();
}

void ElementwiseOp::plan_chains() {
  const int nn = static_cast<int>(nodes_.size());
  int computing = 0;  // a chain needs two operations: most small operations have one
  for (const ExprNode& e : nodes_)
    computing += e.kind == NodeKind::Binary || e.kind == NodeKind::Unary || e.kind == NodeKind::Where;
  if (computing < 2) {
    chain_at_.clear();
    return;
  }
  chains_.clear();
  chain_steps_.clear();
  chain_at_.assign(static_cast<size_t>(nn), -1);
  // How often each node's value is read: by other nodes, as an output (twice: never in a chain).
  std::vector<int> uses(static_cast<size_t>(nn), 0);
  for (const ExprNode& e : nodes_)
    for (int c : {e.a, e.b, e.c})
      if (c >= 0) ++uses[static_cast<size_t>(c)];
  for (const Extra& x : extras_) uses[static_cast<size_t>(x.node)] += 2;
  uses[static_cast<size_t>(nn - 1)] += 2;
  struct Building {
    int start;
    std::vector<PlannedStep> steps;
    std::vector<int> nodes;  // the nodes it computes, the last one its end
  };
  std::vector<Building> built;
  std::vector<int> ends(static_cast<size_t>(nn), -1);  // the chain node i ends so far
  // The chain node j ends, when node i may continue it (nothing else reads j), else -1.
  auto continued = [&](int j) { return uses[static_cast<size_t>(j)] == 1 ? ends[static_cast<size_t>(j)] : -1; };
  // Node i as `step` of chain c, or of a new chain from node `start` when c < 0.
  auto extend = [&](int i, int c, int start, PlannedStep step) {
    if (c < 0) {
      c = static_cast<int>(built.size());
      built.push_back({start, {}, {}});
    }
    built[static_cast<size_t>(c)].steps.push_back(step);
    built[static_cast<size_t>(c)].nodes.push_back(i);
    ends[static_cast<size_t>(i)] = c;
  };
  for (int i = 0; i < nn; ++i) {
    const ExprNode& e = nodes_[static_cast<size_t>(i)];
    if (e.kind != NodeKind::Unary && e.kind != NodeKind::Binary && e.kind != NodeKind::Where) continue;
    if (!floating(e.dtype) || nodes_[static_cast<size_t>(e.a)].dtype != e.dtype) continue;
    if (e.kind == NodeKind::Unary) {
      extend(i, continued(e.a), e.a, {chain_step(e.unary_op), -1, e.unary});
      continue;
    }
    if (e.kind == NodeKind::Where) {  // where(c, a, b): the running value one of the choices
      if (nodes_[static_cast<size_t>(e.b)].dtype != e.dtype || nodes_[static_cast<size_t>(e.c)].dtype != DType::Bool)
        continue;
      if (const int c = continued(e.a); c >= 0) extend(i, c, e.a, {ChainOp::WhereTrue, e.b, nullptr, e.c});
      else if (const int d = continued(e.b); d >= 0) extend(i, d, e.b, {ChainOp::WhereFalse, e.a, nullptr, e.c});
      else extend(i, -1, e.a, {ChainOp::WhereTrue, e.b, nullptr, e.c});
      continue;
    }
    if (nodes_[static_cast<size_t>(e.b)].dtype != e.dtype) continue;  // a binary node from here
    ChainOp op;
    if (!chain_step(e.binary_op, false, &op)) continue;
    if (const int c = continued(e.a); c >= 0) {
      extend(i, c, e.a, {op, e.b});
    } else if (const int d = continued(e.b); d >= 0) {
      chain_step(e.binary_op, true, &op);
      extend(i, d, e.b, {op, e.a});
    } else {
      extend(i, -1, e.a, {op, e.b});
    }
  }
  for (Building& b : built) {
    if (b.steps.size() < 2) continue;  // a single operation: its own loop serves
    const ChainLoop loop = vector_chain_loop(nodes_[static_cast<size_t>(b.nodes.back())].dtype);
    if (!loop) continue;
    for (int node : b.nodes) chain_at_[static_cast<size_t>(node)] = kInChain;
    chain_at_[static_cast<size_t>(b.nodes.back())] = static_cast<int>(chains_.size());
    chains_.push_back({b.start, static_cast<int>(chain_steps_.size()), static_cast<int>(b.steps.size()), loop});
    chain_steps_.insert(chain_steps_.end(), b.steps.begin(), b.steps.end());
  }
  if (chains_.empty()) chain_at_.clear();
}

// Nodes share block buffers: a node takes a free one, and the buffers of the values it
// reads for the last time are free after it (never its own: a cast that widens must not
// write where it reads). A long expression then works in a few buffers that stay in the
// L1 cache instead of one per node.
void ElementwiseOp::plan_buffers() {
  const int nn = static_cast<int>(nodes_.size());
  if (nn <= kOwnBuffers) {  // a buffer per node is as small: nothing to plan
    slot_.clear();
    return;
  }
  const bool planned = chain_at_.size() == nodes_.size();
  auto reads = [&](int i, std::vector<int>& out) {
    out.clear();
    const int chain = planned ? chain_at_[static_cast<size_t>(i)] : -1;
    if (chain == kInChain) return;
    if (chain >= 0) {
      const Chain& ch = chains_[static_cast<size_t>(chain)];
      out.push_back(ch.start);
      for (int k = 0; k < ch.count; ++k) {
        const PlannedStep& p = chain_steps_[static_cast<size_t>(ch.first + k)];
        for (int j : {p.operand, p.cond})
          if (j >= 0) out.push_back(j);
      }
    } else {
      const ExprNode& e = nodes_[static_cast<size_t>(i)];
      for (int c : {e.a, e.b, e.c})
        if (c >= 0) out.push_back(c);
    }
  };
  std::vector<int> last(static_cast<size_t>(nn), -1), operands;
  for (int i = 0; i < nn; ++i) {
    reads(i, operands);
    for (int j : operands) last[static_cast<size_t>(j)] = i;
  }
  for (const Extra& x : extras_) last[static_cast<size_t>(x.node)] = nn;  // stored at the end
  last[static_cast<size_t>(nn - 1)] = nn;
  slot_.assign(static_cast<size_t>(nn), -1);
  slots_ = 0;
  std::vector<int> spare;
  for (int i = 0; i < nn; ++i) {
    const bool in_chain = planned && chain_at_[static_cast<size_t>(i)] == kInChain;
    if (!in_chain && nodes_[static_cast<size_t>(i)].kind != NodeKind::Const) {
      if (spare.empty()) spare.push_back(slots_++);
      slot_[static_cast<size_t>(i)] = spare.back();
      spare.pop_back();
    }
    reads(i, operands);
    std::sort(operands.begin(), operands.end());
    operands.erase(std::unique(operands.begin(), operands.end()), operands.end());
    for (int j : operands)
      if (last[static_cast<size_t>(j)] == i && slot_[static_cast<size_t>(j)] >= 0) spare.push_back(slot_[static_cast<size_t>(j)]);
  }
}

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
    for (int k = 0; k < nargs && merge; ++k)
      merge = str[k].back() == stride(k, d) * e;
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
  auto& out_pitch = ws.pitch;  // per argument: its stride between the span's rows (outputs)
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
      if (moved) base[k] = reinterpret_cast<char*>(reinterpret_cast<uintptr_t>(moved) +
                                                   (base[k] - redirect->storage->data()));
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
            if (s == 1 && st == e.dtype) { rp[i] = src; rs[i] = 1; }
            else if (s == 0) { cast_loop(st, e.dtype)(b, src, 0, 1); rp[i] = b; rs[i] = 0; }
            else { cast_loop(st, e.dtype)(b, src, s, n); rp[i] = b; rs[i] = 1; }
            break;
          }
          case NodeKind::Const: rp[i] = e.value; rs[i] = 0; break;
          case NodeKind::Index: {
            int64_t* o = reinterpret_cast<int64_t*>(b);
            int p = -1;
            for (int d = 0; d < kd; ++d) if (axis_of[d] == e.axis) p = d;
            if (p == kd - 1) { for (int64_t t = 0; t < n; ++t) o[t] = tile.lo[e.axis] + j0 + t; rs[i] = 1; }
            else { o[0] = p < 0 ? tile.lo[e.axis] : tile.lo[e.axis] + idx[p]; rs[i] = 0; }
            rp[i] = b;
            break;
          }
          case NodeKind::Cast:
            cast_loop(nodes_[e.a].dtype, e.dtype)(b, rp[e.a], rs[e.a], rs[e.a] ? n : 1);
            rp[i] = b; rs[i] = rs[e.a];
            break;
          case NodeKind::Unary:
            e.unary(b, rp[e.a], rs[e.a], rs[e.a] ? n : 1);
            rp[i] = b; rs[i] = rs[e.a];
            break;
          case NodeKind::Binary: {
            const int64_t s = rs[e.a] | rs[e.b];
            e.binary(b, rp[e.a], rs[e.a], rp[e.b], rs[e.b], s ? n : 1);
            rp[i] = b; rs[i] = s;
            break;
          }
          case NodeKind::Where: {
            const int64_t s = rs[e.a] | rs[e.b] | rs[e.c];
            e.where(b, rp[e.c], rs[e.c], rp[e.a], rs[e.a], rp[e.b], rs[e.b], s ? n : 1);
            rp[i] = b; rs[i] = s;
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

// ---- Computing in place ---------------------------------------------------------------
//
// Rows are along the domain's first axis. With the aliased inputs' views shifted from the
// output's, output row q occupies the addresses that the inputs read for output rows q + lo
// .. q + hi and no others. Computed in order, row q may be written once rows up to
// q + max(hi, 0) are computed: a tile computes a group of rows ahead into a buffer and writes
// back behind. A row another tile reads (among the first -lo of a tile with a neighbour
// above, the last hi of one with a neighbour below) waits in `kept` for InPlaceRowsOp.
struct ElementwiseOp::InPlace {
  int64_t lo = 0, hi = 0;
  std::vector<Rect> tiles;  // the operation's launch: bands of rows, in order
  struct Rows {
    int64_t first = 0;
    std::vector<char> values;  // C order, whole along the other axes
  };
  // Per boundary between tiles t and t + 1: the last rows of t, the first rows of t + 1.
  std::vector<std::array<Rows, 2>> kept;
};

namespace {

constexpr int64_t kRowGroupBytes = 64 << 10;  // rows computed ahead of writing, at least

int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
int64_t ceil_div(int64_t a, int64_t b) { return -floor_div(-a, b); }

// Copies rows [r0, r1) of `out`'s shape, dense in C order at `src`, into `out`.
void put_rows(const Store& out, int64_t r0, int64_t r1, const char* src) {
  const Shape& shape = out.shape();
  const int nd = static_cast<int>(shape.size());
  const int size = itemsize(out.dtype());
  const int64_t stride = out.strides()[nd - 1];
  if (r0 >= r1) return;
  if (nd == 1) {  // a row is an element: one run
    scatter(out.ptr({r0}), stride, src, r1 - r0, size);
    return;
  }
  const int64_t run = shape[nd - 1];
  Shape idx(nd, 0);
  idx[0] = r0;
  while (idx[0] < r1) {
    char* dst = out.ptr(idx);
    if (stride == 1) std::memcpy(dst, src, static_cast<size_t>(run * size));
    else scatter(dst, stride, src, run, size);
    src += run * size;
    int d = nd - 2;
    while (d > 0 && ++idx[d] == shape[d]) idx[d--] = 0;
    if (d == 0) ++idx[0];
  }
}

// Writes the rows an in-place operation's tiles kept for their neighbours: one point per
// boundary between its tiles, after the two tiles (and before any later reader of the rows).
class InPlaceRowsOp final : public Operation {
 public:
  InPlaceRowsOp(StorePtr out, std::shared_ptr<ElementwiseOp::InPlace> rows) : rows_(std::move(rows)) {
    name = "in-place rows";
    add(std::move(out), false, true);
  }
  std::shared_ptr<const Launch> own_launch() const override {
    auto launch = std::make_shared<Launch>();
    const std::vector<Rect>& tiles = rows_->tiles;
    const int64_t above = std::max<int64_t>(0, rows_->hi), below = std::max<int64_t>(0, -rows_->lo);
    for (size_t t = 0; t + 1 < tiles.size(); ++t) {
      Rect band = tiles[t];
      band.lo[0] = std::max(tiles[t].lo[0], tiles[t].hi[0] - above);
      band.hi[0] = std::min(tiles[t + 1].hi[0], tiles[t].hi[0] + below);
      launch->tiles.push_back(band);
      launch->rects.push_back({std::move(band)});
    }
    launch->key = 0;
    return launch;
  }
  int64_t traffic(const std::vector<Rect>& rects) const override {
    return 2 * rects[0].volume() * itemsize(args[0].store->dtype());
  }
  bool writes_for(const ElementwiseOp::InPlace& rows) const { return rows_.get() == &rows; }
  void execute(const Point& point) override {
    if (static_cast<size_t>(point.index) >= rows_->kept.size()) return;  // one tile: none kept
    const Store& out = *args[0].store;
    const int64_t row_bytes = out.size() / out.shape()[0] * itemsize(out.dtype());
    for (ElementwiseOp::InPlace::Rows& r : rows_->kept[static_cast<size_t>(point.index)]) {
      put_rows(out, r.first, r.first + static_cast<int64_t>(r.values.size()) / row_bytes, r.values.data());
      std::vector<char>().swap(r.values);
    }
  }

 private:
  std::shared_ptr<ElementwiseOp::InPlace> rows_;
};

}  // namespace

bool ElementwiseOp::writes_kept_rows(const Operation& op) const {
  const auto* rows = dynamic_cast<const InPlaceRowsOp*>(&op);
  return rows && in_place_ && rows->writes_for(*in_place_);
}

OperationPtr ElementwiseOp::compute_in_place() {
  if (num_outputs() != 1 || domain().empty() || domain()[0] < 2 || in_place_) return nullptr;
  const Store& out = *args[0].store;
  if (out.size() == 0 || out.dtype() != out.storage()->dtype()) return nullptr;
  const int nd = static_cast<int>(domain().size());
  const Shape& st = out.strides();
  // The addresses (elements) one row spans; rows must not overlap each other.
  int64_t below = 0, above = 0;
  for (int d = 1; d < nd; ++d) (st[d] < 0 ? below : above) += (domain()[d] - 1) * st[d];
  const int64_t span = above - below, s0 = st[0];
  if (s0 <= span) return nullptr;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (int k = 1; k <= inputs_; ++k) {
    const Store& in = *args[k].store;
    if (in.storage() != out.storage()) continue;
    if (in.dtype() != out.dtype()) return nullptr;
    for (int d = 0; d < nd; ++d)
      if (domain()[d] > 1 && in.strides()[d] != st[d]) return nullptr;
    // Input row r and output row q share addresses when |delta + (r - q) s0| <= span.
    const int64_t delta = in.offset() - out.offset();
    const int64_t first = ceil_div(-span - delta, s0), last = floor_div(span - delta, s0);
    if (first > last) continue;
    lo = std::min(lo, first);
    hi = std::max(hi, last);
  }
  if (lo > hi) return nullptr;
  in_place_ = std::make_shared<InPlace>();
  in_place_->lo = std::max(lo, 1 - domain()[0]);
  in_place_->hi = std::min(hi, domain()[0] - 1);
  points_ordered = true;
  Shape whole_rows = domain();  // tiles are bands of whole rows
  whole_rows[0] = 1;
  constraints.push_back(min_extents(0, std::move(whole_rows)));
  return std::make_shared<InPlaceRowsOp>(args[0].store, in_place_);
}

void ElementwiseOp::launched_in_place(const Launch& launch) {
  if (!in_place_) return;
  in_place_->tiles = launch.tiles;
  for (size_t t = 1; t < launch.tiles.size(); ++t)
    TESSERA_CHECK(launch.tiles[t].lo[0] == launch.tiles[t - 1].hi[0], "in-place tiles are bands of rows in order");
  in_place_->kept.assign(launch.tiles.empty() ? 0 : launch.tiles.size() - 1, {});
}

void ElementwiseOp::execute_in_place(const Point& point) const {
  const Rect& tile = point.tile;
  const int64_t a = tile.lo[0], b = tile.hi[0];
  if (a >= b) return;
  const size_t t = static_cast<size_t>(point.index);
  const bool up = t > 0, down = t + 1 < static_cast<size_t>(point.count);  // neighbouring tiles
  const Store& out = *args[0].store;
  const int64_t row_bytes = volume(domain()) / domain()[0] * itemsize(out.dtype());
  const int64_t lag = std::max<int64_t>(0, in_place_->hi);
  const int64_t group = std::max<int64_t>({1, lag, kRowGroupBytes / std::max<int64_t>(1, row_bytes)});
  // Rows a neighbouring tile reads: [a, front) and [back, b).
  const int64_t front = up ? std::min(b, a - std::min<int64_t>(0, in_place_->lo)) : a;
  const int64_t back = down ? std::max(a, b - lag) : b;
  // Two slots of a group of rows each: group g is computed into slot g % 2, which holds
  // nothing unwritten by then (group g - 2 was written back once g - 1 was computed, as the
  // lag is at most a group).
  thread_local std::vector<char> buffer;
  buffer.resize(static_cast<size_t>(2 * group * row_bytes));
  auto at = [&](int64_t row) {
    const int64_t g = (row - a) / group;
    return buffer.data() + ((g % 2) * group + (row - a - g * group)) * row_bytes;
  };
  // Rows [from, to) of the buffer: to the array, or kept for a neighbouring tile. A range
  // crosses at most one slot boundary.
  auto emit = [&](int64_t from, int64_t to, InPlace::Rows* kept) {
    while (from < to) {
      const int64_t end = std::min(to, a + ((from - a) / group + 1) * group);
      if (kept) {
        if (kept->values.empty()) kept->first = from;  // else the rows continue those kept before
        kept->values.insert(kept->values.end(), at(from), at(from) + (end - from) * row_bytes);
      } else {
        put_rows(out, from, end, at(from));
      }
      from = end;
    }
  };
  int64_t computed = a, written = a;  // the buffer holds rows [written, computed)
  Rect part = tile;
  while (computed < b) {
    part.lo[0] = computed;
    part.hi[0] = std::min(b, computed + group);
    evaluate(part, at(computed));
    computed = part.hi[0];
    const int64_t upto = computed == b ? b : computed - lag;  // rows no row still to compute reads
    if (upto <= written) continue;
    const int64_t f = std::min(upto, std::max(written, front)), k = std::max(f, std::min(upto, back));
    if (f > written) emit(written, f, &in_place_->kept[t - 1][1]);
    emit(f, k, nullptr);
    if (upto > k) emit(k, upto, &in_place_->kept[t][0]);
    written = upto;
  }
}

bool ElementwiseOp::merge(const ElementwiseOp& producer, const std::vector<bool>& keep_given) {
  const ElementwiseOp& p = producer;
  if (p.domain() != domain() || in_place_ || p.in_place_) return false;
  const int po = p.num_outputs();
  std::vector<bool> keep(keep_given);
  auto same = [](const Store& a, const Store& b) { return a.same_view(b) && a.dtype() == b.dtype(); };
  // Which producer output each of my inputs reads (-1: none). A read of another view of
  // what the producer writes would need values this pass has not made yet (or has overwritten).
  std::vector<int> reads(inputs_, -1);
  bool any = false;
  for (int k = 0; k < inputs_; ++k) {
    const Store& in = *args[1 + k].store;
    for (int o = 0; o < po; ++o) {
      const Store& out = *p.output(o);
      if (in.storage() != out.storage()) continue;
      if (!same(in, out)) return false;
      reads[k] = o;
      any = true;
    }
  }
  if (!any) return false;
  // My outputs against the producer's arguments. The result may be written where the
  // producer reads only as the same view (each element read before it is written); an output
  // the producer also writes, as the same view, overwrites it: the producer's write goes.
  for (int m = 0; m < num_outputs(); ++m) {
    const Store& mine = *output(m);
    for (int k = 1; k <= p.inputs_; ++k) {
      const Store& in = *p.args[k].store;
      if (in.storage() == mine.storage() && (m > 0 || !same(in, mine))) return false;
    }
    for (int o = 0; o < po; ++o) {
      const Store& out = *p.output(o);
      if (out.storage() != mine.storage()) continue;
      if (!same(out, mine)) return false;
      keep[o] = false;
    }
  }
  // The merged inputs: mine that the producer does not make, then the producer's (one input
  // for two reads of the same view). An output kept besides the result must not be read as
  // an input: its block is stored before the result is computed.
  std::vector<OpArg> inputs;
  std::vector<int> my_input(inputs_, -1), its_input(p.inputs_, -1);
  for (int k = 0; k < inputs_; ++k) {
    if (reads[k] >= 0) continue;
    my_input[k] = static_cast<int>(inputs.size());
    inputs.push_back(args[1 + k]);
  }
  for (int k = 0; k < p.inputs_; ++k) {
    const OpArg& a = p.args[1 + k];
    for (size_t q = 0; q < inputs.size() && its_input[k] < 0; ++q)
      if (same(*inputs[q].store, *a.store)) its_input[k] = static_cast<int>(q);
    if (its_input[k] >= 0) continue;
    its_input[k] = static_cast<int>(inputs.size());
    inputs.push_back(a);
  }
  std::vector<OpArg> outs;  // extra outputs, with their nodes and origins below
  std::vector<int> out_node;
  std::vector<Origin> out_origin;
  for (int o = 0; o < po; ++o) {
    if (!keep[o]) continue;
    for (const OpArg& in : inputs)
      if (in.store->storage() == p.output(o)->storage()) return false;
    const int arg = o == 0 ? 0 : p.extras_[o - 1].arg;
    outs.push_back(p.args[arg]);
    out_node.push_back(o == 0 ? static_cast<int>(p.nodes_.size()) - 1 : p.extras_[o - 1].node);
    out_origin.push_back(p.origin(arg));
  }
  for (const Extra& x : extras_)
    for (const OpArg& in : inputs)
      if (in.store->storage() == args[x.arg].store->storage()) return false;

  // The nodes: the producer's, then mine, whose reads of its outputs become its nodes.
  std::vector<ExprNode> merged(p.nodes_);
  for (ExprNode& e : merged)
    if (e.kind == NodeKind::Input) e.input = its_input[e.input];
  auto add = [&](ExprNode n) { merged.push_back(n); return static_cast<int>(merged.size()) - 1; };
  std::vector<int> map(nodes_.size());
  for (size_t i = 0; i < nodes_.size(); ++i) {
    ExprNode e = nodes_[i];
    if (e.kind == NodeKind::Input && reads[e.input] >= 0) {
      const int o = reads[e.input];
      int r = o == 0 ? static_cast<int>(p.nodes_.size()) - 1 : p.extras_[o - 1].node;
      // Keep the rounding of the stored dtype, then convert as the load did.
      const DType stored = p.output(o)->dtype();
      if (merged[r].dtype != stored) { ExprNode c{NodeKind::Cast, stored}; c.a = r; r = add(c); }
      if (stored != e.dtype) { ExprNode c{NodeKind::Cast, e.dtype}; c.a = r; r = add(c); }
      map[i] = r;
      continue;
    }
    if (e.a >= 0) e.a = map[e.a];
    if (e.b >= 0) e.b = map[e.b];
    if (e.c >= 0) e.c = map[e.c];
    if (e.kind == NodeKind::Input) e.input = my_input[e.input];
    map[i] = add(e);
  }
  // The result stays the last node.
  const int root = map[nodes_.size() - 1];
  if (root != static_cast<int>(merged.size()) - 1) {
    ExprNode c{NodeKind::Cast, merged[root].dtype};
    c.a = root;
    add(c);
  }

  std::vector<Extra> extras;
  std::vector<OpArg> rebuilt;
  rebuilt.reserve(1 + inputs.size() + extras_.size() + outs.size());
  rebuilt.push_back(args[0]);
  for (OpArg& a : inputs) rebuilt.push_back(std::move(a));
  for (const Extra& x : extras_) {
    extras.push_back({static_cast<int>(rebuilt.size()), map[x.node], x.name, x.provenance});
    rebuilt.push_back(args[x.arg]);
  }
  for (size_t q = 0; q < outs.size(); ++q) {
    extras.push_back({static_cast<int>(rebuilt.size()), out_node[q], out_origin[q].name, out_origin[q].provenance});
    rebuilt.push_back(outs[q]);
  }
  inputs_ = static_cast<int>(inputs.size());
  args = std::move(rebuilt);
  extras_ = std::move(extras);
  nodes_ = std::move(merged);
  weigh();
  has_index_ = has_index_ || p.has_index_;
  align_inputs();
  return true;
}

std::shared_ptr<ElementwiseOp> ElementwiseOp::split_outputs(const std::vector<int>& ks) {
  // The result of the new operation is the output computed last; the others are its extras.
  std::vector<Extra> taken;
  for (int k : ks) taken.push_back(extras_[static_cast<size_t>(k - 1)]);
  std::sort(taken.begin(), taken.end(), [](const Extra& a, const Extra& b) { return a.node < b.node; });
  const Extra& last = taken.back();
  std::vector<bool> need(nodes_.size());
  for (const Extra& x : taken) need[x.node] = true;
  for (int i = last.node; i >= 0; --i) {
    if (!need[i]) continue;
    for (int c : {nodes_[i].a, nodes_[i].b, nodes_[i].c})
      if (c >= 0) need[c] = true;
  }
  auto op = std::make_shared<ElementwiseOp>(last.name, args[last.arg].store);
  op->provenance = last.provenance;
  op->has_index_ = has_index_;
  std::vector<int> map(nodes_.size(), -1), input(inputs_, -1);
  for (int i = 0; i <= last.node; ++i) {
    if (!need[i]) continue;
    ExprNode e = nodes_[i];
    for (int* c : {&e.a, &e.b, &e.c})
      if (*c >= 0) *c = map[*c];
    if (e.kind == NodeKind::Input) {
      if (input[e.input] < 0) input[e.input] = op->add_input(args[1 + e.input].store);
      e.input = input[e.input];
    }
    map[i] = op->push(e);
  }
  for (size_t q = 0; q + 1 < taken.size(); ++q) {
    const Extra& x = taken[q];
    op->extras_.push_back({static_cast<int>(op->args.size()), map[x.node], x.name, x.provenance});
    op->args.push_back(args[x.arg]);
    op->args.back().read = false;
    op->args.back().write = true;
  }
  op->align_inputs();
  // This operation keeps its other outputs.
  std::vector<int> gone;
  for (const Extra& x : taken) gone.push_back(x.arg);
  std::sort(gone.rbegin(), gone.rend());
  for (int arg : gone) {
    args.erase(args.begin() + arg);
    std::erase_if(extras_, [&](const Extra& e) { return e.arg == arg; });
    for (Extra& e : extras_)
      if (e.arg > arg) --e.arg;
  }
  align_inputs();
  return op;
}

namespace {

// An operation on two whole storages of one shape, `first` and `second`: `first` takes
// `second`'s memory with its own frame (the part outside `box`) copied across, and `second`
// takes `first`'s memory as it is. One point: the frame is small next to the box. When
// either's address is known outside (pinned), their memory stays put and `copy_instead` runs.
class FrameOp : public Operation {
 public:
  FrameOp(std::string op_name, StorePtr first, bool read_first, StorePtr second, bool read_second, Rect box)
      : box_(std::move(box)) {
    name = std::move(op_name);
    add(std::move(first), read_first, true);
    add(std::move(second), read_second, true);
    constraints.push_back(broadcast(0));
    constraints.push_back(broadcast(1));
  }
  int64_t traffic(const std::vector<Rect>&) const override {
    const Storage& s = *args[0].store->storage();
    return 2 * (s.elements() - box_.volume()) * itemsize(s.dtype());  // the frame, read and written
  }
  void execute(const Point&) override {
    Storage& first = *args[0].store->storage();
    Storage& second = *args[1].store->storage();
    first.allocate(name, provenance);
    second.allocate(name, provenance);
    if (first.movable() && second.movable()) {
      for (const Rect& b : subtract(Rect::of(first.shape()), box_)) copy_box(first, second, b);
      first.swap_memory(second);
    } else {
      copy_instead(first, second);
    }
  }

 protected:
  virtual void copy_instead(Storage& first, Storage& second) const = 0;
  Rect box_;
};

// Storage renaming: `a[box] = f(views of a)` computed into fresh storage of a's shape (at
// the box), then the frame — the part of a outside the box — copied across, and the two
// storages exchange memory. Every handle and view of `a` sees the new values; nothing copies
// the box back. (The target's frame is np.empty's when nothing wrote it: whatever it holds.)
class RenameOp final : public FrameOp {
 public:
  RenameOp(StorePtr target, StorePtr fresh, Rect box)
      : FrameOp("rename", std::move(target), false, std::move(fresh), true, std::move(box)) {}

 private:
  void copy_instead(Storage& target, Storage& fresh) const override { copy_box(fresh, target, box_); }
};

// A copy whose source is then overwritten in most of it: `pn = p.copy()` followed by
// `p[1:-1, 1:-1] = f(pn[...])`. The copy takes the source's memory as it is, and the source
// takes the copy's fresh memory with only the frame (the part the assignment leaves) copied
// across: the assignment writes the rest. The copy's values are those of a full copy; the
// source's are too once the assignment ran.
class ExchangeOp final : public FrameOp {
 public:
  ExchangeOp(StorePtr source, StorePtr copy, Rect box)
      : FrameOp("copy", std::move(source), true, std::move(copy), false, std::move(box)) {}

 private:
  void copy_instead(Storage& source, Storage& copy) const override { copy_box(source, copy, Rect::of(source.shape())); }
};


// Whether an operation of window[from, to) touches `storage` (writes it, with `writes`).
bool touched_between(const std::vector<OperationPtr>& window, size_t from, size_t to, const Storage* storage,
                     bool writes = false) {
  for (size_t j = from; j < to; ++j) {
    if (!window[j]) continue;
    for (const OpArg& a : window[j]->args)
      if (a.store && a.store->storage().get() == storage && (a.write || !writes)) return true;
  }
  return false;
}

// window[producer] copies a whole array into a fresh one, and window[consumer] is the next
// operation that touches either: when it overwrites a box of most of the source's storage
// and nothing between touches the source, the copy becomes an ExchangeOp, and what the
// consumer reads of the source it reads of the copy. False when the pattern differs.
bool exchange_into(std::vector<OperationPtr>& window, size_t producer, size_t consumer) {
  const auto* prod = static_cast<const ElementwiseOp*>(window[producer].get());
  auto* cons = static_cast<ElementwiseOp*>(window[consumer].get());
  if (Runtime::get().ranks() > 1 || prod->num_outputs() != 1 || cons->num_outputs() != 1) return false;
  const auto& nodes = prod->nodes();
  if (nodes.size() != 1 || nodes[0].kind != NodeKind::Input || prod->num_inputs() != 1) return false;
  const StorePtr& source = prod->args[1].store;
  const StorePtr& copy = prod->output();
  const std::shared_ptr<Storage>& storage = source->storage();
  if (!source->is_whole() || !copy->is_whole() || source->dtype() != copy->dtype() ||
      source->dtype() != storage->dtype() || source->shape() != copy->shape() ||
      copy->storage()->shape() != storage->shape() || !storage->movable() || !copy->storage()->movable())
    return false;
  const StorePtr& view = cons->output();
  if (view->storage() != storage || touched_between(window, producer + 1, consumer, storage.get())) return false;
  const std::optional<Rect> box = most_of_storage(*view);
  if (!box) return false;
  // What the assignment reads of the source (a stencil computed in place, say) it reads
  // from the copy instead: the same views of the same values, in the memory the copy takes.
  for (int k = 1; k <= cons->num_inputs(); ++k) {
    StorePtr& in = cons->args[static_cast<size_t>(k)].store;
    if (in->storage() == storage) in = copy->strided(in->offset(), in->shape(), in->strides());
  }
  auto exchange = std::make_shared<ExchangeOp>(source, copy, *box);
  exchange->provenance = prod->provenance;
  window[producer] = std::move(exchange);
  return true;
}

// The view window[consumer] copies the temporary window[producer] makes into, unchanged (one
// rank), or null: the assignment the producer may write itself (in place or renamed).
StorePtr copy_target(const std::vector<OperationPtr>& window, size_t producer, size_t consumer) {
  const auto* prod = static_cast<const ElementwiseOp*>(window[producer].get());
  const auto* cons = dynamic_cast<const ElementwiseOp*>(window[consumer].get());
  if (!cons || Runtime::get().ranks() > 1) return nullptr;
  const auto& nodes = cons->nodes();
  if (nodes.size() != 1 || nodes[0].kind != NodeKind::Input || cons->num_inputs() != 1) return nullptr;
  const StorePtr& temp = prod->output();
  const StorePtr& view = cons->output();
  if (cons->args[1].store != temp || temp->dtype() != view->dtype() || temp->shape() != view->shape()) return nullptr;
  return view;
}

// window[consumer] copies the temporary window[producer] makes into `view`, a box of a storage
// the producer reads through other views (so the two cannot fuse): the producer writes a fresh
// storage at that box and a RenameOp takes the copy's place. False when the pattern differs.
bool rename_into(std::vector<OperationPtr>& window, size_t producer, size_t consumer, const StorePtr& view) {
  auto* prod = static_cast<ElementwiseOp*>(window[producer].get());
  const std::shared_ptr<Storage>& storage = view->storage();
  const std::optional<Rect> box = storage->movable() ? most_of_storage(*view) : std::nullopt;
  if (!box) return false;
  StorePtr fresh = new_store(storage->dtype(), storage->shape(), prod->provenance);
  prod->retarget(fresh->strided(view->offset(), view->shape(), view->strides()));
  auto rename = rename_op(whole_store(storage), fresh, *box);
  rename->provenance = window[consumer]->provenance;
  window[consumer] = std::move(rename);
  return true;
}

// window[consumer] copies the temporary window[producer] makes into `view`, of a storage the
// producer reads through other views: the producer writes that view itself, in place, and
// the operation writing the rows its tiles keep for each other takes the copy's place.
// False when the pattern differs or an operation between them touches the storage.
bool in_place_into(std::vector<OperationPtr>& window, size_t producer, size_t consumer, const StorePtr& view) {
  auto* prod = static_cast<ElementwiseOp*>(window[producer].get());
  const StorePtr temp = prod->output();
  if (touched_between(window, producer + 1, consumer, view->storage().get())) return false;
  prod->retarget(view);
  OperationPtr rows = prod->compute_in_place();
  if (!rows) {
    prod->retarget(temp);
    return false;
  }
  rows->provenance = window[consumer]->provenance;
  window[consumer] = std::move(rows);
  return true;
}

}  // namespace

std::optional<Rect> most_of_storage(const Store& view) {
  const Storage& storage = *view.storage();
  if (view.dtype() != storage.dtype() || view.size() == 0) return std::nullopt;
  const Rect box = view.storage_rect(Rect::of(view.shape()));
  if (box.volume() != view.size() || box.volume() * 2 < storage.elements()) return std::nullopt;
  return box;
}

OperationPtr rename_op(StorePtr target, StorePtr fresh, Rect box) {
  return std::make_shared<RenameOp>(std::move(target), std::move(fresh), std::move(box));
}

namespace {

// Whether `op` touches what `prod` writes, or writes what it reads: `prod` cannot move past it.
bool touches(const Operation& op, const ElementwiseOp& prod) {
  for (const OpArg& a : op.args) {
    if (!a.store) continue;
    for (int o = 0; o < prod.num_outputs(); ++o)
      if (a.store->storage() == prod.output(o)->storage()) return true;
    if (!a.write) continue;
    for (int k = 1; k <= prod.num_inputs(); ++k)
      if (prod.args[k].store->storage() == a.store->storage()) return true;
  }
  return false;
}

// The first operation after window[at] that touches what `prod` (window[at]) writes or writes
// what it reads, or the window's size.
size_t next_touching(const std::vector<OperationPtr>& window, size_t at, const ElementwiseOp& prod) {
  size_t j = at + 1;
  while (j < window.size() && !(window[j] && touches(*window[j], prod))) ++j;
  return j;
}

// Whether an operation after window[at] touches `storage` (writes it, with `writes`).
bool touched_after(const std::vector<OperationPtr>& window, size_t at, const Storage* storage, bool writes = false) {
  return touched_between(window, at + 1, window.size(), storage, writes);
}

// Whether the values `out` receives may be read after window[at]: by a handle or view of the
// program, by an operation outside the window (the one being issued, say), or by a later
// operation in it.
bool needed_after(const std::vector<OperationPtr>& window, size_t at, const StorePtr& out) {
  const auto& storage = out->storage();
  if (out->user_refs.load() > 0 || storage.use_count() != 1 || !out->is_whole()) return true;
  long held = 0;  // references from the window's operations
  for (const OperationPtr& op : window)
    if (op)
      for (const OpArg& a : op->args) held += a.store == out;
  return out.use_count() > held || touched_after(window, at, storage.get());
}

// Lets window[j], the first operation after window[i] (an element-wise one) that touches what
// it writes, compute window[i]'s outputs as it reads one of them (a reduction), writing them all
// with `keep`: it must read that output once, whole, and write nothing of it.
bool absorb_into(const std::vector<OperationPtr>& window, size_t i, size_t j, bool keep) {
  const auto& prod = static_cast<const ElementwiseOp&>(*window[i]);
  int input = -1, output = -1;
  for (size_t k = 0; k < window[j]->args.size(); ++k) {
    const OpArg& a = window[j]->args[k];
    if (!a.store) continue;
    for (int o = 0; o < prod.num_outputs(); ++o) {
      const StorePtr& out = prod.output(o);
      if (a.store->storage() != out->storage()) continue;
      if (input >= 0 || a.write || a.store != out) return false;
      input = static_cast<int>(k);
      output = o;
    }
  }
  return input >= 0 && window[j]->absorb_producer(window[i], input, output, keep);
}

}  // namespace

// Each element-wise operation moves forward to the first later operation that touches what
// it writes (or writes what it reads). An element-wise one there computes both in one pass:
// what the producer wrote is still written where the program or a later operation can read
// it, and is never made otherwise. A reduction there may compute a temporary as it reads it.
void fuse_elementwise(std::vector<OperationPtr>& window) {
  const size_t n = window.size();
  for (size_t i = 0; i < n; ++i) {
    auto* prod = dynamic_cast<ElementwiseOp*>(window[i].get());
    if (!prod) continue;
    // Results nothing can ever read (the program dropped them, no later operation reads
    // them) are not computed at all.
    bool dead = true;
    for (int o = 0; o < prod->num_outputs() && dead; ++o) dead = !needed_after(window, i, prod->output(o));
    if (dead) {
      window[i].reset();
      continue;
    }
    const size_t j = next_touching(window, i, *prod);
    if (j == n) continue;
    std::vector<bool> keep(prod->num_outputs());
    for (int o = 0; o < prod->num_outputs(); ++o) keep[o] = needed_after(window, j, prod->output(o));
    if (auto* cons = dynamic_cast<ElementwiseOp*>(window[j].get())) {
      if (cons->merge(*prod, keep)) {
        cons->waits = std::max(cons->waits, prod->waits);
        window[i].reset();
      } else if (prod->num_outputs() == 1 && !keep[0])
        if (const StorePtr view = copy_target(window, i, j); view && !in_place_into(window, i, j, view))
          rename_into(window, i, j, view);
      continue;
    }
    if (prod->num_outputs() == 1 && !keep[0] && absorb_into(window, i, j, false)) window[i].reset();
  }
  std::erase(window, nullptr);
  // Copies whose source the operation after them overwrites (its consumer now fused whole).
  for (size_t i = 0; i < window.size(); ++i) {
    auto* prod = dynamic_cast<ElementwiseOp*>(window[i].get());
    if (!prod) continue;
    const size_t j = next_touching(window, i, *prod);
    if (j < window.size() && dynamic_cast<ElementwiseOp*>(window[j].get())) exchange_into(window, i, j);
  }
  fuse_sweeps(window);
}

// A result can wait when it is a whole array the program is not reading now and no later
// operation of the window touches, and no later operation overwrites what it is computed
// from: it is computed when something needs it (a later flush), or never if the program
// drops it first (the fusion pass drops dead results). An operation all of whose results
// can wait waits whole; otherwise the results that can wait are split off it. A full window
// (no `reading`) keeps only what has not waited before, so nothing waits for long.
void defer_elementwise(std::vector<OperationPtr>& window, const Storage* reading, std::vector<OperationPtr>& later) {
  // A result may wait through this many flushes (its own and those of what merged into it);
  // then it runs, and the inputs it holds (a loop's temporaries) go back to the pool.
  constexpr int kMaxWaits = 2;
  std::vector<OperationPtr> waiting;  // in reverse program order
  for (size_t i = window.size(); i-- > 0;) {
    auto* op = dynamic_cast<ElementwiseOp*>(window[i].get());
    // An operation that waited once waits whole or runs whole: split again, it would compute
    // what its results share once more.
    if (!op || (op->waited && !reading) || op->waits >= kMaxWaits) continue;
    bool inputs_kept = true;
    for (int k = 1; k <= op->num_inputs() && inputs_kept; ++k)
      inputs_kept = !touched_after(window, i, op->args[k].store->storage().get(), true);
    if (!inputs_kept) continue;
    auto can_wait = [&](const StorePtr& out) {
      return out->is_whole() && out->storage().get() != reading && !touched_after(window, i, out->storage().get());
    };
    bool all = true;
    for (int o = 0; o < op->num_outputs() && all; ++o) all = can_wait(op->output(o));
    if (all) {
      op->waited = true;
      ++op->waits;
      waiting.push_back(std::move(window[i]));
      continue;
    }
    // A result split off reads the inputs later: none of them may be what the rest writes.
    bool in_place = false;
    for (int k = 1; k <= op->num_inputs() && !in_place; ++k)
      for (int o = 0; o < op->num_outputs() && !in_place; ++o)
        in_place = op->args[k].store->storage() == op->output(o)->storage();
    if (in_place || op->waited) continue;
    std::vector<int> later_outputs;
    for (int o = 1; o < op->num_outputs(); ++o)
      if (can_wait(op->output(o))) later_outputs.push_back(o);
    if (later_outputs.empty()) continue;
    waiting.push_back(op->split_outputs(later_outputs));
    waiting.back()->waited = true;
    waiting.back()->waits = op->waits + 1;
  }
  std::erase(window, nullptr);
  // What runs now of an operation whose results the program keeps and a reduction then reads
  // (`y = f(x); s = y.sum()`): the reduction writes them as it goes and reads them back from
  // the caches. Only here, once what can wait has been split off: it would be written too.
  for (size_t i = 0; i < window.size(); ++i) {
    auto* prod = dynamic_cast<ElementwiseOp*>(window[i].get());
    if (!prod) continue;
    const size_t j = next_touching(window, i, *prod);
    if (j == window.size() || dynamic_cast<ElementwiseOp*>(window[j].get())) continue;
    if (absorb_into(window, i, j, true)) window[i].reset();
  }
  std::erase(window, nullptr);
  later.insert(later.end(), std::make_move_iterator(waiting.rbegin()), std::make_move_iterator(waiting.rend()));
}

}  // namespace tessera::detail
