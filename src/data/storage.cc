// Storage: layout, claims and allocation from its pool, and how it describes itself in
// the pool's out-of-memory report.
#include "data/storage.h"

#include <cstring>
#include <sstream>
#include <string_view>

#include "tessera/errors.h"

namespace tessera::detail {

namespace {
// NumPy's checks on a new array's shape, made before anything is reserved: no negative
// extent, and a byte count (ignoring zero extents, as NumPy does) that fits an int64.
void check_extents(const Shape& shape, DType dtype) {
  for (int64_t d : shape)
    if (d < 0) throw ValueError("negative dimensions are not allowed");
  int64_t bytes = itemsize(dtype);
  for (int64_t d : shape) {
    if (d == 0) continue;
    if (__builtin_mul_overflow(bytes, d, &bytes))
      throw ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
  }
}

std::string operation_text(const std::string& operation, const std::string& provenance) {
  static constexpr std::string_view kIssued = " issued at ";
  std::string text;
  text.reserve(operation.size() + 2 + (provenance.empty() ? 0 : kIssued.size() + provenance.size()));
  text.append(1, '\'').append(operation).append(1, '\'');
  if (!provenance.empty()) text.append(kIssued).append(provenance);
  return text;
}

void write_index(std::ostringstream& out, const Shape& idx) {
  out << "<";
  for (size_t d = 0; d < idx.size(); ++d) out << (d ? "," : "") << idx[d];
  out << ">";
}
}  // namespace

Storage::Storage(DType dtype, Shape shape, std::shared_ptr<MemoryPool> pool, std::string creation)
    : dtype_(dtype), shape_(std::move(shape)), pool_(std::move(pool)), creation_(std::move(creation)) {
  static std::atomic<uint64_t> made{0};
  seq_ = made.fetch_add(1, std::memory_order_relaxed) + 1;
  check_extents(shape_, dtype_);
  strides_.resize(shape_.size());
  int64_t s = 1;
  for (int d = static_cast<int>(shape_.size()) - 1; d >= 0; --d) {
    strides_[d] = s;
    s *= shape_[d];
  }
  elements_ = s;
  range_hi_ = elements_;
}

Storage::~Storage() {
  if (external_) return;  // another library's memory: `external_` lets it go
  if (block_) pool_->release(block_, held_bytes());
  else if (reserved()) pool_->unreserve(this);
}

std::string Storage::describe() const {
  std::ostringstream what;
  what << "store of shape (";
  for (size_t i = 0; i < shape_.size(); ++i) what << (i ? ", " : "") << shape_[i];
  if (shape_.size() == 1) what << ",";
  what << ") " << dtype_name(dtype_);
  if (!creation_.empty()) what << " created at " << creation_;
  return what.str();
}

std::string Storage::allocation_detail() const {
  std::ostringstream out;
  if (elements_ == 0) {
    out << "covering no elements";
  } else if (partial_) {
    out << "covering elements " << range_lo_ << ".." << range_hi_ - 1 << " in C order (this rank's part)";
  } else {
    Shape last(shape_.size());
    for (size_t d = 0; d < shape_.size(); ++d) last[d] = shape_[d] - 1;
    out << "covering elements ";
    write_index(out, Shape(shape_.size(), 0));
    out << "..";
    write_index(out, last);
  }
  std::lock_guard lock(info_mu_);
  if (!halo_low_.empty()) {
    out << " (stencil halo ";
    write_index(out, halo_low_);
    out << " below, ";
    write_index(out, halo_high_);
    out << " above)";
  }
  if (!made_by_.empty()) out << ", made by " << made_by_;
  return out.str();
}

std::string Storage::made_by() const {
  std::lock_guard lock(info_mu_);
  return made_by_;
}

AllocationInfo Storage::allocation_info() const {
  return AllocationInfo{this, [](const void* s) { return static_cast<const Storage*>(s)->describe(); },
                        [](const void* s) { return static_cast<const Storage*>(s)->allocation_detail(); }, seq_};
}

// The first operation to claim or allocate the memory is the one that made it.
bool Storage::note_maker(const std::string& text) {
  std::lock_guard lock(info_mu_);
  if (!made_by_.empty()) return false;
  made_by_ = text;
  return true;
}

void Storage::allocate(const std::string& operation, const std::string& provenance) {
  if (data()) return;
  std::lock_guard lock(alloc_mu_);
  if (data()) return;
  const std::string text = operation_text(operation, provenance);
  const bool noted = note_maker(text);
  try {
    if (range_hi_ <= range_lo_) range_hi_ = range_lo_ + 1;  // a partial storage this rank only writes nothing of
    block_ = static_cast<char*>(pool_->allocate(held_bytes(), allocation_info(), text));
    data_.store(block_ - range_lo_ * itemsize(dtype_), std::memory_order_release);
  } catch (...) {
    mark_failed();
    std::lock_guard info(info_mu_);
    if (noted) made_by_.clear();
    throw;
  }
  reserved_.store(false, std::memory_order_release);  // the claim, if any, became the block
  failed_.store(false, std::memory_order_release);
}

bool Storage::try_reserve(const std::string& operation, const std::string& provenance) {
  std::lock_guard lock(alloc_mu_);
  if (data() || reserved() || elements_ == 0) return true;  // an empty array takes no room worth claiming
  if (!pool_->try_reserve(bytes(), allocation_info())) return false;
  note_maker(operation_text(operation, provenance));
  reserved_.store(true, std::memory_order_release);
  return true;
}

void Storage::reserve(const std::string& operation, const std::string& provenance) {
  {
    std::lock_guard lock(alloc_mu_);
    if (data() || reserved() || elements_ == 0) return;
  }
  // Not under alloc_mu_: the pool's reclaim hook waits for the tasks in flight.
  const std::string text = operation_text(operation, provenance);
  const bool noted = note_maker(text);
  try {
    pool_->reserve(bytes(), allocation_info(), text);
  } catch (...) {
    std::lock_guard lock(info_mu_);
    if (noted) made_by_.clear();
    throw;
  }
  std::lock_guard lock(alloc_mu_);
  if (data()) pool_->unreserve(this);  // allocated meanwhile: the claim is not needed
  else reserved_.store(true, std::memory_order_release);
}

void Storage::unreserve() {
  std::lock_guard lock(alloc_mu_);
  if (!reserved()) return;
  pool_->unreserve(this);
  reserved_.store(false, std::memory_order_release);
  std::lock_guard info(info_mu_);
  made_by_.clear();
}

void Storage::set_halo(Shape low, Shape high) {
  std::lock_guard lock(info_mu_);
  halo_low_ = std::move(low);
  halo_high_ = std::move(high);
}

Shape Storage::halo_low() const {
  std::lock_guard lock(info_mu_);
  return halo_low_;
}

Shape Storage::halo_high() const {
  std::lock_guard lock(info_mu_);
  return halo_high_;
}

bool Storage::make_partial() {
  std::lock_guard lock(alloc_mu_);
  if (partial()) return true;
  if (data() || reserved() || external_ || elements_ == 0) return false;
  partial_.store(true, std::memory_order_release);
  range_lo_ = range_hi_ = 0;
  return true;
}

bool Storage::cover(int64_t lo, int64_t hi) {
  if (hi <= lo) return true;
  std::lock_guard lock(alloc_mu_);
  if (!partial_) return true;
  if (!data()) {
    if (range_hi_ <= range_lo_) {
      range_lo_ = lo;
      range_hi_ = hi;
    } else {
      range_lo_ = std::min(range_lo_, lo);
      range_hi_ = std::max(range_hi_, hi);
    }
    return true;
  }
  return lo >= range_lo_ && hi <= range_hi_;
}

void Storage::grow(int64_t lo, int64_t hi) {
  std::lock_guard lock(alloc_mu_);
  if (!partial_ || !data() || (lo >= range_lo_ && hi <= range_hi_)) return;
  const int64_t isz = itemsize(dtype_);
  const int64_t new_lo = std::min(range_lo_, lo), new_hi = std::max(range_hi_, hi);
  auto* block = static_cast<char*>(pool_->allocate((new_hi - new_lo) * isz, allocation_info(), "'grow'"));
  std::memcpy(block + (range_lo_ - new_lo) * isz, block_, static_cast<size_t>(held_bytes()));
  pool_->release(block_, held_bytes());
  block_ = block;
  range_lo_ = new_lo;
  range_hi_ = new_hi;
  data_.store(block_ - range_lo_ * isz, std::memory_order_release);
}

void Storage::swap_memory(Storage& o) {
  std::scoped_lock lock(alloc_mu_, o.alloc_mu_);
  TESSERA_CHECK(data() && o.data() && pool_ == o.pool_ && dtype_ == o.dtype_ && elements_ == o.elements_ && !partial_ &&
                    !o.partial_ && !external_ && !o.external_,
                "swap_memory: storages that cannot exchange memory");
  pool_->swap_owners(block_, o.block_);
  std::swap(block_, o.block_);
  char* mine = data_.load(std::memory_order_acquire);
  data_.store(o.data_.load(std::memory_order_acquire), std::memory_order_release);
  o.data_.store(mine, std::memory_order_release);
}

void Storage::adopt(char* data, std::shared_ptr<void> keep) {
  std::lock_guard lock(alloc_mu_);
  TESSERA_CHECK(!this->data() && !reserved(), "adopt: the storage already has memory");
  external_ = std::move(keep);
  data_.store(data, std::memory_order_release);
  note_maker(operation_text("from_dlpack", creation_));
}

void Storage::move_to(std::shared_ptr<MemoryPool> pool) {
  std::lock_guard lock(alloc_mu_);
  if (pool == pool_ && !external_) return;
  if (char* old = block_ ? block_ : data()) {
    const int64_t held = external_ ? bytes() : held_bytes();
    auto* moved = static_cast<char*>(pool->allocate(held, allocation_info(), "'offload_to'"));
    // Between memory kinds (an adopted buffer is host memory).
    copy_memory(moved, pool->kind(), old, external_ || !pool_ ? MemoryKind::Sysmem : pool_->kind(), held);
    if (external_) external_.reset();  // the other library keeps its memory
    else pool_->release(old, held);
    block_ = moved;
    data_.store(moved - (external_ ? 0 : range_lo_) * itemsize(dtype_), std::memory_order_release);
  } else if (reserved()) {
    pool->reserve(bytes(), allocation_info(), "'offload_to'");
    pool_->unreserve(this);
  }
  pool_ = std::move(pool);
}

}  // namespace tessera::detail
