// ElementwiseOp's construction: the expression's nodes, its inputs and its weight.
#include "numeric/elementwise/expression.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>

#include "numeric/elementwise/blocks.h"
#include "numeric/elementwise/vector_loops.h"
#include "numeric/library.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"
#include "tessera/errors.h"

namespace tessera::detail {
namespace {
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
  register_numeric_library();  // its passes fuse what this operation joins
  name = std::move(op_name);
  cut_at_ranks = true;
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

}  // namespace tessera::detail
