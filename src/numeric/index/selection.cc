// Selections waiting to be compacted, and the compaction a write forces.
#include "numeric/index/selection.h"

#include <algorithm>
#include <vector>

#include "data/store.h"
#include "numeric/library.h"

namespace tessera::detail {
namespace {
// Live selections (the program thread makes and settles them).
std::vector<std::weak_ptr<Selection>>& watched() {
  static std::vector<std::weak_ptr<Selection>> all;
  return all;
}
}  // namespace

const std::shared_ptr<Store>& Selection::compacted() {
  if (!done_) {
    // What it was made from goes now (and a write the compaction itself makes does not
    // start it again).
    const ndarray v = std::move(values), m = std::move(mask);
    done_ = compact(v, m);
  }
  return done_;
}

ndarray select(std::shared_ptr<Selection> selection) {
  register_numeric_library();  // its write hook settles selections
  auto& all = watched();
  std::erase_if(all, [](const std::weak_ptr<Selection>& w) { return w.expired(); });
  all.push_back(selection);
  return ndarray(std::move(selection));
}

std::shared_ptr<Selection> pending_selection(const ndarray& a) {
  const std::shared_ptr<PendingArray>& p = a.pending();
  if (!p) return nullptr;
  auto s = std::dynamic_pointer_cast<Selection>(p);
  return s && !s->is_compacted() ? s : nullptr;
}

void settle_readers_of(const Storage& storage) {
  auto& all = watched();
  if (all.empty()) return;
  std::vector<std::shared_ptr<Selection>> reading;
  std::erase_if(all, [&](const std::weak_ptr<Selection>& w) {
    std::shared_ptr<Selection> s = w.lock();
    if (!s || s->is_compacted()) return true;
    const Store& values = *s->values.store();
    const bool reads = values.storage().get() == &storage || s->mask.store()->storage().get() == &storage;
    const bool dropped = s->direct && values.user_refs.load() == 1 && values.storage().use_count() == 1;
    if (reads || dropped) reading.push_back(std::move(s));
    return reads || dropped;
  });
  for (const auto& s : reading) s->compacted();
}

}  // namespace tessera::detail
