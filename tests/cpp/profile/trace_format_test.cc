// The trace file format: a trace written and read back is the same trace, text with tabs,
// newlines and backslashes survives, malformed files fail with the line at fault, and
// truncated or damaged ones are refused (the closing `end` record and its checksum).
#include <gtest/gtest.h>

#include <sstream>

#include "profile/trace.h"

namespace tessera::detail {
namespace {

Trace sample() {
  Trace t;
  t.rank = 3;
  t.host = "node\t7";
  t.wall_start_ns = 1'700'000'000'000'000'000;
  t.duration = 5'000'000;
  t.meta = {{"command", "python prog.py --n 3"}, {"cpus", "4"}};
  t.lanes = {{0, LaneKind::Worker, 0, "worker 0"},
             {1, LaneKind::Utility, 0, "utility 0"},
             {2, LaneKind::Program, 0, "program"},
             {3, LaneKind::Channel, 0, "channel"},
             {4, LaneKind::Memory, 0, "SYSMEM"}};
  t.ops = {{0, "add", "/tmp/my dir/prog.py:12", "(10, 20)"}, {1, "we\\ird\nname", "", "(3,)"}};
  t.spans = {{0, SpanKind::Task, 100, 200, 0, 0, 0, "[0:5, 0:20]"},
             {0, SpanKind::Task, 250, 400, 0, 1, 0, "[5:10, 0:20]"},
             {1, SpanKind::Analysis, 50, 90, 0, -1, 0, "2 point tasks"},
             {2, SpanKind::Wait, 120, 500, -1, -1, 0, "sync point"},
             {2, SpanKind::Inline, 130, 140, 1, -1, 0, "[0:3]"},
             {3, SpanKind::Copy, 10, 30, -1, -1, 4096, "halo"}};
  t.dependences = {{1, 0}};
  t.memory = {{4, 60, 1600, 1 << 20, 1600, "store of shape (10, 20) float64, created at prog.py:3"},
              {4, 450, 0, 1 << 20, -1600, ""}};
  return t;
}

void expect_same(const Trace& a, const Trace& b) {
  EXPECT_EQ(a.rank, b.rank);
  EXPECT_EQ(a.host, b.host);
  EXPECT_EQ(a.wall_start_ns, b.wall_start_ns);
  EXPECT_EQ(a.duration, b.duration);
  EXPECT_EQ(a.meta, b.meta);
  ASSERT_EQ(a.lanes.size(), b.lanes.size());
  for (size_t i = 0; i < a.lanes.size(); ++i) {
    EXPECT_EQ(a.lanes[i].kind, b.lanes[i].kind);
    EXPECT_EQ(a.lanes[i].index, b.lanes[i].index);
    EXPECT_EQ(a.lanes[i].name, b.lanes[i].name);
  }
  ASSERT_EQ(a.ops.size(), b.ops.size());
  for (size_t i = 0; i < a.ops.size(); ++i) {
    EXPECT_EQ(a.ops[i].name, b.ops[i].name);
    EXPECT_EQ(a.ops[i].provenance, b.ops[i].provenance);
    EXPECT_EQ(a.ops[i].domain, b.ops[i].domain);
  }
  ASSERT_EQ(a.spans.size(), b.spans.size());
  for (size_t i = 0; i < a.spans.size(); ++i) {
    const Span &x = a.spans[i], &y = b.spans[i];
    EXPECT_EQ(std::tie(x.lane, x.kind, x.begin, x.end, x.op, x.task, x.bytes, x.detail),
              std::tie(y.lane, y.kind, y.begin, y.end, y.op, y.task, y.bytes, y.detail));
  }
  ASSERT_EQ(a.dependences.size(), b.dependences.size());
  EXPECT_EQ(a.dependences[0].task, b.dependences[0].task);
  EXPECT_EQ(a.dependences[0].pred, b.dependences[0].pred);
  ASSERT_EQ(a.memory.size(), b.memory.size());
  for (size_t i = 0; i < a.memory.size(); ++i) {
    const MemorySample &x = a.memory[i], &y = b.memory[i];
    EXPECT_EQ(std::tie(x.lane, x.time, x.used, x.capacity, x.delta, x.what),
              std::tie(y.lane, y.time, y.used, y.capacity, y.delta, y.what));
  }
}

TEST(TraceFormatTest, RoundTrip) {
  const Trace t = sample();
  std::stringstream file;
  write_trace(file, t);
  expect_same(t, read_trace(file, "sample.prof"));
}

TEST(TraceFormatTest, OneRecordPerLineWithEscapedText) {
  std::stringstream file;
  write_trace(file, sample());
  const std::string text = file.str();
  EXPECT_EQ(text.rfind("tessera-profile 2\n", 0), 0u);
  EXPECT_EQ(text.substr(text.rfind("\nend\t") + 1), trace_seal(text.substr(0, text.rfind("\nend\t") + 1)));
  EXPECT_NE(text.find("host\tnode\\t7\n"), std::string::npos);
  EXPECT_NE(text.find("op\t1\twe\\\\ird\\nname\t\t(3,)\n"), std::string::npos);
  EXPECT_NE(text.find("span\t0\ttask\t100\t200\t0\t0\t0\t[0:5, 0:20]\n"), std::string::npos);
}

std::string error_of(const std::string& text) {
  std::stringstream in(text);
  try {
    read_trace(in, "bad.prof");
  } catch (const std::runtime_error& e) {
    return std::string(e.what());
  }
  return std::string("no error");
}

std::string sealed(const std::string& body) { return body + trace_seal(body); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(TraceFormatTest, MalformedFilesNameTheLine) {
  EXPECT_NE(error_of("hello\n").find("not a tessera profile"), std::string::npos);
  EXPECT_EQ(error_of(sealed("tessera-profile 2\nrank\tx\n")), "bad.prof:2: expected a number, found 'x'");
  EXPECT_EQ(error_of(sealed("tessera-profile 2\nspan\t0\ttask\t1\t2\t0\t0\t0\t\n")),
            "bad.prof:2: span on an undeclared lane");
  EXPECT_EQ(error_of(sealed("tessera-profile 2\nlane\t0\tgpu\t0\tg\n")), "bad.prof:2: unknown kind 'gpu'");
  EXPECT_EQ(error_of(sealed("tessera-profile 2\ndep\t1\n")), "bad.prof:2: dep needs 2 fields, found 1");
  EXPECT_EQ(error_of(sealed("tessera-profile 2\nwhat\n")), "bad.prof:2: unknown record 'what'");
  const std::string lanes = "tessera-profile 2\nlane\t0\tworker\t0\tw\nlane\t1\tmemory\t0\tSYSMEM\n";
  EXPECT_EQ(error_of(sealed(lanes + "span\t0\ttask\t5\t2\t0\t0\t0\t\n")), "bad.prof:4: span ends before it begins");
  EXPECT_EQ(error_of(sealed(lanes + "span\t1\ttask\t1\t2\t0\t0\t0\t\n")), "bad.prof:4: span on a memory lane");
  EXPECT_EQ(error_of(sealed(lanes + "mem\t0\t1\t2\t3\t4\t\n")),
            "bad.prof:4: memory sample on a lane that is not a memory lane");
}

TEST(TraceFormatTest, TruncatedDamagedAndForeignFilesAreRefused) {
  std::stringstream file;
  write_trace(file, sample());
  const std::string text = file.str();
  // Cut anywhere, the file is refused: before the first line ends it is no profile, after it
  // is truncated (no seal, or half of one).
  for (size_t cut = 0; cut < text.size(); ++cut) {
    const std::string e = error_of(text.substr(0, cut));
    EXPECT_TRUE(contains(e, cut == 0   ? "empty file"
                            : cut < 14 ? "not a tessera profile"
                                       : "truncated"))
        << "cut at " << cut << ": " << e;
  }
  // Any byte changed breaks the checksum (or the format line, or the seal itself).
  for (size_t at = 0; at < text.size(); ++at) {
    std::string damaged = text;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x04);
    const std::string e = error_of(damaged);
    EXPECT_TRUE(contains(e, "corrupt") || contains(e, "not a tessera profile") || contains(e, "truncated") ||
                contains(e, "another format"))
        << "byte " << at << ": " << e;
  }
  EXPECT_TRUE(contains(error_of(std::string("\x00\x01\xff binary", 10)), "not a tessera profile"));
  EXPECT_TRUE(contains(error_of("tessera-profile 1\nrank\t0\n"), "another format"));
  EXPECT_TRUE(contains(error_of("tessera-profile 2\nrank\t0\n"), "truncated"));
  EXPECT_TRUE(contains(error_of("tessera-profile 2\nrank\t0\nend\t0000000000000000\n"), "corrupt"));
  EXPECT_EQ(error_of(sealed("tessera-profile 2\nrank\t3\n")), "no error");
}

TEST(TraceFormatTest, RectText) {
  const int64_t lo[] = {0, 5}, hi[] = {667, 2000};
  EXPECT_EQ(format_rect(lo, hi, 2), "[0:667, 5:2000]");
  EXPECT_EQ(format_rect(lo, hi, 0), "[]");
}

}  // namespace
}  // namespace tessera::detail
