// Storage renaming (renaming.h): the operations that exchange two storages' memory.
#include "runtime/renaming.h"

#include <string>

#include "comm/residency.h"
#include "runtime/stores.h"
#include "runtime/transfer.h"

namespace tessera::detail {
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

OperationPtr exchange_op(StorePtr source, StorePtr copy, Rect box) {
  return std::make_shared<ExchangeOp>(std::move(source), std::move(copy), std::move(box));
}

}  // namespace tessera::detail
