// Pool accounting, block reuse and the out-of-memory report.
#include "machine/memory_pool.h"

#include <sys/mman.h>

#include <cstdlib>
#include <sstream>

#include "tessera/errors.h"

namespace tessera::detail {
namespace {
constexpr int64_t kAlign = 64;
constexpr int64_t kHugePage = int64_t{2} << 20;
int64_t round_up(int64_t b) { return (b + kAlign - 1) / kAlign * kAlign; }

// Large blocks are aligned to huge pages and ask the kernel for them: a stream over a big
// array then takes a fraction of the TLB misses and page faults (NumPy does the same).
void* system_allocate(int64_t bytes) {
  if (bytes < kHugePage) return std::aligned_alloc(kAlign, static_cast<size_t>(bytes));
  const int64_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* p = std::aligned_alloc(kHugePage, static_cast<size_t>(rounded));
#ifdef MADV_HUGEPAGE
  if (p) madvise(p, static_cast<size_t>(rounded), MADV_HUGEPAGE);
#endif
  return p;
}
// Cached blocks above this total are returned to the OS.
constexpr int64_t kMaxCachedBytes = int64_t{1} << 30;
}  // namespace

const char* memory_kind_name(MemoryKind k) {
  switch (k) {
    case MemoryKind::Sysmem: return "SYSMEM";
    case MemoryKind::Numamem: return "NUMAMEM";
    case MemoryKind::Fbmem: return "FBMEM";
    case MemoryKind::Zcmem: return "ZCMEM";
  }
  return "?";
}

MemoryPool::MemoryPool(MemoryKind kind, int64_t capacity_bytes) : kind_(kind), capacity_(capacity_bytes) {}

MemoryPool::~MemoryPool() {
  std::lock_guard lock(mu_);
  drop_cache_locked();
}

void MemoryPool::drop_cache_locked() {
  for (auto& [size, ptr] : cache_) std::free(ptr);
  cache_.clear();
  cached_ = 0;
}

void* MemoryPool::try_allocate(int64_t bytes, const AllocationInfo& what) {
  std::lock_guard lock(mu_);
  auto it = cache_.find(bytes);
  void* ptr = nullptr;
  if (it != cache_.end()) {
    ptr = it->second;
    cache_.erase(it);
    cached_ -= bytes;
  } else {
    if (used_ + bytes > capacity_) return nullptr;
    if (used_ + cached_ + bytes > capacity_) drop_cache_locked();
    ptr = system_allocate(bytes);
    if (!ptr) return nullptr;
  }
  used_ += bytes;
  if (used_ > peak_) peak_ = used_;
  live_.emplace(ptr, std::make_pair(bytes, what));
  return ptr;
}

void* MemoryPool::allocate(int64_t bytes, const AllocationInfo& what, const std::string& operation) {
  bytes = round_up(bytes > 0 ? bytes : kAlign);
  if (void* p = try_allocate(bytes, what)) return p;
  if (reclaim_) {
    reclaim_();
    if (void* p = try_allocate(bytes, what)) return p;
  }
  std::ostringstream msg;
  msg << "Failed to allocate " << bytes << " bytes on memory " << memory_kind_name(kind_) << " for " << what.text();
  if (!operation.empty()) msg << " in operation " << operation;
  msg << "\n" << live_report();
  throw OutOfMemoryError(msg.str());
}

void MemoryPool::release(void* ptr, int64_t bytes) {
  bytes = round_up(bytes > 0 ? bytes : kAlign);
  std::lock_guard lock(mu_);
  live_.erase(ptr);
  used_ -= bytes;
  if (cached_ + bytes <= kMaxCachedBytes && used_ + cached_ + bytes <= capacity_) {
    cache_.emplace(bytes, ptr);
    cached_ += bytes;
  } else {
    std::free(ptr);
  }
}

int64_t MemoryPool::used() const { std::lock_guard lock(mu_); return used_; }
int64_t MemoryPool::peak() const { std::lock_guard lock(mu_); return peak_; }

std::string MemoryPool::live_report() const {
  std::lock_guard lock(mu_);
  std::ostringstream out;
  out << "Live allocations in " << memory_kind_name(kind_) << " (" << used_ << " of " << capacity_
      << " bytes used):\n";
  for (auto& [ptr, entry] : live_) {
    out << "  " << entry.first << " bytes for " << entry.second.text() << "\n";
  }
  return out.str();
}

}  // namespace tessera::detail
