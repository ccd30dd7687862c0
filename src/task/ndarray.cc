// The ndarray handle (the public tessera/ndarray.h), what tasks are launched over and every
// library's arrays are: counts program references to its store (for fusion) and reads values
// back after waiting for pending work (which is why it lives beside the task API, not in data/).
#include "tessera/ndarray.h"

#include <cstring>

#include "data/store.h"
#include "data/strided_rows.h"
#include "runtime/copy_on_write.h"
#include "runtime/runtime.h"
#include "tessera/creation.h"

namespace tessera {

ndarray::ndarray(std::shared_ptr<detail::Store> store) : store_(std::move(store)) {
  if (store_) store_->user_refs.fetch_add(1, std::memory_order_relaxed);
}
ndarray::ndarray(std::shared_ptr<PendingArray> pending) : pending_(std::move(pending)) {}
ndarray::ndarray(const ndarray& o) : ndarray(o.store_) { pending_ = o.pending_; }
ndarray::ndarray(ndarray&& o) noexcept : store_(std::move(o.store_)), pending_(std::move(o.pending_)) {}
ndarray& ndarray::operator=(const ndarray& o) {
  if (this != &o) *this = ndarray(o);
  return *this;
}
ndarray& ndarray::operator=(ndarray&& o) noexcept {
  if (this != &o) {
    if (store_) store_->user_refs.fetch_sub(1, std::memory_order_relaxed);
    store_ = std::move(o.store_);
    pending_ = std::move(o.pending_);
  }
  return *this;
}

void ndarray::settle() const {
  store_ = pending_->materialize();
  store_->user_refs.fetch_add(1, std::memory_order_relaxed);
  pending_.reset();
}

void ndarray::repoint(std::shared_ptr<PendingArray> pending) const {
  if (store_) store_->user_refs.fetch_sub(1, std::memory_order_relaxed);
  store_.reset();
  pending_ = std::move(pending);
}
ndarray::~ndarray() {
  if (store_) store_->user_refs.fetch_sub(1, std::memory_order_relaxed);
}

const Shape& ndarray::shape() const { return store()->shape(); }
int ndarray::ndim() const { return store()->ndim(); }
int64_t ndarray::size() const { return store()->size(); }
DType ndarray::dtype() const {
  if (pending_)
    if (std::optional<DType> known = pending_->known_dtype()) return *known;
  return store()->dtype();
}
Shape ndarray::strides_bytes() const {
  Shape s = store()->strides();
  for (auto& v : s) v *= itemsize();
  return s;
}
bool ndarray::shares_storage(const ndarray& o) const { return store()->storage() == o.store()->storage(); }

Scalar ndarray::item() const {
  if (size() != 1) throw ValueError("can only convert an array of size 1 to a Python scalar");
  return item(0);
}

Scalar ndarray::item(int64_t flat) const {
  if (flat < 0 || flat >= size())
    throw IndexError("index " + std::to_string(flat) + " is out of bounds for size " + std::to_string(size()));
  Shape idx(ndim());
  for (int d = ndim() - 1; d >= 0; --d) {
    idx[d] = flat % shape()[d];
    flat /= shape()[d];
  }
  // Only the element itself is waited for (and, with several ranks, brought here).
  detail::StorePtr element = store();
  for (int d = ndim() - 1; d >= 0; --d) element = element->slice(d, idx[d], idx[d] + 1, 1);
  detail::Runtime::get().acquire_to_read(element);
  if (!store_->storage()->allocated()) throw ValueError("array was never computed (an earlier error stopped it)");
  return Scalar::from_bytes(dtype(), store_->ptr(idx));
}

void ndarray::copy_to(void* dst) const {
  detail::Runtime::get().acquire_to_read(store());
  const int64_t n = size();
  if (n == 0) return;
  if (!store_->storage()->allocated()) throw ValueError("array was never computed (an earlier error stopped it)");
  const int isz = itemsize();
  char* out = static_cast<char*>(dst);
  if (store_->is_c_contiguous()) {
    std::memcpy(out, store_->base_ptr(), static_cast<size_t>(n * isz));
    return;
  }
  const int nd = ndim();
  const auto& st = store_->strides();
  const int64_t is = nd ? st[nd - 1] : 0;
  const char* base = store_->base_ptr();
  detail::StridedRows rows(shape(), {st.data()});
  rows.for_each([&](const int64_t*, const int64_t* off) {
    const char* src = base + off[0] * isz;
    for (int64_t j = 0; j < rows.length(); ++j) std::memcpy(out + j * isz, src + j * is * isz, isz);
    out += rows.length() * isz;
  });
}

// A runtime service (runtime/copy_on_write.h), public beside the handle it returns.
ndarray lazy_copy(const ndarray& a) { return ndarray(detail::lazy_copy(a.store(), detail::Runtime::provenance())); }

}  // namespace tessera
