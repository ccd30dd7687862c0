// The recorder on its own: hooks called from a utility, a worker and the program thread
// become lanes, spans, numbered operations and tasks, dependences and memory samples; an
// address reused by a later task is told apart; spans still open are closed at the end.
#include <gtest/gtest.h>

#include <chrono>
#include <new>
#include <thread>

#include "machine/memory_pool.h"
#include "profile/recorder.h"
#include "runtime/point_task.h"

namespace tessera::detail {
namespace {

class NamedOp : public Operation {
 public:
  NamedOp(std::string op_name, std::string where, Shape shape) {
    name = std::move(op_name);
    provenance = std::move(where);
    add_space(std::move(shape));
  }
  void execute(const Point&) override {}
};

// A launch of one point over `tile`.
std::shared_ptr<const Launch> one_tile(Rect tile) {
  auto l = std::make_shared<Launch>();
  l->rects.push_back({tile});
  l->tiles.push_back(std::move(tile));
  return l;
}

void tick() { std::this_thread::sleep_for(std::chrono::microseconds(20)); }

template <class F>
void on_thread(F body) {
  std::thread t(body);
  t.join();
}

const Span* find_span(const Trace& t, SpanKind kind, int64_t task = -1) {
  for (const Span& s : t.spans)
    if (s.kind == kind && (task < 0 || s.task == task)) return &s;
  return nullptr;
}

TEST(RecorderTest, HooksBecomeLanesSpansAndDependences) {
  Recorder r;
  r.thread_started(ThreadRole::Program, 0);
  auto op = std::make_shared<NamedOp>("add", "prog.py:7", Shape{10, 4});
  auto first = std::make_shared<PointTask>(op, one_tile(Rect({0, 0}, {5, 4})), 0);
  auto second = std::make_shared<PointTask>(op, one_tile(Rect({5, 0}, {10, 4})), 0);
  on_thread([&] {
    r.thread_started(ThreadRole::Utility, 0);
    r.analysis_begin(*op);
    r.task_created(*first);
    r.task_created(*second);
    r.task_waits(*second, *first);
    tick();
    r.analysis_end(*op);
  });
  on_thread([&] {
    r.thread_started(ThreadRole::Worker, 1);
    r.task_begin(*first);
    tick();
    r.task_end(*first);
    r.task_begin(*second);
    tick();
    r.task_end(*second);
  });
  NamedOp small("negative", "prog.py:9", Shape{3});
  r.wait_begin(WaitKind::Fence);
  r.inline_begin(small);
  tick();
  r.inline_end(small);
  r.wait_end(WaitKind::Fence);
  r.copy_begin(4096, "halo");
  tick();
  r.copy_end(4096, "halo");
  int owner = 0;
  AllocationInfo info{&owner, [](const void*) { return std::string("store of shape (10, 4) float64"); }};
  r.pool_changed(MemoryKind::Sysmem, 320, 320, 1 << 20, &info);
  r.pool_changed(MemoryKind::Sysmem, -320, 0, 1 << 20, nullptr);

  const Trace t = r.build(5);
  EXPECT_EQ(t.rank, 5);
  ASSERT_EQ(t.lanes.size(), 5u);
  EXPECT_EQ(t.lanes[0].name, "worker 1");
  EXPECT_EQ(t.lanes[1].name, "utility 0");
  EXPECT_EQ(t.lanes[2].name, "program");
  EXPECT_EQ(t.lanes[3].kind, LaneKind::Channel);
  EXPECT_EQ(t.lanes[4].name, "SYSMEM");

  ASSERT_EQ(t.ops.size(), 2u);
  EXPECT_EQ(t.ops[0].name, "add");
  EXPECT_EQ(t.ops[0].provenance, "prog.py:7");
  EXPECT_EQ(t.ops[0].domain, "(10, 4)");
  EXPECT_EQ(t.ops[1].name, "negative");
  EXPECT_EQ(t.ops[1].domain, "(3,)");

  const Span* a = find_span(t, SpanKind::Task, 0);
  const Span* b = find_span(t, SpanKind::Task, 1);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->lane, 0);
  EXPECT_EQ(a->op, 0);
  EXPECT_EQ(a->detail, "[0:5, 0:4]");
  EXPECT_EQ(b->detail, "[5:10, 0:4]");
  EXPECT_LE(a->end, b->begin);
  EXPECT_GT(a->duration(), 0);

  const Span* analysis = find_span(t, SpanKind::Analysis);
  ASSERT_TRUE(analysis);
  EXPECT_EQ(analysis->lane, 1);
  EXPECT_EQ(analysis->detail, "2 point tasks");
  EXPECT_LE(analysis->end, a->begin);

  const Span* wait = find_span(t, SpanKind::Wait);
  const Span* inlined = find_span(t, SpanKind::Inline);
  ASSERT_TRUE(wait && inlined);
  EXPECT_EQ(wait->lane, 2);
  EXPECT_EQ(wait->detail, "sync point");
  EXPECT_EQ(inlined->op, 1);
  EXPECT_EQ(inlined->detail, "[0:3]");
  EXPECT_LE(wait->begin, inlined->begin);
  EXPECT_GE(wait->end, inlined->end);

  const Span* copy = find_span(t, SpanKind::Copy);
  ASSERT_TRUE(copy);
  EXPECT_EQ(copy->lane, 3);
  EXPECT_EQ(copy->bytes, 4096);
  EXPECT_EQ(copy->detail, "halo");

  ASSERT_EQ(t.dependences.size(), 1u);
  EXPECT_EQ(t.dependences[0].task, 1);
  EXPECT_EQ(t.dependences[0].pred, 0);

  ASSERT_EQ(t.memory.size(), 2u);
  EXPECT_EQ(t.memory[0].lane, 4);
  EXPECT_EQ(t.memory[0].used, 320);
  EXPECT_EQ(t.memory[0].capacity, 1 << 20);
  EXPECT_EQ(t.memory[0].what, "store of shape (10, 4) float64");
  EXPECT_EQ(t.memory[1].delta, -320);
  EXPECT_EQ(t.memory[1].used, 0);
  EXPECT_GE(t.duration, copy->end);
}

TEST(RecorderTest, AReusedAddressIsTheObjectOfItsTime) {
  Recorder r;
  auto add = std::make_shared<NamedOp>("add", "a.py:1", Shape{4});
  auto mul = std::make_shared<NamedOp>("multiply", "a.py:2", Shape{4});
  PointTask task(add, one_tile(Rect({0}, {4})), 0);
  r.analysis_begin(*add);
  r.task_created(task);
  r.analysis_end(*add);
  tick();
  r.task_begin(task);
  r.task_end(task);
  tick();
  // A new task made at the address of one that was freed.
  task.~PointTask();
  new (&task) PointTask(mul, one_tile(Rect({0}, {2})), 0);
  r.analysis_begin(*mul);
  r.task_created(task);
  r.analysis_end(*mul);
  tick();
  r.task_begin(task);
  r.task_end(task);

  const Trace t = r.build(0);
  std::vector<const Span*> tasks;
  for (const Span& s : t.spans)
    if (s.kind == SpanKind::Task) tasks.push_back(&s);
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_EQ(tasks[0]->task, 0);
  EXPECT_EQ(t.op(tasks[0]->op)->name, "add");
  EXPECT_EQ(tasks[0]->detail, "[0:4]");
  EXPECT_EQ(tasks[1]->task, 1);
  EXPECT_EQ(t.op(tasks[1]->op)->name, "multiply");
  EXPECT_EQ(tasks[1]->detail, "[0:2]");
}

TEST(RecorderTest, SpansStillOpenEndWhenTheTraceIsBuilt) {
  Recorder r;
  r.wait_begin(WaitKind::BackPressure);
  tick();
  const Trace t = r.build(0);
  const Span* wait = find_span(t, SpanKind::Wait);
  ASSERT_TRUE(wait);
  EXPECT_EQ(wait->end, t.duration);
  EXPECT_NE(wait->detail.find("back-pressure"), std::string::npos);
}

TEST(RecorderTest, ASpanThatLostItsEndStopsAtTheThreadsNextEvent) {
  Recorder r;
  NamedOp first("add", "a.py:1", Shape{3}), second("negative", "a.py:2", Shape{3});
  r.inline_begin(first);  // its end never comes
  tick();
  r.wait_begin(WaitKind::Fence);
  r.wait_end(WaitKind::Fence);
  tick();
  r.inline_begin(second);
  r.inline_end(second);
  tick();
  const Trace t = r.build(0);
  std::vector<const Span*> inlined;
  for (const Span& s : t.spans)
    if (s.kind == SpanKind::Inline) inlined.push_back(&s);
  ASSERT_EQ(inlined.size(), 2u);
  const Span* wait = find_span(t, SpanKind::Wait);
  ASSERT_TRUE(wait);
  EXPECT_EQ(inlined[0]->end, wait->end);  // not the end of the trace
  EXPECT_LT(inlined[0]->end, inlined[1]->begin);
  EXPECT_EQ(t.op(inlined[1]->op)->name, "negative");
}

}  // namespace
}  // namespace tessera::detail
