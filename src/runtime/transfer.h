// The copies between ranks, as operations in the dependence graph: a SendOp on the rank
// that holds a part of a storage reads it and hands it to the channel; a ReceiveOp on
// the rank that lacks it writes it from the message. Both see the whole storage as their
// store and the part as their one tile, so the analyser orders them against the tasks
// that write and read that part like any other access.
#pragma once

#include <vector>

#include "comm/comm.h"
#include "runtime/operation.h"

namespace tessera::detail {

/// A store covering all of `storage` in C order.
StorePtr whole_store(const std::shared_ptr<Storage>& storage);

/// Copies the elements of `box` (storage coordinates) to `out`, C order.
void pack_box(const Storage& storage, const Rect& box, char* out);
/// The reverse of pack_box.
void unpack_box(Storage& storage, const Rect& box, const char* in);
/// Copies the elements of `box` from `from` to `to`, a storage of the same shape and dtype.
void copy_box(const Storage& from, Storage& to, const Rect& box);
/// Copies the elements of `box` from `from` into memory laid out as `from` but holding its
/// elements from C-order position `first` on, which `to` points at (a band of its rows).
void copy_box_into(const Storage& from, const Rect& box, char* to, int64_t first);

class SendOp final : public Operation {
 public:
  SendOp(Channel& channel, const std::shared_ptr<Storage>& storage, int dest, int tag);
  void execute(const Point& point) override;

 private:
  Channel& channel_;
  int dest_, tag_;
};

class ReceiveOp final : public Operation {
 public:
  ReceiveOp(const std::shared_ptr<Storage>& storage, const Rect& box);
  void execute(const Point& point) override;
  /// Where the message lands (posted to the channel when the copy is analysed).
  char* buffer() { return buffer_.data(); }
  int64_t bytes() const { return static_cast<int64_t>(buffer_.size()); }

 private:
  std::vector<char> buffer_;
};

}  // namespace tessera::detail
