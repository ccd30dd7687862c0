// Each check names the symptom with numbers, the likely cause in the program, and the
// lines of the program it comes from when the trace knows them.
#include "prof/advice.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "prof/lane_usage.h"
#include "prof/op_totals.h"
#include "prof/units.h"

namespace tessera::detail {
namespace {

constexpr int64_t kTinyTasksWorthAWarning = 200;
constexpr int kBins = 200;
constexpr int kSyncPointsWorthAWarning = 100;

// The flag that sizes a pool: SYSMEM -> sysmem.
std::string flag_of(std::string pool) {
  for (char& c : pool) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return pool;
}

std::string where(const OpTotal& t) { return t.provenance.empty() ? "(no provenance)" : t.provenance; }

void tiny_tasks(const std::vector<Trace>& traces, std::vector<std::string>& out) {
  std::vector<OpTotal> totals = op_totals(traces);
  int64_t tasks = 0, tiny = 0;
  for (const OpTotal& t : totals) tasks += t.tasks, tiny += t.tiny;
  if (tiny < kTinyTasksWorthAWarning || tiny * 4 < tasks) return;
  std::string w = std::to_string(tiny) + " of " + std::to_string(tasks) + " tasks (" + format_percent(tiny, tasks) +
                  ") ran for less than 50 µs: scheduling them costs about as much as running them. Work on "
                  "whole arrays instead of slices in a Python loop, and prefer boolean masks (np.where, "
                  "np.putmask) to index arrays from nonzero. Most tiny tasks came from:";
  std::sort(totals.begin(), totals.end(), [](const OpTotal& a, const OpTotal& b) { return a.tiny > b.tiny; });
  for (size_t i = 0; i < totals.size() && i < 3 && totals[i].tiny > 0; ++i)
    w += "\n      " + where(totals[i]) + "  " + totals[i].name + ": " + std::to_string(totals[i].tiny) +
         " tiny tasks, issued " + std::to_string(totals[i].issued) + " times";
  out.push_back(w);
}

void idle_workers(const Trace& t, std::vector<std::string>& out) {
  if (t.duration <= 0) return;
  const std::vector<double> u = busy_profile(t, LaneKind::Utility, kBins);
  const std::vector<double> w = busy_profile(t, LaneKind::Worker, kBins);
  const double bin = static_cast<double>(t.duration) / kBins;
  double starved = 0, worker_busy = 0;
  for (int i = 0; i < kBins; ++i) {
    if (u[static_cast<size_t>(i)] > 0.5 && w[static_cast<size_t>(i)] < 0.5) starved += bin;
    worker_busy += w[static_cast<size_t>(i)] * bin;
  }
  const std::string rank = "rank " + std::to_string(t.rank) + ": ";
  if (starved > 0.1 * static_cast<double>(t.duration) && starved > 1e6) {
    out.push_back(rank + "for " + format_duration(static_cast<int64_t>(starved)) + " (" +
                  format_percent(starved, static_cast<double>(t.duration)) +
                  " of the run) the utility thread was busy analysing operations while the workers were "
                  "mostly idle: the program issues many operations that are each too small to be worth "
                  "analysing. Issue fewer, larger array operations (whole arrays, not slices in a loop).");
    return;
  }
  if (worker_busy >= 0.25 * static_cast<double>(t.duration) || t.duration < 50'000'000) return;
  int64_t blocked = 0, ran = 0, ran_count = 0;
  for (const LaneUsage& l : lane_usage(t))
    if (l.lane->kind == LaneKind::Program) blocked += l.busy, ran += l.ran, ran_count += l.ran_count;
  std::string w_text = rank + "the workers were busy only " +
                       format_percent(worker_busy, static_cast<double>(t.duration)) + " of the run; the program " +
                       "thread was blocked for " + format_percent(static_cast<double>(blocked), t.duration) + ". ";
  if (ran > worker_busy)
    w_text += "Most work ran on the program thread itself (" + std::to_string(ran_count) + " small operations, " +
              format_duration(ran) +
              "): arrays under --min-cpu-chunk elements are not "
              "split across workers. Use larger arrays per operation, or lower --min-cpu-chunk.";
  else w_text += "The time goes to Python code between array operations: move loops into whole-array operations.";
  out.push_back(w_text);
}

void sync_points(const Trace& t, std::vector<std::string>& out) {
  int64_t count = 0, blocked = 0;
  for (const Span& s : t.spans)
    if (s.kind == SpanKind::Wait && s.detail == "sync point") ++count, blocked += s.duration();
  if (count < kSyncPointsWorthAWarning) return;
  out.push_back("rank " + std::to_string(t.rank) + ": the program stopped at " + std::to_string(count) +
                " sync points, blocked for " + format_duration(blocked) +
                " in all. float(), int(), bool(), .item(), printing an array and data-dependent results "
                "(nonzero, boolean-mask indexing) wait for all pending work; keep values as arrays inside "
                "loops and check them every few iterations.");
}

void long_copies(const Trace& t, std::vector<std::string>& out) {
  std::vector<const Span*> slow;
  for (const Span& s : t.spans)
    if (s.kind == SpanKind::Copy &&
        (s.duration() >= 10'000'000 || (s.duration() >= 1'000'000 && s.duration() * 20 >= t.duration)))
      slow.push_back(&s);
  if (slow.empty()) return;
  std::sort(slow.begin(), slow.end(), [](const Span* a, const Span* b) { return a->duration() > b->duration(); });
  std::string w = "rank " + std::to_string(t.rank) + ": " + std::to_string(slow.size()) +
                  " long copies; data moving between memories or ranks stalls the tasks that need it. Keep "
                  "arrays where they are used (avoid transposes and gathers of large arrays). Longest:";
  for (size_t i = 0; i < slow.size() && i < 3; ++i) {
    const Span& s = *slow[i];
    const double rate = static_cast<double>(s.bytes) / (static_cast<double>(s.duration()) / 1e9);
    w += "\n      " + format_bytes(s.bytes) + " in " + format_duration(s.duration()) + " (" +
         format_bytes(static_cast<int64_t>(rate)) + "/s) at " + format_duration(s.begin) +
         (s.detail.empty() ? "" : ": " + s.detail);
  }
  out.push_back(w);
}

void full_pools(const Trace& t, std::vector<std::string>& out) {
  for (const LaneUsage& l : lane_usage(t))
    if (l.lane->kind == LaneKind::Memory && l.capacity > 0 && l.peak * 10 >= l.capacity * 9)
      out.push_back("rank " + std::to_string(t.rank) + ": " + l.lane->name + " peaked at " + format_bytes(l.peak) +
                    " of " + format_bytes(l.capacity) + " (" + format_percent(l.peak, l.capacity) +
                    "): close to running out. Raise --" + flag_of(l.lane->name) +
                    ", or drop arrays you no longer need (del) and write into existing ones (out=).");
}

}  // namespace

std::vector<std::string> advise(const std::vector<Trace>& traces) {
  std::vector<std::string> out;
  tiny_tasks(traces, out);
  for (const Trace& t : traces) {
    idle_workers(t, out);
    sync_points(t, out);
    long_copies(t, out);
    full_pools(t, out);
  }
  return out;
}

}  // namespace tessera::detail
