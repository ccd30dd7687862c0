// ReduceOp: a reduction as an operation of the runtime. The elements reduced into one
// output are put in a fixed order (the reduced axes in memory order) and cut into blocks of
// kReduceBlock; each block is reduced pairwise, and the blocks' partial results, laid out as
// [blocks][outputs...], are combined by the fixed tree of the one combine stage (CombineOp,
// task/combine.h) with this reduction's operator. Tiles only choose which outputs and blocks
// a worker computes, so the value is bitwise the same for any number of tiles, cpus or
// ranks (DESIGN §7).
#pragma once

#include <optional>
#include <vector>

#include "numeric/reduce/kernels.h"
#include "numeric/reduce/reduce_block.h"
#include "runtime/operation.h"
#include "tessera/scalar.h"

namespace tessera::detail {

class ElementwiseOp;

/// One reduction to issue: `input` reduced over the axes marked in `reduced` into `out`.
struct ReduceRequest {
  ReduceKind kind = ReduceKind::Sum;
  StorePtr input;
  std::vector<bool> reduced;      // per input axis
  DType acc = DType::Float64;     // the dtype partial results are kept in (never float16)
  bool nonzero = false;           // reduce `input != 0` (any, all, count_nonzero)
  std::optional<Scalar> initial;  // combined before the reduced value (sum, prod, max, min)
  StorePtr where;                 // bool mask broadcast to the input's shape, or null
  StorePtr out;                   // the result without the reduced axes; any dtype (cast on write)
};

/// How a reduction walks its input (computed once when it is issued).
struct ReduceLayout {
  Shape out_shape;                  // extents of the kept axes
  std::vector<int> kept;            // input axis of each output axis
  Shape in_kept, mask_kept;         // strides (elements) of the kept axes in the input and mask
  Shape red_ext, red_in, red_mask;  // the reduced axes in reduction order, merged when contiguous
  std::vector<int> red_axes;        // the input axes reduced (extent > 1), in reduction order, unmerged
  int64_t length = 1;               // elements reduced into each output
  int64_t blocks = 1;               // ceil(length / kReduceBlock)
  int vec_axis = -1;                // output axis reduced as rows of a vector, or -1: blocks of values
};

/// Writes one output: combines `initial` first and casts to the output's dtype.
struct ReduceFinish {
  ReduceKernels kernels;
  bool arg = false;
  bool has_initial = false;
  alignas(16) unsigned char initial[16] = {};
  CastLoop to_out = nullptr;

  void operator()(char* dst, const void* value, int64_t index) const;
};

/// Reduces blocks of the input. Its launch is over the outputs × blocks; the input, seen
/// as the outputs plus the reduced elements as a last axis, follows by `scale`, so tiles cut
/// that axis only at block boundaries. Writes final values when there is one block per output,
/// else one partial result per (block, output) for a CombineOp.
class ReduceOp final : public Operation {
 public:
  /// `values` (and `indices` for argmax/argmin) receive partials when `partial`, else `values` is the output.
  ReduceOp(const ReduceRequest& request, ReduceLayout layout, StorePtr values, StorePtr indices, bool partial);

  void execute(const Point& point) override;
  /// A full reduction of an element-wise result evaluates it block by block (the same
  /// blocks, so the same value as reducing the stored result); kept results are written
  /// block by block too and read back from the caches.
  bool absorb_producer(const OperationPtr& producer, int arg, int output, bool keep) override;
  Origin origin(int arg) const override;

 private:
  const char* load_block(int64_t in_off, int64_t mask_off, int64_t block, int64_t n, char* buf, char* mask_buf) const;
  void block_offsets(int64_t block, int64_t n, int64_t* in_offs, int64_t* mask_offs) const;
  void emit(const int64_t* out_idx, int64_t block, const void* value, int64_t index) const;
  void run_blocks(const Shape& lo, const Shape& hi, int64_t b0, int64_t b1) const;
  void run_rows(const Shape& lo, const Shape& hi, int64_t b0, int64_t b1) const;

  ReduceKind kind_;
  ReduceLayout layout_;
  ReduceKernels kernels_;
  ReduceFinish finish_;
  DType acc_;
  CastLoop load_;  // input element -> accumulation value
  bool direct_;    // the input's elements already are accumulation values
  bool partial_;
  int mask_arg_ = -1;  // args: [0] input, [mask], values, [indices]
  int values_arg_ = 1;
  int indices_arg_ = -1;
  alignas(16) unsigned char fill_[16] = {};  // what masked-out elements read as
  bool nonzero_ = false;
  std::shared_ptr<const ElementwiseOp> producer_;  // computes the input (absorb_producer)
  // The producer's outputs this operation writes, when they are kept: (argument, the
  // producer's argument) of each (empty: the input is a temporary, never written).
  std::vector<std::pair<int, int>> made_;
};

/// The layout of `request` (every reduced extent must be > 0).
ReduceLayout plan_reduction(const ReduceRequest& request);
/// Issues the operations computing `request`: one ReduceOp, plus a CombineOp when the
/// outputs have several blocks. The input must not be empty along the reduced axes.
void issue_reduction(const ReduceRequest& request);

}  // namespace tessera::detail
