// Pool accounting, claims, block reuse and the out-of-memory report.
#include "machine/memory_pool.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <utility>

#include "observe/observer.h"  // profiler hook
#include "tessera/errors.h"

namespace tessera::detail {
namespace {
constexpr int64_t kAlign = 64;
int64_t round_up(int64_t b) { return (b + kAlign - 1) / kAlign * kAlign; }

// Nodes kept per map for reuse, at most: a loop reuses a few; more would only hold memory.
constexpr size_t kSpareNodes = 64;

// Takes the node at `it` out of `map` into `spare` (or frees it when enough are kept).
template <class Map, class It>
void retire(Map& map, It it, std::vector<typename Map::node_type>& spare) {
  auto node = map.extract(it);
  if (spare.size() < kSpareNodes) spare.push_back(std::move(node));
}

// Inserts (key, value) into `map`, in a kept node when there is one.
template <class Map, class Key, class Value>
void put(Map& map, std::vector<typename Map::node_type>& spare, Key&& key, Value&& value) {
  if (spare.empty()) {
    map.emplace(std::forward<Key>(key), std::forward<Value>(value));
    return;
  }
  auto node = std::move(spare.back());
  spare.pop_back();
  node.key() = std::forward<Key>(key);
  node.mapped() = std::forward<Value>(value);
  map.insert(std::move(node));
}

std::string mib(int64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", static_cast<double>(bytes) / (1 << 20));
  return text;
}
}  // namespace

std::string AllocationInfo::report_text() const {
  std::string out = text();
  if (detail) {
    std::string more = detail(owner);
    if (!more.empty()) out += ", " + more;
  }
  return out;
}

MemoryPool::MemoryPool(MemoryKind kind, int64_t capacity_bytes, int64_t max_cached_bytes)
    : kind_(kind), capacity_(capacity_bytes), max_cached_(max_cached_bytes) {}

MemoryPool::~MemoryPool() {
  std::lock_guard lock(mu_);
  drop_cache_locked();
}

void MemoryPool::drop_cache_locked() {
  for (auto& [size, block] : cache_) free_memory(kind_, block.second);
  cache_.clear();
  cache_age_.clear();
  cached_ = 0;
}

void MemoryPool::evict_cache_locked(int64_t room) {
  while (!cache_age_.empty() && (cached_ + room > max_cached_ || used_ + cached_ + room > capacity_)) {
    const auto [release, bytes] = *cache_age_.begin();
    retire(cache_age_, cache_age_.begin(), spare_age_);
    auto [first, last] = cache_.equal_range(bytes);
    auto it = std::find_if(first, last, [release = release](const auto& e) { return e.second.first == release; });
    free_memory(kind_, it->second.second);
    retire(cache_, it, spare_cache_);
    cached_ -= bytes;
  }
}

void* MemoryPool::try_allocate(int64_t bytes, const AllocationInfo& what) {
  std::lock_guard lock(mu_);
  // A claim made for this owner is the room this block takes.
  auto claim = what.owner && !claims_.empty() ? claims_.find(what.owner) : claims_.end();
  const int64_t claimed = claim != claims_.end() ? claim->second.bytes : 0;
  if (used_ + reserved_ - claimed + bytes > capacity_) return nullptr;
  auto [first, last] = cache_.equal_range(bytes);
  void* ptr = nullptr;
  if (first != last) {  // the block of this size released last: the likeliest to be in cache
    auto it = std::prev(last);
    ptr = it->second.second;
    retire(cache_age_, cache_age_.find(it->second.first), spare_age_);
    retire(cache_, it, spare_cache_);
    cached_ -= bytes;
  } else {
    if (used_ + cached_ + bytes > capacity_) evict_cache_locked(bytes);
    ptr = allocate_memory(kind_, bytes);
    if (!ptr) return nullptr;
  }
  Order order{what.order, arrivals_++};
  if (claim != claims_.end()) {
    order = claim->second.order;
    reserved_ -= claimed;
    claims_.erase(claim);
  }
  used_ += bytes;
  if (used_ > peak_) peak_ = used_;
  put(live_, spare_live_, ptr, Entry{bytes, what, order});
  if (auto* o = observer()) o->pool_changed(kind_, bytes, used_, capacity_, &what);  // profiler hook
  return ptr;
}

void* MemoryPool::allocate(int64_t bytes, const AllocationInfo& what, const std::string& operation) {
  bytes = round_up(bytes > 0 ? bytes : kAlign);
  if (void* p = try_allocate(bytes, what)) return p;
  if (reclaim_) {
    reclaim_();
    if (void* p = try_allocate(bytes, what)) return p;
  }
  throw_out_of_memory(bytes, what, operation);
}

bool MemoryPool::try_reserve(int64_t bytes, const AllocationInfo& what) {
  bytes = round_up(bytes > 0 ? bytes : kAlign);
  std::lock_guard lock(mu_);
  if (claims_.count(what.owner)) return true;
  if (used_ + reserved_ + bytes > capacity_) return false;
  claims_.emplace(what.owner, Entry{bytes, what, Order{what.order, arrivals_++}});
  reserved_ += bytes;
  return true;
}

void MemoryPool::reserve(int64_t bytes, const AllocationInfo& what, const std::string& operation) {
  if (try_reserve(bytes, what)) return;
  if (reclaim_) {
    reclaim_();
    if (try_reserve(bytes, what)) return;
  }
  throw_out_of_memory(round_up(bytes > 0 ? bytes : kAlign), what, operation);
}

void MemoryPool::unreserve(const void* owner) {
  std::lock_guard lock(mu_);
  auto claim = claims_.find(owner);
  if (claim == claims_.end()) return;
  reserved_ -= claim->second.bytes;
  claims_.erase(claim);
}

void MemoryPool::release(void* ptr, int64_t bytes) {
  bytes = round_up(bytes > 0 ? bytes : kAlign);
  std::lock_guard lock(mu_);
  if (auto it = live_.find(ptr); it != live_.end()) retire(live_, it, spare_live_);
  used_ -= bytes;
  if (auto* o = observer()) o->pool_changed(kind_, -bytes, used_, capacity_, nullptr);  // profiler hook
  if (bytes > max_cached_) {
    free_memory(kind_, ptr);
    return;
  }
  evict_cache_locked(bytes);
  const uint64_t release = releases_++;
  put(cache_, spare_cache_, bytes, std::make_pair(release, ptr));
  put(cache_age_, spare_age_, release, bytes);
  cached_ += bytes;
}

void MemoryPool::swap_owners(void* a, void* b) {
  std::lock_guard lock(mu_);
  auto ia = live_.find(a), ib = live_.find(b);
  if (ia == live_.end() || ib == live_.end()) return;
  std::swap(ia->second.what, ib->second.what);
  std::swap(ia->second.order, ib->second.order);
}

void MemoryPool::reassign(void* block, const AllocationInfo& what) {
  std::lock_guard lock(mu_);
  if (auto it = live_.find(block); it != live_.end()) it->second.what = what;
}

void MemoryPool::set_report_hint(std::string hint) {
  std::lock_guard lock(mu_);
  hint_ = std::move(hint);
}

int64_t MemoryPool::used() const {
  std::lock_guard lock(mu_);
  return used_;
}
int64_t MemoryPool::reserved() const {
  std::lock_guard lock(mu_);
  return reserved_;
}
int64_t MemoryPool::committed() const {
  std::lock_guard lock(mu_);
  return used_ + reserved_;
}
int64_t MemoryPool::peak() const {
  std::lock_guard lock(mu_);
  return peak_;
}

void MemoryPool::throw_out_of_memory(int64_t bytes, const AllocationInfo& what, const std::string& operation) const {
  std::ostringstream msg;
  msg << "Out of memory in " << memory_kind_name(kind_) << ": cannot allocate " << bytes << " bytes";
  if (!operation.empty()) msg << " for operation " << operation;
  msg << "\n  for " << what.text() << "\n";
  std::lock_guard lock(mu_);
  msg << live_report_locked() << hint_;
  std::string text = msg.str();
  while (!text.empty() && text.back() == '\n') text.pop_back();
  throw OutOfMemoryError(text);
}

std::string MemoryPool::live_report() const {
  std::lock_guard lock(mu_);
  return live_report_locked();
}

std::string MemoryPool::live_report_locked() const {
  struct Line {
    Order order;
    const Entry* entry;
    bool claim;
  };
  std::vector<Line> lines;
  lines.reserve(live_.size() + claims_.size());
  for (auto& [ptr, entry] : live_) lines.push_back({entry.order, &entry, false});
  for (auto& [owner, entry] : claims_) lines.push_back({entry.order, &entry, true});
  std::sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.order < b.order; });
  const int64_t held = used_ + reserved_;
  std::ostringstream out;
  out << memory_kind_name(kind_) << " holds " << held << " of " << capacity_ << " bytes (" << mib(held) << " of "
      << mib(capacity_) << " MiB, " << std::max<int64_t>(0, capacity_ - held) << " bytes free) in " << live_.size()
      << " live allocation" << (live_.size() == 1 ? "" : "s");
  if (!claims_.empty()) out << " and " << claims_.size() << " claim" << (claims_.size() == 1 ? "" : "s");
  out << (lines.empty() ? "\n" : ":\n");
  for (const Line& line : lines) {
    out << "  " << line.entry->bytes << " bytes for " << line.entry->what.report_text();
    if (line.claim) out << " (claimed, not yet written)";
    out << "\n";
  }
  return out.str();
}

std::string MemoryPool::usage_summary() const {
  std::lock_guard lock(mu_);
  std::ostringstream out;
  out << memory_kind_name(kind_) << ": peak " << peak_ << " bytes (" << mib(peak_) << " MiB), in use " << used_
      << " bytes (" << mib(used_) << " MiB), capacity " << capacity_ << " bytes (" << mib(capacity_) << " MiB)";
  return out.str();
}

MemoryPools::MemoryPools(const std::array<int64_t, kMemoryKinds>& capacity_bytes) {
  for (int k = 0; k < kMemoryKinds; ++k) {
    const auto kind = static_cast<MemoryKind>(k);
    const int64_t bytes = capacity_bytes[static_cast<size_t>(k)];
    if (kind != MemoryKind::Sysmem && bytes <= 0) continue;
    if (!buildable(kind))
      throw NotImplementedError(std::string("a pool of ") + memory_kind_name(kind) +
                                " needs a build of tessera with CUDA (cmake -DTESSERA_GPU=ON)");
    pools_[static_cast<size_t>(k)] = std::make_shared<MemoryPool>(kind, std::max<int64_t>(0, bytes));
  }
}

std::vector<std::shared_ptr<MemoryPool>> MemoryPools::present() const {
  std::vector<std::shared_ptr<MemoryPool>> out;
  for (const auto& p : pools_)
    if (p) out.push_back(p);
  return out;
}

}  // namespace tessera::detail
