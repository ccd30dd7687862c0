// Aggregation of task spans per (operation name, provenance).
#include "prof/op_totals.h"

#include <algorithm>
#include <map>
#include <set>

#include "prof/lane_usage.h"

namespace tessera::detail {

std::vector<OpTotal> op_totals(const std::vector<Trace>& traces) {
  std::map<std::pair<std::string, std::string>, OpTotal> totals;
  std::map<std::pair<std::string, std::string>, std::set<std::pair<int, int64_t>>> ids;
  for (const Trace& t : traces)
    for (const Span& s : t.spans) {
      if (!is_task(s)) continue;
      const OpInfo* op = t.op(s.op);
      const std::string name = op ? op->name : "(unknown operation)";
      const std::string where = op ? op->provenance : "";
      OpTotal& total = totals[{name, where}];
      total.name = name;
      total.provenance = where;
      total.time += s.duration();
      ++total.tasks;
      total.tiny += s.duration() < kTinyTaskNs;
      if (s.bytes > 0) {
        total.bytes += s.bytes;
        total.bytes_time += s.duration();
      }
      ids[{name, where}].insert({t.rank, s.op});
    }
  std::vector<OpTotal> out;
  for (auto& [key, total] : totals) {
    total.issued = static_cast<int64_t>(ids[key].size());
    out.push_back(std::move(total));
  }
  std::sort(out.begin(), out.end(), [](const OpTotal& a, const OpTotal& b) { return a.time > b.time; });
  return out;
}

}  // namespace tessera::detail
