// Times are microseconds (the format's unit) with nanosecond decimals.
#include "prof/perfetto.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "prof/units.h"

namespace tessera::detail {
namespace {

std::string micros(int64_t ns) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(ns / 1000), static_cast<long long>(ns % 1000));
  return buf;
}

struct Writer {
  std::string out = "{\"traceEvents\":[\n";
  bool first = true;
  void begin() {
    if (!first) out += ",\n";
    first = false;
    out += "{";
  }
  void field(const char* key, std::string_view text) {
    out += '"';
    out += key;
    out += "\":";
    append_json_string(out, text);
    out += ',';
  }
  void raw(const char* key, const std::string& value) {
    out += '"';
    out += key;
    out += "\":" + value + ",";
  }
  void end() {
    if (out.back() == ',') out.pop_back();
    out += "}";
  }
};

}  // namespace

std::string perfetto_json(const std::vector<Trace>& traces) {
  Writer w;
  int64_t origin = INT64_MAX;
  for (const Trace& t : traces) origin = std::min(origin, t.wall_start_ns);
  int64_t flow = 0;
  for (const Trace& t : traces) {
    const int64_t shift = t.wall_start_ns - origin;
    const std::string pid = std::to_string(t.rank);
    w.begin();
    w.field("ph", "M"), w.raw("pid", pid), w.field("name", "process_name");
    w.raw("args", "{\"name\":\"rank " + pid + "\"}");
    w.end();
    for (const Lane& l : t.lanes) {
      if (l.kind == LaneKind::Memory) continue;  // counters have their own tracks
      w.begin();
      w.field("ph", "M"), w.raw("pid", pid), w.raw("tid", std::to_string(l.id)), w.field("name", "thread_name");
      std::string args = "{\"name\":";
      append_json_string(args, l.name);
      w.raw("args", args + "}");
      w.end();
      w.begin();
      w.field("ph", "M"), w.raw("pid", pid), w.raw("tid", std::to_string(l.id)), w.field("name", "thread_sort_index");
      w.raw("args", "{\"sort_index\":" + std::to_string(l.id) + "}");
      w.end();
    }
    std::unordered_map<int64_t, const Span*> task_span;
    for (const Span& s : t.spans)
      if (s.task >= 0) task_span[s.task] = &s;
    for (const Span& s : t.spans) {
      const OpInfo* op = t.op(s.op);
      w.begin();
      w.field("ph", "X"), w.raw("pid", pid), w.raw("tid", std::to_string(s.lane));
      w.raw("ts", micros(shift + s.begin)), w.raw("dur", micros(s.duration()));
      w.field("name", op ? std::string_view(op->name) : std::string_view(s.detail));
      w.field("cat", span_kind_name(s.kind));
      std::string args = "{";
      auto arg = [&](const char* key, std::string_view value) {
        if (args.size() > 1) args += ",";
        args += std::string("\"") + key + "\":";
        append_json_string(args, value);
      };
      if (op) arg("provenance", op->provenance), arg("op", std::to_string(op->id)), arg("domain", op->domain);
      if (s.task >= 0) arg("task", std::to_string(s.task));
      if (!s.detail.empty()) arg(s.kind == SpanKind::Task || s.kind == SpanKind::Inline ? "tile" : "detail", s.detail);
      if (s.bytes) arg("bytes", std::to_string(s.bytes));
      w.raw("args", args + "}");
      w.end();
    }
    for (const Dependence& d : t.dependences) {
      auto pred = task_span.find(d.pred), task = task_span.find(d.task);
      if (pred == task_span.end() || task == task_span.end()) continue;
      const std::string id = std::to_string(++flow);
      w.begin();
      w.field("ph", "s"), w.field("name", "waited on"), w.field("cat", "dependence"), w.raw("id", id);
      w.raw("pid", pid), w.raw("tid", std::to_string(pred->second->lane));
      w.raw("ts", micros(shift + pred->second->begin));
      w.end();
      w.begin();
      w.field("ph", "f"), w.field("bp", "e"), w.field("name", "waited on"), w.field("cat", "dependence");
      w.raw("id", id), w.raw("pid", pid), w.raw("tid", std::to_string(task->second->lane));
      w.raw("ts", micros(shift + task->second->begin));
      w.end();
    }
    for (const MemorySample& m : t.memory) {
      w.begin();
      w.field("ph", "C"), w.raw("pid", pid), w.field("name", t.lane(m.lane).name + " used");
      w.raw("ts", micros(shift + m.time)), w.raw("args", "{\"bytes\":" + std::to_string(m.used) + "}");
      w.end();
    }
  }
  w.out += "\n],\"displayTimeUnit\":\"ms\"}\n";
  return w.out;
}

}  // namespace tessera::detail
