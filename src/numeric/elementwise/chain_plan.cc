// ElementwiseOp's plan, made once the expression is final: the chains computed in registers
// and the block buffers the other nodes share.
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
      if (last[static_cast<size_t>(j)] == i && slot_[static_cast<size_t>(j)] >= 0)
        spare.push_back(slot_[static_cast<size_t>(j)]);
  }
}

}  // namespace tessera::detail
