// Events to spans: definitions first (operations, point tasks), then each thread's log
// in order, pairing every begin with its end on a stack (waits contain the tasks that the
// waiting thread ran meanwhile).
#include "profile/trace_builder.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "machine/memory_pool.h"
#include "observe/observer.h"

namespace tessera::detail {
namespace {

struct Ref {
  int64_t time;
  size_t log;
  const Event* event;
};

/// Where a pointer pointed over time: ids of the objects made at that address, in order.
class AddressBook {
 public:
  void add(const void* p, int64_t time, int64_t id) { defs_[p].push_back({time, id}); }
  /// The id of the object at `p` at `time`: the last one made there by then, or -1.
  int64_t find(const void* p, int64_t time) const {
    auto it = defs_.find(p);
    if (it == defs_.end()) return -1;
    const auto& v = it->second;
    auto after = std::upper_bound(v.begin(), v.end(), time, [](int64_t t, const Def& d) { return t < d.time; });
    return after == v.begin() ? -1 : std::prev(after)->id;
  }

 private:
  struct Def {
    int64_t time, id;
  };
  std::unordered_map<const void*, std::vector<Def>> defs_;
};

const char* wait_name(uint8_t k) {
  switch (static_cast<WaitKind>(k)) {
    case WaitKind::Fence: return "sync point";
    case WaitKind::BackPressure: return "back-pressure: the program ran far ahead of the workers";
    case WaitKind::Reclaim: return "reclaiming memory before an allocation";
  }
  return "wait";
}

std::string shape_text(const int64_t* dims, int64_t n) {
  std::string s = "(";
  for (int64_t d = 0; d < n; ++d) s += (d ? ", " : "") + std::to_string(dims[d]);
  return s + (n == 1 ? ",)" : ")");
}

std::string domain_rect(const int64_t* dims, int64_t n) {
  std::vector<int64_t> zeros(static_cast<size_t>(n), 0);
  return format_rect(zeros.data(), dims, static_cast<int>(n));
}

// Every event of `types`, across all logs, in time order.
std::vector<Ref> gather(const std::vector<const EventLog*>& logs, EventType a, EventType b,
                        EventType c = EventType::Pool) {
  std::vector<Ref> refs;
  for (size_t l = 0; l < logs.size(); ++l)
    for (size_t i = 0; i < logs[l]->size(); ++i) {
      const Event& e = (*logs[l])[i];
      if (e.type == a || e.type == b || (e.type == c && c != EventType::Pool)) refs.push_back({e.time, l, &e});
    }
  std::stable_sort(refs.begin(), refs.end(), [](const Ref& x, const Ref& y) { return x.time < y.time; });
  return refs;
}

bool opens_span(EventType t) {
  return t == EventType::AnalysisBegin || t == EventType::TaskBegin || t == EventType::InlineBegin ||
         t == EventType::WaitBegin || t == EventType::CopyBegin;
}

EventType closer_of(EventType t) {
  switch (t) {
    case EventType::AnalysisBegin: return EventType::AnalysisEnd;
    case EventType::TaskBegin: return EventType::TaskEnd;
    case EventType::InlineBegin: return EventType::InlineEnd;
    case EventType::WaitBegin: return EventType::WaitEnd;
    default: return EventType::CopyEnd;
  }
}

}  // namespace

Trace build_trace(const std::vector<const EventLog*>& logs, int64_t end) {
  Trace t;
  t.duration = end;

  // Lanes: workers, utility threads, program threads that did something, channel, memories.
  std::vector<size_t> order(logs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::pair(logs[a]->kind(), logs[a]->index()) < std::pair(logs[b]->kind(), logs[b]->index());
  });
  std::vector<int> lane_of(logs.size(), -1);
  int programs = 0;
  for (size_t l : order) {
    const EventLog& log = *logs[l];
    bool spans = false;
    for (size_t i = 0; i < log.size() && !spans; ++i) spans = opens_span(log[i].type);
    if (log.kind() == LaneKind::Program && !spans && log.index() != 0) continue;
    lane_of[l] = static_cast<int>(t.lanes.size());
    std::string name = lane_kind_name(log.kind());
    if (log.kind() == LaneKind::Program) {
      if (programs++) name += " " + std::to_string(programs - 1);
    } else {
      name += " " + std::to_string(log.index());
    }
    t.lanes.push_back({lane_of[l], log.kind(), log.index(), name});
  }
  const int channel = static_cast<int>(t.lanes.size());
  t.lanes.push_back({channel, LaneKind::Channel, 0, "channel"});
  std::map<uint8_t, int> memory_lane;

  // Operations and point tasks, numbered in the order they were made.
  AddressBook op_ids, task_ids;
  for (const Ref& r : gather(logs, EventType::AnalysisBegin, EventType::InlineBegin, EventType::OperationMade)) {
    const EventLog& log = *logs[r.log];
    const auto id = static_cast<int64_t>(t.ops.size());
    op_ids.add(r.event->a, r.time, id);
    t.ops.push_back({id, log.text(r.event->s), log.text(r.event->t), shape_text(log.ints(r.event->x), r.event->y)});
  }
  struct TaskInfo {
    int64_t op;
    std::string tile;
    int64_t bytes;
  };
  std::vector<TaskInfo> tasks;
  for (const Ref& r : gather(logs, EventType::TaskCreated, EventType::TaskCreated)) {
    const EventLog& log = *logs[r.log];
    task_ids.add(r.event->a, r.time, static_cast<int64_t>(tasks.size()));
    const int64_t* lo = log.ints(r.event->x);
    tasks.push_back(
        {op_ids.find(r.event->b, r.time), format_rect(lo, lo + r.event->y, static_cast<int>(r.event->y)), r.event->z});
  }

  // Spans, dependences and memory samples, thread by thread.
  for (size_t l = 0; l < logs.size(); ++l) {
    const EventLog& log = *logs[l];
    struct Open {
      const Event* begin;
      int64_t created = 0;  // point tasks an analysis made
    };
    std::vector<Open> stack;
    auto close = [&](const Open& open, int64_t at) {
      const Event& b = *open.begin;
      Span s;
      s.lane = lane_of[l];
      s.begin = b.time;
      s.end = at;
      switch (b.type) {
        case EventType::TaskBegin: {
          s.kind = SpanKind::Task;
          s.task = task_ids.find(b.a, b.time);
          if (s.task >= 0) {
            s.op = tasks[static_cast<size_t>(s.task)].op;
            s.detail = tasks[static_cast<size_t>(s.task)].tile;
            s.bytes = tasks[static_cast<size_t>(s.task)].bytes;
          }
          break;
        }
        case EventType::AnalysisBegin:
        case EventType::InlineBegin:
          s.kind = b.type == EventType::AnalysisBegin ? SpanKind::Analysis : SpanKind::Inline;
          s.op = op_ids.find(b.a, b.time);
          s.detail = s.kind == SpanKind::Inline ? domain_rect(log.ints(b.x), b.y)
                                                : std::to_string(open.created) + " point tasks";
          break;
        case EventType::WaitBegin:
          s.kind = SpanKind::Wait;
          s.detail = wait_name(b.k);
          break;
        default:
          s.kind = SpanKind::Copy;
          s.lane = channel;
          s.bytes = b.x;
          s.detail = log.text(b.s);
          break;
      }
      if (s.lane >= 0) t.spans.push_back(std::move(s));
    };
    for (size_t i = 0; i < log.size(); ++i) {
      const Event& e = log[i];
      if (opens_span(e.type)) {
        // Spans of one kind do not nest on a thread: one still open lost its end (a hook
        // bug); end it, and what opened inside it, at this thread's previous event.
        auto stale = std::find_if(stack.begin(), stack.end(),
                                  [&](const Open& o) { return o.begin->type == e.type && o.begin->k == e.k; });
        for (auto n = stack.end() - stale; n > 0; --n) {
          close(stack.back(), i ? log[i - 1].time : e.time);
          stack.pop_back();
        }
        stack.push_back({&e});
        continue;
      }
      switch (e.type) {
        case EventType::TaskCreated:
          for (auto it = stack.rbegin(); it != stack.rend(); ++it)
            if (it->begin->type == EventType::AnalysisBegin) {
              ++it->created;
              break;
            }
          break;
        case EventType::TaskWaits: {
          int64_t task = task_ids.find(e.a, e.time), pred = task_ids.find(e.b, e.time);
          if (task >= 0 && pred >= 0) t.dependences.push_back({task, pred});
          break;
        }
        case EventType::Pool: {
          auto [it, fresh] = memory_lane.try_emplace(e.k, 0);
          if (fresh) {
            it->second = static_cast<int>(t.lanes.size());
            t.lanes.push_back({it->second, LaneKind::Memory, e.k, memory_kind_name(static_cast<MemoryKind>(e.k))});
          }
          t.memory.push_back({it->second, e.time, e.y, e.z, e.x, log.text(e.s)});
          break;
        }
        default: {
          // An end: close the innermost span it matches (a mismatch would be a hook bug;
          // spans opened inside it and never closed end with it).
          auto match = std::find_if(stack.rbegin(), stack.rend(), [&](const Open& o) {
            return closer_of(o.begin->type) == e.type && o.begin->k == e.k;
          });
          if (match == stack.rend()) break;
          const size_t keep = static_cast<size_t>(stack.rend() - match) - 1;
          while (stack.size() > keep) {
            close(stack.back(), e.time);
            stack.pop_back();
          }
        }
      }
    }
    while (!stack.empty()) {
      close(stack.back(), std::max(end, stack.back().begin->time));
      stack.pop_back();
    }
  }

  std::sort(t.spans.begin(), t.spans.end(), [](const Span& a, const Span& b) {
    if (a.lane != b.lane) return a.lane < b.lane;
    if (a.begin != b.begin) return a.begin < b.begin;
    return a.end > b.end;  // an enclosing wait before the tasks inside it
  });
  std::stable_sort(t.memory.begin(), t.memory.end(),
                   [](const MemorySample& a, const MemorySample& b) { return a.time < b.time; });
  for (const Span& s : t.spans) t.duration = std::max(t.duration, s.end);
  return t;
}

}  // namespace tessera::detail
