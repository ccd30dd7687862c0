#include "runtime/transfer.h"

#include <cstring>

#include "data/store.h"
#include "data/strided_rows.h"
#include "observe/observer.h"

namespace tessera::detail {

StorePtr whole_store(const std::shared_ptr<Storage>& storage) {
  std::vector<int> dims(storage->shape().size());
  for (size_t d = 0; d < dims.size(); ++d) dims[d] = static_cast<int>(d);
  return std::make_shared<Store>(storage->dtype(), storage->shape(), storage->strides(), 0, std::move(dims), storage);
}

namespace {
// Calls f(offset in elements of a contiguous run, run length in elements) for every run of
// `box` in C order: the innermost dimension is one run per row.
template <class F>
void for_each_run(const Storage& storage, const Rect& box, F&& f) {
  const int nd = box.ndim();
  if (box.empty()) return;
  if (nd == 0) {
    f(int64_t{0}, int64_t{1});
    return;
  }
  const Shape& st = storage.strides();
  // Merge trailing dimensions that the box covers whole into one longer run.
  int inner = nd - 1;
  int64_t run = box.hi[inner] - box.lo[inner];
  while (inner > 0 && box.lo[inner] == 0 && box.hi[inner] == storage.shape()[inner]) {
    --inner;
    run *= box.hi[inner] - box.lo[inner];
  }
  // The runs: one per index of the axes before `inner`.
  Shape extents(static_cast<size_t>(inner) + 1, 1);
  int64_t start = 0;
  for (int d = 0; d < nd; ++d) start += box.lo[d] * st[d];
  for (int d = 0; d < inner; ++d) extents[d] = box.hi[d] - box.lo[d];
  StridedRows(extents, {st.data()}).for_each([&](const int64_t*, const int64_t* off) { f(start + off[0], run); });
}
}  // namespace

void pack_box(const Storage& storage, const Rect& box, char* out) {
  const int64_t isz = itemsize(storage.dtype());
  const char* base = storage.data();
  for_each_run(storage, box, [&](int64_t off, int64_t n) {
    std::memcpy(out, base + off * isz, static_cast<size_t>(n * isz));
    out += n * isz;
  });
}

void unpack_box(Storage& storage, const Rect& box, const char* in) {
  const int64_t isz = itemsize(storage.dtype());
  char* base = storage.data();
  for_each_run(storage, box, [&](int64_t off, int64_t n) {
    std::memcpy(base + off * isz, in, static_cast<size_t>(n * isz));
    in += n * isz;
  });
}

void copy_box(const Storage& from, Storage& to, const Rect& box) { copy_box_into(from, box, to.data(), 0); }

void copy_box_into(const Storage& from, const Rect& box, char* to, int64_t first) {
  const int64_t isz = itemsize(from.dtype());
  for_each_run(from, box, [&](int64_t off, int64_t n) {
    std::memcpy(to + (off - first) * isz, from.data() + off * isz, static_cast<size_t>(n * isz));
  });
}

SendOp::SendOp(Channel& channel, const std::shared_ptr<Storage>& storage, int dest, int tag)
    : channel_(channel), dest_(dest), tag_(tag) {
  name = "send";
  add(whole_store(storage), true, false);
}

void SendOp::execute(const Point& point) {
  const Rect& box = point.tile;
  Storage& storage = *args[0].store->storage();
  // A part nobody computed here (its writer ran out of memory) still travels, as garbage,
  // so that the receiver is not left waiting; the writer's error reaches the program.
  if (!storage.allocated()) storage.allocate(name, provenance);
  std::vector<char> bytes(static_cast<size_t>(box.volume() * itemsize(storage.dtype())));
  RuntimeObserver* const o = observer();
  if (o) o->copy_begin(static_cast<int64_t>(bytes.size()), "send");
  pack_box(storage, box, bytes.data());
  if (o) o->copy_end(static_cast<int64_t>(bytes.size()), "send");
  channel_.send(dest_, tag_, std::move(bytes));
}

ReceiveOp::ReceiveOp(const std::shared_ptr<Storage>& storage, const Rect& box)
    : buffer_(static_cast<size_t>(box.volume() * itemsize(storage->dtype()))) {
  name = "receive";
  add(whole_store(storage), false, true);
}

void ReceiveOp::execute(const Point& point) {
  const Rect& box = point.tile;
  Storage& storage = *args[0].store->storage();
  RuntimeObserver* const o = observer();
  if (o) o->copy_begin(bytes(), "receive");
  unpack_box(storage, box, buffer_.data());
  if (o) o->copy_end(bytes(), "receive");
  std::vector<char>().swap(buffer_);
}

}  // namespace tessera::detail
