// Copy-on-write stores, a service of the runtime to every library (tessera::lazy_copy): a
// copy that shares its source's memory until either of them — or any view of either — is
// written; then the one written takes fresh memory with a copy of the values, in dependence
// order, and the other keeps the old memory untouched.
//
// How it is built:
// - lazy_copy(S) makes a store S2 whose storage awaits its memory, and issues a *share*
//   operation that reads S (so it runs after S's pending writers) and writes S2 (so S2's
//   readers and writers wait for it). When it runs, S2 uses S's pool block: one allocation,
//   charged to the pool once (a SharedBlock, data/storage.h), returned with its last user;
//   out-of-memory reports list it under S, naming the copies that share it.
// - When it is issued, S and S2 join one *copy group* (the program's record: storages whose
//   values are lazy copies of one another's that no write has separated yet).
// - Before an operation that writes a storage of a group with other members is issued
//   (Runtime::submit, where the libraries' write hooks run) — and before the program touches
//   a storage's memory itself (Runtime::acquire, which host writes and exports go through) —
//   the runtime issues an *unshare* operation: a writer of that storage (it waits for
//   everything issued on it before; everything after waits for it) that, when it runs and
//   the memory is still shared, gives the storage fresh memory with a copy of its values.
//   The others keep the old memory; their reads never wait for it. The storage leaves its
//   group, so later writes issue nothing. A copy dropped before any write leaves nothing to
//   copy: when the unshare runs and no other storage uses the memory, it keeps it. (Whether
//   an unshare is issued depends on the program alone, never on when tasks let go of a
//   storage: every rank issues the same operations.)
// - Several ranks: share and unshare are *local* operations (Operation::local): every rank
//   runs them on the memory it holds of a partial storage, with no copies between ranks. S2
//   covers S's range and holds what S holds (its residency record is S's); the analysis
//   lets a lazy copy's share run before it widens the copy's range. Storages that share a
//   block hold the same values (a write separates them first, on every rank), so a part one
//   of them receives from another rank lands in the shared memory as it is, and a range
//   that must grow (Storage::grow) grows for all of them: still one allocation. Reads of
//   values (acquire_to_read) leave the memory shared; acquire, which may precede a host
//   write, separates.
// - When sharing is not possible — S is a view that is not its whole storage, another
//   library's memory (from_dlpack), or its address was handed out (pinned) — lazy_copy issues
//   an ordinary copy at once; at run time a share that cannot share (another pool, a range S
//   does not cover) copies instead.
#pragma once

#include <memory>
#include <string>

#include "data/store.h"
#include "runtime/operation.h"

namespace tessera::detail {

/// A C-contiguous store with `source`'s values that shares its memory until either is
/// written (see above); an ordinary copy when they cannot share. `creation` is where the
/// program made it, for reports.
StorePtr lazy_copy(const StorePtr& source, std::string creation);

/// Called before an operation that writes `storage` is issued, and before the program
/// writes its memory: when another live storage may share its memory, issues the operation
/// that separates them (on the program thread, inside Runtime::submit or acquire).
void unshare_before_write(const std::shared_ptr<Storage>& storage);

}  // namespace tessera::detail
