// Memory for what operations write: the bytes the window will need, the claims made in
// program order when it is flushed (so that no worker runs out), and the allocation of an
// inline operation's outputs.
#include "runtime/runtime.h"

#include <algorithm>

#include "tessera/errors.h"

namespace tessera::detail {

void Runtime::allocate_outputs(const Operation& op) {
  for (size_t i = 0; i < op.args.size(); ++i) {
    const OpArg& a = op.args[i];
    if (!a.write || a.store->storage()->allocated()) continue;
    const Operation::Origin made = op.origin(static_cast<int>(i));
    a.store->storage()->allocate(made.name, made.provenance);
  }
}

int64_t Runtime::unclaimed_bytes(const Operation& op) const {
  int64_t bytes = 0;
  for (const OpArg& a : op.args) {
    if (!a.write) continue;
    const Storage& s = *a.store->storage();
    if (a.write && !s.allocated() && !s.reserved() && !s.awaiting_memory()) bytes += s.bytes();
  }
  return bytes;
}

// Claims, in program order and on this thread, the room each flushed operation writes into,
// so that a worker never runs out (it could not wait for memory to come back) and the
// error comes at the program's call. Operations before one that does not fit are queued
// first: the pool's reclaim then lets them run and free what they leave dead. One that
// still does not fit is dropped with the later ones of the batch that use what it would
// have written (their results are never computed); the first error is returned.
std::exception_ptr Runtime::claim_memory(std::vector<OperationPtr>& ops) {
  std::exception_ptr error;
  std::vector<const Storage*> lost;  // written by dropped operations
  std::vector<OperationPtr> ready;
  ready.reserve(ops.size());
  for (OperationPtr& op : ops) {
    bool drop = false;
    for (const OpArg& a : op->args)
      drop = drop || (a.store && std::find(lost.begin(), lost.end(), a.store->storage().get()) != lost.end());
    std::vector<Storage*> claimed;  // by this operation
    bool fits = !drop;
    for (size_t i = 0; i < op->args.size(); ++i) {
      const OpArg& a = op->args[i];
      if (!fits || !a.write) continue;
      Storage& s = *a.store->storage();
      if (s.allocated() || s.reserved()) continue;
      const Operation::Origin made = op->origin(static_cast<int>(i));
      if (s.try_reserve(made.name, made.provenance)) claimed.push_back(&s);
      else fits = false;
    }
    if (!fits && !drop) {
      enqueue(ready);
      try {
        for (size_t i = 0; i < op->args.size(); ++i) {
          const OpArg& a = op->args[i];
          if (!a.write) continue;
          Storage& s = *a.store->storage();
          if (s.allocated() || s.reserved()) continue;
          const Operation::Origin made = op->origin(static_cast<int>(i));
          s.reserve(made.name, made.provenance);
          claimed.push_back(&s);
        }
        fits = true;
      } catch (const OutOfMemoryError&) {
        if (!error) error = std::current_exception();
        for (Storage* s : claimed) s->unreserve();
      }
    }
    if (fits) {
      ready.push_back(std::move(op));
      continue;
    }
    for (const OpArg& a : op->args) {
      if (!a.write) continue;
      lost.push_back(a.store->storage().get());
      if (!a.store->storage()->allocated()) a.store->storage()->mark_failed();
    }
  }
  ops = std::move(ready);
  return error;
}

}  // namespace tessera::detail
