// Storage renaming (renaming.h): the operations that exchange two storages' memory.
#include "runtime/renaming.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "comm/residency.h"
#include "runtime/runtime.h"
#include "runtime/storage_state.h"
#include "runtime/stores.h"
#include "runtime/transfer.h"

namespace tessera::detail {
namespace {

// The elements [lo, hi) of C order a storage holds on this rank (all of them unless partial).
std::pair<int64_t, int64_t> held_range(const Storage& s) {
  if (!s.partial()) return {0, s.elements()};
  return {s.range_lo(), s.range_hi()};
}

// Copies the elements of `box` whose place in C order lies in [lo, hi) from `from` to `to`
// (storages of one shape and dtype, both holding [lo, hi)).
void copy_box_within(const Storage& from, Storage& to, const Rect& box, int64_t lo, int64_t hi) {
  if (box.empty() || hi <= lo) return;
  const Shape& st = from.strides();
  const int nd = box.ndim();
  const int64_t size = itemsize(from.dtype());
  if (nd == 0) {
    if (lo <= 0 && 0 < hi) std::memcpy(to.data(), from.data(), static_cast<size_t>(size));
    return;
  }
  const int64_t run = box.hi[nd - 1] - box.lo[nd - 1];
  Shape idx = box.lo;
  while (true) {
    int64_t first = 0;
    for (int d = 0; d < nd; ++d) first += idx[d] * st[d];
    const int64_t a = std::max(first, lo), b = std::min(first + run, hi);
    if (a < b) std::memcpy(to.data() + a * size, from.data() + a * size, static_cast<size_t>((b - a) * size));
    int d = nd - 2;
    while (d >= 0 && ++idx[d] == box.hi[d]) {
      idx[d] = box.lo[d];
      --d;
    }
    if (d < 0) break;
  }
}

// An operation on two whole storages of one shape, `first` and `second`: `first` takes
// `second`'s memory with its own frame (the part outside `box`) copied across, and `second`
// takes `first`'s memory as it is. One point: the frame is small next to the box. When
// either's address is known outside (pinned), their memory stays put and `copy_instead` runs.
// With several ranks every rank does this with the parts it holds (the operation is local):
// split storages exchange their parts when they cover the same range, and copy otherwise;
// move_residency() says, the same on every rank whichever of the two ran, what each now holds.
class FrameOp : public Operation {
 public:
  FrameOp(std::string op_name, StorePtr first, bool read_first, StorePtr second, bool read_second, Rect box)
      : box_(std::move(box)) {
    name = std::move(op_name);
    add(std::move(first), read_first, true);
    add(std::move(second), read_second, true);
    constraints.push_back(broadcast(0));
    constraints.push_back(broadcast(1));
    local = true;
    // With several ranks the second storage, when nothing allocated it yet, takes the first's
    // range on each rank, so that the two can exchange their parts.
    args[1].store->storage()->set_twin(args[0].store->storage());
  }
  // (On every rank alike, so that whether the second storage is split does not depend on
  // which ranks ran tiles of the first.)
  void launched(const Launch&) override {
    Storage& second = *args[1].store->storage();
    if (Runtime::get().ranks() > 1 && !second.allocated()) second.make_partial();
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
    if (first.can_swap(second)) {
      const auto [lo, hi] = held_range(first);
      for (const Rect& b : subtract(Rect::of(first.shape()), box_)) copy_box_within(first, second, b, lo, hi);
      first.swap_memory(second);
    } else {
      copy_instead(first, second);
    }
  }

 protected:
  virtual void copy_instead(Storage& first, Storage& second) const = 0;
  // Copies `box` of `from` into `to` as far as this rank holds `from`, `to` first growing to
  // cover that.
  static void copy_held(const Storage& from, Storage& to, const Rect& box) {
    const auto [lo, hi] = held_range(from);
    if (to.partial()) to.grow(lo, hi);
    copy_box_within(from, to, box, lo, hi);
  }
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
  // The target holds in the box what the fresh storage held; the fresh storage, a temporary
  // the program never reads, holds nothing it can rely on.
  void move_residency() override {
    Residency& target = state_of(*args[0].store->storage()).residency;
    Residency& fresh = state_of(*args[1].store->storage()).residency;
    target.take(fresh, box_);
    fresh = Residency();
  }

 private:
  void copy_instead(Storage& target, Storage& fresh) const override { copy_held(fresh, target, box_); }
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
  // The copy holds what the source held; the source its frame (the assignment after it
  // writes the box).
  void move_residency() override {
    Residency& source = state_of(*args[0].store->storage()).residency;
    Residency& copy = state_of(*args[1].store->storage()).residency;
    copy = source;
    source.take(Residency(), box_);
  }

 private:
  void copy_instead(Storage& source, Storage& copy) const override {
    copy_held(source, copy, Rect::of(source.shape()));
  }
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
