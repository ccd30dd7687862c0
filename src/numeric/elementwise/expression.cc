// Block-wise evaluation of element-wise expressions and their construction.
#include "numeric/elementwise/expression.h"

#include <algorithm>
#include <cstring>

#include "comm/residency.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"
#include "runtime/transfer.h"
#include "tessera/errors.h"

namespace tessera::detail {
namespace {
constexpr int64_t kBlock = 1024;

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
}  // namespace

ElementwiseOp::ElementwiseOp(std::string op_name, StorePtr out) {
  name = std::move(op_name);
  domain = out->shape();
  // The common operation has one or two inputs: no regrowth on the small-operation path.
  args.reserve(4);
  constraints.reserve(3);
  nodes_.reserve(4);
  add(std::move(out), false, true);
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
  TESSERA_CHECK(input->shape() == domain, "element-wise input not broadcast to the domain");
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

void ElementwiseOp::execute(const Point& point) { evaluate(point.tile, nullptr); }

Operation::Origin ElementwiseOp::origin(int arg) const {
  for (const Extra& x : extras_)
    if (x.arg == arg) return {x.name, x.provenance};
  return {name, provenance};
}

void ElementwiseOp::evaluate(const Rect& tile, char* out) const {
  const int nd = static_cast<int>(domain.size());
  const int nargs = static_cast<int>(args.size());
  for (int k = 1; k <= inputs_; ++k)
    if (!args[k].store->storage()->allocated())
      throw ValueError("operation '" + name + "' reads an array that was never computed (an earlier error stopped it)");

  // Per-dim extents and per-argument strides (elements) of the tile, collapsing dims that
  // are contiguous for every argument so the inner loop is as long as possible. The vectors
  // live per thread so a small operation allocates nothing here.
  struct Workspace {
    std::vector<int64_t> ext, idx, rs;
    std::vector<std::vector<int64_t>> str;
    std::vector<int> axis_of, size;
    std::vector<char*> base, row;
    std::vector<const void*> rp;
    std::vector<char> scratch;
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
  const int kd = static_cast<int>(ext.size());
  auto& base = ws.base;
  auto& size = ws.size;
  base.resize(nargs);
  size.resize(nargs);
  for (int k = 0; k < nargs; ++k) {
    size[k] = itemsize(args[k].store->dtype());
    base[k] = k == 0 && out ? out : args[k].store->ptr(tile.lo);
  }

  const int nn = static_cast<int>(nodes_.size());
  auto& scratch = ws.scratch;
  const size_t need = static_cast<size_t>(nn + 1) * kBlock * 16;
  if (scratch.size() < need) scratch.resize(need);
  auto buf = [&](int i) { return scratch.data() + static_cast<size_t>(i) * kBlock * 16; };
  auto& rp = ws.rp;
  auto& rs = ws.rs;
  rp.assign(nn, nullptr);
  rs.assign(nn, 0);
  const ExprNode& root = nodes_[nn - 1];
  const DType out_t = args[0].store->dtype();

  // Converts node `node`'s block of n elements into argument `k` at (row, j0).
  auto store = [&](int k, int node, const std::vector<char*>& at, int64_t j0, int64_t n) {
    const int64_t s = str[k][kd - 1];
    char* dst = at[k] + j0 * s * size[k];
    const CastLoop cast = cast_loop(nodes_[node].dtype, args[k].store->dtype());
    if (s == 1) {
      cast(dst, rp[node], rs[node], n);
    } else {
      char* tmp = buf(nn);
      cast(tmp, rp[node], rs[node], n);
      scatter(dst, s, tmp, n, size[k]);
    }
  };
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
            if (x.node < i) store(x.arg, x.node, row, j0, n);
        const ExprNode& e = nodes_[i];
        char* b = (i == nn - 1 && out_s == 1 && e.dtype == out_t &&
                   (e.kind == NodeKind::Unary || e.kind == NodeKind::Binary || e.kind == NodeKind::Where))
                      ? out_ptr
                      : buf(i);
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
      if (rp[nn - 1] == out_ptr && rs[nn - 1] != 0) continue;
      if (out_s == 1) {
        cast_loop(root.dtype, out_t)(out_ptr, rp[nn - 1], rs[nn - 1], n);
      } else {
        char* tmp = buf(nn);
        cast_loop(root.dtype, out_t)(tmp, rp[nn - 1], rs[nn - 1], n);
        scatter(out_ptr, out_s, tmp, n, size[0]);
      }
    }
    int d = kd - 2;
    while (d >= 0 && ++idx[d] == ext[d]) idx[d--] = 0;
    if (d < 0) break;
  }
}

bool ElementwiseOp::merge(const ElementwiseOp& producer, const std::vector<bool>& keep_given) {
  const ElementwiseOp& p = producer;
  if (p.domain != domain) return false;
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

// Storage renaming: `a[box] = f(views of a)` computed into fresh storage of a's shape (at
// the box), then the frame — the part of a outside the box — copied across, and the two
// storages exchange memory. Every handle and view of `a` sees the new values; nothing copies
// the box back. One point: the frame is small next to the box.
class RenameOp final : public Operation {
 public:
  RenameOp(StorePtr target, StorePtr fresh, Rect box) : box_(std::move(box)) {
    name = "rename";
    add(std::move(target), false, true);
    add(std::move(fresh), true, true);
    constraints.push_back(broadcast(0));
    constraints.push_back(broadcast(1));
  }
  int64_t traffic(const std::vector<Rect>&) const override {
    const Storage& s = *args[0].store->storage();
    return 2 * (s.elements() - box_.volume()) * itemsize(s.dtype());  // the frame, read and written
  }
  void execute(const Point&) override {
    Storage& target = *args[0].store->storage();
    Storage& fresh = *args[1].store->storage();
    target.allocate(name, provenance);  // np.empty's frame: whatever it holds
    fresh.allocate(name, provenance);   // an empty box: nothing wrote it
    const Rect whole = Rect::of(target.shape());
    if (target.movable()) {
      for (const Rect& b : subtract(whole, box_)) copy_box(target, fresh, b);  // the frame
      target.swap_memory(fresh);
    } else {
      copy_box(fresh, target, box_);  // its address is known outside: copy instead
    }
  }

 private:
  Rect box_;
};

// window[consumer] copies the temporary window[producer] makes into a box of a storage the
// producer reads through other views (so the two cannot fuse): the producer writes a fresh
// storage at that box and a RenameOp takes the copy's place. False when the pattern differs.
bool rename_into(std::vector<OperationPtr>& window, size_t producer, size_t consumer) {
  auto* prod = static_cast<ElementwiseOp*>(window[producer].get());
  auto* cons = dynamic_cast<ElementwiseOp*>(window[consumer].get());
  if (!cons || Runtime::get().ranks() > 1) return false;
  const auto& nodes = cons->nodes();
  if (nodes.size() != 1 || nodes[0].kind != NodeKind::Input || cons->num_inputs() != 1) return false;
  const StorePtr& temp = prod->output();
  const StorePtr& view = cons->output();
  if (cons->args[1].store != temp || temp->dtype() != view->dtype() || temp->shape() != view->shape()) return false;
  const std::shared_ptr<Storage>& storage = view->storage();
  if (view->dtype() != storage->dtype() || !storage->movable() || view->size() == 0) return false;
  const Rect box = view->storage_rect(Rect::of(view->shape()));
  if (box.volume() != view->size()) return false;  // not a box of the storage
  // Renaming copies the frame: worth it only when the box is most of the storage (a stencil's
  // interior), not for a boundary row copied from its neighbour.
  if (box.volume() * 2 < storage->elements()) return false;
  StorePtr fresh = new_store(storage->dtype(), storage->shape(), prod->provenance);
  prod->retarget(fresh->strided(view->offset(), view->shape(), view->strides()));
  auto rename = std::make_shared<RenameOp>(whole_store(storage), fresh, box);
  rename->provenance = cons->provenance;
  window[consumer] = std::move(rename);
  return true;
}

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

// Whether an operation after window[at] touches `storage` (writes it, with `writes`).
bool touched_after(const std::vector<OperationPtr>& window, size_t at, const Storage* storage, bool writes = false) {
  for (size_t j = at + 1; j < window.size(); ++j) {
    if (!window[j]) continue;
    for (const OpArg& a : window[j]->args)
      if (a.store && a.store->storage().get() == storage && (a.write || !writes)) return true;
  }
  return false;
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
    size_t j = i + 1;
    while (j < n && !(window[j] && touches(*window[j], *prod))) ++j;
    if (j == n) continue;
    std::vector<bool> keep(prod->num_outputs());
    for (int o = 0; o < prod->num_outputs(); ++o) keep[o] = needed_after(window, j, prod->output(o));
    if (auto* cons = dynamic_cast<ElementwiseOp*>(window[j].get())) {
      if (cons->merge(*prod, keep)) window[i].reset();
      else if (prod->num_outputs() == 1 && !keep[0]) rename_into(window, i, j);
      continue;
    }
    if (prod->num_outputs() != 1 || keep[0]) continue;
    // The reduction must read the temporary once, whole, and write nothing of it.
    const StorePtr& out = prod->output();
    int input = -1;
    bool ok = true;
    for (size_t k = 0; k < window[j]->args.size() && ok; ++k) {
      const OpArg& a = window[j]->args[k];
      if (!a.store || a.store->storage() != out->storage()) continue;
      ok = input < 0 && !a.write && a.store == out;
      input = static_cast<int>(k);
    }
    if (ok && input >= 0 && window[j]->absorb_producer(window[i], input)) window[i].reset();
  }
  std::erase(window, nullptr);
}

// A result can wait when it is a whole array the program is not reading now and no later
// operation of the window touches, and no later operation overwrites what it is computed
// from: it is computed when something needs it (a later flush), or never if the program
// drops it first (the fusion pass drops dead results). An operation all of whose results
// can wait waits whole; otherwise the results that can wait are split off it. A full window
// (no `reading`) keeps only what has not waited before, so nothing waits for long.
void defer_elementwise(std::vector<OperationPtr>& window, const Storage* reading, std::vector<OperationPtr>& later) {
  std::vector<OperationPtr> waiting;  // in reverse program order
  for (size_t i = window.size(); i-- > 0;) {
    auto* op = dynamic_cast<ElementwiseOp*>(window[i].get());
    // An operation that waited once waits whole or runs whole: split again, it would compute
    // what its results share once more.
    if (!op || (op->waited && !reading)) continue;
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
  }
  std::erase(window, nullptr);
  later.insert(later.end(), std::make_move_iterator(waiting.rbegin()), std::make_move_iterator(waiting.rend()));
}

}  // namespace tessera::detail
