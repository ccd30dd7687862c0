// The NumPy library's window passes: fusion of element-wise chains (with storage renaming
// and in-place stencils) and the results that may wait for a later flush.
#include "numeric/elementwise/expression.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>

#include "numeric/elementwise/vector_loops.h"
#include "runtime/renaming.h"
#include "runtime/runtime.h"
#include "runtime/stores.h"
#include "runtime/transfer.h"
#include "tessera/errors.h"

namespace tessera::detail {

namespace {

// Whether an operation of window[from, to) touches `storage` (writes it, with `writes`).
bool touched_between(const std::vector<OperationPtr>& window, size_t from, size_t to, const Storage* storage,
                     bool writes = false) {
  for (size_t j = from; j < to; ++j) {
    if (!window[j]) continue;
    for (const OpArg& a : window[j]->args)
      if (a.store && a.store->storage().get() == storage && (a.write || !writes)) return true;
  }
  return false;
}

// window[producer] copies a whole array into a fresh one, and window[consumer] is the next
// operation that touches either: when it overwrites a box of most of the source's storage
// and nothing between touches the source, the copy becomes an exchange (renaming.h), and what the
// consumer reads of the source it reads of the copy. False when the pattern differs.
bool exchange_into(std::vector<OperationPtr>& window, size_t producer, size_t consumer) {
  const auto* prod = static_cast<const ElementwiseOp*>(window[producer].get());
  auto* cons = static_cast<ElementwiseOp*>(window[consumer].get());
  if (prod->num_outputs() != 1 || cons->num_outputs() != 1) return false;
  const auto& nodes = prod->nodes();
  if (nodes.size() != 1 || nodes[0].kind != NodeKind::Input || prod->num_inputs() != 1) return false;
  const StorePtr& source = prod->args[1].store;
  const StorePtr& copy = prod->output();
  const std::shared_ptr<Storage>& storage = source->storage();
  if (!source->is_whole() || !copy->is_whole() || source->dtype() != copy->dtype() ||
      source->dtype() != storage->dtype() || source->shape() != copy->shape() ||
      copy->storage()->shape() != storage->shape() || !storage->renamable() || !copy->storage()->renamable())
    return false;
  const StorePtr& view = cons->output();
  if (view->storage() != storage || touched_between(window, producer + 1, consumer, storage.get())) return false;
  const std::optional<Rect> box = most_of_storage(*view);
  if (!box) return false;
  // What the assignment reads of the source (a stencil computed in place, say) it reads
  // from the copy instead: the same views of the same values, in the memory the copy takes.
  for (int k = 1; k <= cons->num_inputs(); ++k) {
    StorePtr& in = cons->args[static_cast<size_t>(k)].store;
    if (in->storage() == storage) in = copy->strided(in->offset(), in->shape(), in->strides());
  }
  OperationPtr exchange = exchange_op(source, copy, *box);
  exchange->provenance = prod->provenance;
  window[producer] = std::move(exchange);
  return true;
}

// The view window[consumer] copies the temporary window[producer] makes into, unchanged, or
// null: the assignment the producer may write itself (in place or renamed).
StorePtr copy_target(const std::vector<OperationPtr>& window, size_t producer, size_t consumer) {
  const auto* prod = static_cast<const ElementwiseOp*>(window[producer].get());
  const auto* cons = dynamic_cast<const ElementwiseOp*>(window[consumer].get());
  if (!cons) return nullptr;
  const auto& nodes = cons->nodes();
  if (nodes.size() != 1 || nodes[0].kind != NodeKind::Input || cons->num_inputs() != 1) return nullptr;
  const StorePtr& temp = prod->output();
  const StorePtr& view = cons->output();
  if (cons->args[1].store != temp || temp->dtype() != view->dtype() || temp->shape() != view->shape()) return nullptr;
  return view;
}

// window[consumer] copies the temporary window[producer] makes into `view`, a box of a storage
// the producer reads through other views (so the two cannot fuse): the producer writes a fresh
// storage at that box and a RenameOp takes the copy's place. False when the pattern differs.
bool rename_into(std::vector<OperationPtr>& window, size_t producer, size_t consumer, const StorePtr& view) {
  auto* prod = static_cast<ElementwiseOp*>(window[producer].get());
  const std::shared_ptr<Storage>& storage = view->storage();
  const std::optional<Rect> box = storage->renamable() ? most_of_storage(*view) : std::nullopt;
  if (!box) return false;
  StorePtr fresh = new_store(storage->dtype(), storage->shape(), prod->provenance);
  fresh->storage()->set_twin(storage);  // with several ranks, each rank's part is where storage's is
  prod->retarget(fresh->strided(view->offset(), view->shape(), view->strides()));
  auto rename = rename_op(whole_store(storage), fresh, *box);
  rename->provenance = window[consumer]->provenance;
  window[consumer] = std::move(rename);
  return true;
}

// window[consumer] copies the temporary window[producer] makes into `view`, of a storage the
// producer reads through other views: the producer writes that view itself, in place, and
// the operation writing the rows its tiles keep for each other takes the copy's place.
// False when the pattern differs or an operation between them touches the storage.
bool in_place_into(std::vector<OperationPtr>& window, size_t producer, size_t consumer, const StorePtr& view) {
  auto* prod = static_cast<ElementwiseOp*>(window[producer].get());
  const StorePtr temp = prod->output();
  if (touched_between(window, producer + 1, consumer, view->storage().get())) return false;
  prod->retarget(view);
  OperationPtr rows = prod->compute_in_place();
  if (!rows) {
    prod->retarget(temp);
    return false;
  }
  rows->provenance = window[consumer]->provenance;
  window[consumer] = std::move(rows);
  return true;
}

}  // namespace

namespace {

// Whether `op` touches what `prod` writes, or writes what it reads: `prod` cannot move past it.
bool touches(const Operation& op, const ElementwiseOp& prod) {
  for (const OpArg& a : op.args) {
    if (!a.store) continue;
    for (int o = 0; o < prod.num_outputs(); ++o)
      if (a.store->storage() == prod.output(o)->storage()) return true;
    if (!a.write) continue;
    for (int k = 1; k <= prod.num_inputs(); ++k)
      if (prod.args[k].store->storage() == a.store->storage()) return true;
  }
  return false;
}

// The first operation after window[at] that touches what `prod` (window[at]) writes or writes
// what it reads, or the window's size.
size_t next_touching(const std::vector<OperationPtr>& window, size_t at, const ElementwiseOp& prod) {
  size_t j = at + 1;
  while (j < window.size() && !(window[j] && touches(*window[j], prod))) ++j;
  return j;
}

// Whether an operation after window[at] touches `storage` (writes it, with `writes`).
bool touched_after(const std::vector<OperationPtr>& window, size_t at, const Storage* storage, bool writes = false) {
  return touched_between(window, at + 1, window.size(), storage, writes);
}

// Whether the values `out` receives may be read after window[at]: by a handle or view of the
// program, by an operation outside the window (the one being issued, say), or by a later
// operation in it.
bool needed_after(const std::vector<OperationPtr>& window, size_t at, const StorePtr& out) {
  const auto& storage = out->storage();
  if (out->user_refs.load() > 0 || storage.use_count() != 1 || !out->is_whole()) return true;
  long held = 0;  // references from the window's operations
  for (const OperationPtr& op : window)
    if (op)
      for (const OpArg& a : op->args) held += a.store == out;
  return out.use_count() > held || touched_after(window, at, storage.get());
}

// Lets window[j], the first operation after window[i] (an element-wise one) that touches what
// it writes, compute window[i]'s outputs as it reads one of them (a reduction), writing them all
// with `keep`: it must read that output once, whole, and write nothing of it.
bool absorb_into(const std::vector<OperationPtr>& window, size_t i, size_t j, bool keep) {
  const auto& prod = static_cast<const ElementwiseOp&>(*window[i]);
  int input = -1, output = -1;
  for (size_t k = 0; k < window[j]->args.size(); ++k) {
    const OpArg& a = window[j]->args[k];
    if (!a.store) continue;
    for (int o = 0; o < prod.num_outputs(); ++o) {
      const StorePtr& out = prod.output(o);
      if (a.store->storage() != out->storage()) continue;
      if (input >= 0 || a.write || a.store != out) return false;
      input = static_cast<int>(k);
      output = o;
    }
  }
  return input >= 0 && window[j]->absorb_producer(window[i], input, output, keep);
}

}  // namespace

// Each element-wise operation moves forward to the first later operation that touches what
// it writes (or writes what it reads). An element-wise one there computes both in one pass:
// what the producer wrote is still written where the program or a later operation can read
// it, and is never made otherwise. A reduction there may compute a temporary as it reads it.
void fuse_elementwise(std::vector<OperationPtr>& window) {
  const size_t n = window.size();
  for (size_t i = 0; i < n; ++i) {
    auto* prod = dynamic_cast<ElementwiseOp*>(window[i].get());
    if (!prod) continue;
    // Results nothing can ever read (the program dropped them, no later operation reads
    // them) are not computed at all.
    bool dead = true;
    for (int o = 0; o < prod->num_outputs() && dead; ++o) dead = !needed_after(window, i, prod->output(o));
    if (dead) {
      window[i].reset();
      continue;
    }
    const size_t j = next_touching(window, i, *prod);
    if (j == n) continue;
    std::vector<bool> keep(prod->num_outputs());
    for (int o = 0; o < prod->num_outputs(); ++o) keep[o] = needed_after(window, j, prod->output(o));
    if (auto* cons = dynamic_cast<ElementwiseOp*>(window[j].get())) {
      if (cons->merge(*prod, keep)) {
        cons->waits = std::max(cons->waits, prod->waits);
        window[i].reset();
      } else if (prod->num_outputs() == 1 && !keep[0])
        if (const StorePtr view = copy_target(window, i, j); view && !in_place_into(window, i, j, view))
          rename_into(window, i, j, view);
      continue;
    }
    if (prod->num_outputs() == 1 && !keep[0] && absorb_into(window, i, j, false)) window[i].reset();
  }
  std::erase(window, nullptr);
  // Copies whose source the operation after them overwrites (its consumer now fused whole).
  for (size_t i = 0; i < window.size(); ++i) {
    auto* prod = dynamic_cast<ElementwiseOp*>(window[i].get());
    if (!prod) continue;
    const size_t j = next_touching(window, i, *prod);
    if (j < window.size() && dynamic_cast<ElementwiseOp*>(window[j].get())) exchange_into(window, i, j);
  }
  fuse_sweeps(window);
}

// A result can wait when it is a whole array the program is not reading now and no later
// operation of the window touches, and no later operation overwrites what it is computed
// from: it is computed when something needs it (a later flush), or never if the program
// drops it first (the fusion pass drops dead results). An operation all of whose results
// can wait waits whole; otherwise the results that can wait are split off it. A full window
// (no `reading`) keeps only what has not waited before, so nothing waits for long.
void defer_elementwise(std::vector<OperationPtr>& window, const Storage* reading, std::vector<OperationPtr>& later) {
  // A result may wait through this many flushes (its own and those of what merged into it);
  // then it runs, and the inputs it holds (a loop's temporaries) go back to the pool.
  constexpr int kMaxWaits = 2;
  std::vector<OperationPtr> waiting;  // in reverse program order
  for (size_t i = window.size(); i-- > 0;) {
    auto* op = dynamic_cast<ElementwiseOp*>(window[i].get());
    // An operation that waited once waits whole or runs whole: split again, it would compute
    // what its results share once more.
    if (!op || (op->waited && !reading) || op->waits >= kMaxWaits) continue;
    bool inputs_kept = true;
    for (int k = 1; k <= op->num_inputs() && inputs_kept; ++k)
      inputs_kept = !touched_after(window, i, op->args[k].store->storage().get(), true);
    if (!inputs_kept) continue;
    auto can_wait = [&](const StorePtr& out) {
      return out->is_whole() && out->storage().get() != reading && !touched_after(window, i, out->storage().get());
    };
    bool all = true;
    for (int o = 0; o < op->num_outputs() && all; ++o) all = can_wait(op->output(o));
    if (all) {
      op->waited = true;
      ++op->waits;
      waiting.push_back(std::move(window[i]));
      continue;
    }
    // A result split off reads the inputs later: none of them may be what the rest writes.
    bool in_place = false;
    for (int k = 1; k <= op->num_inputs() && !in_place; ++k)
      for (int o = 0; o < op->num_outputs() && !in_place; ++o)
        in_place = op->args[k].store->storage() == op->output(o)->storage();
    if (in_place || op->waited) continue;
    std::vector<int> later_outputs;
    for (int o = 1; o < op->num_outputs(); ++o)
      if (can_wait(op->output(o))) later_outputs.push_back(o);
    if (later_outputs.empty()) continue;
    waiting.push_back(op->split_outputs(later_outputs));
    waiting.back()->waited = true;
    waiting.back()->waits = op->waits + 1;
  }
  std::erase(window, nullptr);
  // What runs now of an operation whose results the program keeps and a reduction then reads
  // (`y = f(x); s = y.sum()`): the reduction writes them as it goes and reads them back from
  // the caches. Only here, once what can wait has been split off: it would be written too.
  for (size_t i = 0; i < window.size(); ++i) {
    auto* prod = dynamic_cast<ElementwiseOp*>(window[i].get());
    if (!prod) continue;
    const size_t j = next_touching(window, i, *prod);
    if (j == window.size() || dynamic_cast<ElementwiseOp*>(window[j].get())) continue;
    if (absorb_into(window, i, j, true)) window[i].reset();
  }
  std::erase(window, nullptr);
  later.insert(later.end(), std::make_move_iterator(waiting.rbegin()), std::make_move_iterator(waiting.rend()));
}
}  // namespace tessera::detail
