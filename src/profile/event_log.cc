// Side tables of an EventLog: interned strings and integer runs (tiles, domains).
#include "profile/event_log.h"

namespace tessera::detail {

EventLog::EventLog(LaneKind kind, int index) : kind_(kind), index_(index) {
  strings_.emplace_back();
  ids_.emplace(std::string_view(strings_.back()), 0);
}

uint32_t EventLog::intern(std::string_view text) {
  if (text.empty()) return 0;
  auto it = ids_.find(text);
  if (it != ids_.end()) return it->second;
  const auto id = static_cast<uint32_t>(strings_.size());
  strings_.emplace_back(text);
  ids_.emplace(std::string_view(strings_.back()), id);
  return id;
}

int64_t EventLog::store_ints(const int64_t* values, size_t n) {
  const auto offset = static_cast<int64_t>(ints_.size());
  ints_.insert(ints_.end(), values, values + n);
  return offset;
}

}  // namespace tessera::detail
