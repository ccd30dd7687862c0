#include "data/storage.h"

#include <sstream>

namespace tessera::detail {

Storage::Storage(DType dtype, Shape shape, std::shared_ptr<MemoryPool> pool, std::string creation)
    : dtype_(dtype), shape_(std::move(shape)), pool_(std::move(pool)), creation_(std::move(creation)) {
  strides_.resize(shape_.size());
  int64_t s = 1;
  for (int d = static_cast<int>(shape_.size()) - 1; d >= 0; --d) {
    strides_[d] = s;
    s *= shape_[d];
  }
  elements_ = s;
}

Storage::~Storage() {
  if (char* p = data()) pool_->release(p, bytes());
}

std::string Storage::describe() const {
  std::ostringstream what;
  what << "store of shape (";
  for (size_t i = 0; i < shape_.size(); ++i) what << (i ? ", " : "") << shape_[i];
  if (shape_.size() == 1) what << ",";
  what << ") " << dtype_name(dtype_);
  if (!creation_.empty()) what << ", created at " << creation_;
  return what.str();
}

void Storage::allocate(const std::string& operation) {
  if (data()) return;
  std::lock_guard lock(alloc_mu_);
  if (data()) return;
  AllocationInfo info{this, [](const void* s) { return static_cast<const Storage*>(s)->describe(); }};
  data_ = static_cast<char*>(pool_->allocate(bytes(), info, operation));
}

}  // namespace tessera::detail
