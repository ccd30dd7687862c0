// The hooks: each appends one fixed-size event to the calling thread's log.
#include "profile/recorder.h"

#include <atomic>

#include "machine/memory_pool.h"
#include "profile/trace_builder.h"
#include "runtime/point_task.h"

namespace tessera::detail {
namespace {
std::atomic<uint64_t> g_generations{0};
thread_local EventLog* t_log = nullptr;
thread_local uint64_t t_generation = 0;

LaneKind lane_of(ThreadRole role) {
  switch (role) {
    case ThreadRole::Worker: return LaneKind::Worker;
    case ThreadRole::Utility: return LaneKind::Utility;
    case ThreadRole::Program: break;
  }
  return LaneKind::Program;
}
}  // namespace

Recorder::Recorder()
    : start_(std::chrono::steady_clock::now()),
      wall_start_ns_(
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
              .count()),
      generation_(++g_generations) {}

Recorder::~Recorder() = default;

EventLog& Recorder::add_log(LaneKind kind, int index) {
  std::lock_guard lock(mu_);
  if (kind == LaneKind::Program) index = programs_++;
  logs_.push_back(std::make_unique<EventLog>(kind, index));
  return *logs_.back();
}

EventLog& Recorder::log() {
  if (t_generation != generation_) [[unlikely]] {
    // A thread that never said what it is: the program thread, or another thread of the
    // program that issues work or frees arrays.
    t_log = &add_log(LaneKind::Program, 0);
    t_generation = generation_;
  }
  return *t_log;
}

Event& Recorder::event(EventType type) {
  Event& e = log().append();
  e = Event{now(), nullptr, nullptr, 0, 0, 0, 0, 0, type, 0};
  return e;
}

void Recorder::define_op(Event& e, EventLog& l, const Operation& op) {
  e.a = &op;
  e.s = l.intern(op.name);
  e.t = l.intern(op.provenance);
  const Shape shape = op.work_shape();
  e.x = l.store_ints(shape.data(), shape.size());
  e.y = static_cast<int64_t>(shape.size());
}

void Recorder::thread_started(ThreadRole role, int index) {
  t_log = &add_log(lane_of(role), index);
  t_generation = generation_;
}

void Recorder::analysis_begin(const Operation& op) { define_op(event(EventType::AnalysisBegin), log(), op); }
void Recorder::operation_made(const Operation& op) { define_op(event(EventType::OperationMade), log(), op); }
void Recorder::analysis_end(const Operation& op) { event(EventType::AnalysisEnd).a = &op; }

void Recorder::task_created(const PointTask& task) {
  Event& e = event(EventType::TaskCreated);
  e.a = &task;
  e.b = task.op();
  const Rect& tile = task.tile();
  e.x = log().store_ints(tile.lo.data(), tile.lo.size());
  log().store_ints(tile.hi.data(), tile.hi.size());
  e.y = tile.ndim();
  e.z = task.op()->traffic(task.rects());
}

void Recorder::task_waits(const PointTask& task, const PointTask& pred) {
  Event& e = event(EventType::TaskWaits);
  e.a = &task;
  e.b = &pred;
}

void Recorder::task_begin(const PointTask& task) { event(EventType::TaskBegin).a = &task; }
void Recorder::task_end(const PointTask& task) { event(EventType::TaskEnd).a = &task; }
void Recorder::inline_begin(const Operation& op) { define_op(event(EventType::InlineBegin), log(), op); }
void Recorder::inline_end(const Operation& op) { event(EventType::InlineEnd).a = &op; }
void Recorder::wait_begin(WaitKind why) { event(EventType::WaitBegin).k = static_cast<uint8_t>(why); }
void Recorder::wait_end(WaitKind why) { event(EventType::WaitEnd).k = static_cast<uint8_t>(why); }

void Recorder::copy_begin(int64_t bytes, const char* what) {
  Event& e = event(EventType::CopyBegin);
  e.x = bytes;
  e.s = log().intern(what ? what : "");
}

void Recorder::copy_end(int64_t bytes, const char* what) { event(EventType::CopyEnd).x = bytes; }

void Recorder::pool_changed(MemoryKind kind, int64_t delta, int64_t used, int64_t capacity,
                            const AllocationInfo* what) {
  Event& e = event(EventType::Pool);
  e.k = static_cast<uint8_t>(kind);
  e.x = delta;
  e.y = used;
  e.z = capacity;
  if (what) e.s = log().intern(what->text());
}

Trace Recorder::build(int rank) const {
  std::lock_guard lock(mu_);
  std::vector<const EventLog*> logs;
  for (const auto& l : logs_) logs.push_back(l.get());
  Trace trace = build_trace(logs, now());
  trace.rank = rank;
  trace.wall_start_ns = wall_start_ns_;
  return trace;
}

}  // namespace tessera::detail
