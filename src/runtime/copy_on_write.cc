// Copy-on-write stores (copy_on_write.h): the share and unshare operations, the ordinary copy
// made when sharing is not possible, and the write hook that separates copies.
#include "runtime/copy_on_write.h"

#include <cstring>
#include <utility>

#include "data/strided_rows.h"
#include "runtime/runtime.h"
#include "runtime/storage_state.h"
#include "runtime/stores.h"
#include "runtime/transfer.h"

namespace tessera::detail {
namespace {

// Makes `copy` (awaiting its memory) use the memory of `source`, a whole storage, when it
// runs: after source's writers, before anything else touches the copy.
class ShareOp final : public Operation {
 public:
  ShareOp(StorePtr source, StorePtr copy) {
    name = "lazy copy";
    local = true;
    add(std::move(source), true, false);
    add(std::move(copy), false, true);
    constraints.push_back(broadcast(0));
    constraints.push_back(broadcast(1));
  }
  int64_t traffic(const std::vector<Rect>&) const override { return 0; }
  // At analysis, in program order: with several ranks the copy holds what the source holds
  // (in the source's memory, whose range it takes when it runs).
  void launched(const Launch&) override {
    state_of(*args[1].store->storage()).residency = state_of(*args[0].store->storage()).residency;
  }
  void execute(const Point&) override {
    args[1].store->storage()->take_memory_of(*args[0].store->storage(), name, provenance);
  }
};

// Gives its storage memory of its own, with a copy of its values, when another storage uses
// its memory; a writer of it, so that it runs between the accesses issued before and after.
class UnshareOp final : public Operation {
 public:
  explicit UnshareOp(const std::shared_ptr<Storage>& storage) {
    name = "copy on write";
    local = true;
    add(whole_store(storage), true, true);
    constraints.push_back(broadcast(0));
  }
  void execute(const Point&) override { args[0].store->storage()->unshare_memory(name, provenance); }
};

// An ordinary copy of a view into a new C-ordered store, tile by tile (what lazy_copy issues
// when the memory cannot be shared).
class CopyOp final : public Operation {
 public:
  CopyOp(StorePtr source, StorePtr copy) {
    name = "copy";
    const int s = add(std::move(source), true, false);
    const int c = add(std::move(copy), false, true);
    constraints.push_back(align(c, s));
  }
  void execute(const Point& point) override {
    const Store& from = *args[0].store;
    const Store& to = *args[1].store;
    const Rect& r = point.rects[1];
    if (r.empty()) return;
    const int64_t isz = itemsize(to.dtype());
    Shape extents(r.lo.size());
    for (size_t d = 0; d < extents.size(); ++d) extents[d] = r.hi[d] - r.lo[d];
    const char* src = from.ptr(r.lo);
    char* dst = to.ptr(r.lo);
    const int nd = static_cast<int>(extents.size());
    const int64_t in_step = nd ? from.strides()[static_cast<size_t>(nd - 1)] : 1;
    StridedRows rows(extents, {to.strides().data(), from.strides().data()});
    rows.for_each([&](const int64_t*, const int64_t* off) {
      char* out = dst + off[0] * isz;
      const char* in = src + off[1] * isz;
      if (in_step == 1) {
        std::memcpy(out, in, static_cast<size_t>(rows.length() * isz));
        return;
      }
      for (int64_t j = 0; j < rows.length(); ++j) std::memcpy(out + j * isz, in + j * in_step * isz, isz);
    });
  }
};

// Whether a lazy copy of `source` can share its memory: a whole storage, seen as it is, that
// is tessera's own memory at an address nothing outside knows.
bool can_share(const Store& source) {
  const Storage& s = *source.storage();
  return source.size() > 0 && source.is_whole() && source.dtype() == s.dtype() && !s.adopted() && !s.pinned();
}

}  // namespace

StorePtr lazy_copy(const StorePtr& source, std::string creation) {
  Runtime& runtime = Runtime::get();
  if (!can_share(*source)) {
    StorePtr copy = new_store(source->dtype(), source->shape(), std::move(creation));
    if (copy->size() > 0) runtime.submit(std::make_shared<CopyOp>(source, copy));
    return copy;
  }
  const std::shared_ptr<Storage>& storage = source->storage();
  StorePtr copy = Store::create(source->dtype(), source->shape(), storage->pool(), std::move(creation));
  copy->storage()->await_memory();
  runtime.submit(std::make_shared<ShareOp>(whole_store(storage), copy));
  // After the share is issued: it writes the copy, which must not separate them.
  copy->storage()->join_copies_of(*storage);
  return copy;
}

void unshare_before_write(const std::shared_ptr<Storage>& storage) {
  if (!storage->in_copy_group() || !storage->leave_copies()) return;
  Runtime::get().submit(std::make_shared<UnshareOp>(storage));
}

}  // namespace tessera::detail
