// Operation: one call issued by the program (add, sum, matmul, copy, fill...),
// its store arguments with their access modes, and the launch domain that the
// partitioner cuts into point tasks. Concrete operations live in numeric/.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "data/rect.h"
#include "data/store.h"

namespace tessera::detail {

/// How a tile of the launch domain maps to the part of an argument it touches.
enum class Projection {
  Align,  // the argument has the domain's shape: the same rect
  Whole,  // every point task touches all of it (broadcast constraint)
  Custom, // the operation's `arg_rect` says
};

struct OpArg {
  StorePtr store;
  bool read = true;
  bool write = false;
  Projection projection = Projection::Align;
};

class Operation {
 public:
  virtual ~Operation() = default;

  /// Runs the operation on one tile of its domain (on a worker thread).
  virtual void execute(const Rect& tile) = 0;
  /// The rect of argument `i` that `tile` touches, in the argument's own index space.
  virtual Rect arg_rect(int i, const Rect& tile) const;
  /// Whether the window may merge this operation with its producers (element-wise chains).
  virtual bool fusible() const { return false; }
  /// The tiles this operation runs as; by default the partitioner's tiling of the domain.
  virtual std::vector<Rect> tiles(int pieces, int64_t min_chunk) const;

  std::string name;
  std::string provenance;
  Shape domain;
  std::vector<OpArg> args;
};

using OperationPtr = std::shared_ptr<Operation>;

}  // namespace tessera::detail
