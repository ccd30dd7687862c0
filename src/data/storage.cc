// Storage: layout, claims and allocation from its pool, and how it describes itself in
// the pool's out-of-memory report.
#include "data/storage.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <string_view>
#include <utility>
#include <vector>

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

// One pool block that several storages use (copy-on-write). The pool lists it once, as the
// first of its users with the others named after it; it goes back to the pool with its last
// user. `mu` guards the users (a leaf lock but for the users' own info locks).
class SharedBlock {
 public:
  SharedBlock(std::shared_ptr<MemoryPool> pool, char* block, int64_t bytes, Storage* first)
      : pool_(std::move(pool)), block_(block), bytes_(bytes), users_{first} {}
  ~SharedBlock() {
    if (block_) pool_->release(block_, bytes_);
  }
  SharedBlock(const SharedBlock&) = delete;
  SharedBlock& operator=(const SharedBlock&) = delete;

  AllocationInfo info(uint64_t order) const { return AllocationInfo{this, &describe, &detail, order}; }
  void add(Storage* user) {
    std::lock_guard lock(mu_);
    users_.push_back(user);
  }
  // Takes `user` out; the one left, if only one, no longer shares. How many are left.
  size_t remove(Storage* user, std::atomic<bool>* (*sharing_of)(Storage*)) {
    std::lock_guard lock(mu_);
    std::erase(users_, user);
    if (users_.size() == 1) sharing_of(users_[0])->store(false, std::memory_order_release);
    return users_.size();
  }
  size_t users() const {
    std::lock_guard lock(mu_);
    return users_.size();
  }
  // Every user moves to `block` (`bytes` long); the old block and its size, for the caller to
  // return to the pool (not under `mu_`: the pool's report takes it inside the pool's lock).
  template <class F>
  std::pair<char*, int64_t> replace(char* block, int64_t bytes, F&& move_user) {
    std::lock_guard lock(mu_);
    for (Storage* u : users_) move_user(u);
    return {std::exchange(block_, block), std::exchange(bytes_, bytes)};
  }
  // The last user takes the block over: it is no longer this one's to return.
  void give_up() {
    std::lock_guard lock(mu_);
    block_ = nullptr;
    users_.clear();
  }

 private:
  static std::string describe(const void* p) {
    const auto* b = static_cast<const SharedBlock*>(p);
    std::lock_guard lock(b->mu_);
    return b->users_.empty() ? std::string("shared store memory") : b->users_[0]->describe();
  }
  static std::string detail(const void* p) {
    const auto* b = static_cast<const SharedBlock*>(p);
    std::lock_guard lock(b->mu_);
    if (b->users_.empty()) return {};
    std::string out = b->users_[0]->allocation_detail();
    if (b->users_.size() > 1) {
      out += ", its memory shared until written with ";
      for (size_t i = 1; i < b->users_.size(); ++i) out += (i > 1 ? "; " : "") + b->users_[i]->describe();
      out += " (lazy copies)";
    }
    return out;
  }

  std::shared_ptr<MemoryPool> pool_;
  char* block_;
  int64_t bytes_;
  mutable std::mutex mu_;
  std::vector<Storage*> users_;
};

// The storages whose values are lazy copies of one another's, as the program issued them:
// how many have not left by a write. One that goes away still counts: what the program
// issues must not depend on when tasks let go of a storage (every rank issues the same), and
// the unshare it costs finds the memory no longer shared and copies nothing.
class CopyGroup {
 public:
  std::atomic<int> members{0};
};

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
  if (shared_) {
    leave_block_locked();  // the block goes back to the pool with its last user
    return;
  }
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
  if (data() || awaiting_memory()) return;
  std::lock_guard lock(alloc_mu_);
  if (data() || awaiting_memory()) return;
  const std::string text = operation_text(operation, provenance);
  const bool noted = note_maker(text);
  try {
    if (range_hi_ <= range_lo_) range_hi_ = range_lo_ + 1;  // a partial storage this rank only writes nothing of
    if (partial_) {
      const std::shared_ptr<Storage> twin = twin_.lock();
      int64_t lo = 0, hi = 0;
      if (twin && twin.get() != this) {
        std::lock_guard twin_lock(twin->alloc_mu_);
        if (twin->partial_ && twin->data()) {
          lo = twin->range_lo_;
          hi = twin->range_hi_;
        }
      }
      if (hi > lo) {
        range_lo_ = std::min(range_lo_, lo);
        range_hi_ = std::max(range_hi_, hi);
      }
    }
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
  // An empty array takes no room worth claiming; a lazy copy takes its source's.
  if (data() || reserved() || elements_ == 0 || awaiting_memory()) return true;
  if (!pool_->try_reserve(bytes(), allocation_info())) return false;
  note_maker(operation_text(operation, provenance));
  reserved_.store(true, std::memory_order_release);
  return true;
}

void Storage::reserve(const std::string& operation, const std::string& provenance) {
  {
    std::lock_guard lock(alloc_mu_);
    if (data() || reserved() || elements_ == 0 || awaiting_memory()) return;
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
  if (shared_ && !own_block_locked()) {
    // Lazy copies that share the memory hold the same values: all of them move to the larger
    // block, which stays one allocation.
    pool_->reassign(block, shared_->info(seq_));
    const auto [old, old_bytes] = shared_->replace(block, (new_hi - new_lo) * isz, [&](Storage* user) {
      user->block_ = block;
      user->range_lo_ = new_lo;
      user->range_hi_ = new_hi;
      user->data_.store(block - new_lo * isz, std::memory_order_release);
    });
    pool_->release(old, old_bytes);
    return;
  }
  pool_->release(block_, held_bytes());
  block_ = block;
  range_lo_ = new_lo;
  range_hi_ = new_hi;
  data_.store(block_ - range_lo_ * isz, std::memory_order_release);
}

void Storage::set_twin(const std::shared_ptr<Storage>& twin) {
  std::lock_guard lock(alloc_mu_);
  twin_ = twin;
}

bool Storage::can_swap(const Storage& o) const {
  if (!renamable() || !o.renamable() || !data() || !o.data() || pool_ != o.pool_ || dtype_ != o.dtype_ ||
      elements_ != o.elements_)
    return false;
  std::scoped_lock lock(alloc_mu_, o.alloc_mu_);
  return partial_ == o.partial_ && (!partial_ || (range_lo_ == o.range_lo_ && range_hi_ == o.range_hi_));
}

void Storage::swap_memory(Storage& o) {
  std::scoped_lock lock(alloc_mu_, o.alloc_mu_);
  TESSERA_CHECK(data() && o.data() && pool_ == o.pool_ && dtype_ == o.dtype_ && elements_ == o.elements_ &&
                    partial_ == o.partial_ && (!partial_ || (range_lo_ == o.range_lo_ && range_hi_ == o.range_hi_)) &&
                    !external_ && !o.external_ && own_block_locked() && o.own_block_locked(),
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
    if (external_) external_.reset();                               // the other library keeps its memory
    else if (shared_ && !own_block_locked()) leave_block_locked();  // the other users keep it
    else pool_->release(old, held);
    block_ = moved;
    data_.store(moved - (external_ ? 0 : range_lo_) * itemsize(dtype_), std::memory_order_release);
  } else if (reserved()) {
    pool->reserve(bytes(), allocation_info(), "'offload_to'");
    pool_->unreserve(this);
  }
  pool_ = std::move(pool);
}

// --- copy-on-write ---------------------------------------------------------------------

void Storage::join_copies_of(Storage& source) {
  if (!source.copies_) {
    source.copies_ = std::make_shared<CopyGroup>();
    source.copies_->members.fetch_add(1);
  }
  copies_ = source.copies_;
  copies_->members.fetch_add(1);
}

bool Storage::leave_copies() {
  if (!copies_) return false;
  const std::shared_ptr<CopyGroup> group = std::move(copies_);
  return group->members.fetch_sub(1) > 1;
}

bool Storage::own_block_locked() {
  if (!shared_) return true;
  if (shared_->users() > 1) return false;
  shared_->give_up();
  pool_->reassign(block_, allocation_info());
  shared_.reset();
  sharing_.store(false, std::memory_order_release);
  return true;
}

void Storage::leave_block_locked() {
  const std::shared_ptr<SharedBlock> block = std::move(shared_);
  block->remove(this, [](Storage* s) { return &s->sharing_; });
  sharing_.store(false, std::memory_order_release);
  block_ = nullptr;
}  // `block` returns the memory to the pool here when this was its last user

void Storage::take_memory_of(Storage& source, const std::string& operation, const std::string& provenance) {
  awaiting_.store(false, std::memory_order_release);
  if (!source.allocated()) {
    if (source.failed()) {
      mark_failed();
      return;
    }
    source.allocate(operation, provenance);  // nothing wrote it (np.empty): its values are whatever it holds
  }
  const std::string text = operation_text(operation, provenance);
  {
    std::scoped_lock lock(alloc_mu_, source.alloc_mu_);
    // This rank's part of a partial storage: what the analysis planned for this one must lie
    // in what the source holds.
    const bool fits = !source.partial_ || !partial_ || range_hi_ <= range_lo_ ||
                      (range_lo_ >= source.range_lo_ && range_hi_ <= source.range_hi_);
    if (!data() && !reserved() && source.block_ && source.pool_ == pool_ && !source.external_ && !source.pinned() &&
        source.dtype_ == dtype_ && source.elements_ == elements_ && fits) {
      if (!source.shared_) {
        source.shared_ = std::make_shared<SharedBlock>(source.pool_, source.block_, source.held_bytes(), &source);
        pool_->reassign(source.block_, source.shared_->info(source.seq_));
      }
      source.shared_->add(this);
      shared_ = source.shared_;
      block_ = source.block_;
      partial_.store(source.partial_.load(std::memory_order_acquire), std::memory_order_release);
      range_lo_ = source.range_lo_;
      range_hi_ = source.range_hi_;
      sharing_.store(true, std::memory_order_release);
      source.sharing_.store(true, std::memory_order_release);
      data_.store(source.data(), std::memory_order_release);
      note_maker(text);
      failed_.store(false, std::memory_order_release);
      return;
    }
  }
  // Memory of its own, with a copy of the values of the range both cover.
  allocate(operation, provenance);
  const int64_t isz = itemsize(dtype_);
  const int64_t lo = std::max(range_lo_, source.range_lo_), hi = std::min(range_hi_, source.range_hi_);
  if (hi > lo)
    copy_memory(data() + lo * isz, kind(), source.data() + lo * isz,
                source.adopted() ? MemoryKind::Sysmem : source.kind(), (hi - lo) * isz);
}

void Storage::unshare_memory(const std::string& operation, const std::string& provenance) {
  std::lock_guard lock(alloc_mu_);
  if (!shared_ || own_block_locked()) return;  // alone with its memory now: it keeps it
  const int64_t held = held_bytes();
  char* fresh = nullptr;
  try {
    fresh = static_cast<char*>(pool_->allocate(held, allocation_info(), operation_text(operation, provenance)));
  } catch (...) {
    // The others keep their values; this one's are lost (what writes it next allocates anew).
    leave_block_locked();
    data_.store(nullptr, std::memory_order_release);
    mark_failed();
    throw;
  }
  copy_memory(fresh, kind(), block_, kind(), held);
  leave_block_locked();
  block_ = fresh;
  data_.store(block_ - range_lo_ * itemsize(dtype_), std::memory_order_release);
}

}  // namespace tessera::detail
