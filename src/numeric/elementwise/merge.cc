// ElementwiseOp's merge with its producers and the split of outputs it no longer writes.
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
  auto add = [&](ExprNode n) {
    merged.push_back(n);
    return static_cast<int>(merged.size()) - 1;
  };
  std::vector<int> map(nodes_.size());
  for (size_t i = 0; i < nodes_.size(); ++i) {
    ExprNode e = nodes_[i];
    if (e.kind == NodeKind::Input && reads[e.input] >= 0) {
      const int o = reads[e.input];
      int r = o == 0 ? static_cast<int>(p.nodes_.size()) - 1 : p.extras_[o - 1].node;
      // Keep the rounding of the stored dtype, then convert as the load did.
      const DType stored = p.output(o)->dtype();
      if (merged[r].dtype != stored) {
        ExprNode c{NodeKind::Cast, stored};
        c.a = r;
        r = add(c);
      }
      if (stored != e.dtype) {
        ExprNode c{NodeKind::Cast, e.dtype};
        c.a = r;
        r = add(c);
      }
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

}  // namespace tessera::detail
