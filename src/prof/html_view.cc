// Data layout per rank (read by viewer_script.cc):
//   {rank, host, offset, duration, meta: {key: value}, strings: [...],
//    ops: [[name, provenance, domain]], deps: [task, pred, task, pred, ...],
//    lanes: [{name, kind, spans: [[begin, end, kind, op, task, detail, bytes]],
//             mem: [[time, used, capacity, delta, what]]}]}
// Times are ns; `offset` aligns ranks on the earliest start; text fields index `strings`.
#include "prof/html_view.h"

#include <algorithm>
#include <climits>
#include <unordered_map>

#include "prof/units.h"
#include "prof/viewer_template.h"

namespace tessera::detail {
namespace {

class StringTable {
 public:
  int64_t id(const std::string& s) {
    auto [it, fresh] = ids_.try_emplace(s, static_cast<int64_t>(list_.size()));
    if (fresh) list_.push_back(&it->first);
    return it->second;
  }
  void write(std::string& out) const {
    out += "[";
    for (size_t i = 0; i < list_.size(); ++i) {
      if (i) out += ",";
      append_json_string(out, *list_[i]);
    }
    out += "]";
  }

 private:
  std::unordered_map<std::string, int64_t> ids_;
  std::vector<const std::string*> list_;
};

std::string number(int64_t v) { return std::to_string(v); }

void write_rank(std::string& out, const Trace& t, int64_t offset) {
  StringTable strings;
  strings.id("");
  out += "{\"rank\":" + number(t.rank) + ",\"host\":";
  append_json_string(out, t.host);
  out += ",\"offset\":" + number(offset) + ",\"duration\":" + number(t.duration) + ",\"meta\":{";
  for (size_t i = 0; i < t.meta.size(); ++i) {
    if (i) out += ",";
    append_json_string(out, t.meta[i].first);
    out += ":";
    append_json_string(out, t.meta[i].second);
  }
  out += "},\"ops\":[";
  for (size_t i = 0; i < t.ops.size(); ++i) {
    out += i ? ",[" : "[";
    append_json_string(out, t.ops[i].name);
    out += ",";
    append_json_string(out, t.ops[i].provenance);
    out += ",";
    append_json_string(out, t.ops[i].domain);
    out += "]";
  }
  out += "],\"deps\":[";
  for (size_t i = 0; i < t.dependences.size(); ++i)
    out += (i ? "," : "") + number(t.dependences[i].task) + "," + number(t.dependences[i].pred);
  out += "],\"lanes\":[";
  for (size_t l = 0; l < t.lanes.size(); ++l) {
    const Lane& lane = t.lanes[l];
    out += l ? ",{\"name\":" : "{\"name\":";
    append_json_string(out, lane.name);
    out += ",\"kind\":\"" + std::string(lane_kind_name(lane.kind)) + "\",\"spans\":[";
    bool first = true;
    for (const Span& s : t.spans) {  // sorted by lane: a linear pass per lane is cheap enough
      if (s.lane != static_cast<int>(l)) continue;
      out += first ? "[" : ",[";
      first = false;
      out += number(s.begin) + "," + number(s.end) + "," + number(static_cast<int>(s.kind)) + "," + number(s.op) + "," +
             number(s.task) + "," + number(strings.id(s.detail)) + "," + number(s.bytes) + "]";
    }
    out += "],\"mem\":[";
    first = true;
    for (const MemorySample& m : t.memory) {
      if (m.lane != static_cast<int>(l)) continue;
      out += first ? "[" : ",[";
      first = false;
      out += number(m.time) + "," + number(m.used) + "," + number(m.capacity) + "," + number(m.delta) + "," +
             number(strings.id(m.what)) + "]";
    }
    out += "]}";
  }
  out += "],\"strings\":";
  strings.write(out);
  out += "}";
}

void replace(std::string& text, const std::string& mark, const std::string& with) {
  const size_t at = text.find(mark);
  if (at != std::string::npos) text.replace(at, mark.size(), with);
}

}  // namespace

std::string viewer_data_json(const std::vector<Trace>& traces) {
  int64_t origin = INT64_MAX;
  for (const Trace& t : traces) origin = std::min(origin, t.wall_start_ns);
  std::string out = "{\"ranks\":[";
  for (size_t i = 0; i < traces.size(); ++i) {
    if (i) out += ",\n";
    write_rank(out, traces[i], traces[i].wall_start_ns - origin);
  }
  return out + "]}";
}

std::string viewer_html(const std::vector<Trace>& traces) {
  std::string script = kViewerScript;
  replace(script, "/*TESSERA_DATA*/", viewer_data_json(traces));
  std::string page = kViewerPage;
  replace(page, "/*TESSERA_SCRIPT*/", script);
  return page;
}

}  // namespace tessera::detail
