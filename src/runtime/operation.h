// Operation: one call issued by the program (add, sum, matmul, copy, fill, a user's
// task...): its store arguments with their access modes, and the constraints it states on
// their partitions. The partitioner (partition/solver.h) turns those into a launch of
// point tasks; the operation never cuts its own tiles. Concrete operations live in
// numeric/ and task/.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "data/rect.h"
#include "data/store.h"
#include "partition/constraint.h"
#include "partition/view.h"

namespace tessera::detail {

struct Launch;

struct OpArg {
  StorePtr store;  // null for an index space (add_space): a launch shape with no data
  bool read = true;
  bool write = false;
  /// How the constraints see the argument (the store itself unless the operation says).
  ArgView view;
  /// The argument is a per-point slot: point t of a launch touches index t of its first axis
  /// (whole along the others). Reduction privileges use it for each point's private buffer.
  bool per_point = false;

  /// The shape constraints see: the view's, or the store's own when the view is the store.
  const Shape& shape() const { return store && view.identity() ? store->shape() : view.shape(); }
};

/// One point of a launch as the operation's body sees it.
struct Point {
  const Rect& tile;                // the key class's rect (the launch's tile)
  const std::vector<Rect>& rects;  // each argument's rect, in its view's index space
  int index;                       // this point's position in the launch
  int count;                       // the launch's points
};

class Operation {
 public:
  virtual ~Operation() = default;

  /// Runs the operation on one point of its launch (on a worker thread).
  virtual void execute(const Point& point) = 0;
  /// Whether a library's window pass may merge this operation with its producers (NumPy's
  /// element-wise chains); the window keeps a chain of them together when it is cut.
  virtual bool fusible() const { return false; }
  /// Takes in `producer`, a fusible operation whose output `output` is argument `arg`,
  /// computing that input itself as it goes: a temporary nothing else reads is never made,
  /// and with `keep` (the program or a later operation reads an output) this operation
  /// writes every output of the producer and reads back what it needs while it is in the
  /// caches, instead of a second pass over memory. False leaves both unchanged.
  virtual bool absorb_producer(const std::shared_ptr<Operation>& producer, int arg, int output, bool keep) {
    return false;
  }
  /// The operation the program called, and where, that makes what argument `arg` receives
  /// (what allocation records and out-of-memory reports name): this one, unless it took in
  /// an earlier operation and writes that one's result too.
  struct Origin {
    const std::string& name;
    const std::string& provenance;
  };
  virtual Origin origin(int arg) const { return {name, provenance}; }
  /// The analysis cut the operation into `launch` (before any of its points runs).
  virtual void launched(const Launch& launch) {}
  /// An operation whose points are not a partition of its arguments (the rows between
  /// another operation's tiles) makes its launch itself; null: the partitioner cuts it.
  virtual std::shared_ptr<const Launch> own_launch() const { return nullptr; }

  /// A local operation that moves values between its storages (renaming exchanges their
  /// memory) updates their residency records here, on every rank as it is analysed.
  virtual void move_residency() {}

  /// Adds an argument; returns its position (what constraints name).
  int add(StorePtr store, bool read, bool write, ArgView view = ArgView());
  /// Adds an index space of `shape`: an argument with no data that others can follow (the
  /// grid of blocks a launch runs over, say).
  int add_space(Shape shape);
  /// Adds an argument aligned with argument `with` (same view shape).
  int add_aligned(int with, StorePtr store, bool read, bool write, ArgView view = ArgView());
  /// The work of the whole operation: its largest argument view, in elements, and that
  /// view's shape (what profiles show as the operation's size).
  int64_t work() const;
  Shape work_shape() const;
  /// The bytes a point with these argument rects reads and writes at least (what profiles
  /// show as GB/s): each argument it reads or writes, once per direction.
  virtual int64_t traffic(const std::vector<Rect>& rects) const;
  /// Argument `i`'s rect in the store's own index space for view rect `r`.
  Rect store_rect(int i, const Rect& r) const { return args[i].view.identity() ? r : args[i].view.to_arg(r); }
  /// The view shapes of every argument (what the partitioner solves over).
  std::vector<Shape> view_shapes() const;

  std::string name;
  std::string provenance;
  std::vector<OpArg> args;
  std::vector<Constraint> constraints;
  int64_t weight = 1;   // work per element of the launch's key class
  bool waited = false;  // a flush left it in the window (Runtime::flush)
  uint64_t issuer = 0;  // the thread that issued it (issuing_thread()): its errors go there
  /// Flushes it waited through, counting those of the operations merged into it: a result
  /// nothing reads (x in `x += a * p` in a loop) must not wait at every sync point, holding
  /// every input it fused in (each iteration's p) until the program ends.
  int waits = 0;
  /// Its points touch overlapping rects of one storage yet order those accesses themselves
  /// (an in-place stencil): the analyser adds no edges between points of its launch.
  bool points_ordered = false;
  /// Its own launch's points run as it names them even when it is small (a task launch that
  /// names its points: each reads a part of a file, say), never as one point over everything.
  bool keeps_points = false;
  /// It acts on the memory this rank holds of its storages and on nothing else (copy-on-write's
  /// share and unshare, runtime/copy_on_write.h): with several ranks every rank runs its one
  /// point, with no copies between ranks and the residency records unchanged.
  bool local = false;
  /// Its results do not depend on how its launch is cut (element-wise work): with several
  /// ranks its tiles are cut where the ranks' parts of the array it writes end, and each runs
  /// on the rank whose part holds it, so every such operation over an array finds its rows
  /// where the last one left them. (Operations whose bits follow their tiles — a task's
  /// reduction — keep the tiling of the data alone.)
  bool cut_at_ranks = false;
};

using OperationPtr = std::shared_ptr<Operation>;

}  // namespace tessera::detail
