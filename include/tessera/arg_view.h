// ArgView: how an argument of a launch appears to its constraints. Constraints
// relate arguments of one shape (align), or of shapes derived from each other (bloat,
// scale, image); an argument of another rank first takes that shape through a few index
// transforms — the same idea as a store's view transforms, but for partitioning only:
//   transpose  reorder the axes;
//   promote    add an axis the argument does not have (every index along it maps to the
//              whole argument: matmul's C has no K axis, a reduction's output no reduced axes);
//   fold       see axes [first, first + count) as one axis, their C-order linearisation
//              (a reduction's blocks of elements in reduction order).
// A rect in the view's index space maps back to the box of the argument it touches.
#pragma once

#include <vector>

#include "tessera/rect.h"

namespace tessera {

class ArgView {
 public:
  /// The argument as it is: the view's shape is `shape`.
  ArgView() = default;
  explicit ArgView(Shape shape) : base_(shape), shape_(std::move(shape)) {}

  /// Axis d of the view becomes axis perm[d] of what it was.
  ArgView& transpose(const std::vector<int>& perm);
  /// A new axis of `extent` at position `axis`.
  ArgView& promote(int axis, int64_t extent);
  /// Axes [first, first + count) become one axis (count 0: a new axis of extent 1).
  ArgView& fold(int first, int count);

  /// The shape the view was built from (the argument's).
  const Shape& base_shape() const { return base_; }
  /// The shape constraints see.
  const Shape& shape() const { return shape_; }
  /// True when the view is the argument itself.
  bool identity() const { return steps_.empty(); }
  /// The argument's box touched by `rect` of the view (empty when `rect` is).
  Rect to_arg(const Rect& rect) const;

 private:
  enum class Kind { Transpose, Promote, Fold };
  struct Step {
    Kind kind;
    std::vector<int> perm;  // Transpose
    int axis = 0;           // Promote: the new axis; Fold: the first folded axis
    Shape extents;          // Fold: the folded axes' extents
  };
  Shape base_, shape_;
  std::vector<Step> steps_;  // applied in order from the argument to the view
};

}  // namespace tessera
