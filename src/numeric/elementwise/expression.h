// ElementwiseOp: an expression over aligned arguments (inputs already broadcast
// to the domain) evaluated block by block in cache. A single ufunc call is an
// expression of one node; the window fuses chains of them into one operation
// whose temporaries are never allocated (DESIGN §8).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "numeric/elementwise/ops.h"
#include "runtime/operation.h"
#include "tessera/scalar.h"

namespace tessera::detail {

enum class NodeKind : uint8_t { Input, Const, Index, Cast, Unary, Binary, Where };

struct ExprNode {
  NodeKind kind;
  DType dtype;                               // what this node produces
  int a = -1, b = -1, c = -1;                // child nodes (earlier in the list)
  int input = -1;                            // Input: index into the operation's inputs (args[1 + input])
  int axis = 0;                              // Index: the domain axis whose coordinate this node yields
  alignas(16) unsigned char value[16] = {};  // Const: the value, already of `dtype`
  UnaryLoop unary = nullptr;
  BinaryLoop binary = nullptr;
  BinaryOp binary_op{};  // Binary: which operation `binary` computes
  UnaryOp unary_op{};    // Unary: which operation `unary` computes
  WhereLoop where = nullptr;
};

class ElementwiseOp final : public Operation {
 public:
  /// args[0] is the output; inputs are added with `add_input` and must already have `domain`'s shape.
  ElementwiseOp(std::string name, StorePtr out);
  /// Leaves its emptied vectors to the next operation made on this thread.
  ~ElementwiseOp() override;

  int add_input(StorePtr input);
  int input_node(int input, DType as);
  int const_node(const Scalar& value, DType as);
  int index_node(int axis);
  int cast_node(int a, DType to);
  /// `op` computed in `compute`; the node's dtype is the loop's result dtype.
  int unary_node(UnaryOp op, DType compute, int a);
  int binary_node(BinaryOp op, DType compute, int a, int b);
  int where_node(int cond, int a, int b);

  void execute(const Point& point) override;
  void launched(const Launch& launch) override;
  bool fusible() const override { return true; }
  Origin origin(int arg) const override;

  /// Takes in `producer`, an earlier element-wise operation over the same domain some of whose
  /// outputs this one reads (as the very views it writes), so that one pass computes both: the
  /// reads become the producer's nodes and the producer's outputs in `keep` stay outputs of this
  /// operation. False, leaving both unchanged, when that would read or write out of order.
  bool merge(const ElementwiseOp& producer, const std::vector<bool>& keep);
  /// Every output: the result (args[0]) and the values of inner nodes it also writes.
  int num_outputs() const { return 1 + static_cast<int>(extras_.size()); }
  /// The argument output k is (what `origin` takes).
  int output_arg(int k) const { return k == 0 ? 0 : extras_[k - 1].arg; }
  const StorePtr& output(int k) const { return k == 0 ? args[0].store : args[extras_[k - 1].arg].store; }

  const std::vector<ExprNode>& nodes() const { return nodes_; }
  int num_inputs() const { return inputs_; }
  const StorePtr& output() const { return args[0].store; }
  /// Plans the evaluation once the expression is final (before any point runs): chains of
  /// + - * / and unary functions whose intermediate values nothing else reads are computed
  /// in registers.
  void prepare();
  /// Where `evaluate` finds the elements of one storage instead of in its memory: what it
  /// writes there at `out`, what it reads at `in` (each the address element 0 would have;
  /// null: the storage's own memory). A chain of sweeps keeps its levels in small buffers.
  struct Redirect {
    const Storage* storage = nullptr;
    char* out = nullptr;
    const char* in = nullptr;
  };
  /// Evaluates the expression over `tile` of the domain into the output store (`out` null) or
  /// into `out` (elements of the output's dtype, C order over the tile): a consumer that
  /// absorbed this operation computes its input block by block.
  void evaluate(const Rect& tile, char* out, const Redirect* redirect = nullptr) const;
  /// Takes outputs `ks` (each > 0) out of this operation: it writes them no more, and the
  /// returned operation computes only them (from the same inputs).
  std::shared_ptr<ElementwiseOp> split_outputs(const std::vector<int>& ks);
  /// Writes into `out` (same shape and dtype) instead.
  void retarget(StorePtr out) { args[0].store = std::move(out); }
  /// Lets the output be a view of a storage some inputs read through other views (a stencil
  /// assigned into its own array, `p[1:-1, 1:-1] = f(p[...])`) with no copy of either: each
  /// tile computes its rows a few ahead of writing them, so no row is overwritten while a row
  /// still to be computed reads it, and keeps the rows a neighbouring tile reads for the
  /// returned operation, which writes them once every tile ran and must follow this one.
  /// Null, leaving this operation unchanged, when the aliased inputs are not views shifted
  /// from the output's (same strides) or the output's rows overlap.
  OperationPtr compute_in_place();
  /// Whether compute_in_place made this operation write its output in place.
  bool in_place() const { return in_place_ != nullptr; }
  /// Whether `op` is the operation compute_in_place returned for this one.
  bool writes_kept_rows(const Operation& op) const;
  struct InPlace;  // the rows' shifts, and the rows kept for the operation that follows

 private:
  int push(ExprNode n);
  void weigh();
  /// Every input aligned with the output (after inputs are added or absorbed).
  void align_inputs();
  const Shape& domain() const { return args[0].store->shape(); }  // the output's shape
  std::vector<ExprNode> nodes_;
  // An output besides the result: argument `arg` (after the inputs) receives node `node`,
  // the result of operation `name` the program called at `provenance`.
  struct Extra {
    int arg, node;
    std::string name, provenance;
  };
  std::vector<Extra> extras_;
  int inputs_ = 0;  // args[1 .. inputs_] are the inputs
  bool has_index_ = false;
  std::shared_ptr<InPlace> in_place_;  // set by compute_in_place
  // prepare()'s plan: chain_at_[i] is the chain node i ends, kInChain for the nodes a chain
  // computes on the way, -1 for the others (empty: no plan, every node on its own).
  static constexpr int kInChain = -2;
  struct Chain {
    int start;         // the node the running value starts from
    int first, count;  // its steps in chain_steps_
    ChainLoop loop;
  };
  struct PlannedStep {
    ChainOp op;
    int operand;            // node (-1: a unary step)
    UnaryLoop f = nullptr;  // Apply's loop
    int cond = -1;          // a where step's condition node
  };
  bool evaluate_one_loop(const Rect& tile, char* out) const;
  void plan_chains();
  void plan_buffers();
  std::vector<int> chain_at_;
  std::vector<int> slot_;  // plan_buffers(): each node's block buffer (-1: it needs none)
  int slots_ = 0;
  std::vector<Chain> chains_;
  std::vector<PlannedStep> chain_steps_;
  void execute_in_place(const Point& point) const;
  void launched_in_place(const Launch& launch);
};

/// The sweeps pass (sweeps.cc): runs of stencils, each assigned in place into one array, that
/// fuse_elementwise left next to each other become one pass over memory.
void fuse_sweeps(std::vector<OperationPtr>& window);

/// The window's fusion pass (installed into the runtime when the library loads).
void fuse_elementwise(std::vector<OperationPtr>& window);
/// The window's defer pass (Runtime::DeferPass): element-wise results nothing reads yet wait.
void defer_elementwise(std::vector<OperationPtr>& window, const Storage* reading, std::vector<OperationPtr>& later);

}  // namespace tessera::detail
